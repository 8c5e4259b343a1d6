//! Property: canonicalize and cse never change what a function computes.
//!
//! Random graphs are built from every graph op family, with constants chosen to
//! trigger each canonicalization pattern (splats of 1, 0 and -0, identity
//! transposes and reshapes, chains of transposes/reshapes/slices/clamps,
//! single-operand concats, convs followed by per-channel affine ops, reductions of
//! regrouped views with elementwise ops between, group norms in blocked layouts as
//! torch-mlir writes them after layout blocking, gathers and relayouts that move
//! nothing, broadcasts under reshapes, reshapes of small elementwise cones).
//! The interpreter's results before and after `canonicalize,cse` must be bitwise equal
//! (NaN matching NaN) — except after `fold-into-conv`, which reassociates
//! `(x * w) * c` into `x * (w * c)` and may change the last bits and the sign of an
//! exact zero, and after `reduce-of-reduce` or `reduce-of-reshape`, which reorder sums
//! and means, where they must agree within 1e-5 of the output's scale — the module
//! must still verify, and its printed form must be a fixed point of parse+print.
//! Canonicalization must reach its fixed point (patterns moving reshapes up and down
//! must not undo each other).

use proptest::prelude::*;
use tcc_dialect_graph::layout::{Layout, transform_shape};
use tcc_dialect_graph::{Data, Tensor, ops, registry, run_function};
use tcc_ir::builtin::{create_func, create_return};
use tcc_ir::canonicalize::canonicalize;
use tcc_ir::cse::cse;
use tcc_ir::*;

mod common;

use common::{Rng, random_perm, shape_of};

fn constant(m: &mut Module, b: Block, rng: &mut Rng, shape: &[i64]) -> Value {
    let ty = TensorType::new(shape.to_vec(), ScalarType::F32).unwrap();
    let dense = match rng.below(5) {
        0 => DenseElements::splat(ty, Scalar::Float(1.0)),
        1 => DenseElements::splat(ty, Scalar::Float(0.0)),
        2 => DenseElements::splat(ty, Scalar::Float(-0.0)),
        _ => {
            let vals: Vec<f32> = (0..ty.numel()).map(|_| rng.f32()).collect();
            DenseElements::from_f32s(ty, &vals).unwrap()
        }
    };
    let attrs = AttrDict::new().with("value", Attribute::Dense(dense));
    let op = m.append_inferred(b, &ops::CONSTANT, &[], attrs, Location::unknown()).unwrap();
    m.result(op, 0)
}

/// A shape `x` broadcasts with: x's own, a suffix of it, or x's with some dims set to 1.
fn broadcastable(rng: &mut Rng, s: &[i64]) -> Vec<i64> {
    match rng.below(3) {
        0 => s.to_vec(),
        1 => s[rng.below(s.len() + 1)..].to_vec(),
        _ => s.iter().map(|&d| if rng.below(2) == 0 { 1 } else { d }).collect(),
    }
}

