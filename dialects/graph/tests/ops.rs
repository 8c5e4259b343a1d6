//! Every graph op on the reference interpreter, against values computed by hand.

#![allow(clippy::cloned_ref_to_slice_refs)]

use tcc_dialect_graph::{Data, Tensor, registry, run_function};
use tcc_ir::{parse_bytes, verify};

fn f(shape: &[usize], v: &[f32]) -> Tensor {
    Tensor::f32(shape, v.to_vec()).unwrap()
}
fn i32s(shape: &[usize], v: &[i32]) -> Tensor {
    Tensor::new(shape.to_vec(), Data::I32(v.to_vec())).unwrap()
}
fn i64s(shape: &[usize], v: &[i64]) -> Tensor {
    Tensor::new(shape.to_vec(), Data::I64(v.to_vec())).unwrap()
}
fn bools(shape: &[usize], v: &[bool]) -> Tensor {
    Tensor::new(shape.to_vec(), Data::I1(v.to_vec())).unwrap()
}

fn type_of(t: &Tensor) -> String {
    t.tensor_type().to_string()
}

/// Runs one op: `%0 = <op> %a0, %a1.. <attrs> : (..) -> result` on `inputs`.
fn try_eval(op: &str, attrs: &str, inputs: &[Tensor], results: &[&str]) -> Result<Vec<Tensor>, String> {
    let args: Vec<String> = inputs.iter().enumerate().map(|(i, t)| format!("%a{i}: {}", type_of(t))).collect();
    let names: Vec<String> = (0..inputs.len()).map(|i| format!("%a{i}")).collect();
    let in_types: Vec<String> = inputs.iter().map(type_of).collect();
    let res = if results.len() == 1 { results[0].to_string() } else { format!("({})", results.join(", ")) };
    let lhs = if results.len() == 1 { "%0".to_string() } else { format!("%0:{}", results.len()) };
    let rets: Vec<String> =
        if results.len() == 1 { vec!["%0".into()] } else { (0..results.len()).map(|i| format!("%0#{i}")).collect() };
    let src = format!(
        "func.func @main({}) -> {res} {{\n  {lhs} = {op} {} {attrs} : ({}) -> {res}\n  return {} : {}\n}}\n",
        args.join(", "),
        names.join(", "),
        in_types.join(", "),
        rets.join(", "),
        results.join(", ")
    );
    let m = parse_bytes("op.mlir", src.as_bytes(), &registry()).map_err(|e| e.to_string())?;
    verify(&m).map_err(|e| e.to_string())?;
    run_function(&m, m.func("main").unwrap(), inputs).map_err(|e| e.to_string())
}

fn eval(op: &str, attrs: &str, inputs: &[Tensor], result: &str) -> Tensor {
    try_eval(op, attrs, inputs, &[result]).unwrap_or_else(|e| panic!("{op}: {e}")).remove(0)
}

