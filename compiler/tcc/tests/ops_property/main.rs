//! Property test: every graph op, compiled by the JIT, agrees with the reference
//! interpreter on random draws.
//!
//! For each op, 50 draws of shapes and attributes (odd extents so vector loops have
//! tails, broadcasting, strides, dilation, padding, groups, negative axes, several
//! element types (f16 among them), NaNs and infinities in float inputs). Each case is built with the IR
//! API, printed to text, compiled from the text by every backend this build has
//! (Cranelift; LLVM with `--features llvm`) and run on 1 or 2 threads. Float
//! results must agree within 2e-5 of the result's scale (the JIT accumulates in f32,
//! the interpreter in f64; math functions are polynomials); everything else exactly.

use tcc::graph::layout::{Layout, transform_shape};
use tcc::graph::{Data, Tensor as ITensor, ops as g, run_function};
use tcc::ir::builtin::{create_func, create_return};
use tcc::ir::{AttrDict, Attribute, Location, Module, OpDef, PrintOptions, ScalarType, Type, print_module};

const DRAWS: u64 = 50;

#[path = "../common/mod.rs"]
mod common;
mod half;
mod integer;
mod movement;

use common::Rng;

/// This test's draws on top of the shared generator.
trait Draws {
    fn shape_in(&mut self, lo: i64, hi: i64, max: i64) -> Vec<i64>;
    fn shape(&mut self, rank: usize, max: i64) -> Vec<i64>;
    fn f(&mut self) -> f32;
}

impl Draws for Rng {
    fn shape_in(&mut self, lo: i64, hi: i64, max: i64) -> Vec<i64> {
        let rank = self.int(lo, hi) as usize;
        self.shape(rank, max)
    }
    fn shape(&mut self, rank: usize, max: i64) -> Vec<i64> {
        (0..rank).map(|_| self.int(1, max)).collect()
    }
    fn f(&mut self) -> f32 {
        if self.chance(0.02) {
            return [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][self.int(0, 2) as usize];
        }
        (self.int(-4000, 4000) as f32) / 1000.0
    }
}

fn numel(s: &[i64]) -> usize {
    s.iter().product::<i64>() as usize
}

/// A random tensor of `elem` and `shape`; `positive` keeps floats in (0, 4].
fn tensor(r: &mut Rng, elem: ScalarType, shape: &[i64], positive: bool) -> ITensor {
    let n = numel(shape);
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let data = match elem {
        ScalarType::F32 => {
            Data::F32((0..n).map(|_| if positive { 0.05 + r.f().abs().min(4.0) } else { r.f() }).collect())
        }
        ScalarType::F64 => Data::F64(
            (0..n).map(|_| if positive { 0.05 + r.f().abs().min(4.0) as f64 } else { r.f() as f64 }).collect(),
        ),
        ScalarType::F16 => Data::F16(
            (0..n)
                .map(|_| tcc::ir::dense::f32_to_f16(if positive { 0.05 + r.f().abs().min(4.0) } else { r.f() }))
                .collect(),
        ),
        ScalarType::BF16 => Data::BF16(
            (0..n)
                .map(|_| tcc::ir::dense::f32_to_bf16(if positive { 0.05 + r.f().abs().min(4.0) } else { r.f() }))
                .collect(),
        ),
        ScalarType::I8 => Data::I8((0..n).map(|_| r.int(-128, 127) as i8).collect()),
        ScalarType::I16 => Data::I16((0..n).map(|_| r.int(-400, 400) as i16).collect()),
        ScalarType::I32 => Data::I32((0..n).map(|_| r.int(-50, 50) as i32).collect()),
        ScalarType::I64 => Data::I64((0..n).map(|_| r.int(-50, 50)).collect()),
        ScalarType::I1 => Data::I1((0..n).map(|_| r.chance(0.5)).collect()),
        other => panic!("{other}"),
    };
    ITensor::new(dims, data).unwrap()
}

/// `tensor` with the element type drawn from `elems`.
fn tensor_of(r: &mut Rng, elems: &[ScalarType], shape: &[i64], positive: bool) -> ITensor {
    let elem = r.pick(elems);
    tensor(r, elem, shape, positive)
}