/// Adds one random op consuming existing values; returns its first result.
fn add_random_op(m: &mut Module, b: Block, rng: &mut Rng, vals: &mut Vec<Value>) -> Option<Value> {
    // Favour the newest value so chains (transpose of transpose, ...) form.
    let x = if rng.below(2) == 0 { *vals.last().unwrap() } else { vals[rng.below(vals.len())] };
    let s = shape_of(m, x);
    let rank = s.len();
    let ints = Attribute::i64_list;
    let (def, operands, attrs): (&'static OpDef, Vec<Value>, AttrDict) = match rng.below(21) {
        20 => {
            return match rng.below(6) {
                0 => blocked_group_norm(m, b, rng, vals, x),
                1 => moveless_view(m, b, rng, vals, x),
                2 => widened_comparison(m, b, rng, vals, x),
                3 | 4 => cast_whole_and_sliced(m, b, rng, vals, x),
                _ => regrouped_broadcast(m, b, rng, vals, x),
            };
        }
        0 | 1 => {
            let def = rng.pick(&[&ops::ADD, &ops::SUB, &ops::MUL, &ops::DIV, &ops::MAX, &ops::MIN]);
            let other_shape = broadcastable(rng, &s);
            let other =
                if rng.below(3) == 0 { vals.iter().copied().find(|&v| shape_of(m, v) == other_shape) } else { None };
            let y = other.unwrap_or_else(|| constant(m, b, rng, &other_shape));
            let ops = if rng.below(2) == 0 { vec![x, y] } else { vec![y, x] };
            (def, ops, AttrDict::new())
        }
        2 => (
            rng.pick(&[&ops::RELU, &ops::NEG, &ops::TANH, &ops::SIGMOID, &ops::ABS, &ops::EXP]),
            vec![x],
            AttrDict::new(),
        ),
        3 => {
            let lo = rng.pick(&[-1.0, 0.0, 0.5]);
            let hi = rng.pick(&[0.75, 2.0, 6.0]);
            (&ops::CLAMP, vec![x], AttrDict::new().with("min", Attribute::f64(lo)).with("max", Attribute::f64(hi)))
        }
        16 | 17 if rank == 4 => return conv_then_affine(m, b, rng, vals, x),
        16 | 17 => return grouped_reduction(m, b, rng, vals, x),
        18 => return round_trip(m, b, rng, vals, x),
        19 => {
            // Two slices in a row.
            let d = rng.below(rank);
            let mut x = x;
            let mut s = s.clone();
            for _ in 0..2 {
                let mut starts = vec![0; rank];
                if s[d] > 1 {
                    starts[d] = 1;
                    s[d] -= 1;
                }
                let attrs = AttrDict::new().with("starts", ints(&starts)).with("sizes", ints(&s));
                let op = m.append_inferred(b, &ops::SLICE, &[x], attrs, Location::unknown()).ok()?;
                x = m.result(op, 0);
                vals.push(x);
            }
            return Some(x);
        }
        4 | 14 | 15 => (&ops::TRANSPOSE, vec![x], AttrDict::new().with("perm", ints(&random_perm(rng, rank)))),
        5 => {
            let n: i64 = s.iter().product();
            let reversed: Vec<i64> = s.iter().rev().copied().collect();
            let target = match rng.below(4) {
                0 => s.clone(),
                1 => vec![n],
                2 => vec![1, -1],
                _ => reversed,
            };
            // Sometimes go through a flat reshape first, forming a chain.
            let mut x = x;
            if rng.below(2) == 0 {
                let flat = AttrDict::new().with("shape", ints(&[n]));
                let op = m.append_inferred(b, &ops::RESHAPE, &[x], flat, Location::unknown()).ok()?;
                x = m.result(op, 0);
            }
            (&ops::RESHAPE, vec![x], AttrDict::new().with("shape", ints(&target)))
        }
        6 => (&ops::BROADCAST_TO, vec![x], AttrDict::new().with("shape", ints(&s))),
        7 => {
            let d = rng.below(rank);
            let mut starts = vec![0; rank];
            let mut sizes = s.clone();
            if rng.below(2) == 0 && s[d] > 1 {
                starts[d] = 1;
                sizes[d] = s[d] - 1;
            }
            (&ops::SLICE, vec![x], AttrDict::new().with("starts", ints(&starts)).with("sizes", ints(&sizes)))
        }
        8 => {
            let low: Vec<i64> = (0..rank).map(|_| rng.below(2) as i64).collect();
            let attrs = AttrDict::new().with("low", ints(&low)).with("high", ints(&vec![0; rank]));
            (&ops::PAD, vec![x], attrs.with("value", Attribute::f64(0.5)))
        }
        9 => {
            let n = 1 + rng.below(2);
            let axis = rng.below(rank) as i64;
            (&ops::CONCAT, vec![x; n], AttrDict::new().with("axis", Attribute::i64(axis)))
        }
        10 => {
            let axes = vec![rng.below(rank) as i64];
            let def = rng.pick(&[&ops::REDUCE_SUM, &ops::REDUCE_MAX, &ops::REDUCE_MEAN]);
            (def, vec![x], AttrDict::new().with("axes", ints(&axes)).with("keepdims", Attribute::Bool(true)))
        }
        11 => (&ops::SOFTMAX, vec![x], AttrDict::new().with("axis", Attribute::i64(-1))),
        12 => {
            let axis = rng.below(rank);
            let sizes = if s[axis] > 1 { vec![1, s[axis] - 1] } else { vec![s[axis]] };
            (
                &ops::SPLIT,
                vec![x],
                AttrDict::new().with("axis", Attribute::i64(axis as i64)).with("sizes", ints(&sizes)),
            )
        }
        _ => {
            // A transpose or reshape of a constant, for folding.
            let c = constant(m, b, rng, &s);
            (&ops::TRANSPOSE, vec![c], AttrDict::new().with("perm", ints(&random_perm(rng, rank))))
        }
    };
    let op = m.append_inferred(b, def, &operands, attrs, Location::unknown()).ok()?;
    for &r in m.results(op) {
        vals.push(r);
    }
    Some(m.result(op, 0))
}

