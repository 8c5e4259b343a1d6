//! Property test: the kernel templates (blocked convolution, pooling, packed matmul,
//! layout transforms), compiled by every backend on 1 and 2 threads (Cranelift with
//! each microkernel ISA level this CPU runs, and without, in turn), agree with the
//! reference interpreter on random shapes and configurations.
//!
//! Draws cover odd widths (tiles with tails), stride 2, dilation, asymmetric padding,
//! padding wider than the window, groups and depthwise convolutions (square 3x3 and 5x5
//! ones over wide maps on their own), channel blocks of
//! 1 (the NCHW first layer), 4, 8 and 16 lanes, fused epilogues (bias, scale,
//! residual, relu/clamp/sigmoid), every template and the scalar reference nest,
//! register tiles from 1 to 8 columns, bf16 packed matmuls (the bf16 dot
//! microkernel) and convolutions, their results (and depthwise ones') narrowed to bf16 in the epilogue
//! and their residuals read as bf16 (`narrow-outputs`), input-channel passes, filter and input prefetching,
//! padding moved into the input (constant filters), tasks
//! over column chunks (every channel group in turn), and batched matmuls of activations
//! with columns that do not fill the last register block.

use tcc::graph::{Data, Tensor as ITensor, run_function};

mod common;

use common::Rng;

/// This test's draws on top of the shared generator.
trait Draws {
    fn tensor(&mut self, shape: &[i64]) -> ITensor;
}

impl Draws for Rng {
    fn tensor(&mut self, shape: &[i64]) -> ITensor {
        let n: i64 = shape.iter().product();
        let v = (0..n).map(|_| self.int(-1000, 1000) as f32 / 500.0).collect();
        ITensor::new(shape.iter().map(|&d| d as usize).collect(), Data::F32(v)).unwrap()
    }
}

