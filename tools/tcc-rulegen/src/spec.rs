//! Operator specifications: what each op of the generator's set computes, on small
//! dense tensors of integers (for fingerprints) or floats (for the re-check), and how
//! it appears in the rule language.
//!
//! The set (TASO's, in the graph dialect's terms): `matmul` (2-D), elementwise `add`
//! and `mul`, multiplication by a scalar (`mul` by a rank-0 tensor), `relu`,
//! `transpose` (2-D), `concat` and `split` along either axis of a matrix or the
//! channels of an image, `conv2d` ("same" padding, stride 1; with a fused activation
//! it is `relu(conv2d)`), without a bias or with one (a vector of one value per output
//! channel, as every exported convolution has: `bias(conv2d(x, w), b)`, with `bias`
//! the per-channel addition), kernel enlargement (a 1x1 filter padded to 3x3),
//! and pooling: `max_pool2d` 3x3, stride 1, "same" padding (padded cells never win)
//! and `avg_pool2d` 3x3, stride 1, no padding (every window has 9 cells, so
//! `count_include_pad` does not matter). `split` undoes the concatenation its operand
//! carries on that axis (TASO's split trees), so it needs no sizes of its own. The
//! constants (identity matrices and filters, ones) are inputs of fixed contents: see
//! [`Fill`].
//!
//! The matrix ops also take rank-3 tensors, batches of matrices (numpy's `matmul`:
//! a batch of one repeats; `transpose`, `concat` and `split` act on each matrix, see
//! [`axis_of`]): the axioms are validated on them too, so a rule the axioms prove
//! holds for batches, which is what lets the matrix world's rules be emitted for any
//! rank of 2 or more (`emit`).

/// A number the specifications compute with.
pub trait Num: Copy + PartialEq + std::fmt::Debug {
    fn zero() -> Self;
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    /// ReLU, or for integers TASO's non-linear stand-in `x * (x + 1) + 1`, which has no
    /// zeros to make unrelated graphs agree.
    fn relu(self) -> Self;
    fn max(self, o: Self) -> Self;
    /// The mean of a 9-cell window from its sum; for integers the sum itself (exact,
    /// and as good a fingerprint: the float re-check and the proof see the mean).
    fn mean9(sum: Self) -> Self;
    fn from_i64(v: i64) -> Self;
}

/// What an input holds: random values, or a constant the rules name by a guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    Random,
    /// An identity: a square matrix, or a filter `[c, c, 1, 1]` passing each channel
    /// through (`(is-identity ?v)`).
    Identity,
    /// All ones (`(splat ?v 1.0)`).
    Ones,
}

impl Fill {
    /// The constant of this kind with `shape`; `None` for random inputs, or a shape
    /// the constant cannot have.
    pub fn constant<N: Num>(self, shape: &[usize]) -> Option<T<N>> {
        let n: usize = shape.iter().product();
        match self {
            Fill::Random => None,
            Fill::Ones => Some(T::new(shape.to_vec(), vec![N::from_i64(1); n])),
            Fill::Identity => {
                let c = match shape[..] {
                    [r, c] | [r, c, 1, 1] if r == c => c,
                    _ => return None,
                };
                Some(T::new(shape.to_vec(), (0..n).map(|k| N::from_i64((k / c == k % c) as i64)).collect()))
            }
        }
    }
}

impl Num for i64 {
    fn zero() -> i64 {
        0
    }
    fn add(self, o: i64) -> i64 {
        self.wrapping_add(o)
    }
    fn mul(self, o: i64) -> i64 {
        self.wrapping_mul(o)
    }
    fn relu(self) -> i64 {
        self.wrapping_mul(self.wrapping_add(1)).wrapping_add(1)
    }
    fn max(self, o: i64) -> i64 {
        Ord::max(self, o)
    }
    fn mean9(sum: i64) -> i64 {
        sum
    }
    fn from_i64(v: i64) -> i64 {
        v
    }
}

impl Num for f64 {
    fn zero() -> f64 {
        0.0
    }
    fn add(self, o: f64) -> f64 {
        self + o
    }
    fn mul(self, o: f64) -> f64 {
        self * o
    }
    fn relu(self) -> f64 {
        f64::max(self, 0.0)
    }
    fn max(self, o: f64) -> f64 {
        f64::max(self, o)
    }
    fn mean9(sum: f64) -> f64 {
        sum / 9.0
    }
    fn from_i64(v: i64) -> f64 {
        v as f64
    }
}

