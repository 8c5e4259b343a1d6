//! Layout strings for `graph.layout_transform`: `"NCHW"`, `"NHWC"`, `"NCHW16c"`,
//! `"OIHW4i16o"`.
//!
//! A layout lists the tensor's dimensions outermost first. An uppercase letter is a
//! logical dimension (its outer part when it is blocked); `<n><letter>` is an inner block
//! of `n` elements of that dimension. So `NCHW16c` is `(N, C/16, H, W, 16)` and logical
//! channel `c` sits at `(c / 16, ..., c % 16)`.
//!
//! [`Layout`] is the typed value; the compiler's layouts are made by its constructors
//! ([`Layout::nchw`], [`Layout::nchwc`], [`Layout::oihw_packed`], ...), and a
//! transform's `src`/`dst` attributes are written and read here only
//! ([`transform_attrs`], [`transform_layouts`]), so the text is parsed in one place.

use std::collections::BTreeMap;
use std::fmt;

use tcc_ir::{AttrDict, Attribute, Module, Op, Signature};

/// One dimension of a layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutDim {
    Outer(char),
    Inner(char, i64),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub dims: Vec<LayoutDim>,
}

impl Layout {
    fn letters_of(text: &str) -> Layout {
        Layout::parse(text).expect("a valid built-in layout")
    }

    /// Activations: batch, channels, height, width.
    pub fn nchw() -> Layout {
        Layout::letters_of("NCHW")
    }

    /// Activations with channels in blocks of `block` innermost: `NCHW{block}c`.
    pub fn nchwc(block: i64) -> Layout {
        Layout { dims: [Layout::nchw().dims, vec![LayoutDim::Inner('C', block)]].concat() }
    }

    /// Convolution filters: output channels, input channels, kernel rows, columns.
    pub fn oihw() -> Layout {
        Layout::letters_of("OIHW")
    }

    /// Filters packed for the blocked convolution: `OIHW{i}i{o}o`.
    pub fn oihw_packed(input_block: i64, output_block: i64) -> Layout {
        let mut dims = Layout::oihw().dims;
        dims.extend([LayoutDim::Inner('I', input_block), LayoutDim::Inner('O', output_block)]);
        Layout { dims }
    }

    /// bf16 filters packed for the bf16 dot kernels: the packed blocks with pairs of
    /// input channels side by side, `OIHW{i/2}i{o}o2i` (`[O/o, I/i, KH, KW, i/2, o, 2]`).
    pub fn oihw_pairs(input_block: i64, output_block: i64) -> Layout {
        let mut dims = Layout::oihw().dims;
        dims.extend([
            LayoutDim::Inner('I', input_block / 2),
            LayoutDim::Inner('O', output_block),
            LayoutDim::Inner('I', 2),
        ]);
        Layout { dims }
    }

    /// A matmul's right operand: reduction rows, columns.
    pub fn kn() -> Layout {
        Layout::letters_of("KN")
    }

    /// A matmul's right operand packed in column blocks: `NK{n}n`.
    pub fn nk_packed(block: i64) -> Layout {
        Layout { dims: vec![LayoutDim::Outer('N'), LayoutDim::Outer('K'), LayoutDim::Inner('N', block)] }
    }

    /// A matmul's right operand of bf16 packed for the dot instructions: column blocks
    /// with pairs of reduction rows side by side, `NK{n}n2k` (`[N/n, K/2, n, 2]`; an odd
    /// K padded with a zero row).
    pub fn nk_pairs(block: i64) -> Layout {
        let mut dims = Layout::nk_packed(block).dims;
        dims.push(LayoutDim::Inner('K', 2));
        Layout { dims }
    }

    /// The channel block of an `NCHW{b}c` layout (`None` for any other layout).
    pub fn channel_block(&self) -> Option<i64> {
        match self.dims.as_slice() {
            [
                LayoutDim::Outer('N'),
                LayoutDim::Outer('C'),
                LayoutDim::Outer('H'),
                LayoutDim::Outer('W'),
                LayoutDim::Inner('C', b),
            ] => Some(*b),
            _ => None,
        }
    }