struct Case {
    def: &'static OpDef,
    inputs: Vec<ITensor>,
    attrs: AttrDict,
    /// Explicit result types (for ops without shape inference, like cast).
    results: Option<Vec<Type>>,
    /// Relative tolerance for float results.
    tolerance: f64,
}

impl Case {
    fn new(def: &'static OpDef, inputs: Vec<ITensor>) -> Case {
        Case { def, inputs, attrs: AttrDict::new(), results: None, tolerance: 2e-5 }
    }
    fn attr(mut self, k: &str, v: Attribute) -> Case {
        self.attrs.set(k, v);
        self
    }
    fn ints(self, k: &str, v: &[i64]) -> Case {
        self.attr(k, Attribute::i64_list(v))
    }
}

/// The error of running `case` compiled with `backend` (the run must fail).
fn run_error(case: &Case, backend: tcc::Backend) -> String {
    let text = print_module(&build(case).unwrap(), PrintOptions::default());
    let model = tcc::Runtime::builder().backend(backend).load_str(&text).unwrap();
    model.run(&case.inputs.iter().map(|t| tcc::runtime_tensor(t).unwrap()).collect::<Vec<_>>()).unwrap_err().to_string()
}

fn build(case: &Case) -> Result<Module, String> {
    let mut m = Module::new(Location::unknown());
    let in_types: Vec<Type> = case.inputs.iter().map(|t| Type::from_tensor(t.tensor_type())).collect();
    let types: Vec<Type> = match &case.results {
        Some(t) => t.clone(),
        None => case.def.infer_types(&in_types, &case.attrs)?,
    };
    let (func, entry) = create_func(&mut m, "main", in_types, types.clone(), Location::unknown());
    let args = m.block_args(entry).to_vec();
    let mut st = tcc::ir::OperationState::new(case.def, Location::unknown());
    st.operands = args;
    st.attrs = case.attrs.clone();
    st.result_types = types;
    let op = m.create_op(st);
    m.append_op(entry, op);
    let results = m.results(op).to_vec();
    create_return(&mut m, entry, &results, Location::unknown());
    let _ = func;
    tcc::ir::verify(&m).map_err(|e| e.to_string())?;
    Ok(m)
}

/// Compiles and runs `case`, comparing with the interpreter. `Ok(false)` means the
/// draw was invalid (rejected by shape inference) and is skipped.
fn check(case: &Case, threads: usize) -> Result<bool, String> {
    let m = match build(case) {
        Ok(m) => m,
        Err(_) => return Ok(false),
    };
    let text = print_module(&m, PrintOptions::default());
    let want =
        run_function(&m, m.func("main").unwrap(), &case.inputs).map_err(|e| format!("interpreter: {e}\n{text}"))?;
    for backend in tcc::backend::compiled_backends() {
        check_backend(case, &text, &want, backend, threads)?;
    }
    Ok(true)
}

/// Compiles `text` with `backend`, runs it on `case`'s inputs and compares with `want`.
fn check_backend(
    case: &Case,
    text: &str,
    want: &[ITensor],
    backend: tcc::Backend,
    threads: usize,
) -> Result<(), String> {
    let model = tcc::Runtime::builder()
        .backend(backend)
        .threads(threads)
        .load_str(text)
        .map_err(|e| format!("{backend:?}: compile: {e}\n{text}"))?;
    let inputs: Vec<tcc::Tensor> = case.inputs.iter().map(|t| tcc::runtime_tensor(t).unwrap()).collect();
    let got = model.run(&inputs).map_err(|e| format!("{backend:?}: run: {e}\n{text}"))?;
    for (i, (gt, wt)) in got.iter().zip(want).enumerate() {
        if gt.shape() != wt.shape() {
            return Err(format!("result {i}: shape {:?} vs {:?}\n{text}", gt.shape(), wt.shape()));
        }
        let (gv, wv) = (gt.to_f64s(), wt.to_f64s());
        let exact = !wt.is_float();
        // A 16-bit result is its f32 result rounded: one f32 ulp apart (the JIT's f32
        // math against the interpreter's f64) can round to neighbouring values (2^-11
        // apart relatively in f16, 2^-8 in bf16).
        let tolerance = match wt.elem() {
            ScalarType::F16 => case.tolerance.max(1e-3),
            ScalarType::BF16 => case.tolerance.max(1e-2),
            _ => case.tolerance,
        };
        let scale = wv.iter().filter(|x| x.is_finite()).fold(1.0f64, |a, &x| a.max(x.abs()));
        for (k, (&x, &y)) in gv.iter().zip(&wv).enumerate() {
            let ok = if exact || !y.is_finite() || !x.is_finite() {
                x == y || (x.is_nan() && y.is_nan())
            } else {
                (x - y).abs() <= tolerance * scale
            };
            if !ok {
                return Err(format!(
                    "{backend:?}: result {i} element {k}: JIT {x}, interpreter {y} (scale {scale})\n{text}\ninputs: {:?}",
                    case.inputs
                ));
            }
        }
    }
    Ok(())
}