/// A small deterministic generator (xorshift64) drawing from `seed`.
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// A dense row-major tensor.
#[derive(Clone, Debug, PartialEq)]
pub struct T<N> {
    pub shape: Vec<usize>,
    pub data: Vec<N>,
}

impl<N: Num> T<N> {
    pub fn new(shape: Vec<usize>, data: Vec<N>) -> T<N> {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        T { shape, data }
    }

    fn strides(&self) -> Vec<usize> {
        let mut s = vec![1; self.shape.len()];
        for i in (0..self.shape.len().saturating_sub(1)).rev() {
            s[i] = s[i + 1] * self.shape[i + 1];
        }
        s
    }
}

/// The ops of the generator's set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    MatMul,
    Add,
    Mul,
    /// Multiplication by a scalar (the second operand has rank 0).
    Scale,
    Relu,
    Transpose,
    Concat(usize),
    /// Part `1` (0 or 1) of the split along the axis undoing the last concat there.
    Split(usize, usize),
    Conv,
    /// `conv2d` with a bias operand: `Bias(Conv(x, w), b)` as one op (how the dialect
    /// and every export have it).
    ConvBias,
    /// The per-channel addition of a bias vector `[c]` to an image `[n, c, h, w]`.
    Bias,
    Enlarge,
    /// `max_pool2d` 3x3, stride 1, padding 1.
    MaxPool,
    /// `avg_pool2d` 3x3, stride 1, no padding.
    AvgPool,
}

impl Op {
    pub fn arity(self) -> usize {
        match self {
            Op::MatMul | Op::Add | Op::Mul | Op::Scale | Op::Concat(_) | Op::Conv | Op::Bias => 2,
            Op::ConvBias => 3,
            _ => 1,
        }
    }

    /// Whether swapping the operands gives the same op (the enumeration keeps one order).
    pub fn commutative(self) -> bool {
        matches!(self, Op::Add | Op::Mul)
    }
}

/// The axis that a matrix op's axis `k` (0: rows, 1: columns) is on a tensor of `rank`:
/// a rank-3 tensor is a batch of matrices (axis 0 the batch, as in a rank-polymorphic
/// rule of the matrix world); other ranks count from the front (matrices, and the
/// image world's NCHW images and OIHW filters).
pub fn axis_of(k: usize, rank: usize) -> usize {
    if rank == 3 { k + 1 } else { k }
}

/// The batch extent of matrix batches of `a` and `b` batches broadcast against each
/// other (numpy `matmul`), if they do.
fn batch(a: usize, b: usize) -> Option<usize> {
    (a == b || a == 1 || b == 1).then_some(a.max(b))
}

/// The shape of `op`'s result on operands of `shapes`; `None` if they do not fit
/// (`split` is handled by [`split_shape`], which needs the split sizes).
pub fn shape(op: Op, shapes: &[&[usize]]) -> Option<Vec<usize>> {
    match op {
        Op::Add | Op::Mul => (shapes[0] == shapes[1]).then(|| shapes[0].to_vec()),
        Op::Scale => shapes[1].is_empty().then(|| shapes[0].to_vec()),
        Op::Relu => Some(shapes[0].to_vec()),
        Op::Transpose => match *shapes[0] {
            [r, c] => Some(vec![c, r]),
            [b, r, c] => Some(vec![b, c, r]),
            _ => None,
        },
        Op::MatMul => match (shapes[0], shapes[1]) {
            (&[m, k], &[k2, n]) if k == k2 => Some(vec![m, n]),
            (&[b, m, k], &[b2, k2, n]) if k == k2 => Some(vec![batch(b, b2)?, m, n]),
            _ => None,
        },
        Op::Concat(axis) => {
            let (a, b) = (shapes[0], shapes[1]);
            let axis = axis_of(axis, a.len());
            if a.len() != b.len() || axis >= a.len() || (0..a.len()).any(|d| d != axis && a[d] != b[d]) {
                return None;
            }
            let mut out = a.to_vec();
            out[axis] += b[axis];
            Some(out)
        }
        Op::Split(..) => None,
        // NCHW image, OIHW filter with odd kernels, "same" padding, stride 1.
        Op::Conv => match (shapes[0], shapes[1]) {
            (&[n, c, h, w], &[o, c2, kh, kw]) if c == c2 && kh % 2 == 1 && kw % 2 == 1 => Some(vec![n, o, h, w]),
            _ => None,
        },
        Op::ConvBias => {
            let out = shape(Op::Conv, &shapes[..2])?;
            shape(Op::Bias, &[&out, shapes[2]])
        }
        Op::Bias => match (shapes[0], shapes[1]) {
            (&[_, c, _, _], &[c2]) if c == c2 => Some(shapes[0].to_vec()),
            _ => None,
        },
        Op::MaxPool | Op::AvgPool => {
            let &[n, c, h, w] = shapes[0] else { return None };
            let pad = if op == Op::MaxPool { 1 } else { 0 };
            (h + 2 * pad >= 3 && w + 2 * pad >= 3).then(|| vec![n, c, h + 2 * pad - 2, w + 2 * pad - 2])
        }
        Op::Enlarge => match shapes[0] {
            &[o, c, 1, 1] => Some(vec![o, c, 3, 3]),
            _ => None,
        },
    }
}

