//! Matmuls, convolutions and pools, and the patterns the optimizer turns into kernels
//! with epilogues and fusion groups (conv blocks, linear layers, softmax written out,
//! norms, attention) or merge (grouped convolutions written as one per group).

use std::fmt::Write as _;

use tcc::graph::layout::{Layout, transform_shape};
use tcc::graph::{Data, Tensor as ITensor};

use super::*;

/// The weights, result shape and attributes of a convolution.
struct ConvShape {
    weights: [i64; 4],
    out: Vec<i64>,
    attrs: String,
    bias: bool,
}

impl Gen<'_, '_> {
    pub(super) fn matmul(&mut self) -> Option<usize> {
        match self.src.int(0, 3) {
            0 | 1 => {
                // Constant weights [K, N] (packed).
                let a = self.pick(|v| (v.elem.is_float() || v.elem.is_int()) && !v.shape.is_empty())?;
                let (e, k) = (self.vals[a].elem, *self.vals[a].shape.last().unwrap());
                let n = self.extent();
                let bs = match self.src.int(0, 9) {
                    0 => vec![k],
                    1 => vec![1, k, n],
                    _ => vec![k, n],
                };
                let st = if e.is_float() {
                    self.src.pick(&[Style::Small, Style::Small, Style::Ties, Style::Special])
                } else {
                    Style::Ints
                };
                let b = self.constant(&bs, e, st);
                self.e_matmul(a, b)
            }
            2 => {
                // Two activations with equal batch dimensions (attention's products).
                let a = self.pick(|v| v.elem.is_float() && v.shape.len() >= 2)?;
                let s = self.vals[a].shape.clone();
                let mut bs = s.clone();
                let r = bs.len();
                bs[r - 2] = s[r - 1];
                bs[r - 1] = self.extent();
                let e = self.vals[a].elem;
                let found = self.pick(|v| v.elem == e && v.shape == bs);
                let b = match found {
                    Some(b) => b,
                    None => {
                        let st = self.style();
                        self.input(&bs, e, st)
                    }
                };
                self.e_matmul(a, b)
            }
            _ => {
                // A vector times a matrix, or broadcasting batch dimensions.
                let b = self.pick(|v| v.elem.is_float() && v.shape.len() >= 2)?;
                let s = self.vals[b].shape.clone();
                let e = self.vals[b].elem;
                let k = s[s.len() - 2];
                let a_shape = if self.src.chance(50) { vec![k] } else { vec![self.src.int(1, 3), 1, self.extent(), k] };
                let st = self.style();
                let a = self.operand(&a_shape, e, st);
                self.e_matmul(a, b)
            }
        }
    }

    pub(super) fn e_matmul(&mut self, a: usize, b: usize) -> Option<usize> {
        let e = self.vals[a].elem;
        if self.vals[b].elem != e || e == Elem::I1 {
            return None;
        }
        let (sa, sb) = (self.vals[a].shape.clone(), self.vals[b].shape.clone());
        if sa.is_empty() || sb.is_empty() {
            return None;
        }
        let ka = sa[sa.len() - 1];
        let kb = if sb.len() == 1 { sb[0] } else { sb[sb.len() - 2] };
        if ka != kb {
            return None;
        }
        let ba = if sa.len() > 2 { &sa[..sa.len() - 2] } else { &[][..] };
        let bb = if sb.len() > 2 { &sb[..sb.len() - 2] } else { &[][..] };
        let mut out = broadcast(ba, bb)?;
        if sa.len() >= 2 {
            out.push(sa[sa.len() - 2]);
        }
        if sb.len() >= 2 {
            out.push(sb[sb.len() - 1]);
        }
        if numel(&out) > MAX_NUMEL || numel(&out) * ka > MAX_MACS {
            return None;
        }
        let (a, b) = if e.is_float() { (self.tame(a, 100.0), self.tame(b, 100.0)) } else { (a, b) };
        let approx = !(self.vals[a].info.exact() && self.vals[b].info.exact());
        let (a, b) = if approx { (self.finite(a), self.finite(b)) } else { (a, b) };
        let info = self.product_info(e, ka, self.vals[a].info, self.vals[b].info, None);
        Some(self.emit("graph.matmul", &[a, b], "", out, e, info))
    }

