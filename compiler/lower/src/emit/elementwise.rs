//! Elementwise graph ops: one scalar expression per output element, with numpy
//! broadcasting of the operands. Activations are spelled in loop arithmetic here
//! (sigmoid, gelu, relu, clamp), and integer division and shifts are guarded: a zero
//! divisor or a shift amount outside the bit width fails the run with a located message
//! instead of trapping (or, for LLVM, being poison), and `MIN / -1` wraps like the
//! reference interpreter.

use tcc_dialect_graph::ops as g;
use tcc_dialect_loop as lp;
use tcc_ir::{ScalarType, Type, Value};

use super::{Ctx, broadcast_index, nest, numel};
use crate::builder::Builder;

pub fn emit(b: &mut Builder, c: &Ctx) {
    let out_shape = c.out_shape(0);
    let out = c.outs[0];
    let in_shapes: Vec<Vec<i64>> = (0..c.ins.len()).map(|i| c.in_shape(i)).collect();
    let def = c.g.def(c.op);
    let transcendental = [&g::EXP, &g::LOG, &g::TANH, &g::SIGMOID, &g::ERF, &g::GELU, &g::POW];
    let cost = if transcendental.iter().any(|d| std::ptr::eq(*d, def)) { 16 } else { 1 };
    nest(b, &out_shape, numel(&out_shape) * cost, |b, idx| {
        let args: Vec<Value> = c
            .ins
            .iter()
            .zip(&in_shapes)
            .map(|(&buf, shape)| {
                let i = broadcast_index(b, idx, shape);
                b.load(buf, &i)
            })
            .collect();
        let v = scalar(b, c, &args);
        b.store(v, out, idx);
    });
}

/// The scalar computation of an elementwise op on loaded operand values: scalars, or
/// (for float ops, as in kernel epilogues) vectors of one width.
pub fn scalar(b: &mut Builder, c: &Ctx, args: &[Value]) -> Value {
    let def = c.g.def(c.op);
    let is = |d| std::ptr::eq(def, d);
    let elem = c.in_elem(0);
    let x = args[0];
    if is(&g::ADD) {
        b.bin(&lp::ADD, x, args[1])
    } else if is(&g::SUB) {
        b.bin(&lp::SUB, x, args[1])
    } else if is(&g::MUL) {
        b.bin(&lp::MUL, x, args[1])
    } else if is(&g::DIV) {
        if elem.is_float() { b.bin(&lp::DIV, x, args[1]) } else { int_div(b, c, x, args[1], elem) }
    } else if is(&g::MAX) {
        b.bin(&lp::MAX, x, args[1])
    } else if is(&g::MIN) {
        b.bin(&lp::MIN, x, args[1])
    } else if is(&g::POW) {
        b.bin(&lp::POW, x, args[1])
    } else if is(&g::GREATER) {
        b.cmp("gt", x, args[1])
    } else if is(&g::LESS) {
        b.cmp("lt", x, args[1])
    } else if is(&g::EQUAL) {
        b.cmp("eq", x, args[1])
    } else if is(&g::SELECT) {
        b.select(x, args[1], args[2])
    } else if is(&g::NEG) {
        b.un(&lp::NEG, x)
    } else if is(&g::ABS) {
        b.un(&lp::ABS, x)
    } else if is(&g::EXP) {
        b.un(&lp::EXP, x)
    } else if is(&g::LOG) {
        b.un(&lp::LOG, x)
    } else if is(&g::SQRT) {
        b.un(&lp::SQRT, x)
    } else if is(&g::RSQRT) {
        b.un(&lp::RSQRT, x)
    } else if is(&g::RECIPROCAL) {
        let one = b.constant_like(x, 1.0);
        b.bin(&lp::DIV, one, x)
    } else if is(&g::TANH) {
        b.un(&lp::TANH, x)
    } else if is(&g::ERF) {
        b.un(&lp::ERF, x)
    } else if is(&g::FLOOR) {
        b.un(&lp::FLOOR, x)
    } else if is(&g::CEIL) {
        b.un(&lp::CEIL, x)
    } else if is(&g::SIGMOID) {
        // 1 / (1 + e^-x)
        let one = b.constant_like(x, 1.0);
        let nx = b.un(&lp::NEG, x);
        let e = b.un(&lp::EXP, nx);
        let d = b.bin(&lp::ADD, one, e);
        b.bin(&lp::DIV, one, d)
    } else if is(&g::RELU) {
        // max propagates NaN, as relu does.
        let zero = b.constant_like(x, 0.0);
        b.bin(&lp::MAX, x, zero)
    } else if is(&g::GELU) {
        gelu(b, x, c.string("approximate") == "tanh")
    } else if is(&g::CLAMP) {
        clamp(b, x, elem, c.float("min"), c.float("max"))
    } else if is(&g::AND) {
        b.bin(&lp::AND, x, args[1])
    } else if is(&g::OR) {
        b.bin(&lp::OR, x, args[1])
    } else if is(&g::XOR) {
        b.bin(&lp::XOR, x, args[1])
    } else if is(&g::NOT) {
        let ones = b.int(elem, if elem == ScalarType::I1 { 1 } else { -1 });
        b.bin(&lp::XOR, x, ones)
    } else if is(&g::SHIFT_LEFT) {
        let amount = shift_amount(b, c, args[1], elem);
        b.bin(&lp::SHL, x, amount)
    } else if is(&g::SHIFT_RIGHT) {
        let amount = shift_amount(b, c, args[1], elem);
        b.bin(&lp::SHR, x, amount)
    } else if is(&g::SHIFT_RIGHT_LOGICAL) {
        // (x >> b) & (2 << (bits - 1 - b)) - 1: the arithmetic shift with the copies of
        // the sign bit cleared (2 << (bits - 1) wraps to 0, so b = 0 keeps every bit).
        let amount = shift_amount(b, c, args[1], elem);
        let shifted = b.bin(&lp::SHR, x, amount);
        let top = b.int(elem, bit_width(elem) - 1);
        let rest = b.bin(&lp::SUB, top, amount);
        let two = b.int(elem, 2);
        let one = b.int(elem, 1);
        let bound = b.bin(&lp::SHL, two, rest);
        let mask = b.bin(&lp::SUB, bound, one);
        b.bin(&lp::AND, shifted, mask)
    } else if is(&g::CAST) {
        let to = match b.ty(x).as_vector() {
            Some(v) => Type::Vector(tcc_ir::VectorType { lanes: v.lanes, elem: c.out_elem(0) }),
            None => Type::Scalar(c.out_elem(0)),
        };
        b.cast(x, to)
    } else {
        unreachable!("{} is not an elementwise op", def.name)
    }
}

