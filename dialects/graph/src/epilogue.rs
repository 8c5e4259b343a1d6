//! The epilogues a microkernel applies in registers: a kernel op's epilogue region read
//! as a fixed sequence of steps ([`FusedEpilogue`]), for the templates that call the
//! runtime's microkernels (lowering) and for the passes that decide what may join an
//! epilogue (`narrow-outputs`), so both read a region the same way.

use tcc_ir::{Module, Op, ScalarType, Value};

use crate::canonical::constant_value;
use crate::ops;
use crate::semantics;

/// An epilogue the microkernel applies in registers (`tcc_ukernels::Epilogue`): the
/// sums plus a bias operand, zero where a mask operand is not above 0 (padded
/// channels), plus a residual operand, through a sigmoid or a SiLU (`activation`),
/// clamped to `[lo, hi]`, then rounded to bf16 (`narrow`), in that order (each step
/// optional); a bf16 residual is widened to f32 where it is added (`bf16_residual`).
/// The operands are indices into the kernel op's epilogue operands; whether their
/// shapes fit the microkernel's addressing is the template's to check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FusedEpilogue {
    pub bias: Option<usize>,
    pub mask: Option<usize>,
    pub residual: Option<usize>,
    pub lo: f32,
    pub hi: f32,
    pub activation: Activation,
    /// The result is stored as bf16 (a cast from f32 ends the region): the bf16 dot
    /// tile's narrowed outputs.
    pub narrow: bool,
    /// The residual operand is bf16 (a cast to f32 of the region's argument is what
    /// the `add` reads): the residual stream of bf16 dot kernels (`narrow-outputs`).
    pub bf16_residual: bool,
}

/// A [`FusedEpilogue`]'s activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    None,
    /// `sigmoid(v)`.
    Sigmoid,
    /// `v * sigmoid(v)` (`mul` of the value and its `sigmoid`, either order).
    Silu,
}

