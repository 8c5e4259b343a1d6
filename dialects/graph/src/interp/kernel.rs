//! Reference semantics of the compiler's kernel ops. Each unpacks its blocked operands
//! to the plain layout, runs the plain op's reference kernel and packs the result, so a
//! kernel op is exactly as right as the plain op and the layout transforms it is made
//! of. (The epilogue region is applied by [`super::eval_op`].)

use tcc_ir::{Signature, Type};

use super::EvalArgs;
use super::tensor::Tensor;
use crate::layout::{Layout, TransformPlan};
use crate::ops;

type R = Result<Vec<Tensor>, String>;

/// `t` (in layout `src`) moved to layout `dst` with physical shape `shape`.
fn relayout(t: &Tensor, src: &Layout, dst: &Layout, shape: &[i64]) -> Result<Tensor, String> {
    let from: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
    let plan = TransformPlan::new(src, dst, &from, shape)?;
    Ok(t.relayout(&plan, shape.iter().map(|&d| d as usize).collect()))
}

fn dims(t: &Tensor) -> Vec<i64> {
    t.shape().iter().map(|&d| d as i64).collect()
}

/// Runs the plain op `def`'s reference kernel on `inputs` with this op's attributes.
fn plain(a: &EvalArgs, def: &'static tcc_ir::OpDef, inputs: &[Tensor], result: Vec<i64>) -> Result<Tensor, String> {
    let operand_types: Vec<Type> = inputs.iter().map(|t| Type::from_tensor(t.tensor_type())).collect();
    let result_types = vec![crate::infer::tensor(result, a.result_elem(0))?];
    let sig = Signature { def, operands: &operand_types, attrs: a.sig.attrs };
    let eval = crate::semantics(def).ok_or("no semantics")?.eval;
    let mut out = eval(&EvalArgs { inputs, sig, result_types: &result_types })?;
    Ok(out.remove(0))
}

pub fn conv2d_nchwc(a: &EvalArgs) -> R {
    let (x, w) = (a.input(0), a.input(1));
    let (xs, ws, out) = (dims(x), dims(w), a.result_dims(0));
    let (ib, (_, ob)) = (xs[4], ops::kernel::filter_blocks(&ws));
    let xp = relayout(x, &Layout::nchwc(ib), &Layout::nchw(), &ops::kernel::plain_activation(&xs))?;
    let wp = relayout(w, &ops::kernel::filter_layout(&ws), &Layout::oihw(), &ops::kernel::plain_filter(&ws))?;
    let groups = a.sig.attrs.get("groups").and_then(|g| g.as_i64()).unwrap_or(1);
    let wp = match ops::kernel::multiplier_blocks(&xs, &ws, groups) {
        Some((k, b)) => by_channel(&wp, k, b),
        None => wp,
    };
    let out: Vec<i64> = out.iter().map(|&d| d as i64).collect();
    let y = plain(a, &ops::CONV2D, &[xp, wp], ops::kernel::plain_activation(&out))?;
    Ok(vec![relayout(&y, &Layout::nchw(), &Layout::nchwc(ob), &out)?])
}

/// A channel multiplier's unpacked filter `w` (`[O, 1, KH, KW]`, output channels by
/// multiple within blocks of `b` input channels: [`ops::kernel::multiplier_blocks`]) in
/// the plain order of its output channels.
fn by_channel(w: &Tensor, k: i64, b: i64) -> Tensor {
    let (o, taps) = (w.shape()[0], w.shape()[1..].iter().product::<usize>());
    let (k, b) = (k as usize, b as usize);
    let mut idx = Vec::with_capacity(w.numel());
    for ch in 0..o {
        // Output channel (i * b + l) * k + j is packed channel (i * k + j) * b + l.
        let (block, j) = (ch / k, ch % k);
        let (i, l) = (block / b, block % b);
        let packed = (i * k + j) * b + l;
        idx.extend((0..taps).map(|t| packed * taps + t));
    }
    w.gather_flat(w.shape().to_vec(), &idx)
}

fn pool_nchwc(a: &EvalArgs, def: &'static tcc_ir::OpDef) -> R {
    let x = a.input(0);
    let (xs, out) = (dims(x), a.result_dims(0));
    let b = xs[4];
    let xp = relayout(x, &Layout::nchwc(b), &Layout::nchw(), &ops::kernel::plain_activation(&xs))?;
    let out: Vec<i64> = out.iter().map(|&d| d as i64).collect();
    let y = plain(a, def, &[xp], ops::kernel::plain_activation(&out))?;
    Ok(vec![relayout(&y, &Layout::nchw(), &Layout::nchwc(b), &out)?])
}

pub fn max_pool2d_nchwc(a: &EvalArgs) -> R {
    pool_nchwc(a, &ops::MAX_POOL2D)
}

pub fn avg_pool2d_nchwc(a: &EvalArgs) -> R {
    pool_nchwc(a, &ops::AVG_POOL2D)
}

/// Unpacks `b` (`[N/n, K, n]`, or bf16 pairs `[N/n, K/2, n, 2]`: [`super::eval_op`]
/// has widened bf16 operands to f32, exactly, and the result is f32).
pub fn matmul_packed(a: &EvalArgs) -> R {
    let (x, bp) = (a.input(0), a.input(1));
    let (bs, xs) = (dims(bp), dims(x));
    let out = a.result_dims(0);
    let n = *out.last().ok_or("matmul result has rank 0")? as i64;
    let k = *xs.last().ok_or("matmul operand has rank 0")?;
    let layout = if bs.len() == 4 { Layout::nk_pairs(bs[2]) } else { Layout::nk_packed(bs[2]) };
    let b = relayout(bp, &layout, &Layout::kn(), &[k, n])?;
    Ok(vec![plain(a, &ops::MATMUL, &[x.clone(), b], out.iter().map(|&d| d as i64).collect())?])
}

pub fn batch_matmul(a: &EvalArgs) -> R {
    let out = a.result_dims(0).iter().map(|&d| d as i64).collect();
    Ok(vec![plain(a, &ops::MATMUL, a.inputs, out)?])
}