/// Signed division that never traps: a zero divisor fails the run-time check (and
/// divides by one instead), and `MIN / -1` gives `MIN`.
fn int_div(b: &mut Builder, c: &Ctx, a: Value, d: Value, elem: ScalarType) -> Value {
    let zero = b.int(elem, 0);
    let one = b.int(elem, 1);
    let minus_one = b.int(elem, -1);
    let min = b.int(elem, if elem == ScalarType::I32 { i32::MIN as i64 } else { i64::MIN });
    let nonzero = b.cmp("ne", d, zero);
    b.assert(nonzero, format!("integer division by zero in {}", c.where_()));
    let is_zero = b.cmp("eq", d, zero);
    let a_min = b.cmp("eq", a, min);
    let d_m1 = b.cmp("eq", d, minus_one);
    let overflow = b.bin(&lp::AND, a_min, d_m1);
    let bad = b.bin(&lp::OR, is_zero, overflow);
    let safe = b.select(bad, one, d);
    b.bin(&lp::DIV, a, safe)
}

fn bit_width(elem: ScalarType) -> i64 {
    if elem == ScalarType::I32 { 32 } else { 64 }
}

/// A shift amount that is checked: outside `[0, bits)` it fails the run-time check (and
/// shifts by zero instead).
fn shift_amount(b: &mut Builder, c: &Ctx, amount: Value, elem: ScalarType) -> Value {
    let zero = b.int(elem, 0);
    let bits = b.int(elem, bit_width(elem));
    let not_negative = b.cmp("ge", amount, zero);
    let below = b.cmp("lt", amount, bits);
    let ok = b.bin(&lp::AND, not_negative, below);
    b.assert(ok, format!("shift amount outside [0, {}) in {}", bit_width(elem), c.where_()));
    b.select(ok, amount, zero)
}

fn gelu(b: &mut Builder, x: Value, tanh: bool) -> Value {
    let half = b.constant_like(x, 0.5);
    let one = b.constant_like(x, 1.0);
    let inner = if tanh {
        // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
        let k = b.constant_like(x, (2.0 / std::f64::consts::PI).sqrt());
        let c = b.constant_like(x, 0.044715);
        let x2 = b.bin(&lp::MUL, x, x);
        let x3 = b.bin(&lp::MUL, x2, x);
        let t = b.bin(&lp::MUL, c, x3);
        let s = b.bin(&lp::ADD, x, t);
        let a = b.bin(&lp::MUL, k, s);
        b.un(&lp::TANH, a)
    } else {
        // erf(x / sqrt 2)
        let k = b.constant_like(x, std::f64::consts::FRAC_1_SQRT_2);
        let a = b.bin(&lp::MUL, x, k);
        b.un(&lp::ERF, a)
    };
    let s = b.bin(&lp::ADD, one, inner);
    let hx = b.bin(&lp::MUL, half, x);
    b.bin(&lp::MUL, hx, s)
}

/// min(max(x, lo), hi); integer bounds round inward and saturate to the type's range,
/// as the reference interpreter does.
fn clamp(b: &mut Builder, x: Value, elem: ScalarType, lo: f64, hi: f64) -> Value {
    let (lo, hi) = if elem.is_float() {
        (b.constant_like(x, lo), b.constant_like(x, hi))
    } else {
        let (tmin, tmax) = int_range(elem);
        let lo_i = (lo.ceil() as i64).clamp(tmin, tmax);
        let hi_i = (hi.floor() as i64).clamp(tmin, tmax);
        (b.int(elem, lo_i), b.int(elem, hi_i))
    };
    let m = b.bin(&lp::MAX, x, lo);
    b.bin(&lp::MIN, m, hi)
}

pub fn int_range(elem: ScalarType) -> (i64, i64) {
    match elem {
        ScalarType::I32 => (i32::MIN as i64, i32::MAX as i64),
        ScalarType::I1 => (0, 1),
        _ => (i64::MIN, i64::MAX),
    }
}