    pub fn parse(s: &str) -> Result<Layout, String> {
        let mut dims = Vec::new();
        let mut chars = s.chars().peekable();
        while let Some(&c) = chars.peek() {
            if c.is_ascii_uppercase() {
                dims.push(LayoutDim::Outer(c));
                chars.next();
            } else if c.is_ascii_digit() {
                let mut n: i64 = 0;
                while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    n = n
                        .checked_mul(10)
                        .and_then(|n| n.checked_add(d as i64 - '0' as i64))
                        .ok_or("block size too large")?;
                    chars.next();
                }
                match chars.next() {
                    Some(l) if l.is_ascii_lowercase() && n > 0 => {
                        dims.push(LayoutDim::Inner(l.to_ascii_uppercase(), n))
                    }
                    _ => {
                        return Err(format!(
                            "layout \"{s}\": a block size must be positive and followed by a lowercase letter"
                        ));
                    }
                }
            } else {
                return Err(format!("layout \"{s}\": unexpected character '{c}'"));
            }
        }
        let layout = Layout { dims };
        // A letter is one outer dimension and any number of inner blocks (oneDNN's
        // `OIhw8i16o2i`: input channels in blocks of 16 split in pairs).
        let mut outer = BTreeMap::new();
        let mut inner = BTreeMap::new();
        for d in &layout.dims {
            match d {
                LayoutDim::Outer(l) => {
                    if outer.insert(*l, ()).is_some() {
                        return Err(format!("layout \"{s}\": dimension '{l}' appears twice"));
                    }
                }
                LayoutDim::Inner(l, _) => {
                    inner.insert(*l, ());
                }
            }
        }
        if let Some(l) = inner.keys().find(|l| !outer.contains_key(l)) {
            return Err(format!("layout \"{s}\": block of '{}' without dimension '{l}'", l.to_ascii_lowercase()));
        }
        if layout.dims.is_empty() {
            return Err("empty layout".into());
        }
        Ok(layout)
    }

    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    fn letters(&self) -> Vec<char> {
        let mut v: Vec<char> = self
            .dims
            .iter()
            .filter_map(|d| match d {
                LayoutDim::Outer(l) => Some(*l),
                _ => None,
            })
            .collect();
        v.sort_unstable();
        v
    }

    fn block(&self, letter: char) -> i64 {
        self.dims
            .iter()
            .map(|d| match d {
                LayoutDim::Inner(l, b) if *l == letter => *b,
                _ => 1,
            })
            .product()
    }

    /// Logical extent of each dimension letter, given this layout's physical shape.
    pub fn logical_sizes(&self, shape: &[i64]) -> Result<BTreeMap<char, i64>, String> {
        if shape.len() != self.rank() {
            return Err(format!("shape of rank {} does not match a layout of rank {}", shape.len(), self.rank()));
        }
        let mut sizes = BTreeMap::new();
        for (d, &n) in self.dims.iter().zip(shape) {
            match d {
                LayoutDim::Outer(l) => {
                    sizes.insert(*l, n.checked_mul(self.block(*l)).ok_or("shape too large")?);
                }
                LayoutDim::Inner(l, b) if n != *b => {
                    return Err(format!("block dimension {}{} has extent {n}", b, l.to_ascii_lowercase()));
                }
                LayoutDim::Inner(..) => {}
            }
        }
        Ok(sizes)
    }

    /// The physical shape of a tensor with the given logical sizes in this layout: a
    /// blocked dimension's outer extent rounds up, and the lanes past the logical size
    /// are padding.
    pub fn physical_shape(&self, sizes: &BTreeMap<char, i64>) -> Result<Vec<i64>, String> {
        self.dims
            .iter()
            .map(|d| match d {
                LayoutDim::Inner(_, b) => Ok(*b),
                LayoutDim::Outer(l) => {
                    let n = *sizes.get(l).ok_or_else(|| format!("no size for dimension {l}"))?;
                    Ok((n + self.block(*l) - 1) / self.block(*l))
                }
            })
            .collect()
    }

    /// For each letter, the logical sizes a tensor of this physical shape can hold:
    /// exactly the extent for a plain dimension, `((outer - 1) * block, outer * block]`
    /// for a blocked one (the last block may be padded).
    pub fn logical_bounds(&self, shape: &[i64]) -> Result<BTreeMap<char, (i64, i64)>, String> {
        let full = self.logical_sizes(shape)?;
        Ok(full
            .into_iter()
            .map(|(l, hi)| {
                let b = self.block(l);
                (l, (if b == 1 || hi == 0 { hi } else { hi - b + 1 }, hi))
            })
            .collect())
    }

    /// How many logical steps of `letter` one step of dimension `pos` is: the product of
    /// the letter's blocks after `pos`.
    fn inner_stride(&self, pos: usize, letter: char) -> usize {
        self.dims[pos + 1..]
            .iter()
            .map(|e| match e {
                LayoutDim::Inner(m, b) if *m == letter => *b as usize,
                _ => 1,
            })
            .product()
    }

    /// For each physical dimension: its letter, how many logical steps one step of it
    /// is, and for an inner block its size. A letter's logical coordinate is the sum of
    /// `index * multiplier` over its dimensions; conversely dimension `pos` holds
    /// `coordinate / multiplier`, taken modulo the block size for inner dimensions.
    pub fn components(&self) -> Vec<(char, usize, Option<usize>)> {
        self.dims
            .iter()
            .enumerate()
            .map(|(pos, d)| match d {
                LayoutDim::Outer(l) => (*l, self.block(*l) as usize, None),
                LayoutDim::Inner(l, b) => (*l, self.inner_stride(pos, *l), Some(*b as usize)),
            })
            .collect()
    }

    /// Logical coordinate of each letter for a physical index.
    pub fn logical_index(&self, index: &[usize]) -> BTreeMap<char, usize> {
        let mut coords: BTreeMap<char, usize> = BTreeMap::new();
        // Each letter's coordinate is built outermost first: c = ((outer * b1) + i1) * b2 + i2 ...
        for (d, &i) in self.dims.iter().zip(index) {
            match d {
                LayoutDim::Outer(l) => *coords.entry(*l).or_default() += i * self.block(*l) as usize,
                LayoutDim::Inner(..) => {}
            }
        }
        for (pos, (d, &i)) in self.dims.iter().zip(index).enumerate() {
            if let LayoutDim::Inner(l, _) = d {
                *coords.entry(*l).or_default() += i * self.inner_stride(pos, *l);
            }
        }
        coords
    }

    /// The physical index of logical coordinates.
    pub fn physical_index(&self, coords: &BTreeMap<char, usize>) -> Vec<usize> {
        self.dims
            .iter()
            .enumerate()
            .map(|(pos, d)| match d {
                LayoutDim::Outer(l) => coords[l] / self.block(*l) as usize,
                LayoutDim::Inner(l, b) => (coords[l] / self.inner_stride(pos, *l)) % *b as usize,
            })
            .collect()
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.dims {
            match d {
                LayoutDim::Outer(l) => write!(f, "{l}")?,
                LayoutDim::Inner(l, b) => write!(f, "{b}{}", l.to_ascii_lowercase())?,
            }
        }
        Ok(())
    }
}