impl FusedEpilogue {
    /// The epilogue region of `op` as a [`FusedEpilogue`]: `add` of operands (the
    /// first one added is the bias when `is_bias` says its shape is a bias's, else the
    /// residual), `select(greater(mask, zero), value, zero)` with a per-channel mask
    /// (`is_bias`'s shape) and a constant zero scalar, then at most one of: a `relu`, a
    /// `clamp` with bounds that are not NaN and an upper bound that is not zero
    /// (`minps` with a zero bound would keep a zero of the wrong sign), a `sigmoid`, or
    /// a `sigmoid` whose result is multiplied by its operand (SiLU); then at most a
    /// `cast` from f32 to bf16. The residual may be a bf16 operand, added through a
    /// `cast` of it to f32. The sums are f32. `None` for any other region; `Some` with
    /// no step for no region.
    pub fn of(m: &Module, op: Op, is_bias: impl Fn(usize) -> bool) -> Option<FusedEpilogue> {
        let mut fused = FusedEpilogue {
            bias: None,
            mask: None,
            residual: None,
            lo: f32::NEG_INFINITY,
            hi: f32::INFINITY,
            activation: Activation::None,
            narrow: false,
            bf16_residual: false,
        };
        let Some(&region) = m.regions(op).first() else { return Some(fused) };
        let block = m.region_blocks(region)[0];
        let args = m.block_args(block);
        let elem = |v: Value| m.value_type(v).as_tensor().map(|t| t.elem());
        if elem(args[0]) != Some(ScalarType::F32) {
            return None;
        }
        let mut current = args[0];
        let mut clamped = false;
        let operand = |v: Value| args[1..].iter().position(|&a| a == v);
        // A scalar epilogue operand that is the constant 0.
        let zero = |v: Value| {
            let k = operand(v)?;
            let from = semantics(m.def(op)).and_then(|s| s.epilogue_from).unwrap_or(m.operands(op).len());
            let value = constant_value(m, m.operand(op, from + k))?;
            (value.to_f64s()[..] == [0.0]).then_some(())
        };
        // The pending `greater(mask, zero)` and its mask operand.
        let mut compared: Option<(Value, usize)> = None;
        // The last `sigmoid`'s operand (a `mul` of it and the sigmoid makes a SiLU).
        let mut sigmoid_of: Option<Value> = None;
        // A bf16 operand widened to f32, and its index.
        let mut widened: Option<(Value, usize)> = None;
        for inner in m.block_ops(block) {
            let operands = m.operands(inner);
            if m.is(inner, &ops::YIELD) {
                return (operands == [current]).then_some(fused);
            }
            if fused.narrow {
                return None;
            }
            if m.is(inner, &ops::CAST)
                && let &[arg] = operands
                && let Some(k) = operand(arg)
            {
                let widens = elem(arg) == Some(ScalarType::BF16) && elem(m.result(inner, 0)) == Some(ScalarType::F32);
                if !widens || widened.is_some() {
                    return None;
                }
                widened = Some((m.result(inner, 0), k));
                continue;
            }
            if m.is(inner, &ops::CAST) && operands == [current] {
                fused.narrow = elem(m.result(inner, 0)) == Some(ScalarType::BF16);
                if !fused.narrow {
                    return None;
                }
                current = m.result(inner, 0);
                continue;
            }
            if let Some(x) = sigmoid_of.take()
                && m.is(inner, &ops::MUL)
                && (operands == [x, current] || operands == [current, x])
            {
                fused.activation = Activation::Silu;
                current = m.result(inner, 0);
                continue;
            }
            if clamped {
                return None;
            }
            if m.is(inner, &ops::GREATER) {
                let &[mask, z] = operands else { return None };
                let k = operand(mask).filter(|&k| is_bias(k))?;
                zero(z)?;
                compared = Some((m.result(inner, 0), k));
                continue;
            }
            if m.is(inner, &ops::SELECT) {
                let (&[cond, value, z], Some((pending, k))) = (operands, compared) else { return None };
                zero(z)?;
                if cond != pending || value != current || fused.mask.is_some() || fused.residual.is_some() {
                    return None;
                }
                (fused.mask, compared) = (Some(k), None);
            } else if m.is(inner, &ops::ADD) {
                let other = match operands {
                    [a, b] if *a == current => *b,
                    [a, b] if *b == current => *a,
                    _ => return None,
                };
                if let Some((w, k)) = widened
                    && w == other
                {
                    if is_bias(k) || fused.residual.is_some() {
                        return None;
                    }
                    (fused.residual, fused.bf16_residual) = (Some(k), true);
                    current = m.result(inner, 0);
                    continue;
                }
                let k = operand(other)?;
                if is_bias(k) && fused.bias.is_none() && fused.mask.is_none() && fused.residual.is_none() {
                    fused.bias = Some(k);
                } else if !is_bias(k) && fused.residual.is_none() {
                    fused.residual = Some(k);
                } else {
                    return None;
                }
            } else if m.is(inner, &ops::RELU) && operands == [current] {
                (fused.lo, fused.hi, clamped) = (0.0, f32::INFINITY, true);
            } else if m.is(inner, &ops::SIGMOID) && operands == [current] {
                (fused.activation, clamped, sigmoid_of) = (Activation::Sigmoid, true, Some(current));
            } else if m.is(inner, &ops::CLAMP) && operands == [current] {
                let bound = |name: &str| m.attr(inner, name).and_then(|a| a.as_f64()).map(|x| x as f32);
                let (lo, hi) = (bound("min")?, bound("max")?);
                if lo.is_nan() || hi.is_nan() || hi == 0.0 {
                    return None;
                }
                (fused.lo, fused.hi, clamped) = (lo, hi, true);
            } else {
                return None;
            }
            current = m.result(inner, 0);
        }
        None
    }

    /// Whether the microkernel has anything to do after the sums.
    pub fn is_none(&self) -> bool {
        self.bias.is_none()
            && self.mask.is_none()
            && self.residual.is_none()
            && self.lo == f32::NEG_INFINITY
            && self.hi == f32::INFINITY
            && self.activation == Activation::None
            && !self.narrow
    }
}