fn ty(s: &[i64]) -> String {
    format!("tensor<{}xf32>", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"))
}

fn list(v: &[i64]) -> String {
    format!("[{}]", v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "))
}

/// A model: `@main` over `inputs`, one op producing `result`.
struct Case {
    text: String,
    inputs: Vec<ITensor>,
}

/// An epilogue region (block argument names `%e0..`) and its extra operands.
#[derive(Default)]
struct Epilogue {
    shapes: Vec<Vec<i64>>,
    /// Which operands are bf16.
    bf16: Vec<bool>,
    /// An operand that is a constant of one value, and the value (a bias of zeros
    /// shrunk to one element by canonicalization).
    splat: Option<(usize, f32)>,
    region: String,
}

impl Epilogue {
    /// The `graph.constant` defining `%a{first + splat}` (nothing without a splat).
    fn constant(&self, first: usize) -> String {
        self.splat
            .map(|(i, v)| {
                let t = ty(&self.shapes[i]);
                format!("  %a{} = graph.constant {{value = dense<{v:?}> : {t}}} : () -> {t}\n", first + i)
            })
            .unwrap_or_default()
    }
}

/// An epilogue region for a kernel with result shape `out`, drawn from `r`. A bf16 dot
/// kernel's (`dot`) residual is sometimes bf16, widened in the region (`narrow-outputs`'
/// residual stream).
fn epilogue(r: &mut Rng, out: &[i64], channel_dim: Option<usize>, narrow: bool, dot: bool) -> Epilogue {
    let t = ty(out);
    let mut shapes = Vec::new();
    let mut bf16 = Vec::new();
    let mut splat = None;
    let mut body = String::new();
    let mut cur = "%acc".to_string();
    let mut k = 0;
    let mut step = |body: &mut String, op: &str, rhs: Option<(&str, &[i64])>, attrs: &str| {
        let name = format!("%v{k}");
        k += 1;
        match rhs {
            Some((b, bs)) => {
                *body += &format!("    {name} = graph.{op} {cur}, {b} : ({t}, {}) -> {t}\n", ty(bs));
            }
            None => *body += &format!("    {name} = graph.{op} {cur}{attrs} : ({t}) -> {t}\n"),
        }
        cur = name;
    };
    if r.chance(0.25) {
        // A constant of one value (often 0), which templates read as a per-channel bias.
        let name = format!("%e{}", shapes.len());
        let s = vec![1; out.len()];
        step(&mut body, "add", Some((&name, &s)), "");
        splat = Some((shapes.len(), if r.chance(0.5) { 0.0 } else { r.int(-1000, 1000) as f32 / 500.0 }));
        shapes.push(s);
        bf16.push(false);
    }
    if r.chance(0.6) {
        // Per-channel bias or scale: [1, OB, 1, 1, ob] (blocked) or [1, N] (matmul).
        let s: Vec<i64> =
            (0..out.len()).map(|d| if Some(d) == channel_dim || d == out.len() - 1 { out[d] } else { 1 }).collect();
        let name = format!("%e{}", shapes.len());
        let op = if r.chance(0.7) { "add" } else { "mul" };
        step(&mut body, op, Some((&name, &s)), "");
        shapes.push(s);
        bf16.push(false);
    }
    if r.chance(0.4) {
        let mut name = format!("%e{}", shapes.len());
        let widened = dot && r.chance(0.5);
        if widened {
            body += &format!("    %w = graph.cast {name} : ({}) -> {t}\n", t.replace("f32", "bf16"));
            name = "%w".to_string();
        }
        step(&mut body, "add", Some((&name, out)), "");
        shapes.push(out.to_vec());
        bf16.push(widened);
    }
    if r.chance(0.3) {
        let name = format!("%e{}", shapes.len());
        let s = vec![1; out.len()];
        step(&mut body, "sub", Some((&name, &s)), "");
        shapes.push(s);
        bf16.push(false);
    }
    match r.int(0, 4) {
        0 => step(&mut body, "relu", None, ""),
        1 => step(&mut body, "clamp", None, " {min = 0.0, max = 6.0}"),
        2 => step(&mut body, "sigmoid", None, ""),
        _ => {}
    }
    if shapes.is_empty() && body.is_empty() && !narrow {
        return Epilogue::default();
    }
    // A narrowed result (`narrow-outputs`): the epilogue ends by rounding to bf16.
    let (cur, yielded) = if narrow {
        let tb = t.replace("f32", "bf16");
        body += &format!("    %n = graph.cast {cur} : ({t}) -> {tb}\n");
        ("%n".to_string(), tb)
    } else {
        (cur, t.clone())
    };
    let mut args = vec![format!("%acc: {t}")];
    args.extend(shapes.iter().zip(&bf16).enumerate().map(|(i, (s, &h))| {
        let t = ty(s);
        format!("%e{i}: {}", if h { t.replace("f32", "bf16") } else { t })
    }));
    let region = format!(" ({{\n  ^bb0({}):\n{body}    graph.yield {cur} : {yielded}\n  }})", args.join(", "));
    Epilogue { shapes, bf16, splat, region }
}

fn build(
    r: &mut Rng,
    op: &str,
    attrs: String,
    operands: Vec<Vec<i64>>,
    out: Vec<i64>,
    channel_dim: Option<usize>,
    fuse: bool,
) -> Case {
    build_with_constant(r, op, attrs, operands, None, out, channel_dim, fuse)
}

/// [`build`], with operand `constant` (if any) a `graph.constant` in the function
/// instead of an argument (what passes that look at constant filters need).
#[allow(clippy::too_many_arguments)]
fn build_with_constant(
    r: &mut Rng,
    op: &str,
    attrs: String,
    operands: Vec<Vec<i64>>,
    constant: Option<usize>,
    out: Vec<i64>,
    channel_dim: Option<usize>,
    fuse: bool,
) -> Case {
    build_typed(r, op, attrs, operands, 0, constant, out, channel_dim, fuse, false)
}

/// [`build_with_constant`] with the first `bf16` operands of type bf16 (their values
/// the f32 draws' high halves).
#[allow(clippy::too_many_arguments)]
fn build_typed(
    r: &mut Rng,
    op: &str,
    attrs: String,
    operands: Vec<Vec<i64>>,
    bf16: usize,
    constant: Option<usize>,
    out: Vec<i64>,
    channel_dim: Option<usize>,
    fuse: bool,
    narrow: bool,
) -> Case {
    let e = if fuse || narrow { epilogue(r, &out, channel_dim, narrow, bf16 > 0) } else { Epilogue::default() };
    let result = if narrow { ty(&out).replace("f32", "bf16") } else { ty(&out) };
    let splat = e.splat.map(|(i, _)| operands.len() + i);
    let splat_constant = e.constant(operands.len());
    let typed: Vec<bool> = (0..operands.len()).map(|i| i < bf16).chain(e.bf16).collect();
    let all: Vec<Vec<i64>> = operands.into_iter().chain(e.shapes).collect();
    let is_constant = |i: usize| Some(i) == constant || Some(i) == splat;
    let region = e.region;
    let values: Vec<ITensor> = all
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let t = r.tensor(s);
            let Data::F32(v) = t.data() else { unreachable!() };
            if !typed[i] {
                return t;
            }
            let halves = v.iter().map(|x| (x.to_bits() >> 16) as u16).collect();
            ITensor::new(t.shape().to_vec(), Data::BF16(halves)).unwrap()
        })
        .collect();
    let types: Vec<String> =
        all.iter().enumerate().map(|(i, s)| if typed[i] { ty(s).replace("f32", "bf16") } else { ty(s) }).collect();
    let names: Vec<String> = (0..all.len()).map(|i| format!("%a{i}")).collect();
    let args: Vec<String> =
        (0..all.len()).filter(|&i| !is_constant(i)).map(|i| format!("%a{i}: {}", types[i])).collect();
    let constants: String = constant
        .map(|i| {
            let hex: String = match values[i].data() {
                Data::F32(v) => v.iter().flat_map(|x| x.to_le_bytes()).map(|b| format!("{b:02X}")).collect(),
                Data::BF16(v) => v.iter().flat_map(|x| x.to_le_bytes()).map(|b| format!("{b:02X}")).collect(),
                _ => unreachable!(),
            };
            let t = &types[i];
            format!("  %a{i} = graph.constant {{value = dense<\"0x{hex}\"> : {t}}} : () -> {t}\n")
        })
        .unwrap_or_default()
        + &splat_constant;
    let text = format!(
        "func.func @main({}) -> {} {{\n{constants}  %y = {op} {}{attrs} : ({}) -> {}{region}\n  return %y : {}\n}}\n",
        args.join(", "),
        result,
        names.join(", "),
        types.join(", "),
        result,
        result
    );
    let inputs = values.into_iter().enumerate().filter(|&(i, _)| !is_constant(i)).map(|(_, t)| t).collect();
    Case { text, inputs }
}