/// An exporter's layout round trip: transpose, one or two elementwise ops (with
/// constants), maybe a slice, and the inverse transpose.
fn round_trip(m: &mut Module, b: Block, rng: &mut Rng, vals: &mut Vec<Value>, x: Value) -> Option<Value> {
    let rank = shape_of(m, x).len();
    let perm = random_perm(rng, rank);
    let mut inverse = vec![0i64; rank];
    for (i, &p) in perm.iter().enumerate() {
        inverse[p as usize] = i as i64;
    }
    let mut add = |m: &mut Module, def: &'static OpDef, operands: &[Value], attrs: AttrDict| -> Option<Value> {
        let op = m.append_inferred(b, def, operands, attrs, Location::unknown()).ok()?;
        let r = m.result(op, 0);
        vals.push(r);
        Some(r)
    };
    let mut y = add(m, &ops::TRANSPOSE, &[x], AttrDict::new().with("perm", Attribute::i64_list(&perm)))?;
    for _ in 0..1 + rng.below(2) {
        y = if rng.below(2) == 0 {
            add(m, rng.pick(&[&ops::RELU, &ops::TANH, &ops::NEG]), &[y], AttrDict::new())?
        } else {
            let c = constant(m, b, rng, &shape_of(m, y));
            add(m, rng.pick(&[&ops::ADD, &ops::MUL, &ops::MAX]), &[y, c], AttrDict::new())?
        };
    }
    let s = shape_of(m, y);
    if rng.below(2) == 0 && s[0] > 1 {
        let mut starts = vec![0; rank];
        let mut sizes = s.clone();
        starts[0] = 1;
        sizes[0] -= 1;
        let attrs =
            AttrDict::new().with("starts", Attribute::i64_list(&starts)).with("sizes", Attribute::i64_list(&sizes));
        y = add(m, &ops::SLICE, &[y], attrs)?;
    }
    add(m, &ops::TRANSPOSE, &[y], AttrDict::new().with("perm", Attribute::i64_list(&inverse)))
}

/// A reduction of a regrouped view, as torch-mlir writes group norm: `x` reshaped
/// with some dimensions merged (and maybe a leading 1), one or two elementwise ops
/// (a cast to f64 and back, or an op with a constant broadcast along some dimensions),
/// then one or two reductions of one kind over single axes, keeping dimensions.
fn grouped_reduction(m: &mut Module, b: Block, rng: &mut Rng, vals: &mut Vec<Value>, x: Value) -> Option<Value> {
    let s = shape_of(m, x);
    let k = 1 + rng.below(s.len());
    let mut view = vec![s[..k].iter().product::<i64>()];
    view.extend_from_slice(&s[k..]);
    if rng.below(2) == 0 {
        view.insert(0, 1);
    }
    let mut add = |m: &mut Module, def: &'static OpDef, operands: &[Value], attrs: AttrDict| -> Option<Value> {
        let op = m.append_inferred(b, def, operands, attrs, Location::unknown()).ok()?;
        let r = m.result(op, 0);
        vals.push(r);
        Some(r)
    };
    let mut y = add(m, &ops::RESHAPE, &[x], AttrDict::new().with("shape", Attribute::i64_list(&view)))?;
    for _ in 0..1 + rng.below(2) {
        y = if rng.below(2) == 0 {
            add(m, rng.pick(&[&ops::NEG, &ops::ABS, &ops::RELU]), &[y], AttrDict::new())?
        } else {
            let c_shape: Vec<i64> = view.iter().map(|&d| if rng.below(2) == 0 { 1 } else { d }).collect();
            let c = constant(m, b, rng, &c_shape);
            let operands = if rng.below(2) == 0 { vec![y, c] } else { vec![c, y] };
            add(m, rng.pick(&[&ops::ADD, &ops::MUL, &ops::SUB]), &operands, AttrDict::new())?
        };
    }
    let def = rng.pick(&[&ops::REDUCE_SUM, &ops::REDUCE_MAX, &ops::REDUCE_MEAN, &ops::REDUCE_MIN]);
    for _ in 0..1 + rng.below(2) {
        let axis = rng.below(view.len()) as i64;
        let attrs = AttrDict::new().with("axes", Attribute::i64_list(&[axis])).with("keepdims", Attribute::Bool(true));
        y = add(m, def, &[y], attrs)?;
    }
    Some(y)
}

/// Appends ops at the end of the function body and records their results in `vals`.
struct Builder<'a> {
    m: &'a mut Module,
    b: Block,
    vals: &'a mut Vec<Value>,
}