/// The attributes of a `graph.layout_transform` from `src` to `dst`.
pub fn transform_attrs(src: &Layout, dst: &Layout) -> AttrDict {
    AttrDict::new().with("src", Attribute::string(&src.to_string())).with("dst", Attribute::string(&dst.to_string()))
}

/// The source and destination layouts of a `graph.layout_transform` with attributes
/// `attrs`, or what is wrong with them.
pub fn transform_layouts_of(attrs: &AttrDict) -> Result<(Layout, Layout), String> {
    let layout = |name: &str| {
        let text =
            attrs.get(name).and_then(|a| a.as_str()).ok_or_else(|| format!("requires string attribute '{name}'"))?;
        Layout::parse(text)
    };
    Ok((layout("src")?, layout("dst")?))
}

/// The source and destination layouts of layout transform `op` (`None` for other ops
/// and invalid layouts).
pub fn transform_layouts(m: &Module, op: Op) -> Option<(Layout, Layout)> {
    if !matches!(crate::kind_of(m, op), Some(crate::GraphOp::LayoutTransform)) {
        return None;
    }
    transform_layouts_of(m.attrs(op)).ok()
}

/// [`transform_layouts_of`] for an op's signature (verification and the interpreter).
pub fn transform_layouts_sig(sig: &Signature) -> Result<(Layout, Layout), String> {
    transform_layouts_of(sig.attrs)
}

/// The result shape of transforming `shape` from layout `src` to `dst` with every
/// logical size kept (blocks round up with padding).
pub fn transform_shape(src: &Layout, dst: &Layout, shape: &[i64]) -> Result<Vec<i64>, String> {
    if src.letters() != dst.letters() {
        return Err("source and destination layouts must name the same dimensions".into());
    }
    dst.physical_shape(&src.logical_sizes(shape)?)
}