    /// A sum of `k` products (plus a bias): matmul and conv.
    pub(super) fn product_info(&self, e: Elem, k: i64, x: Info, w: Info, bias: Option<Info>) -> Info {
        let kf = k as f64;
        let (mx, mw) = (x.mag(), w.mag());
        let (mb, eb) = bias.map_or((0.0, 0.0), |b| (b.mag(), b.err));
        let mag = kf * mx * mw + mb;
        let special = x.special || w.special || bias.is_some_and(|b| b.special);
        if e.is_int() {
            return Info::new(e, -mag, mag, false, 0.0);
        }
        let own = e.eps() * (kf + 2.0) * mag;
        let err = kf * (x.err * mw + w.err * mx + x.err * w.err) + eb + own;
        Info::new(e, -mag, mag, special, err).widened(own)
    }

    /// An NCHW float activation: an earlier one or a new input.
    pub(super) fn image(&mut self) -> usize {
        match self.pick(|v| v.elem.is_float() && v.shape.len() == 4 && numel(&v.shape) <= 1024) {
            Some(x) if self.src.chance(80) => x,
            _ => {
                let s = self.image_shape();
                let st = self.style();
                self.input(&s, Elem::F32, st)
            }
        }
    }

    pub(super) fn conv(&mut self) -> Option<usize> {
        let x = self.image();
        self.conv_of(x)
    }

    pub(super) fn conv_of(&mut self, x: usize) -> Option<usize> {
        let (x, weight_style) = self.conv_input(x);
        let c = self.vals[x].shape[1];
        let groups = match self.src.int(0, 9) {
            0..=5 => 1,
            6 | 7 => c,
            _ => {
                let d: Vec<i64> = (1..=c).filter(|g| c % g == 0).collect();
                self.src.pick(&d)
            }
        };
        let o = if groups == 1 { self.src.pick(&[1, 2, 3, 4, 5, 8, 16, 17]) } else { groups * self.src.int(1, 2) };
        let conv = self.conv_shape(&self.vals[x].shape.clone(), groups, o)?;
        Some(self.conv_with(x, &conv, weight_style))
    }

    /// `x` made a convolution input (tamed; finite unless exact), and the style its
    /// weights may have (infinities meet only exact values, see `finite`).
    fn conv_input(&mut self, x: usize) -> (usize, Style) {
        let x = self.tame(x, 100.0);
        let wst = self.src.pick(&[Style::Small, Style::Small, Style::Small, Style::Ties, Style::Ints, Style::Special]);
        if self.vals[x].info.exact() {
            (x, wst)
        } else {
            (self.finite(x), if wst == Style::Special { Style::Small } else { wst })
        }
    }

