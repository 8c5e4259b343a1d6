//! The rule language's builtin functions (`tcc_rules::builtins::BUILTINS`), one Rust
//! function each, as generated matchers call them: `None` means "does not apply"
//! (a wrong kind of argument, an index out of range), never a panic.

use tcc_ir::{Module, Scalar};

use super::matching::Val;
use crate::canonical::constant_value;

fn pair<T>(args: &[Val], f: impl Fn(&Val) -> Option<T>) -> Option<(T, T)> {
    Some((f(&args[0])?, f(&args[1])?))
}

pub fn equal(_: &Module, args: &[Val]) -> Option<Val> {
    Some(Val::Bool(args[0].same(&args[1])))
}

pub fn not_equal(_: &Module, args: &[Val]) -> Option<Val> {
    Some(Val::Bool(!args[0].same(&args[1])))
}

fn compare(args: &[Val], f: fn(i64, i64) -> bool) -> Option<Val> {
    let (a, b) = pair(args, Val::int)?;
    Some(Val::Bool(f(a, b)))
}

pub fn less(_: &Module, args: &[Val]) -> Option<Val> {
    compare(args, |a, b| a < b)
}

pub fn less_equal(_: &Module, args: &[Val]) -> Option<Val> {
    compare(args, |a, b| a <= b)
}

pub fn greater(_: &Module, args: &[Val]) -> Option<Val> {
    compare(args, |a, b| a > b)
}

pub fn greater_equal(_: &Module, args: &[Val]) -> Option<Val> {
    compare(args, |a, b| a >= b)
}

pub fn and(_: &Module, args: &[Val]) -> Option<Val> {
    let mut all = true;
    for a in args {
        all &= a.truth()?;
    }
    Some(Val::Bool(all))
}

pub fn or(_: &Module, args: &[Val]) -> Option<Val> {
    let mut any = false;
    for a in args {
        any |= a.truth()?;
    }
    Some(Val::Bool(any))
}

pub fn not(_: &Module, args: &[Val]) -> Option<Val> {
    Some(Val::Bool(!args[0].truth()?))
}

/// `f` on two integers, or elementwise on two lists of one length.
fn arith(args: &[Val], f: fn(i64, i64) -> Option<i64>) -> Option<Val> {
    if let Some((a, b)) = pair(args, Val::int) {
        return f(a, b).map(Val::Int);
    }
    let (a, b) = pair(args, Val::ints)?;
    if a.len() != b.len() {
        return None;
    }
    a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect::<Option<Vec<_>>>().map(Val::Ints)
}

pub fn plus(_: &Module, args: &[Val]) -> Option<Val> {
    arith(args, i64::checked_add)
}

pub fn minus(_: &Module, args: &[Val]) -> Option<Val> {
    arith(args, i64::checked_sub)
}

pub fn times(_: &Module, args: &[Val]) -> Option<Val> {
    arith(args, i64::checked_mul)
}

/// `(present-or a b)`: `a`, or `b` when `a` is an absent attribute.
pub fn present_or(_: &Module, args: &[Val]) -> Option<Val> {
    Some(if matches!(args[0], Val::Absent) { args[1].clone() } else { args[0].clone() })
}

/// `(ones n)`: a list of `n` ones.
pub fn ones(_: &Module, args: &[Val]) -> Option<Val> {
    Some(Val::Ints(vec![1; usize::try_from(args[0].int()?).ok()?]))
}

/// `(absent-if c v)`: nothing (a target attribute left out) when `c` holds, else `v`.
pub fn absent_if(_: &Module, args: &[Val]) -> Option<Val> {
    Some(if args[0].truth()? { Val::Absent } else { args[1].clone() })
}

fn is_perm(p: &[i64]) -> bool {
    let mut seen = vec![false; p.len()];
    p.iter().all(|&d| {
        usize::try_from(d).ok().filter(|&d| d < p.len()).is_some_and(|d| !std::mem::replace(&mut seen[d], true))
    })
}

/// `transpose(transpose(x, p), q)` is `transpose(x, r)` with `r[k] = p[q[k]]`.
pub fn compose(_: &Module, args: &[Val]) -> Option<Val> {
    let (p, q) = pair(args, Val::ints)?;
    if p.len() != q.len() || !is_perm(&p) || !is_perm(&q) {
        return None;
    }
    Some(Val::Ints(q.iter().map(|&k| p[k as usize]).collect()))
}

pub fn identity_perm(_: &Module, args: &[Val]) -> Option<Val> {
    let p = args[0].ints()?;
    Some(Val::Bool(p.iter().enumerate().all(|(i, &d)| d == i as i64)))
}

pub fn inverse_perm(_: &Module, args: &[Val]) -> Option<Val> {
    let p = args[0].ints()?;
    if !is_perm(&p) {
        return None;
    }
    let mut inv = vec![0; p.len()];
    for (i, &d) in p.iter().enumerate() {
        inv[d as usize] = i as i64;
    }
    Some(Val::Ints(inv))
}