/// The logical size of each letter that a transform from `src` (of `src_shape`) to
/// `dst` (of `dst_shape`) moves: the smaller of the two tensors' capacities. The shapes
/// must be able to hold a common logical size (a plain side fixes it exactly; a blocked
/// side allows any size that rounds up to its blocks). Lanes of the destination past
/// the logical size are zero; source lanes past it are dropped.
pub fn transform_sizes(
    src: &Layout,
    dst: &Layout,
    src_shape: &[i64],
    dst_shape: &[i64],
) -> Result<BTreeMap<char, i64>, String> {
    if src.letters() != dst.letters() {
        return Err("source and destination layouts must name the same dimensions".into());
    }
    let (a, b) = (src.logical_bounds(src_shape)?, dst.logical_bounds(dst_shape)?);
    let mut sizes = BTreeMap::new();
    for (l, &(lo_a, hi_a)) in &a {
        let (lo_b, hi_b) = b[l];
        if lo_a.max(lo_b) > hi_a.min(hi_b) {
            let show = |lo: i64, hi: i64| if lo == hi { format!("{lo}") } else { format!("{lo} to {hi}") };
            return Err(format!(
                "dimension {l} holds {} elements in the source but {} in the result",
                show(lo_a, hi_a),
                show(lo_b, hi_b)
            ));
        }
        sizes.insert(*l, hi_a.min(hi_b));
    }
    Ok(sizes)
}

/// Where each logical coordinate of one letter lives in a layout: the flat offset
/// contribution of coordinate `c` of `letter` is `offsets[c]`. A tensor's flat offset is
/// the sum over its letters, which is what makes layout transforms a table lookup per
/// letter instead of a division per element.
pub fn letter_offsets(layout: &Layout, shape: &[i64], letter: char, size: i64) -> Vec<usize> {
    let mut strides = vec![1usize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1] as usize;
    }
    let comps = layout.components();
    (0..size as usize)
        .map(|c| {
            comps
                .iter()
                .zip(&strides)
                .filter(|((l, _, _), _)| *l == letter)
                .map(|(&(_, mult, block), &stride)| {
                    let q = c / mult;
                    block.map_or(q, |b| q % b) * stride
                })
                .sum()
        })
        .collect()
}

/// The offsets of `letter`'s coordinates below `size` in a layout of `shape` (what
/// [`letter_offsets`] lists), as digits: the offset of coordinate `c` is the sum over
/// the digits `(mult, extent, stride)` of `(c / mult) % extent * stride`. Digits that are
/// always 0 below `size` are dropped and digits that continue each other (the next
/// multiplier and stride are this one's times its extent) are merged, so two layouts
/// place the letter alike when their digits are equal; computed from the layout alone,
/// whatever the extent (a billion channels lists nothing).
pub fn letter_digits(layout: &Layout, shape: &[i64], letter: char, size: i64) -> Vec<(u128, u128, u128)> {
    let size = size.max(0) as u128;
    let mut strides = vec![1u128; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1].max(0) as u128;
    }
    let mut digits: Vec<(u128, u128, u128)> = layout
        .components()
        .iter()
        .zip(&strides)
        .filter(|((l, _, _), _)| *l == letter)
        .filter_map(|(&(_, mult, block), &stride)| {
            let mult = mult as u128;
            // Coordinates below `size` reach at most this digit value, exclusive.
            let reached = size.div_ceil(mult.max(1));
            let extent = block.map_or(reached, |b| (b as u128).min(reached));
            (extent > 1).then_some((mult, extent, stride))
        })
        .collect();
    digits.sort();
    let mut merged: Vec<(u128, u128, u128)> = Vec::new();
    for d in digits {
        match merged.last_mut() {
            Some(last) if d.0 == last.0 * last.1 && d.2 == last.2 * last.1 => last.1 *= d.1,
            _ => merged.push(d),
        }
    }
    merged
}

/// Whether a transform from `src` (of `src_shape`) to `dst` (of `dst_shape`) moves no
/// element: as many elements on both sides, none padding, and every letter placed
/// alike ([`letter_digits`]). Exact when it says yes; a no may miss an unusual equal
/// placement (the transform is then carried out, still correctly).
pub fn moves_nothing(src: &Layout, dst: &Layout, src_shape: &[i64], dst_shape: &[i64]) -> bool {
    let numel = |s: &[i64]| s.iter().try_fold(1i64, |acc, &d| acc.checked_mul(d));
    let Ok(sizes) = transform_sizes(src, dst, src_shape, dst_shape) else { return false };
    let moved = sizes.values().try_fold(1i64, |acc, &d| acc.checked_mul(d));
    if moved.is_none() || moved != numel(src_shape) || moved != numel(dst_shape) {
        return false;
    }
    sizes.iter().all(|(&l, &n)| letter_digits(src, src_shape, l, n) == letter_digits(dst, dst_shape, l, n))
}