    /// A random window, strides, dilations and padding for a convolution with `groups`
    /// and `o` output channels of an input of shape `s`; `None` if it is too large.
    fn conv_shape(&mut self, s: &[i64], groups: i64, o: i64) -> Option<ConvShape> {
        let (n, c, h, w) = (s[0], s[1], s[2], s[3]);
        let (kh, kw) = (self.src.pick(&[1, 1, 2, 3, 3, 5]), self.src.pick(&[1, 1, 2, 3, 3, 5]));
        let strides = [self.src.pick(&[1, 1, 1, 2, 3]), self.src.pick(&[1, 1, 1, 2, 3])];
        let dil = [self.src.pick(&[1, 1, 1, 2]), self.src.pick(&[1, 1, 1, 2])];
        let mut pads = [0i64; 4];
        for (i, p) in pads.iter_mut().enumerate() {
            let k = if i % 2 == 0 { kh } else { kw };
            *p = if self.src.chance(60) { k / 2 } else { self.src.int(0, 3) };
        }
        // Windows must fit the padded input.
        let span = |k: i64, d: i64| d * (k - 1) + 1;
        while h + pads[0] + pads[2] < span(kh, dil[0]) {
            pads[2] += 1;
        }
        while w + pads[1] + pads[3] < span(kw, dil[1]) {
            pads[3] += 1;
        }
        let oh = (h + pads[0] + pads[2] - span(kh, dil[0])) / strides[0] + 1;
        let ow = (w + pads[1] + pads[3] - span(kw, dil[1])) / strides[1] + 1;
        let out = vec![n, o, oh, ow];
        if numel(&out) > MAX_NUMEL || numel(&out) * (c / groups) * kh * kw > MAX_MACS {
            return None;
        }
        let mut attrs = vec![];
        if strides != [1, 1] || self.src.chance(30) {
            attrs.push(format!("strides = [{}]", list(&strides)));
        }
        if pads != [0; 4] || self.src.chance(30) {
            attrs.push(format!("pads = [{}]", list(&pads)));
        }
        if dil != [1, 1] || self.src.chance(30) {
            attrs.push(format!("dilations = [{}]", list(&dil)));
        }
        if groups != 1 || self.src.chance(30) {
            attrs.push(format!("groups = {groups}"));
        }
        let bias = self.src.chance(50);
        Some(ConvShape { weights: [o, c / groups, kh, kw], out, attrs: attrs.join(", "), bias })
    }

    /// The convolution of `x` (from [`Self::conv_input`]) by new weights of `shape`.
    fn conv_with(&mut self, x: usize, shape: &ConvShape, weight_style: Style) -> usize {
        let e = self.vals[x].elem;
        let ws = shape.weights;
        let wt =
            if self.src.chance(10) { self.input(&ws, e, weight_style) } else { self.constant(&ws, e, weight_style) };
        let bias = if shape.bias {
            let st = self.style();
            Some(self.constant(&[ws[0]], e, st))
        } else {
            None
        };
        let k = ws[1] * ws[2] * ws[3];
        let info = self.product_info(e, k, self.vals[x].info, self.vals[wt].info, bias.map(|b| self.vals[b].info));
        let mut operands = vec![x, wt];
        operands.extend(bias);
        self.emit("graph.conv2d", &operands, &shape.attrs, shape.out.clone(), e, info)
    }

    /// A grouped convolution as torch-mlir exports it: the input's channels sliced into
    /// pieces, one convolution (with the same attributes) per piece, and a concat of
    /// the results; sometimes each result is transposed to NHWC and concatenated there,
    /// then transposed back.
    pub(super) fn split_conv(&mut self) -> Option<usize> {
        let x = self.image();
        let (x, weight_style) = self.conv_input(x);
        let s = self.vals[x].shape.clone();
        let pieces: Vec<i64> = (2..=s[1].min(6)).filter(|p| s[1] % p == 0).collect();
        if pieces.is_empty() {
            return None;
        }
        let n = self.src.pick(&pieces);
        let width = s[1] / n;
        let groups = if self.src.chance(25) { width } else { 1 };
        let o = groups * self.src.int(1, 3);
        let mut piece_shape = s.clone();
        piece_shape[1] = width;
        let conv = self.conv_shape(&piece_shape, groups, o)?;
        let nhwc = self.src.chance(50);
        let start = self.vals.len();
        let mut parts = Vec::new();
        for i in 0..n {
            let attrs = format!("starts = [0, {}, 0, 0], sizes = [{}]", i * width, list(&piece_shape));
            let info = self.vals[x].info;
            let slice = self.emit("graph.slice", &[x], &attrs, piece_shape.clone(), self.vals[x].elem, info);
            let y = self.conv_with(slice, &conv, weight_style);
            parts.push(if nhwc { self.e_transpose(y, &[0, 2, 3, 1]) } else { y });
        }
        self.hide_from(start);
        let e = self.vals[x].elem;
        let infos: Vec<Info> = parts.iter().map(|&p| self.vals[p].info).collect();
        let info = Info::union(e, &infos);
        let mut out = self.vals[parts[0]].shape.clone();
        let axis = if nhwc { 3 } else { 1 };
        out[axis] *= n;
        let y = self.emit("graph.concat", &parts, &format!("axis = {axis}"), out, e, info);
        Some(if nhwc { self.e_transpose(y, &[0, 3, 1, 2]) } else { y })
    }