/// Output extent of a window, or 0 when the window does not fit.
fn window(input: i64, lo: i64, hi: i64, k: i64, s: i64, d: i64) -> i64 {
    let room = input + lo + hi - d * (k - 1) - 1;
    if room < 0 { 0 } else { room / s + 1 }
}

fn conv_case(r: &mut Rng) -> Option<Case> {
    conv_draw(r, false, false)
}

/// bf16 input and pair filter (`[.., i/2, o, 2]`) into f32: the bf16 dot microkernel's
/// convolutions (blocks of 16) where the target has it, else the reference nest.
fn bf16_conv_case(r: &mut Rng) -> Option<Case> {
    conv_draw(r, false, true)
}

/// Depthwise convolutions with square 3x3 and 5x5 kernels over maps wide enough for
/// several sub-tiles and their tails (the microkernels' square and window kernels).
fn square_depthwise_case(r: &mut Rng) -> Option<Case> {
    conv_draw(r, true, false)
}

fn conv_draw(r: &mut Rng, square_depthwise: bool, bf16: bool) -> Option<Case> {
    let n = r.int(1, 2);
    let depthwise = !bf16 && (square_depthwise || r.chance(0.25));
    let ob = if bf16 { r.pick(&[16, 16, 16, 8, 32]) } else { r.pick(&[4, 8, 16]) };
    let ib = if depthwise {
        ob
    } else if bf16 {
        r.pick(&[16, 16, 4, 32])
    } else {
        r.pick(&[1, 4, 4, 8, 16])
    };
    let (kh, kw) = if square_depthwise {
        let k = r.pick(&[3, 3, 5]);
        (k, k)
    } else {
        (r.int(1, 4), r.int(1, 4))
    };
    let s = [r.int(1, 2), r.int(1, 2)];
    let d = if !square_depthwise && r.chance(0.2) { [r.int(1, 2), r.int(1, 2)] } else { [1, 1] };
    let p = [r.int(0, 3), r.int(0, 3), r.int(0, 3), r.int(0, 3)];
    let (h, w) = if square_depthwise { (r.int(3, 9), r.int(5, 60)) } else { (r.int(1, 12), r.int(1, 17)) };
    let (groups, icb, ob_n, wicb, wib) = if depthwise {
        // Sometimes many blocks: the depthwise template's groups of more than 8 blocks.
        let cb = if r.chance(0.15) { r.pick(&[36, 40, 44]) } else { r.int(1, 3) };
        (cb * ib, cb, cb, 1, 1)
    } else {
        let g = if ib > 1 && r.chance(0.2) { r.int(2, 3) } else { 1 };
        let icb = g * r.int(1, 3);
        // Without groups, block counts a tile of 2-4 blocks need not divide (a partial
        // last group of tiles).
        let ob_n = if g == 1 { r.int(1, 5) } else { g * r.int(1, 3) };
        (g, icb, ob_n, icb / g, ib)
    };
    let (oh, ow) = (window(h, p[0], p[2], kh, s[0], d[0]), window(w, p[1], p[3], kw, s[1], d[1]));
    if oh < 1 || ow < 1 {
        return None;
    }
    let template = if depthwise {
        r.pick(&["depthwise", "depthwise", "reference"])
    } else if kh == 1 && kw == 1 && s == [1, 1] && d == [1, 1] && p == [0, 0, 0, 0] {
        r.pick(&["pointwise", "direct", "reference"])
    } else {
        r.pick(&["direct", "direct", "direct", "reference"])
    };
    let tile_oc = r.pick(&[1, 1, 2, 3, 4]);
    // A bf16 result (the epilogue ends with a cast: `narrow-outputs`), which the dot
    // tile stores where each output tile is one call (no passes, an explicitly padded
    // input: drawn more often with it), the generated depthwise template after its
    // epilogue, and the reference nest elsewhere.
    let narrow = (bf16 || depthwise) && r.chance(0.5);
    let whole_tiles = narrow && r.chance(0.6);
    // Input-channel passes (partial sums through the output): 1-3 blocks per pass; and
    // prefetching of the next group's filters (no effect on values, but addresses must
    // stay in bounds).
    let mut passes = if template != "reference" && !whole_tiles && r.chance(0.4) {
        format!(", chunk_ic = {}", r.int(1, 3))
    } else {
        String::new()
    };
    if r.chance(0.3) {
        passes += ", prefetch = true";
    }
    // Tasks over column chunks, every channel group in turn.
    if r.chance(0.4) {
        passes += &format!(", task_w = {}", r.int(1, 12));
    }
    let config = format!(
        "{{template = \"{template}\", tile_w = {}, tile_oc = {tile_oc}, unroll_kw = {}{passes}",
        r.int(1, 8),
        r.chance(0.5)
    );
    // Prefetching of the next output row's input rows (clamped at the edges: addresses
    // must stay in bounds).
    let mut config = config + if r.chance(0.3) { ", prefetch_input = true" } else { "" };
    // A constant filter, with its padding moved into a `graph.pad` of the input
    // (`materialize-padding`; only constant filters qualify).
    let constant_filter = whole_tiles || r.chance(0.3);
    if whole_tiles || (constant_filter && r.chance(0.6)) {
        config += ", pad_input = true";
    }
    config += "}";
    let attrs = format!(
        " {{strides = {}, pads = {}, dilations = {}, groups = {groups}, config = {config}}}",
        list(&s),
        list(&p),
        list(&d)
    );
    let x = vec![n, icb, h, w, ib];
    let wt = if bf16 { vec![ob_n, wicb, kh, kw, wib / 2, ob, 2] } else { vec![ob_n, wicb, kh, kw, wib, ob] };
    let out = vec![n, ob_n, oh, ow, ob];
    let fuse = r.chance(0.7);
    let constant = constant_filter.then_some(1);
    let typed = if bf16 { 2 } else { 0 };
    Some(build_typed(r, "graph.conv2d_nchwc", attrs, vec![x, wt], typed, constant, out, Some(1), fuse, narrow))
}