/// Runs `DRAWS` valid draws of `gen` (invalid draws are retried with new seeds).
fn property(name: &str, make: impl Fn(&mut Rng) -> Case) {
    let mut valid = 0;
    let mut seed = 0u64;
    while valid < DRAWS {
        seed += 1;
        assert!(seed < DRAWS * 20, "{name}: too many invalid draws");
        let mut r = Rng::new(seed ^ (name.len() as u64) << 32);
        let case = make(&mut r);
        match check(&case, 1 + (seed % 2) as usize) {
            Ok(true) => valid += 1,
            Ok(false) => {}
            Err(e) => panic!("{name}, seed {seed}: {e}"),
        }
    }
}

/// A shape that broadcasts against `s`: itself, a suffix, or with some extents 1.
fn broadcastable(r: &mut Rng, s: &[i64]) -> Vec<i64> {
    match r.int(0, 2) {
        0 => s.to_vec(),
        1 => s[r.int(0, s.len() as i64) as usize..].to_vec(),
        _ => s.iter().map(|&d| if r.chance(0.5) { 1 } else { d }).collect(),
    }
}

fn binary(r: &mut Rng, def: &'static OpDef, elems: &[ScalarType], positive: bool) -> Case {
    let elem = r.pick(elems);
    let rank = r.int(0, 4) as usize;
    let s = r.shape(rank, 9);
    let t = broadcastable(r, &s);
    let (a, b) = if r.chance(0.5) { (s, t) } else { (t, s) };
    Case::new(def, vec![tensor(r, elem, &a, positive), tensor(r, elem, &b, positive)])
}

const NUM: &[ScalarType] = &[
    ScalarType::F32,
    ScalarType::F32,
    ScalarType::F64,
    ScalarType::F16,
    ScalarType::BF16,
    ScalarType::I8,
    ScalarType::I16,
    ScalarType::I32,
    ScalarType::I64,
];

/// Float element types as the tests draw them (f32 most often).
const FLOATS: &[ScalarType] = &[ScalarType::F32, ScalarType::F32, ScalarType::F64, ScalarType::F16, ScalarType::BF16];

#[test]
fn elementwise_binary() {
    for def in [&g::ADD, &g::SUB, &g::MUL, &g::MAX, &g::MIN] {
        property(def.name, |r| binary(r, def, NUM, false));
    }
    property("graph.div", |r| {
        let mut c = binary(r, &g::DIV, NUM, false);
        // Integer divisors stay nonzero here; zero divisors are a run-time error (below).
        let d = &c.inputs[1];
        if !d.is_float() {
            let v: Vec<i64> = d.to_i64s().into_iter().map(|x| if x == 0 { 3 } else { x }).collect();
            c.inputs[1] = ITensor::from_i64s(d.elem(), d.shape().to_vec(), v).unwrap();
        }
        c
    });
    property("graph.pow", |r| {
        let mut c = binary(r, &g::POW, FLOATS, false);
        // Exponents: mostly small integers (negative bases stay real), some fractions.
        let e: Vec<f64> = c.inputs[1]
            .to_f64s()
            .iter()
            .map(|&x| if r.chance(0.7) { x.round().clamp(-3.0, 3.0) } else { x.abs().min(2.5) })
            .collect();
        c.inputs[1] = ITensor::from_f64s(c.inputs[1].elem(), c.inputs[1].shape().to_vec(), e).unwrap();
        c.tolerance = 1e-4;
        c
    });
    for def in [&g::GREATER, &g::LESS, &g::EQUAL] {
        property(def.name, |r| {
            let mut c = binary(r, def, NUM, false);
            // Make equal elements likely.
            if r.chance(0.5) && c.inputs[0].shape() == c.inputs[1].shape() {
                c.inputs[1] = c.inputs[0].clone();
            }
            c
        });
    }
    property("graph.select", |r| {
        let elem = r.pick(NUM);
        let s = r.shape_in(0, 3, 7);
        let (cs, bs) = (broadcastable(r, &s), broadcastable(r, &s));
        Case::new(
            &g::SELECT,
            vec![tensor(r, ScalarType::I1, &cs, false), tensor(r, elem, &s, false), tensor(r, elem, &bs, false)],
        )
    });
}