    pub(super) fn pool(&mut self) -> Option<usize> {
        let x = self.image();
        let max = self.src.chance(50);
        let x = if max { x } else { self.tame(x, TAME) };
        let (e, s, a) = (self.vals[x].elem, self.vals[x].shape.clone(), self.vals[x].info);
        let (kh, kw) = (self.src.int(1, 4), self.src.int(1, 4));
        let strides = [self.src.int(1, 3), self.src.int(1, 3)];
        let pads = [self.src.int(0, kh - 1), self.src.int(0, kw - 1), self.src.int(0, kh - 1), self.src.int(0, kw - 1)];
        if s[2] + pads[0] + pads[2] < kh || s[3] + pads[1] + pads[3] < kw {
            return None;
        }
        let oh = (s[2] + pads[0] + pads[2] - kh) / strides[0] + 1;
        let ow = (s[3] + pads[1] + pads[3] - kw) / strides[1] + 1;
        let out = vec![s[0], s[1], oh, ow];
        let mut attrs = format!("kernel = [{kh}, {kw}], strides = [{}]", list(&strides));
        if pads != [0; 4] || self.src.chance(30) {
            attrs += &format!(", pads = [{}]", list(&pads));
        }
        if max {
            return Some(self.emit("graph.max_pool2d", &[x], &attrs, out, e, a));
        }
        if self.src.chance(50) {
            attrs += ", count_include_pad = true";
        }
        let own = e.eps() * ((kh * kw) as f64 + 2.0) * a.mag();
        let info = Info::new(e, a.lo.min(0.0), a.hi.max(0.0), a.special, a.err + own).widened(own);
        Some(self.emit("graph.avg_pool2d", &[x], &attrs, out, e, info))
    }

    // ---- patterns the optimizer rewrites ----

    /// A per-channel constant for an NCHW value: [1, C, 1, 1] or [C, 1, 1].
    pub(super) fn per_channel(&mut self, x: usize, style: Style) -> usize {
        let (e, s) = (self.vals[x].elem, self.vals[x].shape.clone());
        let shape = if self.src.chance(50) { vec![1, s[1], 1, 1] } else { vec![s[1], 1, 1] };
        self.constant(&shape, e, style)
    }

    /// conv2d, then what fuses into its epilogue: bias, batch-norm scale and shift,
    /// an activation, a residual add.
    pub(super) fn conv_block(&mut self) -> Option<usize> {
        let x = self.image();
        let mut y = self.conv_of(x)?;
        if self.src.chance(50) {
            let b = self.per_channel(y, Style::Small);
            y = self.e_binary("graph.add", y, b)?;
        }
        if self.src.chance(40) {
            let st = if self.src.chance(80) { Style::Nonzero } else { Style::Special };
            let s = self.per_channel(y, st);
            y = self.e_binary("graph.mul", y, s)?;
            let b = self.per_channel(y, Style::Small);
            let op = self.src.pick(&["graph.add", "graph.sub"]);
            y = self.e_binary(op, y, b)?;
        }
        if self.src.chance(40) {
            let s = self.vals[y].shape.clone();
            let e = self.vals[y].elem;
            let r = self.pick(|v| v.shape == s && v.elem == e);
            if let Some(r) = r {
                y = if self.src.chance(50) {
                    self.e_binary("graph.add", y, r)?
                } else {
                    self.e_binary("graph.add", r, y)?
                };
            }
        }
        match self.src.int(0, 5) {
            0 | 1 => self.e_unary("graph.relu", y),
            2 => Some(self.e_clamp(y, 0.0, 6.0)),
            3 => {
                let sg = self.e_unary("graph.sigmoid", y)?;
                self.e_binary("graph.mul", y, sg)
            }
            4 => {
                let op = self.src.pick(&["graph.gelu", "graph.tanh"]);
                self.e_unary(op, y)
            }
            _ => Some(y),
        }
    }