fn pool_case(r: &mut Rng) -> Option<Case> {
    let b = r.pick(&[4, 8, 16]);
    let (n, cb, h, w) = (r.int(1, 2), r.int(1, 3), r.int(1, 12), r.int(1, 15));
    let (kh, kw) = (r.int(1, 4), r.int(1, 4));
    let s = [r.int(1, 3), r.int(1, 3)];
    let p = [r.int(0, kh - 1), r.int(0, kw - 1), r.int(0, kh - 1), r.int(0, kw - 1)];
    let (oh, ow) = (window(h, p[0], p[2], kh, s[0], 1), window(w, p[1], p[3], kw, s[1], 1));
    if oh < 1 || ow < 1 {
        return None;
    }
    let (op, extra) = if r.chance(0.5) {
        ("graph.max_pool2d_nchwc", String::new())
    } else {
        ("graph.avg_pool2d_nchwc", format!(", count_include_pad = {}", r.chance(0.5)))
    };
    let attrs = format!(
        " {{kernel = {}, strides = {}, pads = {}{extra}, config = {{tile_w = {}}}}}",
        list(&[kh, kw]),
        list(&s),
        list(&p),
        r.int(1, 6)
    );
    Some(build(r, op, attrs, vec![vec![n, cb, h, w, b]], vec![n, cb, oh, ow, b], None, false))
}