/// How a layout transform moves elements: for each letter, where each of its logical
/// coordinates lives in the source and in the destination ([`letter_offsets`]).
/// Letters are walked in the source layout's order (reads stay sequential for a plain
/// source), and letters of extent 1 only contribute a base offset.
pub struct TransformPlan {
    from: Vec<Vec<usize>>,
    to: Vec<Vec<usize>>,
    /// Offsets contributed by the letters of extent 1.
    base: (usize, usize),
    /// Elements of the destination.
    len: usize,
}

impl TransformPlan {
    pub fn new(src: &Layout, dst: &Layout, src_shape: &[i64], dst_shape: &[i64]) -> Result<TransformPlan, String> {
        let sizes = transform_sizes(src, dst, src_shape, dst_shape)?;
        let mut letters: Vec<(char, i64)> = sizes.into_iter().collect();
        let first_position = |l: char| src.components().iter().position(|c| c.0 == l);
        letters.sort_by_key(|&(l, _)| first_position(l));
        let (mut from, mut to, mut base) = (Vec::new(), Vec::new(), (0, 0));
        let empty = letters.iter().any(|&(_, n)| n <= 0);
        for (l, n) in letters {
            let (f, t) = (letter_offsets(src, src_shape, l, n), letter_offsets(dst, dst_shape, l, n));
            if n == 1 && !empty {
                base = (base.0 + f[0], base.1 + t[0]);
            } else {
                from.push(f);
                to.push(t);
            }
        }
        Ok(TransformPlan { from, to, base, len: dst_shape.iter().product::<i64>() as usize })
    }

    /// Calls `copy(destination, source)` for every moved element (padding is skipped).
    pub fn for_each(&self, mut copy: impl FnMut(usize, usize)) {
        fn walk(level: usize, p: &TransformPlan, f: usize, t: usize, copy: &mut impl FnMut(usize, usize)) {
            if level + 1 == p.from.len() {
                for (a, b) in p.from[level].iter().zip(&p.to[level]) {
                    copy(t + b, f + a);
                }
                return;
            }
            for (a, b) in p.from[level].iter().zip(&p.to[level]) {
                walk(level + 1, p, f + a, t + b, copy);
            }
        }
        if self.from.iter().any(|t| t.is_empty()) {
            return;
        }
        let (f, t) = self.base;
        if self.from.is_empty() {
            copy(t, f);
        } else {
            walk(0, self, f, t, &mut copy);
        }
    }

    /// The destination of the transform of `src`, padding filled with `T::default()`.
    pub fn apply<T: Copy + Default>(&self, src: &[T]) -> Vec<T> {
        let mut out = vec![T::default(); self.len];
        self.for_each(|t, f| out[t] = src[f]);
        out
    }
}