    /// matmul by constant weights, bias, activation.
    pub(super) fn linear(&mut self) -> Option<usize> {
        let a = match self.pick(|v| v.elem == Elem::F32 && !v.shape.is_empty()) {
            Some(a) => a,
            None => {
                let s = self.shape(2);
                self.input(&s, Elem::F32, Style::Small)
            }
        };
        let k = *self.vals[a].shape.last().unwrap();
        let n = self.extent();
        let w = self.constant(&[k, n], Elem::F32, Style::Small);
        let mut y = self.e_matmul(a, w)?;
        if self.src.chance(70) {
            let b = self.constant(&[n], Elem::F32, Style::Small);
            y = self.e_binary("graph.add", y, b)?;
        }
        let act = self.src.pick(&["graph.gelu", "graph.relu", "graph.tanh", "graph.neg"]);
        self.e_unary(act, y)
    }

    /// Marks the values from `start` on as internal to a pattern.
    pub(super) fn hide_from(&mut self, start: usize) {
        for v in &mut self.vals[start..] {
            v.hidden = true;
        }
    }

    /// Writes `op` with a placeholder info (a pattern's internal value).
    pub(super) fn internal(&mut self, op: &'static str, operands: &[usize], attrs: &str, shape: Vec<i64>) -> usize {
        let e = self.vals[operands[0]].elem;
        self.emit(op, operands, attrs, shape, e, Info::unknown(e))
    }

    /// softmax written out over trailing axes (max, sub, exp, sum, divide), as
    /// exporters write it; sometimes masked by a select of -inf first.
    pub(super) fn hand_softmax(&mut self) -> Option<usize> {
        let x = self.pick(|v| v.elem.is_float() && !v.shape.is_empty())?;
        let x = self.tame(x, TAME);
        let (e, s) = (self.vals[x].elem, self.vals[x].shape.clone());
        let rank = s.len();
        let first = if self.src.chance(60) { rank - 1 } else { self.src.int(0, rank as i64 - 1) as usize };
        let x = if self.src.chance(25) {
            let mask = self.input(&s, Elem::I1, Style::Small);
            let fill = self.splat(&[], e, f64::NEG_INFINITY);
            self.e_select(mask, fill, x)?
        } else {
            x
        };
        let a = self.vals[x].info;
        let start = self.vals.len();
        let mut row = s.clone();
        for d in row.iter_mut().skip(first) {
            *d = 1;
        }
        let n: i64 = s[first..].iter().product();
        let attrs = format!("axes = [{}], keepdims = true", list(&(first as i64..rank as i64).collect::<Vec<_>>()));
        let m = self.internal("graph.reduce_max", &[x], &attrs, row.clone());
        let d = self.internal("graph.sub", &[x, m], "", s.clone());
        let ex = self.internal("graph.exp", &[d], "", s.clone());
        let sum = self.internal("graph.reduce_sum", &[ex], &attrs, row.clone());
        let y = if self.src.chance(50) {
            let r = self.internal("graph.reciprocal", &[sum], "", row);
            self.internal("graph.mul", &[ex, r], "", s)
        } else {
            self.internal("graph.div", &[ex, sum], "", s)
        };
        self.hide_from(start);
        self.vals[y].hidden = false;
        let err = (2.0 * a.err).exp_m1() + e.eps() * (n as f64 + 64.0);
        self.vals[y].info = Info::new(e, 0.0, 1.0 + e.eps() * (n as f64 + 64.0), a.special, err);
        Some(y)
    }