#[test]
fn elementwise_unary() {
    let positive_only = [&g::LOG, &g::SQRT, &g::RSQRT];
    for def in [
        &g::NEG,
        &g::ABS,
        &g::EXP,
        &g::LOG,
        &g::SQRT,
        &g::RSQRT,
        &g::RECIPROCAL,
        &g::TANH,
        &g::SIGMOID,
        &g::ERF,
        &g::SIN,
        &g::COS,
        &g::RELU,
        &g::FLOOR,
        &g::CEIL,
    ] {
        property(def.name, |r| {
            let ints = [&g::NEG, &g::ABS, &g::RELU].iter().any(|d| std::ptr::eq(*d, def));
            let elem = if ints { r.pick(NUM) } else { r.pick(FLOATS) };
            let s = r.shape_in(0, 4, 11);
            let positive = positive_only.iter().any(|d| std::ptr::eq(*d, def)) && r.chance(0.8);
            let mut c = Case::new(def, vec![tensor(r, elem, &s, positive)]);
            if std::ptr::eq(def, &g::EXP) {
                // Values up to e^20 keep the scale meaningful.
                let v: Vec<f64> = c.inputs[0].to_f64s().iter().map(|x| x * 5.0).collect();
                c.inputs[0] = ITensor::from_f64s(elem, c.inputs[0].shape().to_vec(), v).unwrap();
            }
            if std::ptr::eq(def, &g::SIN) || std::ptr::eq(def, &g::COS) {
                // Angles of rotary embeddings reach a few thousand radians: |x| up to 2000.
                let scale = r.pick(&[1.0, 30.0, 500.0]);
                let v: Vec<f64> = c.inputs[0].to_f64s().iter().map(|x| x * scale).collect();
                c.inputs[0] = ITensor::from_f64s(elem, c.inputs[0].shape().to_vec(), v).unwrap();
            }
            c
        });
    }
    property("graph.gelu", |r| {
        let s = r.shape_in(1, 3, 9);
        let approx = if r.chance(0.5) { "tanh" } else { "none" };
        Case::new(&g::GELU, vec![tensor(r, ScalarType::F32, &s, false)]).attr("approximate", Attribute::string(approx))
    });
    property("graph.clamp", |r| {
        let elem = r.pick(NUM);
        let s = r.shape_in(0, 3, 9);
        let lo = (r.int(-30, 10) as f64) / 10.0;
        let hi = lo + (r.int(0, 40) as f64) / 10.0;
        let mut c = Case::new(&g::CLAMP, vec![tensor(r, elem, &s, false)]).attr("min", Attribute::f64(lo));
        if r.chance(0.8) {
            c = c.attr("max", Attribute::f64(hi));
        }
        c
    });
}