/// For every element of the destination (row-major), the flat index of the source
/// element it copies, or `None` for padding.
pub fn transform_index(
    src: &Layout,
    dst: &Layout,
    src_shape: &[i64],
    dst_shape: &[i64],
) -> Result<Vec<Option<usize>>, String> {
    let plan = TransformPlan::new(src, dst, src_shape, dst_shape)?;
    let mut index = vec![None; plan.len];
    plan.for_each(|t, f| index[t] = Some(f));
    Ok(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_shapes() {
        for text in ["NCHW", "NCHW16c", "OIHW4i16o", "NK32n", "KN", "NCHW2h"] {
            assert_eq!(Layout::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(Layout::nchwc(16), Layout::parse("NCHW16c").unwrap());
        assert_eq!(Layout::oihw_packed(4, 16), Layout::parse("OIHW4i16o").unwrap());
        assert_eq!(Layout::oihw_pairs(16, 16), Layout::parse("OIHW8i16o2i").unwrap());
        assert_eq!(Layout::nk_packed(32), Layout::parse("NK32n").unwrap());
        assert_eq!(Layout::nchwc(8).channel_block(), Some(8));
        assert_eq!(Layout::nchw().channel_block(), None);
        assert_eq!(Layout::parse("NCHW2h").unwrap().channel_block(), None);
        let nchw = Layout::parse("NCHW").unwrap();
        let blocked = Layout::parse("NCHW16c").unwrap();
        assert_eq!(transform_shape(&nchw, &blocked, &[1, 32, 7, 7]).unwrap(), vec![1, 2, 7, 7, 16]);
        assert_eq!(transform_shape(&blocked, &nchw, &[1, 2, 7, 7, 16]).unwrap(), vec![1, 32, 7, 7]);
        let oihw = Layout::parse("OIHW").unwrap();
        let packed = Layout::parse("OIHW4i16o").unwrap();
        assert_eq!(transform_shape(&oihw, &packed, &[32, 8, 3, 3]).unwrap(), vec![2, 2, 3, 3, 4, 16]);
        // Padding: 30 channels need two blocks of 16.
        assert_eq!(transform_shape(&nchw, &blocked, &[1, 30, 7, 7]).unwrap(), vec![1, 2, 7, 7, 16]);
        assert_eq!(transform_sizes(&blocked, &nchw, &[1, 2, 7, 7, 16], &[1, 30, 7, 7]).unwrap()[&'C'], 30);
        assert!(transform_sizes(&blocked, &nchw, &[1, 2, 7, 7, 16], &[1, 12, 7, 7]).is_err());
        assert!(transform_sizes(&blocked, &nchw, &[1, 2, 7, 7, 16], &[1, 33, 7, 7]).is_err());
        assert!(Layout::parse("NCHW16").is_err());
        assert!(Layout::parse("NCC").is_err());
        assert!(Layout::parse("NCHW4c4c").is_ok());
        assert!(Layout::parse("NHW16c").is_err());
    }

    #[test]
    fn transform_index_pads_and_drops() {
        let nchw = Layout::parse("NCHW").unwrap();
        let blocked = Layout::parse("NCHW4c").unwrap();
        // 1x6x1x2 -> 1x2x1x2x4: channel c at block c/4, lane c%4; lanes 6, 7 are padding.
        let idx = transform_index(&nchw, &blocked, &[1, 6, 1, 2], &[1, 2, 1, 2, 4]).unwrap();
        assert_eq!(idx.len(), 16);
        assert_eq!(idx[0], Some(0)); // c0 w0
        assert_eq!(idx[1], Some(2)); // c1 w0
        assert_eq!(idx[4], Some(1)); // c0 w1
        assert_eq!(idx[8], Some(8)); // c4 w0
        assert_eq!(idx[10], None); // c6 w0: padding
        let back = transform_index(&blocked, &nchw, &[1, 2, 1, 2, 4], &[1, 6, 1, 2]).unwrap();
        assert_eq!(
            back,
            vec![
                Some(0),
                Some(4),
                Some(1),
                Some(5),
                Some(2),
                Some(6),
                Some(3),
                Some(7),
                Some(8),
                Some(12),
                Some(9),
                Some(13)
            ]
        );
    }

    #[test]
    fn a_letter_with_two_blocks_splits_its_coordinate_outermost_first() {
        // OIHW2i4o2i: input channel i at (i / 4, (i / 2) % 2, i % 2); 3 input channels
        // pad to 4, the last pair's second lane (i = 3) zero.
        let (oihw, pairs) = (Layout::oihw(), Layout::oihw_pairs(4, 4));
        assert_eq!(pairs.to_string(), "OIHW2i4o2i");
        assert_eq!(transform_shape(&oihw, &pairs, &[4, 3, 1, 1]).unwrap(), vec![1, 1, 1, 1, 2, 4, 2]);
        let coords = pairs.logical_index(&[0, 1, 0, 0, 1, 3, 1]);
        assert_eq!((coords[&'I'], coords[&'O']), (7, 3));
        assert_eq!(pairs.physical_index(&coords), vec![0, 1, 0, 0, 1, 3, 1]);
        let idx = transform_index(&oihw, &pairs, &[4, 3, 1, 1], &[1, 1, 1, 1, 2, 4, 2]).unwrap();
        // Destination (i pair p, o, lane l) holds source o * 3 + 2p + l.
        assert_eq!(idx[0], Some(0)); // o0 i0
        assert_eq!(idx[1], Some(1)); // o0 i1
        assert_eq!(idx[2], Some(3)); // o1 i0
        assert_eq!(idx[8], Some(2)); // o0 i2
        assert_eq!(idx[9], None); // o0 i3: padding
    }

    #[test]
    fn indices_round_trip() {
        let l = Layout::parse("NCHW8c").unwrap();
        let coords = l.logical_index(&[0, 2, 1, 3, 5]);
        assert_eq!(coords[&'C'], 21);
        assert_eq!(l.physical_index(&coords), vec![0, 2, 1, 3, 5]);
    }
}