impl Builder<'_> {
    fn op(&mut self, def: &'static OpDef, operands: &[Value], attrs: AttrDict) -> Option<Value> {
        let op = self.m.append_inferred(self.b, def, operands, attrs, Location::unknown()).ok()?;
        let r = self.m.result(op, 0);
        self.vals.push(r);
        Some(r)
    }

    fn with_shape(&mut self, def: &'static OpDef, x: Value, shape: &[i64]) -> Option<Value> {
        self.op(def, &[x], AttrDict::new().with("shape", Attribute::i64_list(shape)))
    }

    fn reduce(&mut self, def: &'static OpDef, x: Value, axes: &[i64]) -> Option<Value> {
        let attrs = AttrDict::new().with("axes", Attribute::i64_list(axes)).with("keepdims", Attribute::Bool(true));
        self.op(def, &[x], attrs)
    }

    /// A `graph.layout_transform` (its result type is written, not inferred).
    fn relayout(&mut self, x: Value, src: &str, dst: &str) -> Option<Value> {
        let (from, to) = (Layout::parse(src).ok()?, Layout::parse(dst).ok()?);
        let shape = transform_shape(&from, &to, &shape_of(self.m, x)).ok()?;
        let mut state = OperationState::new(&ops::LAYOUT_TRANSFORM, Location::unknown());
        state.operands = vec![x];
        state.attrs = AttrDict::new().with("src", Attribute::string(src)).with("dst", Attribute::string(dst));
        state.result_types = vec![Type::tensor(shape, self.m.value_type(x).elem()?).ok()?];
        let op = self.m.create_op(state);
        self.m.append_op(self.b, op);
        let r = self.m.result(op, 0);
        self.vals.push(r);
        Some(r)
    }

    /// A `graph.cast` of `v` to `elem` (its result type is written, not inferred).
    fn cast(&mut self, v: Value, elem: ScalarType) -> Option<Value> {
        let mut state = OperationState::new(&ops::CAST, Location::unknown());
        state.operands = vec![v];
        state.result_types = vec![Type::tensor(shape_of(self.m, v), elem).ok()?];
        let op = self.m.create_op(state);
        self.m.append_op(self.b, op);
        let r = self.m.result(op, 0);
        self.vals.push(r);
        Some(r)
    }

    fn constant(&mut self, rng: &mut Rng, shape: &[i64]) -> Value {
        constant(self.m, self.b, rng, shape)
    }

    fn dense(&mut self, dense: DenseElements) -> Value {
        let attrs = AttrDict::new().with("value", Attribute::Dense(dense));
        let op = self.m.append_inferred(self.b, &ops::CONSTANT, &[], attrs, Location::unknown()).unwrap();
        self.m.result(op, 0)
    }

    fn splat(&mut self, shape: &[i64], value: f32) -> Value {
        let ty = TensorType::new(shape.to_vec(), ScalarType::F32).unwrap();
        self.dense(DenseElements::splat(ty, Scalar::Float(value as f64)))
    }

    fn indices(&mut self, shape: &[i64], values: &[i64], elem: ScalarType) -> Value {
        let ty = TensorType::new(shape.to_vec(), elem).unwrap();
        let scalars: Vec<Scalar> = values.iter().map(|&v| Scalar::Int(v)).collect();
        self.dense(DenseElements::from_scalars(ty, &scalars).unwrap())
    }
}

/// torch-mlir's group norm on an `NCHW{b}c` activation as layout blocking leaves it:
/// per-channel sums relaid out to `NCHW`, regrouped and summed per group; the mean
/// broadcast to the channels and relaid out to the blocked layout; the per-channel
/// scale and shift gathered with the indices `0..C` and relaid out. Groups of exactly
/// one block become computations in the blocked rank; other sizes (groups of two
/// blocks, several groups per block, a padded last block) only keep their results.
fn blocked_group_norm(m: &mut Module, b: Block, rng: &mut Rng, vals: &mut Vec<Value>, x: Value) -> Option<Value> {
    let n: i64 = shape_of(m, x).iter().product();
    let mut bd = Builder { m, b, vals };
    let lanes = rng.pick(&[2i64, 3, 4]);
    let groups = rng.pick(&[1i64, 2, 3]);
    let group = rng.pick(&[lanes, lanes, 2 * lanes, 1, 3]);
    let c = groups * group;
    let h = 1 + rng.below(2) as i64;
    // The activation [1, C, H, W]: x along W when it is small, else its mean (not its
    // sum: an offset large against the spread of a group makes the normalized output
    // magnify the last bits that reassociated sums change).
    let (w, along_w) = if n <= 8 {
        (n, bd.with_shape(&ops::RESHAPE, x, &[1, 1, 1, n])?)
    } else {
        let rank = shape_of(bd.m, x).len() as i64;
        let sum = bd.reduce(&ops::REDUCE_MEAN, x, &(0..rank).collect::<Vec<_>>())?;
        (1 + rng.below(3) as i64, bd.with_shape(&ops::RESHAPE, sum, &[1, 1, 1, 1])?)
    };
    // Distinct values everywhere: a group of equal values has no variance, and its
    // normalized output would magnify the last bits reassociated sums change.
    let ty = TensorType::new(vec![1, c, h, w], ScalarType::F32).unwrap();
    let spread: Vec<f32> = (0..c * h * w).map(|i| i as f32 * 0.375 + rng.f32()).collect();
    let channels = bd.dense(DenseElements::from_f32s(ty, &spread).unwrap());
    let y = bd.op(&ops::ADD, &[along_w, channels], AttrDict::new())?;
    let blocked = format!("NCHW{lanes}c");
    let yb = bd.relayout(y, "NCHW", &blocked)?;
    let inv_count = 1.0 / (group * h * w) as f32;
    let group_mean = |bd: &mut Builder, v: Value| -> Option<Value> {
        let sums = bd.reduce(&ops::REDUCE_SUM, v, &[2, 3])?;
        let plain = bd.relayout(sums, &blocked, "NCHW")?;
        let regrouped = bd.with_shape(&ops::RESHAPE, plain, &[1, groups, group, 1])?;
        let per_group = bd.reduce(&ops::REDUCE_SUM, regrouped, &[2])?;
        let scale = bd.splat(&[1, 1, 1, 1], inv_count);
        bd.op(&ops::MUL, &[per_group, scale], AttrDict::new())
    };
    let mean = group_mean(&mut bd, yb)?;
    let wide = bd.with_shape(&ops::BROADCAST_TO, mean, &[1, groups, group, 1])?;
    let per_channel = bd.with_shape(&ops::RESHAPE, wide, &[1, c, 1, 1])?;
    let mean_blocked = bd.relayout(per_channel, "NCHW", &blocked)?;
    let centred = bd.op(&ops::SUB, &[yb, mean_blocked], AttrDict::new())?;
    let squares = bd.op(&ops::MUL, &[centred, centred], AttrDict::new())?;
    let variance = group_mean(&mut bd, squares)?;
    let eps = bd.splat(&[1, 1, 1, 1], 1e-5);
    let variance = bd.op(&ops::ADD, &[variance, eps], AttrDict::new())?;
    let inv_std = bd.op(&ops::RSQRT, &[variance], AttrDict::new())?;
    let (gamma, beta) = (bd.constant(rng, &[1, groups, group, 1]), bd.constant(rng, &[1, groups, group, 1]));
    let scale = bd.op(&ops::MUL, &[inv_std, gamma], AttrDict::new())?;
    let neg_mean = bd.op(&ops::NEG, &[mean], AttrDict::new())?;
    let shift = bd.op(&ops::MUL, &[neg_mean, scale], AttrDict::new())?;
    let shift = bd.op(&ops::ADD, &[shift, beta], AttrDict::new())?;
    let mut gathered = |bd: &mut Builder, v: Value| -> Option<Value> {
        let flat = bd.with_shape(&ops::RESHAPE, v, &[c, 1])?;
        let iota: Vec<i64> = (0..c).collect();
        let idx = bd.indices(&[1, c], &iota, rng.pick(&[ScalarType::I32, ScalarType::I64]));
        let axis = Attribute::i64(rng.pick(&[0, -2]));
        let g = bd.op(&ops::GATHER, &[flat, idx], AttrDict::new().with("axis", axis))?;
        let g = bd.with_shape(&ops::RESHAPE, g, &[1, c, 1, 1])?;
        bd.relayout(g, "NCHW", &blocked)
    };
    let (scale, shift) = (gathered(&mut bd, scale)?, gathered(&mut bd, shift)?);
    let out = bd.op(&ops::MUL, &[yb, scale], AttrDict::new())?;
    let out = bd.op(&ops::ADD, &[out, shift], AttrDict::new())?;
    if rng.below(2) == 0 { bd.relayout(out, &blocked, "NCHW") } else { Some(out) }
}