/// Applies `op`; `None` if the operands do not fit ([`shape`]; `split` is handled by
/// the caller, which knows the split sizes).
pub fn eval<N: Num>(op: Op, args: &[&T<N>]) -> Option<T<N>> {
    let out_shape = shape(op, &args.iter().map(|a| &a.shape[..]).collect::<Vec<_>>())?;
    let data = match op {
        Op::Add => args[0].data.iter().zip(&args[1].data).map(|(&a, &b)| a.add(b)).collect(),
        Op::Mul => args[0].data.iter().zip(&args[1].data).map(|(&a, &b)| a.mul(b)).collect(),
        Op::Scale => {
            let s = args[1].data[0];
            args[0].data.iter().map(|&v| v.mul(s)).collect()
        }
        Op::Relu => args[0].data.iter().map(|&v| v.relu()).collect(),
        Op::Transpose => {
            let a = args[0];
            let (r, c) = (a.shape[a.shape.len() - 2], a.shape[a.shape.len() - 1]);
            let batches = a.data.len() / (r * c);
            (0..batches).flat_map(|p| (0..c * r).map(move |i| a.data[p * r * c + (i % r) * c + i / r])).collect()
        }
        Op::MatMul => {
            // One product per matrix of the batch (numpy `matmul`: a batch of one repeats).
            let (a, b) = (args[0], args[1]);
            let rank = out_shape.len();
            let (m, n, k) = (out_shape[rank - 2], out_shape[rank - 1], a.shape[rank - 1]);
            let batches = if rank == 3 { out_shape[0] } else { 1 };
            let pick = |t: &T<N>, p: usize| if rank == 3 && t.shape[0] == 1 { 0 } else { p };
            let mut out = vec![N::zero(); batches * m * n];
            for p in 0..batches {
                let (pa, pb) = (pick(a, p) * m * k, pick(b, p) * k * n);
                for i in 0..m {
                    for j in 0..n {
                        let mut acc = N::zero();
                        for l in 0..k {
                            acc = acc.add(a.data[pa + i * k + l].mul(b.data[pb + l * n + j]));
                        }
                        out[(p * m + i) * n + j] = acc;
                    }
                }
            }
            out
        }
        Op::Concat(axis) => {
            let (a, b) = (args[0], args[1]);
            let axis = axis_of(axis, a.shape.len());
            let outer: usize = a.shape[..axis].iter().product();
            let (ia, ib): (usize, usize) = (a.shape[axis..].iter().product(), b.shape[axis..].iter().product());
            let mut data = Vec::with_capacity(a.data.len() + b.data.len());
            for o in 0..outer {
                data.extend_from_slice(&a.data[o * ia..(o + 1) * ia]);
                data.extend_from_slice(&b.data[o * ib..(o + 1) * ib]);
            }
            data
        }
        Op::Split(..) => unreachable!("split has no shape of its own"),
        Op::Conv => {
            let (x, w) = (args[0], args[1]);
            let (&[n, c, h, wd], &[o, _, kh, kw]) = (&x.shape[..], &w.shape[..]) else {
                unreachable!("checked by shape")
            };
            let (ph, pw) = (kh / 2, kw / 2);
            let (xs, ws) = (x.strides(), w.strides());
            let mut out = vec![N::zero(); n * o * h * wd];
            for b in 0..n {
                for oc in 0..o {
                    for y in 0..h {
                        for xx in 0..wd {
                            let mut acc = N::zero();
                            for ic in 0..c {
                                for dy in 0..kh {
                                    for dx in 0..kw {
                                        let (iy, ix) =
                                            ((y + dy) as isize - ph as isize, (xx + dx) as isize - pw as isize);
                                        if iy < 0 || ix < 0 || iy >= h as isize || ix >= wd as isize {
                                            continue;
                                        }
                                        let xv = x.data[b * xs[0] + ic * xs[1] + iy as usize * xs[2] + ix as usize];
                                        let wv = w.data[oc * ws[0] + ic * ws[1] + dy * ws[2] + dx];
                                        acc = acc.add(xv.mul(wv));
                                    }
                                }
                            }
                            out[((b * o + oc) * h + y) * wd + xx] = acc;
                        }
                    }
                }
            }
            out
        }
        Op::ConvBias => {
            let out = eval(Op::Conv, &args[..2])?;
            return eval(Op::Bias, &[&out, args[2]]);
        }
        Op::Bias => {
            let (x, b) = (args[0], args[1]);
            let plane = x.shape[2] * x.shape[3];
            let channels = x.shape[1];
            x.data.iter().enumerate().map(|(i, &v)| v.add(b.data[i / plane % channels])).collect()
        }
        Op::MaxPool | Op::AvgPool => {
            let x = args[0];
            let (&[n, c, h, w], &[.., oh, ow]) = (&x.shape[..], &out_shape[..]) else {
                unreachable!("checked by shape")
            };
            let pad = if op == Op::MaxPool { 1 } else { 0 };
            let mut out = Vec::with_capacity(n * c * oh * ow);
            for plane in 0..n * c {
                for y in 0..oh {
                    for xx in 0..ow {
                        let cells = (0..9).filter_map(|k| {
                            let (iy, ix) = ((y + k / 3) as isize - pad as isize, (xx + k % 3) as isize - pad as isize);
                            let inside = iy >= 0 && ix >= 0 && (iy as usize) < h && (ix as usize) < w;
                            inside.then(|| x.data[(plane * h + iy as usize) * w + ix as usize])
                        });
                        out.push(if op == Op::MaxPool {
                            cells.reduce(N::max).expect("a window holds its centre")
                        } else {
                            N::mean9(cells.fold(N::zero(), N::add))
                        });
                    }
                }
            }
            out
        }
        Op::Enlarge => {
            let w = args[0];
            let mut data = vec![N::zero(); w.data.len() * 9];
            for (i, &v) in w.data.iter().enumerate() {
                data[i * 9 + 4] = v;
            }
            data
        }
    };
    Some(T::new(out_shape, data))
}