    /// Layer norm or RMS norm over trailing axes, or a group norm of an NCHW value
    /// (through a reshape to groups), with a scale and shift.
    pub(super) fn norm(&mut self) -> Option<usize> {
        if self.src.chance(40) {
            return self.group_norm();
        }
        let x = self.pick(|v| v.elem.is_float() && !v.shape.is_empty())?;
        let rank = self.vals[x].shape.len();
        let first = if self.src.chance(60) { rank - 1 } else { self.src.int(0, rank as i64 - 1) as usize };
        let y = self.normalize(x, first)?;
        self.scale_shift(y, first)
    }

    pub(super) fn group_norm(&mut self) -> Option<usize> {
        let x = self.image();
        let x = if self.src.chance(60) { self.conv_of(x).unwrap_or(x) } else { x };
        let (s, e) = (self.vals[x].shape.clone(), self.vals[x].elem);
        let c = s[1];
        let divisors: Vec<i64> = (1..=c).filter(|g| c % g == 0).collect();
        let g = self.src.pick(&divisors);
        let grouped =
            if self.src.chance(50) { vec![s[0], g, (c / g) * s[2] * s[3]] } else { vec![s[0], g, c / g, s[2], s[3]] };
        let r = self.e_reshape(x, grouped.clone(), &grouped);
        let y = self.normalize(r, 2)?;
        let y = self.e_reshape(y, s.clone(), &s);
        let gamma = self.per_channel(y, Style::Nonzero);
        let y = self.e_binary("graph.mul", y, gamma)?;
        let beta = self.per_channel(y, Style::Small);
        let _ = e;
        self.e_binary("graph.add", y, beta)
    }

    /// (x - mean) / sqrt(var + eps) (or x / sqrt(mean(x^2) + eps)) over axes
    /// `first..`, with the error bound of the whole pattern.
    pub(super) fn normalize(&mut self, x: usize, first: usize) -> Option<usize> {
        let x = self.tame(x, 100.0);
        let (e, s, a) = (self.vals[x].elem, self.vals[x].shape.clone(), self.vals[x].info);
        let rank = s.len();
        let n: i64 = s[first..].iter().product();
        let mut row = s.clone();
        for d in row.iter_mut().skip(first) {
            *d = 1;
        }
        let rms = self.src.chance(25);
        let norm_eps = self.src.pick(&[1e-5, 1e-3, 0.0625, 1.0]);
        let attrs = format!("axes = [{}], keepdims = true", list(&(first as i64..rank as i64).collect::<Vec<_>>()));
        let start = self.vals.len();
        let c = if rms {
            x
        } else {
            let mean = self.internal("graph.reduce_mean", &[x], &attrs, row.clone());
            self.internal("graph.sub", &[x, mean], "", s.clone())
        };
        let sq = self.internal("graph.mul", &[c, c], "", s.clone());
        let var = if self.src.chance(70) {
            self.internal("graph.reduce_mean", &[sq], &attrs, row.clone())
        } else {
            let sum = self.internal("graph.reduce_sum", &[sq], &attrs, row.clone());
            let inv = self.splat(&[], e, 1.0 / n as f64);
            self.internal("graph.mul", &[sum, inv], "", row.clone())
        };
        let erank = self.src.int(0, rank as i64) as usize;
        let ec = self.splat(&vec![1; erank], e, norm_eps);
        let ve = self.internal("graph.add", &[var, ec], "", row.clone());
        let y = if self.src.chance(60) {
            let rs = self.internal("graph.rsqrt", &[ve], "", row);
            self.internal("graph.mul", &[c, rs], "", s)
        } else {
            let sd = self.internal("graph.sqrt", &[ve], "", row);
            self.internal("graph.div", &[c, sd], "", s)
        };
        self.hide_from(start);
        self.vals[y].hidden = false;
        // |y| <= sqrt(n). An error dc in the centred values moves y by at most
        // (1 + sqrt n) dc / sqrt(eps) + sqrt(n) dc^2 / (2 eps); the variance's and
        // rsqrt's rounding by sqrt(n) (n + 16) eps.
        let (nf, eps) = (n as f64, e.eps());
        let dc = 2.0 * a.err + 2.0 * (nf + 2.0) * eps * a.mag();
        let err = (1.0 + nf.sqrt()) * dc / norm_eps.sqrt()
            + nf.sqrt() * dc * dc / (2.0 * norm_eps)
            + nf.sqrt() * (nf + 16.0) * eps
            + e.math();
        let bound = nf.sqrt() * (1.0 + (nf + 16.0) * eps) + e.math();
        self.vals[y].info = Info::new(e, -bound, bound, a.special, err);
        Some(y)
    }