/// A comparison in f64 of x widened from f32 (as torch-mlir tests attention scores for
/// -inf), against a constant holding values exact in f32 (zero, infinities, NaN, 1.5,
/// -2.25) or not (a tenth), or against another widened value; the mask becomes f32
/// again.
fn widened_comparison(m: &mut Module, b: Block, rng: &mut Rng, vals: &mut Vec<Value>, x: Value) -> Option<Value> {
    let s = shape_of(m, x);
    let mut bd = Builder { m, b, vals };
    let wide = bd.cast(x, ScalarType::F64)?;
    let other = if rng.below(4) == 0 {
        let y = *bd
            .vals
            .iter()
            .rev()
            .find(|&&v| shape_of(bd.m, v) == s && bd.m.value_type(v).elem() == Some(ScalarType::F32))?;
        bd.cast(y, ScalarType::F64)?
    } else {
        let cs = broadcastable(rng, &s);
        let ty = TensorType::new(cs.clone(), ScalarType::F64).unwrap();
        let pick = [0.0, f64::NEG_INFINITY, f64::INFINITY, f64::NAN, 0.1, 1.5, -2.25];
        let values: Vec<Scalar> = (0..ty.numel()).map(|_| Scalar::Float(rng.pick(&pick))).collect();
        bd.dense(DenseElements::from_scalars(ty, &values).unwrap())
    };
    let def = rng.pick(&[&ops::EQUAL, &ops::GREATER, &ops::LESS]);
    let operands = if rng.below(2) == 0 { [wide, other] } else { [other, wide] };
    let mask = bd.op(def, &operands, AttrDict::new())?;
    bd.cast(mask, ScalarType::F32)
}