/// `(swap-last-two n)`: the permutation of rank `n` (2 or more) exchanging its last two
/// axes, a matrix transpose of each matrix of a batch.
pub fn swap_last_two(_: &Module, args: &[Val]) -> Option<Val> {
    let n = args[0].int().filter(|&n| n >= 2)?;
    let mut p: Vec<i64> = (0..n).collect();
    p.swap(n as usize - 2, n as usize - 1);
    Some(Val::Ints(p))
}

pub fn same_type(m: &Module, args: &[Val]) -> Option<Val> {
    let (a, b) = pair(args, Val::value)?;
    Some(Val::Bool(m.value_type(a) == m.value_type(b)))
}

fn extents(m: &Module, v: &Val) -> Option<Vec<i64>> {
    Some(m.value_type(v.value()?).as_tensor()?.shape().to_vec())
}

pub fn rank(m: &Module, args: &[Val]) -> Option<Val> {
    Some(Val::Int(extents(m, &args[0])?.len() as i64))
}

pub fn dim(m: &Module, args: &[Val]) -> Option<Val> {
    let shape = extents(m, &args[0])?;
    let i = args[1].int()?;
    let i = if i < 0 { i + shape.len() as i64 } else { i };
    shape.get(usize::try_from(i).ok()?).map(|&d| Val::Int(d))
}

pub fn shape(m: &Module, args: &[Val]) -> Option<Val> {
    Some(Val::Ints(extents(m, &args[0])?))
}

/// Whether the value is a constant whose every element is the number given (floats
/// compare bitwise, so `-0.0` and `0.0` differ; integers compare by value).
pub fn splat(m: &Module, args: &[Val]) -> Option<Val> {
    let want = args[1].float()?;
    let Some(d) = constant_value(m, args[0].value()?) else { return Some(Val::Bool(false)) };
    if d.numel() == 0 || !d.all_equal() {
        return Some(Val::Bool(false));
    }
    Some(Val::Bool(match d.get(0) {
        Scalar::Float(x) => x.to_bits() == want.to_bits(),
        Scalar::Int(x) => x as f64 == want,
    }))
}

/// Whether the value is a constant identity: a square matrix with ones on its diagonal
/// and zeros elsewhere, or a filter `[c, c, 1, 1]` passing each channel through.
pub fn is_identity(m: &Module, args: &[Val]) -> Option<Val> {
    let shape = extents(m, &args[0])?;
    let Some(d) = constant_value(m, args[0].value()?) else { return Some(Val::Bool(false)) };
    let c = match shape[..] {
        [r, c] | [r, c, 1, 1] if r == c && c > 0 => c as usize,
        _ => return Some(Val::Bool(false)),
    };
    let want = |k: usize| if k / c == k % c { 1.0 } else { 0.0 };
    Some(Val::Bool((0..d.numel()).all(|k| d.get(k).as_f64() == want(k))))
}

pub fn is_float(m: &Module, args: &[Val]) -> Option<Val> {
    Some(Val::Bool(m.value_type(args[0].value()?).elem().is_some_and(|e| e.is_float())))
}

pub fn exact_widening(m: &Module, args: &[Val]) -> Option<Val> {
    let elem = |v: &Val| m.value_type(v.value()?).elem();
    let (from, to) = pair(args, elem)?;
    let wider = from.byte_size() < to.byte_size() || from == to;
    let exact = match (from.is_float(), to.is_float()) {
        _ if from == tcc_ir::ScalarType::I1 => true,
        (true, true) | (false, false) => wider,
        _ => false,
    };
    Some(Val::Bool(exact))
}

pub fn single_use(m: &Module, args: &[Val]) -> Option<Val> {
    Some(Val::Bool(m.uses(args[0].value()?).len() == 1))
}

pub fn moves_nothing(m: &Module, args: &[Val]) -> Option<Val> {
    let p = args[0].ints()?;
    let shape = extents(m, &args[1])?;
    if p.len() != shape.len() || !is_perm(&p) {
        return None;
    }
    let moved: Vec<i64> = p.iter().copied().filter(|&d| shape[d as usize] != 1).collect();
    Some(Val::Bool(moved.is_sorted()))
}

pub fn float_splat(m: &Module, args: &[Val]) -> Option<Val> {
    let d = constant_value(m, args[0].value()?)?;
    if d.numel() == 0 || !d.all_equal() || !d.elem().is_float() {
        return None;
    }
    Some(d.get(0).as_f64()).filter(|c| !c.is_nan()).map(Val::Float)
}

pub fn fmax(_: &Module, args: &[Val]) -> Option<Val> {
    let (a, b) = pair(args, Val::float)?;
    Some(Val::Float(if a.total_cmp(&b).is_gt() { a } else { b }))
}

pub fn fmin(_: &Module, args: &[Val]) -> Option<Val> {
    let (a, b) = pair(args, Val::float)?;
    Some(Val::Float(if a.total_cmp(&b).is_lt() { a } else { b }))
}

pub fn float_le(_: &Module, args: &[Val]) -> Option<Val> {
    let (a, b) = pair(args, Val::float)?;
    Some(Val::Bool(a.total_cmp(&b).is_le()))
}