/// Casts between every pair of element types, floats sometimes far past the narrow
/// integers' ranges (the conversions saturate), on random shapes.
#[test]
fn casts() {
    const ALL: [ScalarType; 9] = [
        ScalarType::F32,
        ScalarType::F64,
        ScalarType::F16,
        ScalarType::BF16,
        ScalarType::I1,
        ScalarType::I8,
        ScalarType::I16,
        ScalarType::I32,
        ScalarType::I64,
    ];
    let draw = |r: &mut Rng, from: ScalarType, to: ScalarType| {
        let s = r.shape_in(0, 3, 9);
        let mut x = tensor(r, from, &s, false);
        if x.is_float() && r.chance(0.5) {
            let scale = r.pick(&[100.0, 1e4, 1e10]);
            x = ITensor::from_f64s(from, x.shape().to_vec(), x.to_f64s().iter().map(|v| v * scale).collect()).unwrap();
        }
        let mut c = Case::new(&g::CAST, vec![x]);
        c.results = Some(vec![Type::tensor(s, to).unwrap()]);
        c
    };
    let mut r = Rng::new(7);
    for from in ALL {
        for to in ALL {
            for threads in [1, 2] {
                let case = draw(&mut r, from, to);
                match check(&case, threads) {
                    Ok(true) => {}
                    Ok(false) => panic!("cast {from} -> {to} does not verify"),
                    Err(e) => panic!("cast {from} -> {to}: {e}"),
                }
            }
        }
    }
    property("graph.cast", |r| {
        let (from, to) = (r.pick(&ALL), r.pick(&ALL));
        draw(r, from, to)
    });
}

#[test]
fn matmul() {
    property("graph.matmul", |r| {
        let elem = r.pick(&[
            ScalarType::F32,
            ScalarType::F32,
            ScalarType::F64,
            ScalarType::F16,
            ScalarType::BF16,
            ScalarType::I32,
        ]);
        let (m, k, n) = (r.int(1, 13), r.int(1, 17), r.int(1, 13));
        let ra = r.int(1, 4) as usize;
        let rb = r.int(1, 4) as usize;
        let batch = r.shape(ra.max(rb).saturating_sub(2), 3);
        let mut a = if ra == 1 {
            vec![k]
        } else {
            [broadcastable(r, &batch[batch.len().saturating_sub(ra - 2)..]), vec![m, k]].concat()
        };
        let b = if rb == 1 {
            vec![k]
        } else {
            [broadcastable(r, &batch[batch.len().saturating_sub(rb - 2)..]), vec![k, n]].concat()
        };
        if ra >= 2 && a.len() < 2 {
            a = vec![m, k];
        }
        let mut c = Case::new(&g::MATMUL, vec![tensor(r, elem, &a, false), tensor(r, elem, &b, false)]);
        c.tolerance = 1e-4;
        c
    });
}

/// A grouped conv2d case: `groups` groups of up to `cg` input and `og` output channels,
/// images of up to `h` x `w`, kernels up to 4 x 4, strides 1-3, dilations 1-2, pads up
/// to `pad`, a bias 60% of the time.
fn conv_case(r: &mut Rng, groups: i64, (cg, og): (i64, i64), (h, w): (i64, i64), pad: i64) -> Case {
    let (cg, og) = (r.int(1, cg), r.int(1, og));
    let (h, w) = (r.int(1, h), r.int(1, w));
    let (kh, kw) = (r.int(1, 4), r.int(1, 4));
    let n = r.int(1, 2);
    let elem = if r.chance(0.2) { r.pick(&[ScalarType::F16, ScalarType::BF16]) } else { ScalarType::F32 };
    let x = tensor(r, elem, &[n, cg * groups, h, w], false);
    let wt = tensor(r, elem, &[og * groups, cg, kh, kw], false);
    let mut inputs = vec![x, wt];
    if r.chance(0.6) {
        inputs.push(tensor(r, elem, &[og * groups], false));
    }
    let mut c = Case::new(&g::CONV2D, inputs)
        .ints("strides", &[r.int(1, 3), r.int(1, 3)])
        .ints("pads", &[r.int(0, pad), r.int(0, pad), r.int(0, pad), r.int(0, pad)])
        .ints("dilations", &[r.int(1, 2), r.int(1, 2)])
        .attr("groups", Attribute::i64(groups));
    c.tolerance = 1e-4;
    c
}

#[test]
fn conv2d() {
    property("graph.conv2d", |r| {
        let groups = r.int(1, 3);
        conv_case(r, groups, (4, 3), (12, 13), 2)
    });
}

/// Convolutions the blocked templates do not take (the row template's): groups whose
/// channels fill no vector block, channel multipliers (one input channel per group),
/// rows long enough for whole vectors and tails, strides 1 to 3, dilations, padding.
#[test]
fn grouped_and_multiplier_convolutions() {
    property("graph.conv2d (rows)", |r| {
        let groups = r.int(2, 6);
        conv_case(r, groups, (6, 5), (9, 45), 3)
    });
}