/// x cast whole to bf16 and a (maybe strided) slice of x cast to bf16 (or, a near miss,
/// to f64), each cast back: the slice's cast is the whole cast's slice when the types
/// agree.
fn cast_whole_and_sliced(m: &mut Module, b: Block, rng: &mut Rng, vals: &mut Vec<Value>, x: Value) -> Option<Value> {
    let s = shape_of(m, x);
    let mut bd = Builder { m, b, vals };
    // (Not f64 for the whole: `cast-of-widening` removes the round trip through it.)
    let to_whole = ScalarType::BF16;
    let to_part = if rng.below(4) == 0 { ScalarType::F64 } else { to_whole };
    let mut starts = vec![0i64; s.len()];
    let mut sizes = s.clone();
    let mut steps = vec![1i64; s.len()];
    let d = rng.below(s.len());
    if s[d] > 2 {
        starts[d] = rng.below(2) as i64;
        steps[d] = 1 + rng.below(2) as i64;
        sizes[d] = (s[d] - starts[d] + steps[d] - 1) / steps[d];
    }
    let ints = Attribute::i64_list;
    let attrs = AttrDict::new().with("starts", ints(&starts)).with("sizes", ints(&sizes)).with("steps", ints(&steps));
    let whole = bd.cast(x, to_whole)?;
    let whole = bd.cast(whole, ScalarType::F32)?;
    let whole_sliced = bd.op(&ops::SLICE, &[whole], attrs.clone())?;
    let part = bd.op(&ops::SLICE, &[x], attrs)?;
    let part = bd.cast(part, to_part)?;
    let part = bd.cast(part, ScalarType::F32)?;
    bd.op(&ops::ADD, &[whole_sliced, part], AttrDict::new())
}

/// Views that move no element, and near misses: a gather with the indices `0..n`
/// (shaped `[n]`, `[1, n]` or `[n, 1]`, i32 or i64, maybe written as negative indices,
/// maybe along a negative axis) or reversed; x's elements seen as NCHW relaid out to
/// `NCHW{b}c` and back, which are reshapes when H = W = 1 and the channels fill whole
/// blocks (padded otherwise).
fn moveless_view(m: &mut Module, b: Block, rng: &mut Rng, vals: &mut Vec<Value>, x: Value) -> Option<Value> {
    let s = shape_of(m, x);
    let mut bd = Builder { m, b, vals };
    if rng.below(2) == 0 {
        let axis = rng.below(s.len());
        let n = s[axis];
        let shape = [vec![n], vec![1, n], vec![n, 1]][rng.below(3)].clone();
        let mut values: Vec<i64> = (0..n).collect();
        match rng.below(4) {
            0 => values.reverse(),
            1 => values.iter_mut().for_each(|v| *v -= n),
            _ => {}
        }
        let idx = bd.indices(&shape, &values, rng.pick(&[ScalarType::I32, ScalarType::I64]));
        let axis = if rng.below(2) == 0 { axis as i64 } else { axis as i64 - s.len() as i64 };
        return bd.op(&ops::GATHER, &[x, idx], AttrDict::new().with("axis", Attribute::i64(axis)));
    }
    let n: i64 = s.iter().product();
    let view = match rng.below(3) {
        0 => vec![1, n, 1, 1],
        1 if s.len() <= 4 => std::iter::repeat_n(1, 4 - s.len()).chain(s.iter().copied()).collect(),
        _ => vec![1, 1, 1, n],
    };
    let blocked = format!("NCHW{}c", rng.pick(&[2, 3, 4]));
    let v = bd.with_shape(&ops::RESHAPE, x, &view)?;
    let vb = bd.relayout(v, "NCHW", &blocked)?;
    let e = bd.op(rng.pick(&[&ops::RELU, &ops::ABS, &ops::TANH]), &[vb], AttrDict::new())?;
    bd.relayout(e, &blocked, "NCHW")
}

/// A random regrouping of `s`: neighbours merged, even extents split, unit dimensions
/// inserted or dropped.
fn regroup(rng: &mut Rng, s: &[i64]) -> Vec<i64> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        match rng.below(6) {
            0 if i + 1 < s.len() => {
                out.push(s[i] * s[i + 1]);
                i += 2;
                continue;
            }
            1 => out.push(1),
            2 if s[i] == 1 => {
                i += 1;
                continue;
            }
            3 if s[i] % 2 == 0 && s[i] > 2 => {
                out.extend([2, s[i] / 2]);
                i += 1;
                continue;
            }
            _ => {}
        }
        out.push(s[i]);
        i += 1;
    }
    if out.is_empty() {
        out.push(1);
    }
    out
}