fn matmul_case(r: &mut Rng) -> Option<Case> {
    let nb = r.pick(&[4, 8, 16, 32]);
    let (m, k, n) = (r.int(1, 13), r.int(1, 21), r.int(1, 40));
    let blocks = (n + nb - 1) / nb;
    let batch: Vec<i64> = (0..r.int(0, 2)).map(|_| r.int(1, 3)).collect();
    let a: Vec<i64> = batch.iter().copied().chain([m, k]).collect();
    let out: Vec<i64> = batch.iter().copied().chain([m, n]).collect();
    let prefetch = if r.chance(0.4) { ", prefetch = true" } else { "" };
    let attrs = format!(" {{config = {{tile_m = {}, tile_n = 1, unroll_k = {}{prefetch}}}}}", r.int(1, 6), r.int(1, 4));
    let dim = out.len() - 1;
    let fuse = r.chance(0.6);
    Some(build(r, "graph.matmul_packed", attrs, vec![a, vec![blocks, k, nb]], out, Some(dim), fuse))
}

/// A packed matmul of bf16 operands with an f32 result (the bf16 policy's kernel: the
/// bf16 dot microkernel where the target has it, else the reference nest): row counts
/// past one sub-tile, even and odd K, whole blocks of one to three dot vectors (and,
/// sometimes, a last partial block, which the reference computes), epilogues.
fn bf16_matmul_case(r: &mut Rng) -> Option<Case> {
    let nb = 16 * r.int(1, 3);
    let blocks = r.int(1, 3);
    let n = if r.chance(0.8) { blocks * nb } else { (blocks - 1) * nb + r.int(1, nb) };
    let (m, k) = (r.int(1, 40), r.int(1, 40));
    let batch: Vec<i64> = (0..r.int(0, 1)).map(|_| r.int(1, 3)).collect();
    let a: Vec<i64> = batch.iter().copied().chain([m, k]).collect();
    let b = vec![blocks, (k + 1) / 2, nb, 2];
    let out: Vec<i64> = batch.iter().copied().chain([m, n]).collect();
    let fuse = r.chance(0.6);
    // A bf16 result (`narrow-outputs`): the epilogue ends with the cast.
    let narrow = r.chance(0.4);
    let e = if fuse || narrow { epilogue(r, &out, Some(out.len() - 1), narrow, true) } else { Epilogue::default() };
    let is_splat = |i: usize| e.splat.is_some_and(|(k, _)| k + 2 == i);
    let bf16 = |r: &mut Rng, shape: &[i64]| {
        let v =
            (0..shape.iter().product::<i64>()).map(|_| ((r.int(-1000, 1000) as f32 / 500.0).to_bits() >> 16) as u16);
        ITensor::new(shape.iter().map(|&d| d as usize).collect(), Data::BF16(v.collect())).unwrap()
    };
    let mut inputs = vec![bf16(r, &a), bf16(r, &b)];
    let extra = e.shapes.iter().zip(&e.bf16).enumerate().filter(|&(i, _)| !is_splat(i + 2));
    inputs.extend(extra.map(|(_, (s, &h))| if h { bf16(r, s) } else { r.tensor(s) }));
    let types: Vec<String> = [ty(&a).replace("f32", "bf16"), ty(&b).replace("f32", "bf16")]
        .into_iter()
        .chain(e.shapes.iter().zip(&e.bf16).map(|(s, &h)| if h { ty(s).replace("f32", "bf16") } else { ty(s) }))
        .collect();
    let args: Vec<String> =
        types.iter().enumerate().filter(|&(i, _)| !is_splat(i)).map(|(i, t)| format!("%a{i}: {t}")).collect();
    let names: Vec<String> = (0..types.len()).map(|i| format!("%a{i}")).collect();
    let (constant, region) = (e.constant(2), &e.region);
    let text = format!(
        "func.func @main({}) -> {o} {{\n{constant}  %y = graph.matmul_packed {} : ({}) -> {o}{region}\n  return %y : {o}\n}}\n",
        args.join(", "),
        names.join(", "),
        types.join(", "),
        o = if narrow { ty(&out).replace("f32", "bf16") } else { ty(&out) }
    );
    Some(Case { text, inputs })
}