/// The row template's tiles of several output rows (taken when every row reads all its
/// kernel rows: no vertical padding): channel multipliers and narrow groups, maps whose
/// row count is no multiple of a tile's rows, strides, dilations, horizontal padding.
#[test]
fn convolutions_in_tiles_of_rows() {
    property("graph.conv2d (tiles of rows)", |r| {
        let groups = r.int(2, 6);
        let case = conv_case(r, groups, (2, 3), (20, 45), 0);
        case.ints("pads", &[0, r.int(0, 2), 0, r.int(0, 2)])
    });
}

#[test]
fn pooling() {
    for def in [&g::MAX_POOL2D, &g::AVG_POOL2D] {
        property(def.name, |r| {
            let (kh, kw) = (r.int(1, 4), r.int(1, 4));
            let shape = [r.int(1, 2), r.int(1, 3), r.int(1, 12), r.int(1, 12)];
            let elem = r.pick(&[ScalarType::F32, ScalarType::F16, ScalarType::BF16]);
            let x = tensor(r, elem, &shape, false);
            let mut c = Case::new(def, vec![x])
                .ints("kernel", &[kh, kw])
                .ints("strides", &[r.int(1, 3), r.int(1, 3)])
                .ints("pads", &[r.int(0, kh - 1), r.int(0, kw - 1), r.int(0, kh - 1), r.int(0, kw - 1)]);
            if std::ptr::eq(def, &g::AVG_POOL2D) && r.chance(0.5) {
                c = c.attr("count_include_pad", Attribute::Bool(true));
            }
            c
        });
    }
}

/// Up- and downsampling (the scratch-row path and the four-pixel one), odd sizes, both
/// coordinate conventions, every float type; a fifth of the draws large enough to run
/// on the pool.
#[test]
fn bilinear_resizing() {
    property("graph.resize_bilinear", |r| {
        let large = r.chance(0.2);
        let shape = [r.int(1, 2), r.int(1, 4), r.int(1, 9), r.int(1, 9)];
        let most = if large { 160 } else { 24 };
        let elem = r.pick(&[ScalarType::F32, ScalarType::F32, ScalarType::F64, ScalarType::F16, ScalarType::BF16]);
        let x = tensor(r, elem, &shape, false);
        Case::new(&g::RESIZE_BILINEAR, vec![x])
            .ints("size", &[r.int(1, most), r.int(1, most)])
            .attr("align_corners", Attribute::Bool(r.chance(0.5)))
    });
}

#[test]
fn reductions_and_softmax() {
    for def in [&g::REDUCE_SUM, &g::REDUCE_MEAN, &g::REDUCE_MAX, &g::REDUCE_MIN, &g::REDUCE_PROD] {
        property(def.name, |r| {
            let float_only = std::ptr::eq(def, &g::REDUCE_MEAN);
            let elem = if float_only { ScalarType::F32 } else { r.pick(NUM) };
            let rank = r.int(1, 4) as usize;
            let s = r.shape(rank, 9);
            let mut axes: Vec<i64> = (0..rank as i64).filter(|_| r.chance(0.5)).collect();
            if axes.is_empty() {
                axes.push(r.int(0, rank as i64 - 1));
            }
            let axes: Vec<i64> = axes.into_iter().map(|a| if r.chance(0.3) { a - rank as i64 } else { a }).collect();
            let mut x = tensor(r, elem, &s, false);
            if std::ptr::eq(def, &g::REDUCE_PROD) && elem.is_float() {
                // Factors of magnitude 0.9-1.1 and either sign: products of thousands of
                // them stay in range, so both sides round the same finite values (integer
                // products wrap alike).
                let v: Vec<f64> = (0..numel(&s))
                    .map(|_| {
                        let sign = if r.chance(0.5) { -1.0 } else { 1.0 };
                        if r.chance(0.01) { f64::NAN } else { sign * (0.9 + 0.2 * r.int(0, 1000) as f64 / 1000.0) }
                    })
                    .collect();
                x = ITensor::from_f64s(elem, s.iter().map(|&d| d as usize).collect(), v).unwrap();
            }
            let mut c = Case::new(def, vec![x]).ints("axes", &axes).attr("keepdims", Attribute::Bool(r.chance(0.5)));
            c.tolerance = 1e-4;
            c
        });
    }
    // Ties (integers from a small range), NaN and infinities (floats) decide the index.
    property("graph.argmax", |r| {
        let elem = r.pick(NUM);
        let rank = r.int(1, 4) as usize;
        let s = r.shape(rank, 9);
        let axis = r.int(-(rank as i64), rank as i64 - 1);
        Case::new(&g::ARGMAX, vec![tensor(r, elem, &s, false)]).attr("axis", Attribute::i64(axis))
    });
    property("graph.softmax", |r| {
        let rank = r.int(1, 4) as usize;
        let s = r.shape(rank, 9);
        let axis = r.int(-(rank as i64), rank as i64 - 1);
        let elem = r.pick(&[ScalarType::F32, ScalarType::F16, ScalarType::BF16]);
        Case::new(&g::SOFTMAX, vec![tensor(r, elem, &s, false)]).attr("axis", Attribute::i64(axis))
    });
}

