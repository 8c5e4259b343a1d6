//! Property test: Winograd convolutions (`winograd-convolutions`, `--winograd`) compute
//! what the direct convolution computes, within the rounding their transforms add.
//!
//! Random stride-1 3x3 convolutions (batch 1 or 2, 1 to 24 channels in and out, maps of
//! 1 to 13 pixels a side, so tiles are often cut by the map's edge, asymmetric padding
//! of 0 to 2, with or without bias, sometimes followed by a ReLU) are rewritten with
//! F(2x2) or F(4x4) tiles whether or not they pay. The rewritten graph, compiled by
//! every backend on 1 and 2 threads, must compute what the interpreter computes on it;
//! and the interpreter's result on it must be within Winograd's error of its result on
//! the graph as written. Then the policy through the runtime's builder: only the
//! convolutions where it pays are rewritten, and the compiled model stays within the
//! error of the direct one.

use tcc::graph::{Data, Tensor as ITensor, run_function};

mod common;

use common::Rng;

fn ty(s: &[i64]) -> String {
    format!("tensor<{}xf32>", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"))
}

fn hex(values: &[f32]) -> String {
    values.iter().flat_map(|v| v.to_le_bytes()).map(|b| format!("{b:02X}")).collect()
}

/// A model of one 3x3 stride-1 convolution drawn from `seed`, and its input's shape;
/// `None` when the draw has an empty output.
fn model(seed: u64) -> Option<(String, Vec<i64>)> {
    let mut r = Rng::new(seed);
    let (n, c, o) = (r.int(1, 2), r.int(1, 24), r.int(1, 24));
    let (h, w) = (r.int(1, 13), r.int(1, 13));
    let pads = [r.int(0, 2), r.int(0, 2), r.int(0, 2), r.int(0, 2)];
    let (oh, ow) = (h + pads[0] + pads[2] - 2, w + pads[1] + pads[3] - 2);
    if oh < 1 || ow < 1 {
        return None;
    }
    let (xs, ws, ys) = (vec![n, c, h, w], vec![o, c, 3, 3], vec![n, o, oh, ow]);
    let filters = r.values(o * c * 9, 1000.0);
    let mut body =
        format!("  %w = graph.constant {{value = dense<\"0x{}\"> : {t}}} : () -> {t}\n", hex(&filters), t = ty(&ws));
    let attrs = format!(
        "{{dilations = [1, 1], groups = 1, pads = [{}, {}, {}, {}], strides = [1, 1]}}",
        pads[0], pads[1], pads[2], pads[3]
    );
    if r.chance(0.7) {
        let bias = r.values(o, 1000.0);
        body += &format!(
            "  %b = graph.constant {{value = dense<\"0x{}\"> : tensor<{o}xf32>}} : () -> tensor<{o}xf32>\n",
            hex(&bias)
        );
        body += &format!(
            "  %y = graph.conv2d %x, %w, %b {attrs} : ({}, {}, tensor<{o}xf32>) -> {}\n",
            ty(&xs),
            ty(&ws),
            ty(&ys)
        );
    } else {
        body += &format!("  %y = graph.conv2d %x, %w {attrs} : ({}, {}) -> {}\n", ty(&xs), ty(&ws), ty(&ys));
    }
    let result = if r.chance(0.5) {
        body += &format!("  %z = graph.relu %y : ({t}) -> {t}\n", t = ty(&ys));
        "%z"
    } else {
        "%y"
    };
    let text =
        format!("func.func @main(%x: {}) -> {} {{\n{body}  return {result} : {}\n}}\n", ty(&xs), ty(&ys), ty(&ys));
    Some((text, xs))
}

fn input(xs: &[i64], seed: u64) -> (Vec<f32>, ITensor) {
    let values = Rng::new(seed ^ 0xABCD).values(xs.iter().product(), 1000.0);
    let x = ITensor::new(xs.iter().map(|&d| d as usize).collect(), Data::F32(values.clone())).unwrap();
    (values, x)
}

fn interpret(m: &tcc::ir::Module, x: &ITensor) -> Vec<f64> {
    run_function(m, m.func("main").unwrap(), std::slice::from_ref(x)).unwrap()[0].to_f64s()
}

/// The largest difference of `got` from `want`, relative to `want`'s largest magnitude.
fn relative_error(got: &[f64], want: &[f64]) -> f64 {
    let scale = want.iter().fold(1e-3f64, |a, &v| a.max(v.abs()));
    want.iter().zip(got).map(|(w, g)| (w - g).abs()).fold(0.0, f64::max) / scale
}

#[test]
fn winograd_graphs_match_the_interpreter() {
    let (mut valid, mut seed) = (0, 0u64);
    while valid < 40 {
        seed += 1;
        let Some((text, xs)) = model(seed) else { continue };
        let tile = if seed % 2 == 0 { "2x2" } else { "4x4" };
        let mut m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
        let pipeline = format!("winograd-convolutions{{tile={tile} all=true}}");
        for pass in tcc::pass_registry().parse_pipeline(&pipeline).unwrap() {
            pass.run(&mut m).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        }
        tcc::ir::verify(&m).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let rewritten = tcc::ir::print_module(&m, tcc::ir::PrintOptions::default());
        assert!(!rewritten.contains("graph.conv2d"), "seed {seed}: not rewritten\n{rewritten}");

        let (values, x) = input(&xs, seed);
        let exact = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
        let (want, winograd) = (interpret(&exact, &x), interpret(&m, &x));
        // F(4x4)'s transforms have coefficients up to 8 and 1/24: a few more roundings
        // of values of that size than F(2x2)'s.
        let bound = if tile == "2x2" { 1e-5 } else { 1e-4 };
        let error = relative_error(&winograd, &want);
        assert!(error < bound, "seed {seed}, {tile}: error {error:e} of the direct result's scale\n{text}");

        for (backend, builder) in common::code_generators(seed / 2) {
            let threads = 1 + (seed / 2 % 2) as usize;
            let model = builder.threads(threads).load_str(&rewritten);
            let model = model.unwrap_or_else(|e| panic!("seed {seed}, {backend}: {e}\n{rewritten}"));
            let shape: Vec<usize> = xs.iter().map(|&d| d as usize).collect();
            let got = model.run(&[tcc::Tensor::from_slice(&values, &shape).unwrap()]);
            let got = got.unwrap_or_else(|e| panic!("seed {seed}, {backend}: {e}"));
            let got: Vec<f64> = got[0].as_slice::<f32>().unwrap().iter().map(|&v| v as f64).collect();
            let error = relative_error(&got, &winograd);
            assert!(
                error < 1e-5,
                "seed {seed}, {backend}, {threads} thread(s), {tile}: error {error:e} against the interpreter\n{text}"
            );
        }
        valid += 1;
    }
}

/// 128 -> 256 channels on a 16x16 map: 64 tiles of 2x2 (rewritten under `2x2`), 16 of
/// 4x4 (too few for the transformed filters to pay: left direct under `4x4` and the
/// default `auto`).
#[test]
fn the_policy_rewrites_where_it_pays() {
    let mut r = Rng::new(7);
    let (c, o, hw) = (128, 256, 16);
    let (xt, yt) = (ty(&[1, c, hw, hw]), ty(&[1, o, hw, hw]));
    let ws = ty(&[o, c, 3, 3]);
    let text = format!(
        "func.func @main(%x: {xt}) -> {yt} {{\n  %w = graph.constant {{value = dense<\"0x{}\"> : {ws}}} : () -> \
         {ws}\n  %y = graph.conv2d %x, %w {{dilations = [1, 1], groups = 1, pads = [1, 1, 1, 1], strides = [1, 1]}} : \
         ({xt}, {ws}) -> {yt}\n  return %y : {yt}\n}}\n",
        hex(&r.values(o * c * 9, 1000.0))
    );
    let (values, x) = input(&[1, c, hw, hw], 7);
    let exact = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
    let want = interpret(&exact, &x);
    let policies = [
        (tcc::Winograd::F2, true),
        (tcc::Winograd::F4, false),
        (tcc::Winograd::Auto, false),
        (tcc::Winograd::Off, false),
    ];
    for (policy, rewritten) in policies {
        let options = tcc::Options { winograd: policy, ..Default::default() };
        let mut m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
        let session = tcc::pipeline::Session::for_module(&m, &options).unwrap();
        tcc::pipeline::to_kernel_ops(&mut m, &session).unwrap();
        let printed = tcc::ir::print_module(&m, tcc::ir::PrintOptions::default());
        assert_eq!(printed.contains("graph.conv2d_nchwc"), !rewritten, "{policy}: {printed}");

        let model = tcc::Runtime::builder().winograd(policy).load_str(&text).unwrap();
        let got = model.run(&[tcc::Tensor::from_slice(&values, &[1, c as usize, hw as usize, hw as usize]).unwrap()]);
        let got: Vec<f64> = got.unwrap()[0].as_slice::<f32>().unwrap().iter().map(|&v| v as f64).collect();
        let error = relative_error(&got, &want);
        assert!(error < 1e-5, "{policy}: error {error:e} of the direct result's scale");
    }
    // Winograd with bf16 is refused, with the reason.
    let options = tcc::Options { winograd: tcc::Winograd::F2, precision: tcc::Precision::Bf16, ..Default::default() };
    let err = tcc::pipeline::Session::new(&options).err().unwrap();
    assert!(err.contains("needs --precision fp32"), "{err}");
    // The default policy is F(4x4) under fp32 and direct under bf16, which it accepts.
    let default = tcc::Options::default();
    assert_eq!((default.winograd, default.winograd_policy()), (tcc::Winograd::Auto, tcc::Winograd::F4));
    let bf16 = tcc::Options { precision: tcc::Precision::Bf16, ..Default::default() };
    assert_eq!(bf16.winograd_policy(), tcc::Winograd::Off);
    assert!(tcc::pipeline::Session::new(&bf16).is_ok());
}