    /// y * gamma + beta with gamma and beta varying along the normalized axes.
    pub(super) fn scale_shift(&mut self, y: usize, first: usize) -> Option<usize> {
        if self.src.chance(40) {
            return Some(y);
        }
        let s = self.vals[y].shape.clone();
        let e = self.vals[y].elem;
        let cs: Vec<i64> = s.iter().enumerate().map(|(d, &k)| if d < first { 1 } else { k }).collect();
        let cs = cs[first.min(self.src.int(0, first as i64) as usize)..].to_vec();
        let gamma = self.constant(&cs, e, Style::Nonzero);
        let y = self.e_binary("graph.mul", y, gamma)?;
        let beta = self.constant(&cs, e, Style::Small);
        self.e_binary("graph.add", y, beta)
    }

    /// softmax(q k^T * scale) v on [B, S, D] inputs.
    pub(super) fn attention(&mut self) -> Option<usize> {
        let b = self.src.int(1, 3);
        let (sq, sk, d) = (self.extent().min(16), self.extent().min(16), self.extent().min(16));
        let q = self.input(&[b, sq, d], Elem::F32, Style::Small);
        let k = self.input(&[b, sk, d], Elem::F32, Style::Small);
        let v = self.input(&[b, sk, d], Elem::F32, Style::Small);
        let kt = self.e_transpose(k, &[0, 2, 1]);
        let scores = self.e_matmul(q, kt)?;
        let k = self.src.pick(&[0.125, 0.25, 0.5]);
        let scale = self.splat(&[], Elem::F32, k);
        let scaled = self.e_binary("graph.mul", scores, scale)?;
        let p = if self.src.chance(50) { self.e_softmax(scaled, 2)? } else { self.hand_softmax_of(scaled)? };
        self.e_matmul(p, v)
    }

    /// `hand_softmax` of a given value over its last axis.
    pub(super) fn hand_softmax_of(&mut self, x: usize) -> Option<usize> {
        let (e, s, a) = (self.vals[x].elem, self.vals[x].shape.clone(), self.vals[x].info);
        let rank = s.len();
        let mut row = s.clone();
        row[rank - 1] = 1;
        let n = s[rank - 1];
        let attrs = format!("axes = [{}], keepdims = true", rank - 1);
        let start = self.vals.len();
        let m = self.internal("graph.reduce_max", &[x], &attrs, row.clone());
        let d = self.internal("graph.sub", &[x, m], "", s.clone());
        let ex = self.internal("graph.exp", &[d], "", s.clone());
        let sum = self.internal("graph.reduce_sum", &[ex], &attrs, row);
        let y = self.internal("graph.div", &[ex, sum], "", s);
        self.hide_from(start);
        self.vals[y].hidden = false;
        let err = (2.0 * a.err).exp_m1() + e.eps() * (n as f64 + 64.0);
        self.vals[y].info = Info::new(e, 0.0, 1.0 + e.eps() * (n as f64 + 64.0), a.special, err);
        Some(y)
    }
}