fn batch_matmul_case(r: &mut Rng) -> Option<Case> {
    let (m, k, n) = (r.int(1, 13), r.int(1, 21), r.int(1, 40));
    let batch: Vec<i64> = (0..r.int(0, 2)).map(|_| r.int(1, 3)).collect();
    let a: Vec<i64> = batch.iter().copied().chain([m, k]).collect();
    let b: Vec<i64> = batch.iter().copied().chain([k, n]).collect();
    let out: Vec<i64> = batch.iter().copied().chain([m, n]).collect();
    let attrs =
        format!(" {{config = {{tile_m = {}, tile_n = {}, unroll_k = {}}}}}", r.int(1, 6), r.int(1, 3), r.int(1, 4));
    let dim = out.len() - 1;
    let fuse = r.chance(0.6);
    Some(build(r, "graph.batch_matmul", attrs, vec![a, b], out, Some(dim), fuse))
}

fn layout_case(r: &mut Rng) -> Option<Case> {
    let b = r.pick(&[1, 4, 8, 16]);
    let (n, c, h, w) = (r.int(1, 2), r.int(1, 40), r.int(1, 6), r.int(1, 9));
    let blocked = vec![n, (c + b - 1) / b, h, w, b];
    let plain = vec![n, c, h, w];
    let (src, dst, from, to) = if r.chance(0.5) {
        ("NCHW".to_string(), format!("NCHW{b}c"), plain, blocked)
    } else {
        (format!("NCHW{b}c"), "NCHW".to_string(), blocked, plain)
    };
    let attrs = format!(" {{src = \"{src}\", dst = \"{dst}\"}}");
    Some(build(r, "graph.layout_transform", attrs, vec![from], to, None, false))
}