/// The shape numpy broadcasting gives operands of shapes `a` and `b` (the graph
/// dialect's elementwise ops broadcast; the generator's do not).
pub fn broadcast_shape(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let rank = a.len().max(b.len());
    let at = |s: &[usize], d: usize| if d + s.len() >= rank { s[d + s.len() - rank] } else { 1 };
    (0..rank)
        .map(|d| match (at(a, d), at(b, d)) {
            (x, y) if x == y || y == 1 => Some(x),
            (1, y) => Some(y),
            _ => None,
        })
        .collect()
}

/// `a + b` or `a * b` (`op` is `Add`, `Mul` or `Scale`) with numpy broadcasting.
pub fn eval_broadcast<N: Num>(op: Op, a: &T<N>, b: &T<N>) -> Option<T<N>> {
    let shape = broadcast_shape(&a.shape, &b.shape)?;
    let rank = shape.len();
    // The element of `t` at output index `idx` (extents of 1 repeat).
    let pick = |t: &T<N>, idx: &[usize]| {
        let off = rank - t.shape.len();
        t.shape.iter().enumerate().fold(0, |acc, (d, &e)| acc * e + if e == 1 { 0 } else { idx[d + off] })
    };
    let n: usize = shape.iter().product();
    let mut idx = vec![0; rank];
    let mut data = Vec::with_capacity(n);
    for _ in 0..n {
        let (x, y) = (a.data[pick(a, &idx)], b.data[pick(b, &idx)]);
        data.push(if op == Op::Add { x.add(y) } else { x.mul(y) });
        for d in (0..rank).rev() {
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    Some(T::new(shape, data))
}

/// The shape of part `part` of a tensor of `shape` split along `axis` (as [`axis_of`]
/// reads it) after `first` elements; `None` if that is not a split into two non-empty
/// parts.
pub fn split_shape(shape: &[usize], axis: usize, first: usize, part: usize) -> Option<Vec<usize>> {
    let axis = axis_of(axis, shape.len());
    let extent = *shape.get(axis)?;
    if first == 0 || first >= extent {
        return None;
    }
    let mut out = shape.to_vec();
    out[axis] = if part == 0 { first } else { extent - first };
    Some(out)
}

/// Part `part` of `x` split along `axis` after `first` elements.
pub fn split<N: Num>(x: &T<N>, axis: usize, first: usize, part: usize) -> Option<T<N>> {
    let shape = split_shape(&x.shape, axis, first, part)?;
    let axis = axis_of(axis, x.shape.len());
    let (extent, len) = (x.shape[axis], shape[axis]);
    let lo = if part == 0 { 0 } else { first };
    let outer: usize = x.shape[..axis].iter().product();
    let inner: usize = x.shape[axis + 1..].iter().product();
    let mut data = Vec::new();
    for o in 0..outer {
        let base = o * extent * inner;
        data.extend_from_slice(&x.data[base + lo * inner..base + (lo + len) * inner]);
    }
    Some(T::new(shape, data))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(shape: &[usize], data: &[i64]) -> T<i64> {
        T::new(shape.to_vec(), data.to_vec())
    }

    #[test]
    fn the_specifications_compute_what_they_say() {
        let a = t(&[2, 3], &[1, 2, 3, 4, 5, 6]);
        let b = t(&[3, 2], &[1, 0, 0, 1, 1, 1]);
        assert_eq!(eval(Op::MatMul, &[&a, &b]).unwrap(), t(&[2, 2], &[4, 5, 10, 11]));
        assert_eq!(eval(Op::Transpose, &[&a]).unwrap(), t(&[3, 2], &[1, 4, 2, 5, 3, 6]));
        let c = eval(Op::Concat(1), &[&a, &b.clone()]);
        assert!(c.is_none(), "rows differ");
        let c = eval(Op::Concat(1), &[&a, &a]).unwrap();
        assert_eq!(c, t(&[2, 6], &[1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6]));
        assert_eq!(split(&c, 1, 3, 1).unwrap(), a);
        assert_eq!(eval(Op::Relu, &[&t(&[1], &[2])]).unwrap(), t(&[1], &[7]));
        assert_eq!(eval(Op::Scale, &[&a, &t(&[], &[2])]).unwrap().data, vec![2, 4, 6, 8, 10, 12]);
        // A 3x3 "same" convolution with the enlarged 1x1 filter is the 1x1 convolution.
        let x = t(&[1, 1, 2, 2], &[1, 2, 3, 4]);
        let w = t(&[1, 1, 1, 1], &[3]);
        let big = eval(Op::Enlarge, &[&w]).unwrap();
        assert_eq!(eval(Op::Conv, &[&x, &big]), eval(Op::Conv, &[&x, &w]));
        assert_eq!(eval(Op::Conv, &[&x, &w]).unwrap().data, vec![3, 6, 9, 12]);
        // With a bias: each output channel plus its value.
        let two = t(&[2, 1, 1, 1], &[3, 1]);
        let got = eval(Op::ConvBias, &[&x, &two, &t(&[2], &[10, -1])]).unwrap();
        assert_eq!(got, t(&[1, 2, 2, 2], &[13, 16, 19, 22, 0, 1, 2, 3]));
        assert!(eval(Op::ConvBias, &[&x, &two, &t(&[1], &[10])]).is_none(), "one bias per output channel");
        // Pooling a 1x1x3x3 image: the max of each "same" window, the one 3x3 window's
        // mean.
        let img: T<f64> = T::new(vec![1, 1, 3, 3], (1..=9).map(|v| v as f64).collect());
        assert_eq!(eval(Op::MaxPool, &[&img]).unwrap().data, vec![5., 6., 6., 8., 9., 9., 8., 9., 9.]);
        assert_eq!(eval(Op::AvgPool, &[&img]).unwrap(), T::new(vec![1, 1, 1, 1], vec![5.0]));
        assert_eq!(Fill::Identity.constant::<i64>(&[2, 2, 1, 1]).unwrap().data, vec![1, 0, 0, 1]);
        assert!(Fill::Identity.constant::<i64>(&[2, 3]).is_none());
        assert_eq!(Fill::Ones.constant::<i64>(&[2]).unwrap().data, vec![1, 1]);
        // Broadcasting: a column plus a row; a scalar times a matrix; ranks that clash.
        let col = t(&[2, 1], &[10, 20]);
        let row = t(&[1, 3], &[1, 2, 3]);
        assert_eq!(eval_broadcast(Op::Add, &col, &row).unwrap(), t(&[2, 3], &[11, 12, 13, 21, 22, 23]));
        assert_eq!(eval_broadcast(Op::Mul, &t(&[], &[2]), &col).unwrap(), t(&[2, 1], &[20, 40]));
        assert!(broadcast_shape(&[2, 3], &[3, 2]).is_none());
    }
}