/// Clamp on the values where `min`/`max` semantics are delicate (NaN, signed zeros,
/// infinities, the bounds themselves), bit for bit against the interpreter: a constant
/// bound is compiled to one `maxps`/`minps` on Cranelift, which must keep NaN and order
/// -0 below +0. 13 elements: vector iterations and a scalar tail.
#[test]
fn clamp_keeps_nan_and_signed_zeros_bit_for_bit() {
    let special =
        [f32::NAN, -0.0, 0.0, -1.5, 1.5, f32::INFINITY, f32::NEG_INFINITY, 6.0, -6.0, 0.25, -0.0, 0.0, f32::NAN];
    let x = ITensor::new(vec![special.len()], Data::F32(special.to_vec())).unwrap();
    let bounds = [(0.0, 6.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, f64::INFINITY), (f64::NEG_INFINITY, -0.0), (-1.0, 1.0)];
    for (lo, hi) in bounds {
        let case =
            Case::new(&g::CLAMP, vec![x.clone()]).attr("min", Attribute::f64(lo)).attr("max", Attribute::f64(hi));
        let m = build(&case).unwrap();
        let text = print_module(&m, PrintOptions::default());
        let want = run_function(&m, m.func("main").unwrap(), &case.inputs).unwrap();
        let want = want[0].to_f64s();
        for backend in tcc::backend::compiled_backends() {
            let model = tcc::Runtime::builder().backend(backend).load_str(&text).unwrap();
            let got = model.run(&[tcc::runtime_tensor(&x).unwrap()]).unwrap();
            let got = got[0].as_slice::<f32>().unwrap();
            for (k, (&g, &w)) in got.iter().zip(&want).enumerate() {
                let same = (g.is_nan() && w.is_nan()) || g.to_bits() == (w as f32).to_bits();
                assert!(same, "{backend:?}: clamp({}, {lo}, {hi}): JIT {g:?}, interpreter {w:?}", special[k]);
            }
        }
    }
}