/// Sums of x over some axes (a small tensor Z), then either broadcast back to x's
/// shape, reshaped to a regrouping of it and combined with x reshaped alike (the
/// broadcast moves above the reshape and into the elementwise op when Z is 1 or full on
/// each group), or regrouped, combined with a constant (maybe through a unary op) and
/// reshaped back to Z's shape (the reshape moves above the elementwise ops, cancels and
/// folds into the constant when it is 1 or full on each group).
fn regrouped_broadcast(m: &mut Module, b: Block, rng: &mut Rng, vals: &mut Vec<Value>, x: Value) -> Option<Value> {
    let s = shape_of(m, x);
    let mut bd = Builder { m, b, vals };
    let mut axes: Vec<i64> = (0..s.len() as i64).filter(|_| rng.below(2) == 0).collect();
    if axes.is_empty() {
        axes.push(rng.below(s.len()) as i64);
    }
    let z = bd.reduce(rng.pick(&[&ops::REDUCE_SUM, &ops::REDUCE_MAX]), x, &axes)?;
    let zs = shape_of(bd.m, z);
    let def = rng.pick(&[&ops::ADD, &ops::SUB, &ops::MUL]);
    if rng.below(2) == 0 {
        let t = regroup(rng, &s);
        let wide = bd.with_shape(&ops::BROADCAST_TO, z, &s)?;
        let wide = bd.with_shape(&ops::RESHAPE, wide, &t)?;
        let xr = bd.with_shape(&ops::RESHAPE, x, &t)?;
        let operands = if rng.below(2) == 0 { [xr, wide] } else { [wide, xr] };
        return bd.op(def, &operands, AttrDict::new());
    }
    let u = regroup(rng, &zs);
    let z = bd.with_shape(&ops::RESHAPE, z, &u)?;
    let c_shape = if rng.below(2) == 0 { u.clone() } else { broadcastable(rng, &u) };
    let c = bd.constant(rng, &c_shape);
    let mut v = bd.op(def, &[z, c], AttrDict::new())?;
    if rng.below(2) == 0 {
        v = bd.op(rng.pick(&[&ops::NEG, &ops::TANH, &ops::RELU]), &[v], AttrDict::new())?;
    }
    let back = bd.with_shape(&ops::RESHAPE, v, &zs)?;
    bd.op(rng.pick(&[&ops::ADD, &ops::MUL]), &[x, back], AttrDict::new())
}

/// A conv with constant weights (and maybe a bias) on the NCHW value `x`, often
/// followed by add/sub/mul with a per-channel or scalar constant (batch norm).
fn conv_then_affine(m: &mut Module, b: Block, rng: &mut Rng, vals: &mut Vec<Value>, x: Value) -> Option<Value> {
    let s = shape_of(m, x);
    let o = 1 + rng.below(3) as i64;
    let k = 1 + rng.below(s[2].min(s[3]).min(2) as usize) as i64;
    let w = constant(m, b, rng, &[o, s[1], k, k]);
    let mut operands = vec![x, w];
    if rng.below(2) == 0 {
        operands.push(constant(m, b, rng, &[o]));
    }
    let conv = m.append_inferred(b, &ops::CONV2D, &operands, AttrDict::new(), Location::unknown()).ok()?;
    let mut y = m.result(conv, 0);
    vals.push(y);
    for _ in 0..rng.below(4) {
        let shapes = [vec![1, o, 1, 1], vec![o, 1, 1], vec![1], vec![1, 1, 1, 1]];
        let shape = shapes[rng.below(shapes.len())].clone();
        let c = constant(m, b, rng, &shape);
        let def = rng.pick(&[&ops::ADD, &ops::SUB, &ops::MUL]);
        let operands = if rng.below(4) == 0 { vec![c, y] } else { vec![y, c] };
        let op = m.append_inferred(b, def, &operands, AttrDict::new(), Location::unknown()).ok()?;
        y = m.result(op, 0);
        vals.push(y);
    }
    Some(y)
}

fn random_module(seed: u64) -> (Module, Vec<Tensor>) {
    let mut rng = Rng(seed | 1);
    let rank = 1 + rng.below(4);
    let shape: Vec<i64> = (0..rank).map(|_| 1 + rng.below(4) as i64).collect();
    let ty = Type::tensor(shape.clone(), ScalarType::F32).unwrap();
    let mut m = Module::new(Location::unknown());
    let (func, entry) = create_func(&mut m, "main", vec![ty.clone(), ty], vec![], Location::unknown());
    let mut vals = m.block_args(entry).to_vec();
    let n_ops = 1 + rng.below(12);
    let mut produced = Vec::new();
    for _ in 0..n_ops {
        if let Some(v) = add_random_op(&mut m, entry, &mut rng, &mut vals) {
            produced.push(v);
        }
    }
    if produced.is_empty() {
        produced.push(vals[0]);
    }
    let n_out = 1 + rng.below(produced.len().min(3));
    let outs: Vec<Value> = produced[produced.len() - n_out..].to_vec();
    let out_types: Vec<Type> = outs.iter().map(|&v| m.value_type(v).clone()).collect();
    let in_types = vec![m.value_type(m.block_args(entry)[0]).clone(); 2];
    m.set_attr(func, "function_type", Attribute::Type(Type::function(in_types, out_types)));
    create_return(&mut m, entry, &outs, Location::unknown());
    let n: i64 = shape.iter().product();
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let inputs = (0..2).map(|_| Tensor::f32(&dims, (0..n).map(|_| rng.f32()).collect()).unwrap()).collect();
    (m, inputs)
}

