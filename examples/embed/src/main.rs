//! Compiles a model, runs it on an input of 0.5s and prints its output: what embedding
//! tcc in a Rust program takes (`cargo run --release -p tcc-embed-example [MODEL.mlir]`).

use tcc::{Runtime, Tensor};

fn main() -> Result<(), tcc::Error> {
    let path = std::env::args().nth(1).unwrap_or("benchmarks/models/small/resnet18.mlir".into());
    let model = Runtime::builder().threads(2).load(&path)?; // parse, optimize, JIT-compile
    let spec = &model.inputs()[0]; // its element type and shape
    let x = Tensor::from_slice(&vec![0.5f32; spec.shape.iter().product()], &spec.shape)?;
    let outputs = model.run(&[x])?; // one tensor per result of @main
    let y: &[f32] = outputs[0].as_slice().expect("an f32 output");
    println!("{}: {} -> {}, first values {:?}", path, spec, model.outputs()[0], &y[..y.len().min(4)]);
    Ok(())
}