fn check(case: &Case, threads: usize, seed: u64) -> Result<(), String> {
    let text = &case.text;
    let m = tcc::parse_model("<case>", text.as_bytes().to_vec()).map_err(|e| format!("parse: {e}\n{text}"))?;
    tcc::ir::verify(&m).map_err(|e| format!("verify: {e}\n{text}"))?;
    let want =
        run_function(&m, m.func("main").unwrap(), &case.inputs).map_err(|e| format!("interpreter: {e}\n{text}"))?;
    let want = want[0].to_f64s();
    let scale = want.iter().fold(1.0f64, |a, &x| a.max(x.abs()));
    for (backend, builder) in common::code_generators(seed) {
        let model = builder.threads(threads).load_str(text).map_err(|e| format!("{backend}: compile: {e}\n{text}"))?;
        let inputs: Vec<tcc::Tensor> = case
            .inputs
            .iter()
            .map(|t| match t.data() {
                Data::F32(v) => tcc::Tensor::from_slice(v, t.shape()).unwrap(),
                Data::BF16(v) => {
                    let v: Vec<tcc::BF16> = v.iter().map(|&h| tcc::BF16(h)).collect();
                    tcc::Tensor::from_slice(&v, t.shape()).unwrap()
                }
                _ => unreachable!(),
            })
            .collect();
        let got = model.run(&inputs).map_err(|e| format!("{backend}: run: {e}\n{text}"))?;
        // A bf16 result: sums in another order may round to the neighbouring bf16.
        let (got, ulp): (Vec<f64>, f64) = match got[0].as_slice::<f32>() {
            Some(v) => (v.iter().map(|&x| x as f64).collect(), 0.0),
            None => {
                let v = got[0].as_slice::<tcc::BF16>().ok_or("a result neither f32 nor bf16")?;
                (v.iter().map(|h| f32::from_bits((h.0 as u32) << 16) as f64).collect(), 2f64.powi(-7))
            }
        };
        for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
            if (g - w).abs() > 1e-5 * scale.max(1.0) * 4.0 + ulp * w.abs() {
                return Err(format!("{backend}, {threads} thread(s): element {i}: JIT {g}, interpreter {w}\n{text}"));
            }
        }
    }
    Ok(())
}

fn property(name: &str, draws: u64, make: impl Fn(&mut Rng) -> Option<Case>) {
    let (mut valid, mut seed) = (0, 0u64);
    while valid < draws {
        seed += 1;
        assert!(seed < draws * 20, "{name}: too many invalid draws");
        let mut r = Rng::new(seed ^ ((name.len() as u64) << 32));
        let Some(case) = make(&mut r) else { continue };
        if let Err(e) = check(&case, 1 + (seed % 2) as usize, seed / 2) {
            panic!("{name}, seed {seed}: {e}");
        }
        valid += 1;
    }
}

#[test]
fn conv2d_nchwc_templates() {
    property("conv2d_nchwc", 120, conv_case);
}

#[test]
fn depthwise_square_kernels() {
    property("depthwise_square", 60, square_depthwise_case);
}

#[test]
fn pool2d_nchwc_template() {
    property("pool2d_nchwc", 60, pool_case);
}

#[test]
fn matmul_packed_template() {
    property("matmul_packed", 60, matmul_case);
}

#[test]
fn bf16_conv2d_nchwc_templates() {
    property("bf16_conv2d_nchwc", 80, bf16_conv_case);
}

#[test]
fn bf16_matmul_packed_template() {
    property("bf16_matmul_packed", 60, bf16_matmul_case);
}

#[test]
fn batch_matmul_template() {
    property("batch_matmul", 60, batch_matmul_case);
}

#[test]
fn layout_transform_padding() {
    property("layout_transform", 40, layout_case);
}