/// Checks values (NaN equals NaN) with a relative tolerance for floats.
fn check(got: &Tensor, shape: &[usize], want: &[f64]) {
    assert_eq!(got.shape(), shape, "shape");
    let g = got.to_f64s();
    assert_eq!(g.len(), want.len());
    for (i, (&a, &b)) in g.iter().zip(want).enumerate() {
        let ok = (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= 1e-6 * b.abs().max(1.0);
        assert!(ok, "element {i}: got {a}, want {b} (all: {g:?})");
    }
}

const NAN: f32 = f32::NAN;

#[test]
fn binary_arithmetic_broadcasts() {
    let a = f(&[2, 3], &[1., 2., 3., 4., 5., 6.]);
    let r = eval("graph.add", "", &[a.clone(), f(&[3], &[10., 20., 30.])], "tensor<2x3xf32>");
    check(&r, &[2, 3], &[11., 22., 33., 14., 25., 36.]);
    let r = eval("graph.sub", "", &[f(&[2, 1], &[1., 2.]), f(&[3], &[1., 2., 3.])], "tensor<2x3xf32>");
    check(&r, &[2, 3], &[0., -1., -2., 1., 0., -1.]);
    let r = eval("graph.mul", "", &[f(&[], &[2.]), f(&[4], &[1., 2., 3., 4.])], "tensor<4xf32>");
    check(&r, &[4], &[2., 4., 6., 8.]);
    let r = eval("graph.div", "", &[f(&[3], &[1., 2., 3.]), f(&[1], &[2.])], "tensor<3xf32>");
    check(&r, &[3], &[0.5, 1., 1.5]);
    let r = eval("graph.pow", "", &[f(&[2], &[2., 3.]), f(&[], &[3.])], "tensor<2xf32>");
    check(&r, &[2], &[8., 27.]);
    let r = eval("graph.max", "", &[f(&[3], &[1., NAN, 3.]), f(&[3], &[2., 2., 2.])], "tensor<3xf32>");
    check(&r, &[3], &[2., f64::NAN, 3.]);
    let r = eval("graph.min", "", &[f(&[3], &[1., NAN, 3.]), f(&[3], &[2., 2., 2.])], "tensor<3xf32>");
    check(&r, &[3], &[1., f64::NAN, 2.]);
}

#[test]
fn integer_arithmetic_wraps_and_truncates() {
    let r = eval("graph.add", "", &[i32s(&[1], &[i32::MAX]), i32s(&[1], &[1])], "tensor<1xi32>");
    assert_eq!(r.data(), &Data::I32(vec![i32::MIN]));
    let r = eval("graph.div", "", &[i32s(&[2], &[7, -7]), i32s(&[1], &[2])], "tensor<2xi32>");
    assert_eq!(r.data(), &Data::I32(vec![3, -3]));
    let r = eval("graph.mul", "", &[i64s(&[2], &[3, -4]), i64s(&[2], &[5, 6])], "tensor<2xi64>");
    assert_eq!(r.data(), &Data::I64(vec![15, -24]));
    let e = try_eval("graph.div", "", &[i32s(&[1], &[1]), i32s(&[1], &[0])], &["tensor<1xi32>"]).unwrap_err();
    assert!(e.contains("division by zero"), "{e}");
}

#[test]
fn comparisons_and_select() {
    let x = f(&[4], &[1., 2., 3., NAN]);
    let two = f(&[1], &[2.]);
    let g = eval("graph.greater", "", &[x.clone(), two.clone()], "tensor<4xi1>");
    assert_eq!(g.data(), &Data::I1(vec![false, false, true, false]));
    let l = eval("graph.less", "", &[x.clone(), two.clone()], "tensor<4xi1>");
    assert_eq!(l.data(), &Data::I1(vec![true, false, false, false]));
    let e = eval("graph.equal", "", &[i32s(&[3], &[1, 2, 3]), i32s(&[], &[2])], "tensor<3xi1>");
    assert_eq!(e.data(), &Data::I1(vec![false, true, false]));
    let s = eval(
        "graph.select",
        "",
        &[bools(&[3], &[true, false, true]), f(&[3], &[1., 2., 3.]), f(&[], &[0.])],
        "tensor<3xf32>",
    );
    check(&s, &[3], &[1., 0., 3.]);
    let s = eval(
        "graph.select",
        "",
        &[bools(&[2, 1], &[true, false]), i64s(&[2], &[1, 2]), i64s(&[2], &[7, 8])],
        "tensor<2x2xi64>",
    );
    assert_eq!(s.data(), &Data::I64(vec![1, 2, 7, 8]));
}

#[test]
fn unary_math() {
    let un = |op: &str, x: &[f32]| eval(op, "", &[f(&[x.len()], x)], &format!("tensor<{}xf32>", x.len()));
    check(&un("graph.neg", &[1., -2.]), &[2], &[-1., 2.]);
    check(&un("graph.abs", &[-1.5, 2.]), &[2], &[1.5, 2.]);
    check(&un("graph.exp", &[0., 1.]), &[2], &[1., std::f32::consts::E as f64]);
    check(&un("graph.log", &[1., 0., -1.]), &[3], &[0., f64::NEG_INFINITY, f64::NAN]);
    check(&un("graph.sqrt", &[4., 2.]), &[2], &[2., std::f32::consts::SQRT_2 as f64]);
    check(&un("graph.rsqrt", &[4.]), &[1], &[0.5]);
    check(&un("graph.reciprocal", &[4., 0.]), &[2], &[0.25, f64::INFINITY]);
    check(&un("graph.tanh", &[0., 50.]), &[2], &[0., 1.]);
    check(&un("graph.sigmoid", &[0.]), &[1], &[0.5]);
    check(&un("graph.erf", &[0., 1., -1.]), &[3], &[0., 0.8427007794, -0.8427007794]);
    check(&un("graph.relu", &[-1., 0., 2., NAN]), &[4], &[0., 0., 2., f64::NAN]);
    check(&un("graph.floor", &[-1.5, 1.5]), &[2], &[-2., 1.]);
    check(&un("graph.ceil", &[-1.5, 1.5]), &[2], &[-1., 2.]);
    let r = eval("graph.abs", "", &[i32s(&[2], &[-5, 3])], "tensor<2xi32>");
    assert_eq!(r.data(), &Data::I32(vec![5, 3]));
    let r = eval("graph.neg", "", &[i64s(&[1], &[7])], "tensor<1xi64>");
    assert_eq!(r.data(), &Data::I64(vec![-7]));
}

#[test]
fn gelu_exact_and_tanh() {
    let x = f(&[3], &[1., 0., -1.]);
    check(&eval("graph.gelu", "", &[x.clone()], "tensor<3xf32>"), &[3], &[0.8413447461, 0., -0.1586552539]);
    let r = eval("graph.gelu", "{approximate = \"tanh\"}", &[x], "tensor<3xf32>");
    check(&r, &[3], &[0.8411919906, 0., -0.1588080094]);
}

#[test]
fn clamp_and_cast() {
    let r = eval("graph.clamp", "{min = 0.0, max = 6.0}", &[f(&[4], &[-2., 0.5, 9., NAN])], "tensor<4xf32>");
    check(&r, &[4], &[0., 0.5, 6., f64::NAN]);
    let r = eval("graph.clamp", "{min = 0.5, max = 2.5}", &[i32s(&[3], &[0, 1, 3])], "tensor<3xi32>");
    assert_eq!(r.data(), &Data::I32(vec![1, 1, 2]));
    let r = eval("graph.clamp", "{max = 1.0}", &[f(&[2], &[-5., 5.])], "tensor<2xf32>");
    check(&r, &[2], &[-5., 1.]);
    let r = eval("graph.cast", "", &[f(&[4], &[-1.7, 2.9, NAN, 3e10])], "tensor<4xi32>");
    assert_eq!(r.data(), &Data::I32(vec![-1, 2, 0, i32::MAX]));
    let r = eval("graph.cast", "", &[f(&[2], &[0., 0.5])], "tensor<2xi1>");
    assert_eq!(r.data(), &Data::I1(vec![false, true]));
    let r = eval("graph.cast", "", &[i64s(&[1], &[(1 << 32) + 5])], "tensor<1xi32>");
    assert_eq!(r.data(), &Data::I32(vec![5]));
    let r = eval("graph.cast", "", &[i32s(&[2], &[16777217, -3])], "tensor<2xf32>");
    assert_eq!(r.data(), &Data::F32(vec![16777216., -3.]));
    let r = eval("graph.cast", "", &[bools(&[2], &[true, false])], "tensor<2xf64>");
    assert_eq!(r.data(), &Data::F64(vec![1., 0.]));
}

#[test]
fn matmul_numpy_semantics() {
    let a = f(&[2, 3], &[1., 2., 3., 4., 5., 6.]);
    let b = f(&[3, 2], &[7., 8., 9., 10., 11., 12.]);
    check(&eval("graph.matmul", "", &[a.clone(), b], "tensor<2x2xf32>"), &[2, 2], &[58., 64., 139., 154.]);
    let v = f(&[3], &[1., 0., -1.]);
    check(&eval("graph.matmul", "", &[a.clone(), v.clone()], "tensor<2xf32>"), &[2], &[-2., -2.]);
    check(&eval("graph.matmul", "", &[v.clone(), v.clone()], "tensor<f32>"), &[], &[2.]);
    let w = f(&[2], &[1., 1.]);
    check(&eval("graph.matmul", "", &[w, a.clone()], "tensor<3xf32>"), &[3], &[5., 7., 9.]);
    // Batch broadcast: [2,1,1,2] x [3,2,1] -> [2,3,1,1].
    let x = f(&[2, 1, 1, 2], &[1., 2., 3., 4.]);
    let y = f(&[3, 2, 1], &[1., 1., 2., 0., 0., 3.]);
    let r = eval("graph.matmul", "", &[x, y], "tensor<2x3x1x1xf32>");
    check(&r, &[2, 3, 1, 1], &[3., 2., 6., 7., 6., 12.]);
    let r = eval("graph.matmul", "", &[i32s(&[1, 2], &[2, 3]), i32s(&[2, 1], &[4, 5])], "tensor<1x1xi32>");
    assert_eq!(r.data(), &Data::I32(vec![23]));
}

#[test]
fn conv2d_padding_strides_dilation_groups() {
    // x = 1..9 as 3x3, w = [[1, 0], [0, -1]]: out = x[i][j] - x[i+1][j+1].
    let x = f(&[1, 1, 3, 3], &[1., 2., 3., 4., 5., 6., 7., 8., 9.]);
    let w = f(&[1, 1, 2, 2], &[1., 0., 0., -1.]);
    check(
        &eval("graph.conv2d", "", &[x.clone(), w.clone()], "tensor<1x1x2x2xf32>"),
        &[1, 1, 2, 2],
        &[-4., -4., -4., -4.],
    );
    // pads [top=1, left=0, bottom=0, right=1], stride 2, bias 10.
    let b = f(&[1], &[10.]);
    let r = eval(
        "graph.conv2d",
        "{pads = [1, 0, 0, 1], strides = [2, 2]}",
        &[x.clone(), w.clone(), b],
        "tensor<1x1x2x2xf32>",
    );
    // Windows at padded rows -1,1 and cols 0,2: [(-1,0),(0,1)] -> 0 - x[0][1] = -2; [(-1,2),(0,3)] -> 0 - 0 = 0;
    // [(1,0),(2,1)] -> 4 - 8 = -4; [(1,2),(2,3)] -> 6 - 0 = 6.
    check(&r, &[1, 1, 2, 2], &[8., 10., 6., 16.]);
    // Dilation 2 with a 2x2 kernel covers corners: 1 - 9.
    check(
        &eval("graph.conv2d", "{dilations = array<i64: 2, 2>}", &[x.clone(), w], "tensor<1x1x1x1xf32>"),
        &[1, 1, 1, 1],
        &[-8.],
    );
    // Depthwise: 2 channels, each multiplied by its own 1x1 weight.
    let x2 = f(&[1, 2, 1, 2], &[1., 2., 3., 4.]);
    let w2 = f(&[2, 1, 1, 1], &[10., 100.]);
    check(
        &eval("graph.conv2d", "{groups = 2}", &[x2.clone(), w2], "tensor<1x2x1x2xf32>"),
        &[1, 2, 1, 2],
        &[10., 20., 300., 400.],
    );
    // Two groups of one input channel and two outputs each.
    let w3 = f(&[4, 1, 1, 1], &[1., 2., 3., 4.]);
    let r = eval("graph.conv2d", "{groups = 2}", &[x2, w3], "tensor<1x4x1x2xf32>");
    check(&r, &[1, 4, 1, 2], &[1., 2., 2., 4., 9., 12., 12., 16.]);
}

#[test]
fn pooling() {
    let x: Vec<f32> = (0..16).map(|v| v as f32).collect();
    let x = f(&[1, 1, 4, 4], &x);
    check(
        &eval("graph.max_pool2d", "{kernel = [2, 2], strides = [2, 2]}", &[x.clone()], "tensor<1x1x2x2xf32>"),
        &[1, 1, 2, 2],
        &[5., 7., 13., 15.],
    );
    check(
        &eval("graph.avg_pool2d", "{kernel = [2, 2], strides = [2, 2]}", &[x], "tensor<1x1x2x2xf32>"),
        &[1, 1, 2, 2],
        &[2.5, 4.5, 10.5, 12.5],
    );
    // Padded cells never win a max, even when every real value is negative.
    let neg = f(&[1, 1, 2, 2], &[-1., -2., -3., -4.]);
    let r = eval(
        "graph.max_pool2d",
        "{kernel = [2, 2], strides = [1, 1], pads = [1, 1, 1, 1]}",
        &[neg.clone()],
        "tensor<1x1x3x3xf32>",
    );
    check(&r, &[1, 1, 3, 3], &[-1., -1., -2., -1., -1., -2., -3., -3., -4.]);
    let r = eval(
        "graph.avg_pool2d",
        "{kernel = [2, 2], strides = [1, 1], pads = [1, 1, 1, 1]}",
        &[neg.clone()],
        "tensor<1x1x3x3xf32>",
    );
    check(&r, &[1, 1, 3, 3], &[-1., -1.5, -2., -2., -2.5, -3., -3., -3.5, -4.]);
    let r = eval(
        "graph.avg_pool2d",
        "{kernel = [2, 2], strides = [1, 1], pads = [1, 1, 1, 1], count_include_pad = true}",
        &[neg],
        "tensor<1x1x3x3xf32>",
    );
    check(&r, &[1, 1, 3, 3], &[-0.25, -0.75, -0.5, -1., -2.5, -1.5, -0.75, -1.75, -1.]);
    let r = eval(
        "graph.max_pool2d",
        "{kernel = [1, 2], strides = [1, 2]}",
        &[f(&[1, 1, 1, 4], &[1., NAN, 3., 2.])],
        "tensor<1x1x1x2xf32>",
    );
    check(&r, &[1, 1, 1, 2], &[f64::NAN, 3.]);
}

#[test]
fn reductions() {
    let x = f(&[2, 3], &[1., 2., 3., 4., 5., 6.]);
    check(&eval("graph.reduce_sum", "{axes = [1]}", &[x.clone()], "tensor<2xf32>"), &[2], &[6., 15.]);
    check(
        &eval("graph.reduce_sum", "{axes = [0], keepdims = true}", &[x.clone()], "tensor<1x3xf32>"),
        &[1, 3],
        &[5., 7., 9.],
    );
    check(&eval("graph.reduce_mean", "{axes = [-1, 0]}", &[x.clone()], "tensor<f32>"), &[], &[3.5]);
    check(&eval("graph.reduce_max", "{axes = [1]}", &[x.clone()], "tensor<2xf32>"), &[2], &[3., 6.]);
    check(&eval("graph.reduce_min", "{axes = [0]}", &[x], "tensor<3xf32>"), &[3], &[1., 2., 3.]);
    check(&eval("graph.reduce_max", "{axes = [0]}", &[f(&[2], &[1., NAN])], "tensor<f32>"), &[], &[f64::NAN]);
    let r = eval("graph.reduce_sum", "{axes = [0]}", &[i32s(&[3], &[1, 2, 3])], "tensor<i32>");
    assert_eq!(r.data(), &Data::I32(vec![6]));
}

#[test]
fn softmax_along_axes() {
    let r = eval("graph.softmax", "{axis = -1}", &[f(&[3], &[1., 2., 3.])], "tensor<3xf32>");
    check(&r, &[3], &[0.0900305732, 0.2447284711, 0.6652409558]);
    let r = eval("graph.softmax", "{axis = 0}", &[f(&[2, 2], &[0., 1000., 0., 0.])], "tensor<2x2xf32>");
    check(&r, &[2, 2], &[0.5, 1., 0.5, 0.]);
}

#[test]
fn data_movement() {
    let x = f(&[2, 3], &[1., 2., 3., 4., 5., 6.]);
    check(
        &eval("graph.reshape", "{shape = [3, -1]}", &[x.clone()], "tensor<3x2xf32>"),
        &[3, 2],
        &[1., 2., 3., 4., 5., 6.],
    );
    check(
        &eval("graph.transpose", "{perm = [1, 0]}", &[x.clone()], "tensor<3x2xf32>"),
        &[3, 2],
        &[1., 4., 2., 5., 3., 6.],
    );
    // 3-D: out[i, j, k] = x[j, k, i] for perm [2, 0, 1].
    let y: Vec<f32> = (0..24).map(|v| v as f32).collect();
    let y = f(&[2, 3, 4], &y);
    let r = eval("graph.transpose", "{perm = [2, 0, 1]}", &[y], "tensor<4x2x3xf32>");
    let rv = r.to_f64s();
    for i in 0..4 {
        for j in 0..2 {
            for k in 0..3 {
                assert_eq!(rv[(i * 2 + j) * 3 + k], ((j * 3 + k) * 4 + i) as f64);
            }
        }
    }
    check(
        &eval("graph.broadcast_to", "{shape = [2, 3]}", &[f(&[3], &[1., 2., 3.])], "tensor<2x3xf32>"),
        &[2, 3],
        &[1., 2., 3., 1., 2., 3.],
    );
    check(
        &eval("graph.broadcast_to", "{shape = [2, 2]}", &[f(&[2, 1], &[1., 2.])], "tensor<2x2xf32>"),
        &[2, 2],
        &[1., 1., 2., 2.],
    );
    let r =
        eval("graph.concat", "{axis = 1}", &[f(&[2, 1], &[1., 2.]), f(&[2, 2], &[3., 4., 5., 6.])], "tensor<2x3xf32>");
    check(&r, &[2, 3], &[1., 3., 4., 2., 5., 6.]);
    let r = eval("graph.concat", "{axis = -2}", &[i64s(&[1, 2], &[1, 2]), i64s(&[1, 2], &[3, 4])], "tensor<2x2xi64>");
    assert_eq!(r.data(), &Data::I64(vec![1, 2, 3, 4]));
    let parts =
        try_eval("graph.split", "{axis = 1, sizes = [1, 2]}", &[x.clone()], &["tensor<2x1xf32>", "tensor<2x2xf32>"])
            .unwrap();
    check(&parts[0], &[2, 1], &[1., 4.]);
    check(&parts[1], &[2, 2], &[2., 3., 5., 6.]);
    let r = eval("graph.slice", "{starts = [0, 0], sizes = [2, 2], steps = [1, 2]}", &[x.clone()], "tensor<2x2xf32>");
    check(&r, &[2, 2], &[1., 3., 4., 6.]);
    let r = eval("graph.slice", "{starts = [1, 1], sizes = [1, 2]}", &[x.clone()], "tensor<1x2xf32>");
    check(&r, &[1, 2], &[5., 6.]);
    let r = eval("graph.pad", "{low = [1], high = [2], value = 9.0}", &[f(&[2], &[1., 2.])], "tensor<5xf32>");
    check(&r, &[5], &[9., 1., 2., 9., 9.]);
    let r = eval("graph.pad", "{low = [0, 1], high = [1, 0]}", &[i32s(&[1, 1], &[5])], "tensor<2x2xi32>");
    assert_eq!(r.data(), &Data::I32(vec![0, 5, 0, 0]));
}

/// PyTorch's `F.interpolate(x, mode="bilinear")` of a 2x2 image, by hand: half-pixel
/// source points `(o + 0.5) / 2 - 0.5` clamped at 0 (to 4x4), and with
/// `align_corners` the corners kept (to 3x3).
#[test]
fn bilinear_resizing_by_hand() {
    let x = f(&[1, 1, 2, 2], &[1., 2., 3., 4.]);
    let r = eval("graph.resize_bilinear", "{size = [4, 4]}", &[x.clone()], "tensor<1x1x4x4xf32>");
    let want = [1., 1.25, 1.75, 2., 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3., 3.25, 3.75, 4.];
    check(&r, &[1, 1, 4, 4], &want);
    let r = eval("graph.resize_bilinear", "{size = [3, 3], align_corners = true}", &[x.clone()], "tensor<1x1x3x3xf32>");
    check(&r, &[1, 1, 3, 3], &[1., 1.5, 2., 2., 2.5, 3., 3., 3.5, 4.]);
    // Down to one pixel: the source point of the only output is the image's centre.
    let r = eval("graph.resize_bilinear", "{size = [1, 1]}", &[x.clone()], "tensor<1x1x1x1xf32>");
    check(&r, &[1, 1, 1, 1], &[2.5]);
    let e = try_eval("graph.resize_bilinear", "{size = [0, 3]}", &[x], &["tensor<1x1x0x3xf32>"]).unwrap_err();
    assert!(e.contains("size"), "{e}");
}

#[test]
fn gather_indices() {
    let x = f(&[3, 2], &[1., 2., 3., 4., 5., 6.]);
    let r = eval("graph.gather", "{axis = 0}", &[x.clone(), i64s(&[2], &[2, -3])], "tensor<2x2xf32>");
    check(&r, &[2, 2], &[5., 6., 1., 2.]);
    let r = eval("graph.gather", "{axis = 1}", &[x.clone(), i32s(&[2, 2], &[1, 0, 0, 0])], "tensor<3x2x2xf32>");
    check(&r, &[3, 2, 2], &[2., 1., 1., 1., 4., 3., 3., 3., 6., 5., 5., 5.]);
    let r = eval("graph.gather", "{axis = 0}", &[x.clone(), i64s(&[], &[1])], "tensor<2xf32>");
    check(&r, &[2], &[3., 4.]);
    let e = try_eval("graph.gather", "{axis = 0}", &[x, i64s(&[1], &[3])], &["tensor<1x2xf32>"]).unwrap_err();
    assert!(e.contains("out of range"), "{e}");
}

#[test]
fn layout_transform_blocks_channels() {
    // NCHW [1, 4, 1, 2] -> NCHW2c [1, 2, 1, 2, 2]: out[0, cb, 0, w, ci] = x[0, 2*cb + ci, 0, w].
    let x = f(&[1, 4, 1, 2], &[0., 1., 10., 11., 20., 21., 30., 31.]);
    let r = eval("graph.layout_transform", "{src = \"NCHW\", dst = \"NCHW2c\"}", &[x.clone()], "tensor<1x2x1x2x2xf32>");
    check(&r, &[1, 2, 1, 2, 2], &[0., 10., 1., 11., 20., 30., 21., 31.]);
    let back = eval("graph.layout_transform", "{src = \"NCHW2c\", dst = \"NCHW\"}", &[r], "tensor<1x4x1x2xf32>");
    assert_eq!(back, x);
    let nhwc = eval("graph.layout_transform", "{src = \"NCHW\", dst = \"NHWC\"}", &[x], "tensor<1x1x2x4xf32>");
    check(&nhwc, &[1, 1, 2, 4], &[0., 10., 20., 30., 1., 11., 21., 31.]);
}

#[test]
fn constants_of_every_kind() {
    let src = r#"func.func @main() -> (tensor<2xf32>, tensor<3xi32>, tensor<2xi1>, tensor<2xf64>) {
  %0 = graph.constant {value = dense<[1.5, -2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = graph.constant {value = dense<7> : tensor<3xi32>} : () -> tensor<3xi32>
  %2 = graph.constant {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %3 = graph.constant {value = dense<"0x000000000000F03F0000000000000040"> : tensor<2xf64>} : () -> tensor<2xf64>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<3xi32>, tensor<2xi1>, tensor<2xf64>
}"#;
    let m = parse_bytes("c.mlir", src.as_bytes(), &registry()).unwrap();
    verify(&m).unwrap();
    let out = run_function(&m, m.func("main").unwrap(), &[]).unwrap();
    assert_eq!(out[0].data(), &Data::F32(vec![1.5, -2.0]));
    assert_eq!(out[1].data(), &Data::I32(vec![7, 7, 7]));
    assert_eq!(out[2].data(), &Data::I1(vec![true, false]));
    assert_eq!(out[3].data(), &Data::F64(vec![1.0, 2.0]));
}

#[test]
fn bad_inputs_are_reported() {
    let src = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}\n";
    let m = parse_bytes("m.mlir", src.as_bytes(), &registry()).unwrap();
    let main = m.func("main").unwrap();
    let e = run_function(&m, main, &[]).unwrap_err();
    assert!(e.message.contains("takes 1 inputs, 0 given"), "{e}");
    let e = run_function(&m, main, &[f(&[3], &[1., 2., 3.])]).unwrap_err();
    assert!(e.message.contains("shape"), "{e}");
    let e = run_function(&m, main, &[i32s(&[2], &[1, 2])]).unwrap_err();
    assert!(e.message.contains("element type"), "{e}");
}

#[test]
fn broadcasting_edge_cases() {
    // Both sides stretch: [2, 1, 3] + [1, 4, 1] -> [2, 4, 3].
    let a = f(&[2, 1, 3], &[0., 1., 2., 10., 11., 12.]);
    let b = f(&[1, 4, 1], &[100., 200., 300., 400.]);
    let r = eval("graph.add", "", &[a, b], "tensor<2x4x3xf32>");
    let want: Vec<f64> = (0..2)
        .flat_map(|i| (0..4).flat_map(move |j| (0..3).map(move |k| (i * 10 + k) as f64 + 100. * (j + 1) as f64)))
        .collect();
    check(&r, &[2, 4, 3], &want);
    // Rank 0 against rank 3, on either side.
    let s = f(&[], &[2.]);
    let x = f(&[1, 2, 1], &[3., 4.]);
    check(&eval("graph.sub", "", &[s.clone(), x.clone()], "tensor<1x2x1xf32>"), &[1, 2, 1], &[-1., -2.]);
    check(&eval("graph.sub", "", &[x, s], "tensor<1x2x1xf32>"), &[1, 2, 1], &[1., 2.]);
    // Zero-size dimensions broadcast like any other extent, against 1 or themselves.
    let empty = f(&[0, 3], &[]);
    let r = eval("graph.mul", "", &[empty.clone(), f(&[1, 3], &[1., 2., 3.])], "tensor<0x3xf32>");
    check(&r, &[0, 3], &[]);
    let r = eval("graph.add", "", &[f(&[2, 1], &[1., 2.]), f(&[0], &[])], "tensor<2x0xf32>");
    check(&r, &[2, 0], &[]);
    // Reductions over an empty dimension: sum is 0, mean is NaN (0 / 0).
    check(&eval("graph.reduce_sum", "{axes = [0]}", &[empty.clone()], "tensor<3xf32>"), &[3], &[0., 0., 0.]);
    let r = eval("graph.reduce_mean", "{axes = [0]}", &[empty.clone()], "tensor<3xf32>");
    check(&r, &[3], &[f64::NAN, f64::NAN, f64::NAN]);
    let e = try_eval("graph.reduce_max", "{axes = [0]}", &[empty], &["tensor<3xf32>"]).unwrap_err();
    assert!(e.contains("empty dimension"), "{e}");
    // Incompatible extents are a verifier error, located at the op.
    let e = try_eval("graph.add", "", &[f(&[2], &[1., 2.]), f(&[3], &[1., 2., 3.])], &["tensor<3xf32>"]).unwrap_err();
    assert!(e.contains("op.mlir:2:") && e.contains("not broadcast-compatible"), "{e}");
}

#[test]
fn results_too_large_for_the_interpreter_are_errors() {
    // 2^30 f32 elements (4 GiB): refused before the kernel allocates it, naming the
    // result's type and bytes.
    let e = try_eval("graph.broadcast_to", "{shape = [1073741824]}", &[f(&[1], &[1.0])], &["tensor<1073741824xf32>"])
        .unwrap_err();
    assert!(e.contains("tensor<1073741824xf32> (4294967296 bytes) is too large"), "{e}");
}

/// Data movement on a 16-bit float moves its bits (the interpreter's fast path for
/// folding packed bf16 weights) and gives what the op computes in f32 between casts,
/// bit for bit: every value as it was, signaling NaNs made quiet.
#[test]
fn data_movement_on_half_floats_is_the_widened_computation() {
    // Ordinary values, both zeros, infinities, subnormals, a quiet and a signaling NaN.
    let bf16: Vec<u16> =
        vec![0x3f80, 0xbf81, 0x0000, 0x8000, 0x7f80, 0xff80, 0x0001, 0x7fc1, 0x7f81, 0xff82, 0x4049, 0x0080];
    let f16: Vec<u16> =
        vec![0x3c00, 0xbc01, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x0001, 0x7e01, 0x7c01, 0xfd02, 0x4248, 0x0400];
    let cases: [(&str, &str, &str); 4] = [
        ("graph.transpose", "{perm = [1, 0]}", "tensor<3x4xT>"),
        ("graph.reshape", "{shape = [2, 6]}", "tensor<2x6xT>"),
        ("graph.slice", "{starts = [1, 0], sizes = [2, 3]}", "tensor<2x3xT>"),
        ("graph.pad", "{low = [0, 1], high = [1, 0], value = 1.5}", "tensor<5x4xT>"),
    ];
    for (elem, bits, data) in [("bf16", &bf16, Data::BF16(bf16.clone())), ("f16", &f16, Data::F16(f16.clone()))] {
        let x = Tensor::new(vec![4, 3], data).unwrap();
        for (op, attrs, result) in cases {
            let result = result.replace('T', elem);
            let moved = eval(op, attrs, std::slice::from_ref(&x), &result);
            // The same op in f32 between casts.
            let wide = result.replace(elem, "f32");
            let src = format!(
                "func.func @main(%x: tensor<4x3x{elem}>) -> {result} {{\n  %a = graph.cast %x : (tensor<4x3x{elem}>) -> tensor<4x3xf32>\n  \
                 %b = {op} %a {attrs} : (tensor<4x3xf32>) -> {wide}\n  %c = graph.cast %b : ({wide}) -> {result}\n  return %c : {result}\n}}\n"
            );
            let m = parse_bytes("widened.mlir", src.as_bytes(), &registry()).unwrap();
            verify(&m).unwrap();
            let widened = run_function(&m, m.func("main").unwrap(), std::slice::from_ref(&x)).unwrap().remove(0);
            let (Data::BF16(a) | Data::F16(a), Data::BF16(b) | Data::F16(b)) = (moved.data(), widened.data()) else {
                panic!("{elem} {op}: not 16-bit results")
            };
            assert_eq!(a, b, "{elem} {op} of {bits:04x?}");
        }
    }
}
