//! The `mlir` feature: files tcc's parser cannot read go through MLIR 22 (here: a
//! model split into functions with `func.call`, which MLIR inlines), run like native
//! ones, and errors still point into the original file.
#![cfg(feature = "mlir")]

use tcc::{Runtime, Tensor};

const CALLS: &str = r#"// A model split into functions.
func.func private @block(%x: tensor<1x4xf32>, %b: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = tosa.add %x, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 6.0 : f32, nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %b = "tosa.const"() <{values = dense<[[1.0, -2.0, 3.0, 10.0]]> : tensor<1x4xf32>}> : () -> tensor<1x4xf32>
  %0 = func.call @block(%x, %b) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = func.call @block(%0, %b) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}
"#;

#[test]
fn calls_are_inlined_by_mlir_and_run() {
    // Native parsing fails on func.call ...
    assert!(tcc::ir::parse_bytes("calls.mlir", CALLS.as_bytes(), &tcc::registry()).is_err());
    // ... the MLIR path reads it.
    let model = Runtime::load_str(CALLS).unwrap();
    let x = Tensor::from_slice(&[1.0f32, 1.0, f32::NAN, -20.0], &[1, 4]).unwrap();
    let y = model.run(&[x]).unwrap();
    // block(x) = clamp(x + b, 0, 6), NaN -> 0; applied twice.
    // [1, 1, NaN, -20] -> [2, 0, 0 (NaN), 0] -> [3, 0, 3, 6].
    assert_eq!(y[0].to_vec::<f32>().unwrap(), [3.0, 0.0, 3.0, 6.0]);
}

#[test]
fn import_errors_point_into_the_original_file() {
    // Valid upstream TOSA that tcc does not import (a NaN-ignoring reduction), inside
    // the inlined helper at line 3, column 8.
    let src = r#"// Reductions.
func.func private @peak(%x: tensor<1x4xf32>) -> tensor<1x1xf32> {
  %0 = tosa.reduce_max %x {axis = 1 : i32, nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<1x4xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x1xf32> {
  %0 = func.call @peak(%x) : (tensor<1x4xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}
"#;
    let Err(err) = Runtime::load_str(src) else { panic!("IGNORE on reductions must be rejected") };
    let err = err.to_string();
    assert!(err.contains("<string>:3:8: error: cannot import 'tosa.reduce_max'"), "{err}");
    assert!(err.contains("%0 = tosa.reduce_max %x {axis = 1 : i32"), "the original line is quoted: {err}");
}

#[test]
fn when_mlir_fails_too_both_errors_are_reported() {
    let src = "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = func.call @nope(%x) : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n";
    let Err(err) = Runtime::load_str(src) else { panic!("an undefined callee must be rejected") };
    let err = err.to_string();
    assert!(err.contains("<string>:2:8: error: the func dialect has no op 'func.call'"), "{err}");
    assert!(
        err.contains(
            "note: MLIR's parser also rejects the file: 'func.call' op 'nope' does not reference a valid function"
        ),
        "{err}"
    );
}