/// `exp` on the whole range where its result is not 0 or inf, around the edges of the
/// clamp and on special values: every backend gives the same bits (with AVX-512, LLVM
/// scales by 2^n with `vscalefps`, Cranelift through the exponent bits), within 2 ulp
/// of the interpreter; results below the smallest normal float are flushed to 0.
#[test]
fn exp_is_the_same_on_every_backend() {
    let mut xs: Vec<f32> = vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, 1e-30, -1e-30];
    xs.extend((-1040..=900).map(|i| i as f32 * 0.1 + 0.013));
    for edge in [88.722_83_f32, -87.336_55, 88.0, -87.0, 88.38, 88.39] {
        let mut v = edge;
        for _ in 0..8 {
            xs.extend([v, -v]);
            v = f32::from_bits(v.to_bits() + 1);
        }
    }
    xs.truncate(xs.len() / 16 * 16 + 5); // whole vectors and a scalar tail
    let x = ITensor::new(vec![xs.len()], Data::F32(xs.clone())).unwrap();
    let case = Case::new(&g::EXP, vec![x.clone()]);
    let m = build(&case).unwrap();
    let text = print_module(&m, PrintOptions::default());
    let want = run_function(&m, m.func("main").unwrap(), &case.inputs).unwrap()[0].to_f64s();
    let mut first: Option<Vec<f32>> = None;
    for backend in tcc::backend::compiled_backends() {
        let model = tcc::Runtime::builder().backend(backend).load_str(&text).unwrap();
        let got = model.run(&[tcc::runtime_tensor(&x).unwrap()]).unwrap()[0].as_slice::<f32>().unwrap().to_vec();
        for (k, (&g, &w)) in got.iter().zip(&want).enumerate() {
            let w = w as f32;
            let ulps = (g.to_bits() as i64 - w.to_bits() as i64).abs();
            let flushed = g == 0.0 && w < f32::MIN_POSITIVE;
            let ok = (g.is_nan() && w.is_nan()) || ulps <= 2 || flushed;
            assert!(ok, "{backend:?}: exp({}) = {g:e}, interpreter {w:e}", xs[k]);
        }
        match &first {
            None => first = Some(got),
            Some(f) => {
                for (k, (a, b)) in f.iter().zip(&got).enumerate() {
                    assert!(a.to_bits() == b.to_bits(), "{backend:?}: exp({}) = {b:e}, first backend {a:e}", xs[k]);
                }
            }
        }
    }
}

/// Float max and min, elementwise on every pair of delicate values and reduced along
/// rows that hold them, bit for bit against the interpreter: NaN wins, -0 < +0 (with
/// AVX-512, LLVM computes them with `vrangeps` and a NaN fix-up).
#[test]
fn max_and_min_keep_nan_and_signed_zeros_bit_for_bit() {
    let special = [f32::NAN, -0.0, 0.0, -1.5, 1.5, f32::INFINITY, f32::NEG_INFINITY, -f32::NAN];
    let n = special.len();
    // 64 pairs as a [4, 16] tensor each: whole 512-bit vectors.
    let (a, b): (Vec<f32>, Vec<f32>) = (0..n * n).map(|k| (special[k / n], special[k % n])).unzip();
    let (ta, tb) = (ITensor::new(vec![4, 16], Data::F32(a)).unwrap(), ITensor::new(vec![4, 16], Data::F32(b)).unwrap());
    let check = |case: Case, what: &str| {
        let m = build(&case).unwrap();
        let text = print_module(&m, PrintOptions::default());
        let want = run_function(&m, m.func("main").unwrap(), &case.inputs).unwrap()[0].to_f64s();
        for backend in tcc::backend::compiled_backends() {
            let model = tcc::Runtime::builder().backend(backend).load_str(&text).unwrap();
            let got =
                model.run(&case.inputs.iter().map(|t| tcc::runtime_tensor(t).unwrap()).collect::<Vec<_>>()).unwrap();
            for (k, (&g, &w)) in got[0].as_slice::<f32>().unwrap().iter().zip(&want).enumerate() {
                let same = (g.is_nan() && w.is_nan()) || g.to_bits() == (w as f32).to_bits();
                assert!(same, "{backend:?}: {what} element {k}: JIT {g:?}, interpreter {w:?}");
            }
        }
    };
    check(Case::new(&g::MAX, vec![ta.clone(), tb.clone()]), "max");
    check(Case::new(&g::MIN, vec![ta.clone(), tb.clone()]), "min");
    // Rows of 16 pairs' first and second values: each row holds NaN, zeros of both
    // signs and infinities in some order; and rows without NaN.
    let clean: Vec<f32> =
        (0..64).map(|k| [-0.0, 0.0, -1.5, 1.5, -0.0, -7.0, 0.0, -0.0][k % 8] * (k / 8) as f32).collect();
    let tc = ITensor::new(vec![4, 16], Data::F32(clean)).unwrap();
    for t in [ta, tb, tc] {
        for def in [&g::REDUCE_MAX, &g::REDUCE_MIN] {
            let case = Case::new(def, vec![t.clone()])
                .attr("axes", Attribute::Array(vec![Attribute::i64(1)].into()))
                .attr("keepdims", Attribute::Bool(true));
            check(case, def.name);
        }
    }
}