fn same_bits(a: &Tensor, b: &Tensor) -> bool {
    match (a.data(), b.data()) {
        (Data::F32(x), Data::F32(y)) => {
            a.shape() == b.shape()
                && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan()))
        }
        (Data::F64(x), Data::F64(y)) => {
            a.shape() == b.shape()
                && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan()))
        }
        _ => a == b,
    }
}

/// Equal within 1e-5 of the larger's scale, NaN matching NaN; the sign of a zero may
/// differ, and so may the sign of an infinity (what dividing by that zero gives).
fn close(a: &Tensor, b: &Tensor) -> bool {
    match (a.data(), b.data()) {
        (Data::F32(x), Data::F32(y)) => {
            let scale = x.iter().chain(y).filter(|v| v.is_finite()).fold(1.0f32, |m, v| m.max(v.abs()));
            let near = |p: &f32, q: &f32| {
                p == q
                    || (p.is_nan() && q.is_nan())
                    || (p.is_infinite() && q.is_infinite())
                    || (p - q).abs() <= 1e-5 * scale
            };
            a.shape() == b.shape() && x.iter().zip(y).all(|(p, q)| near(p, q))
        }
        (Data::F64(_), Data::F64(_)) => {
            let as_f32 = |t: &Tensor| Tensor::f32(t.shape(), t.to_f64s().iter().map(|&v| v as f32).collect());
            same_bits(a, b) || matches!((as_f32(a), as_f32(b)), (Ok(x), Ok(y)) if close(&x, &y))
        }
        _ => a == b,
    }
}

fn check_seed(seed: u64) -> Result<(), TestCaseError> {
    let (mut m, inputs) = random_module(seed);
    verify(&m).map_err(|e| TestCaseError::fail(format!("generated module does not verify: {e}")))?;
    let before_text = print_module(&m, PrintOptions::default());
    let main = m.func("main").unwrap();
    let before = run_function(&m, main, &inputs).map_err(|e| TestCaseError::fail(e.to_string()))?;

    let reparsed = parse_bytes("r.mlir", before_text.as_bytes(), &registry())
        .map_err(|e| TestCaseError::fail(format!("{e}\n{before_text}")))?;
    prop_assert_eq!(print_module(&reparsed, PrintOptions::default()), before_text.clone());

    // Folding into a conv and merging or moving reductions reassociate arithmetic.
    let stats = canonicalize(&mut m);
    // Patterns that move reshapes in opposite directions must not undo each other.
    prop_assert!(stats.converged, "canonicalize did not reach a fixed point: {:?}\n{}", stats.applied, before_text);
    let applied = stats.applied;
    let exact = ["fold-into-conv", "reduce-of-reduce", "reduce-of-reshape"].iter().all(|p| !applied.contains_key(p));
    cse(&mut m);
    verify(&m).map_err(|e| TestCaseError::fail(format!("after passes: {e}\nbefore:\n{before_text}")))?;
    let after = run_function(&m, m.func("main").unwrap(), &inputs).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let after_text = print_module(&m, PrintOptions::default());
    for (i, (x, y)) in before.iter().zip(&after).enumerate() {
        prop_assert!(
            if exact { same_bits(x, y) } else { close(x, y) },
            "result {} changed\nbefore:\n{}\nafter:\n{}\n{:?}\nvs\n{:?}",
            i,
            before_text,
            after_text,
            x,
            y
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]
    #[test]
    fn canonicalize_and_cse_preserve_results(seed in any::<u64>()) {
        check_seed(seed)?;
    }
}

/// The patterns must actually fire on these graphs, or the property above says little.
#[test]
fn the_random_graphs_exercise_every_pattern() {
    use std::collections::BTreeMap;
    let mut applied: BTreeMap<&str, usize> = BTreeMap::new();
    let mut dead = 0;
    for seed in 0..500u64 {
        let (mut m, _) = random_module(seed.wrapping_mul(0x9E3779B97F4A7C15).wrapping_add(7));
        let stats = canonicalize(&mut m);
        dead += stats.erased_dead;
        for (k, v) in stats.applied {
            *applied.entry(k).or_default() += v;
        }
    }
    for p in [
        // The rules of `rules/` are exercised one by one in `rules_preserve_semantics.rs`;
        // these are the ones written in Rust, and rules common in real graphs.
        "constant-fold",
        "transpose-identity",
        "transpose-of-transpose",
        "reshape-of-reshape",
        "concat-single",
        "split-single",
        "slice-of-slice",
        "transpose-as-reshape",
        "transpose-hoist",
        "max-to-clamp-right",
        "clamp-of-clamp",
        "fold-into-conv",
        "reshape-sink",
        "reduce-of-reduce",
        "reduce-of-reshape",
        "layout-as-reshape",
        "gather-as-reshape",
        "reshape-of-broadcast",
        "broadcast-into-elementwise",
        "reshape-hoist",
        "compare-through-cast",
        "cast-through-slice",
    ] {
        assert!(applied.get(p).copied().unwrap_or(0) >= 10, "pattern {p} applied fewer than 10 times: {applied:?}");
    }
    assert!(dead > 0);
}
