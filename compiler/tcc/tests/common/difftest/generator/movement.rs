//! Reductions, softmax and data movement (reshape, transpose, broadcast_to, concat,
//! split, slice, pad, gather, layout_transform).

use std::fmt::Write as _;

use tcc::graph::layout::{Layout, transform_shape};
use tcc::graph::{Data, Tensor as ITensor};

use super::*;

impl Gen<'_, '_> {
    pub(super) fn reduce(&mut self) -> Option<usize> {
        let x = self.pick(|v| v.elem != Elem::I1 && !v.shape.is_empty())?;
        let e = self.vals[x].elem;
        let rank = self.vals[x].shape.len();
        let op = if e.is_float() {
            self.src.pick(&["graph.reduce_sum", "graph.reduce_mean", "graph.reduce_max", "graph.reduce_min"])
        } else {
            self.src.pick(&["graph.reduce_sum", "graph.reduce_max", "graph.reduce_min"])
        };
        let axes: Vec<usize> = if self.src.chance(40) {
            // Trailing axes (rows, as norms reduce).
            let first = self.src.int(0, rank as i64 - 1) as usize;
            (first..rank).collect()
        } else {
            let mut a: Vec<usize> = (0..rank).filter(|_| self.src.chance(50)).collect();
            if a.is_empty() {
                a.push(self.src.int(0, rank as i64 - 1) as usize);
            }
            a
        };
        let keep = self.src.chance(50);
        self.e_reduce(op, x, &axes, keep)
    }

    pub(super) fn e_reduce(&mut self, op: &'static str, x: usize, axes: &[usize], keep: bool) -> Option<usize> {
        let e = self.vals[x].elem;
        let approx = e.is_float() && (op == "graph.reduce_sum" || op == "graph.reduce_mean");
        let x = if approx { self.tame(x, TAME) } else { x };
        let s = self.vals[x].shape.clone();
        let rank = s.len() as i64;
        let n: i64 = axes.iter().map(|&d| s[d]).product();
        let mut out = Vec::new();
        for (d, &ext) in s.iter().enumerate() {
            if !axes.contains(&d) {
                out.push(ext);
            } else if keep {
                out.push(1);
            }
        }
        let a = self.vals[x].info;
        let nf = n as f64;
        let info = match op {
            "graph.reduce_max" | "graph.reduce_min" => a,
            "graph.reduce_sum" if e.is_int() => Info::new(e, nf * a.lo.min(0.0), nf * a.hi.max(0.0), false, 0.0),
            "graph.reduce_sum" => {
                let own = e.eps() * (nf + 1.0) * nf * a.mag();
                let err = nf * a.err + own;
                Info::new(e, nf * a.lo.min(0.0), nf * a.hi.max(0.0), a.special, err).widened(own)
            }
            _ => {
                let own = e.eps() * (nf + 2.0) * a.mag();
                Info::new(e, a.lo, a.hi, a.special, a.err + own).widened(own)
            }
        };
        // Axes in any order, some negative.
        let mut shown: Vec<i64> = axes.iter().map(|&d| d as i64).collect();
        if self.src.chance(30) {
            shown.reverse();
        }
        for a in shown.iter_mut() {
            if self.src.chance(25) {
                *a -= rank;
            }
        }
        let attrs = format!("axes = [{}], keepdims = {keep}", list(&shown));
        Some(self.emit(op, &[x], &attrs, out, e, info))
    }

    pub(super) fn softmax(&mut self) -> Option<usize> {
        let x = self.pick(|v| v.elem.is_float() && !v.shape.is_empty())?;
        let rank = self.vals[x].shape.len() as i64;
        let axis = if self.src.chance(50) { rank - 1 } else { self.src.int(0, rank - 1) };
        self.e_softmax(x, axis)
    }

    pub(super) fn e_softmax(&mut self, x: usize, axis: i64) -> Option<usize> {
        let (e, s, a) = (self.vals[x].elem, self.vals[x].shape.clone(), self.vals[x].info);
        let n = s[axis as usize] as f64;
        let shown = if self.src.chance(30) { axis - s.len() as i64 } else { axis };
        let err = (2.0 * a.err).exp_m1() + e.eps() * (n + 64.0);
        let info = Info::new(e, 0.0, 1.0 + e.eps() * (n + 64.0), a.special, err);
        Some(self.emit("graph.softmax", &[x], &format!("axis = {shown}"), s, e, info))
    }

    // ---- data movement ----

    pub(super) fn data_movement(&mut self) -> Option<usize> {
        let x = self.pick(|_| true)?;
        match self.src.weighted(&[4, 4, 2, 3, 2, 3, 3, 3, 1]) {
            0 => Some(self.reshape_random(x)),
            1 => self.transpose_random(x),
            2 => self.broadcast_to(x),
            3 => self.concat(x),
            4 => self.split(x),
            5 => self.slice(x),
            6 => self.pad(x),
            7 => self.gather(x),
            _ => self.layout_transform(x),
        }
    }

    pub(super) fn e_reshape(&mut self, x: usize, shape: Vec<i64>, shown: &[i64]) -> usize {
        let (e, info) = (self.vals[x].elem, self.vals[x].info);
        self.emit("graph.reshape", &[x], &format!("shape = [{}]", list(shown)), shape, e, info)
    }

    pub(super) fn reshape_random(&mut self, x: usize) -> usize {
        let n = numel(&self.vals[x].shape);
        let mut target = Vec::new();
        let mut rest = n;
        while rest > 1 && target.len() < 5 {
            let divisors: Vec<i64> = (1..=rest).filter(|d| rest % d == 0).collect();
            let d = divisors[self.src.int(0, (divisors.len() as i64 - 1).min(3)) as usize];
            let d = if d == 1 && self.src.chance(70) { rest } else { d };
            target.push(d);
            rest /= d;
        }
        if rest > 1 {
            target.push(rest);
        }
        if self.src.chance(30) {
            target.insert(self.src.int(0, target.len() as i64) as usize, 1);
        }
        let mut shown = target.clone();
        if !shown.is_empty() && self.src.chance(30) {
            let i = self.src.int(0, shown.len() as i64 - 1) as usize;
            shown[i] = -1;
        }
        self.e_reshape(x, target, &shown)
    }

    pub(super) fn e_transpose(&mut self, x: usize, perm: &[i64]) -> usize {
        let (e, info) = (self.vals[x].elem, self.vals[x].info);
        let out: Vec<i64> = perm.iter().map(|&p| self.vals[x].shape[p as usize]).collect();
        self.emit("graph.transpose", &[x], &format!("perm = [{}]", list(perm)), out, e, info)
    }

    pub(super) fn transpose_random(&mut self, x: usize) -> Option<usize> {
        let rank = self.vals[x].shape.len();
        if rank < 2 {
            return None;
        }
        let mut perm: Vec<i64> = (0..rank as i64).collect();
        for i in (1..rank).rev() {
            let j = self.src.int(0, i as i64) as usize;
            perm.swap(i, j);
        }
        Some(self.e_transpose(x, &perm))
    }

    pub(super) fn broadcast_to(&mut self, x: usize) -> Option<usize> {
        let s = self.vals[x].shape.clone();
        let mut t = Vec::new();
        for _ in 0..self.src.int(0, 2) {
            t.push(self.src.int(1, 4));
        }
        for &d in &s {
            t.push(if d == 1 && self.src.chance(60) { self.src.int(1, 6) } else { d });
        }
        if numel(&t) > MAX_NUMEL {
            return None;
        }
        let (e, info) = (self.vals[x].elem, self.vals[x].info);
        Some(self.emit("graph.broadcast_to", &[x], &format!("shape = [{}]", list(&t)), t, e, info))
    }

    pub(super) fn concat(&mut self, x: usize) -> Option<usize> {
        let s = self.vals[x].shape.clone();
        if s.is_empty() {
            return None;
        }
        let e = self.vals[x].elem;
        let axis = self.src.int(0, s.len() as i64 - 1) as usize;
        let mut parts = vec![x];
        for _ in 0..self.src.int(1, 2) {
            let found = self.pick(|v| {
                v.elem == e
                    && v.shape.len() == s.len()
                    && v.shape.iter().zip(&s).enumerate().all(|(d, (a, b))| d == axis || a == b)
            });
            let p = match found {
                Some(p) if self.src.chance(50) => p,
                _ => {
                    let mut ps = s.clone();
                    ps[axis] = self.src.int(1, 5);
                    let st = self.style();
                    self.operand(&ps, e, st)
                }
            };
            parts.push(p);
        }
        if self.src.chance(50) {
            parts.reverse();
        }
        let mut out = s.clone();
        out[axis] = parts.iter().map(|&p| self.vals[p].shape[axis]).sum();
        if numel(&out) > MAX_NUMEL {
            return None;
        }
        let infos: Vec<Info> = parts.iter().map(|&p| self.vals[p].info).collect();
        let info = Info::union(e, &infos);
        let shown = if self.src.chance(30) { axis as i64 - s.len() as i64 } else { axis as i64 };
        Some(self.emit("graph.concat", &parts, &format!("axis = {shown}"), out, e, info))
    }

    pub(super) fn split(&mut self, x: usize) -> Option<usize> {
        let s = self.vals[x].shape.clone();
        let axes: Vec<usize> = (0..s.len()).filter(|&d| s[d] >= 2).collect();
        if axes.is_empty() {
            return None;
        }
        let axis = self.src.pick(&axes);
        let mut sizes = Vec::new();
        let mut left = s[axis];
        while left > 0 && sizes.len() < 3 {
            let k = if sizes.len() == 2 { left } else { self.src.int(1, left) };
            sizes.push(k);
            left -= k;
        }
        if left > 0 {
            *sizes.last_mut().unwrap() += left;
        }
        let (e, info) = (self.vals[x].elem, self.vals[x].info);
        let name = self.fresh();
        let types: Vec<String> = sizes
            .iter()
            .map(|&k| {
                let mut p = s.clone();
                p[axis] = k;
                ty(&p, e)
            })
            .collect();
        let result_types = if types.len() == 1 { types[0].clone() } else { format!("({})", types.join(", ")) };
        let count = if sizes.len() == 1 { String::new() } else { format!(":{}", sizes.len()) };
        let _ = writeln!(
            self.body,
            "  {name}{count} = graph.split {} {{axis = {axis}, sizes = [{}]}} : ({}) -> {result_types}",
            self.vals[x].name,
            list(&sizes),
            ty(&s, e)
        );
        self.ops.push("graph.split");
        let mut last = 0;
        for (i, &k) in sizes.iter().enumerate() {
            let mut p = s.clone();
            p[axis] = k;
            let n = if sizes.len() == 1 { name.clone() } else { format!("{name}#{i}") };
            last = self.push(n, p, e, info);
        }
        Some(last)
    }

    pub(super) fn slice(&mut self, x: usize) -> Option<usize> {
        let s = self.vals[x].shape.clone();
        let (mut starts, mut sizes, mut steps) = (vec![], vec![], vec![]);
        for &d in &s {
            let step = if self.src.chance(30) { self.src.int(2, 3) } else { 1 };
            let start = self.src.int(0, d - 1);
            let max_size = (d - 1 - start) / step + 1;
            starts.push(start);
            sizes.push(self.src.int(1, max_size));
            steps.push(step);
        }
        let mut attrs = format!("starts = [{}], sizes = [{}]", list(&starts), list(&sizes));
        if steps.iter().any(|&k| k != 1) || self.src.chance(20) {
            attrs += &format!(", steps = [{}]", list(&steps));
        }
        let (e, info) = (self.vals[x].elem, self.vals[x].info);
        Some(self.emit("graph.slice", &[x], &attrs, sizes, e, info))
    }

    pub(super) fn pad(&mut self, x: usize) -> Option<usize> {
        let s = self.vals[x].shape.clone();
        let low: Vec<i64> = s.iter().map(|_| self.src.int(0, 2)).collect();
        let high: Vec<i64> = s.iter().map(|_| self.src.int(0, 2)).collect();
        let out: Vec<i64> = (0..s.len()).map(|d| s[d] + low[d] + high[d]).collect();
        if numel(&out) > MAX_NUMEL {
            return None;
        }
        let (e, a) = (self.vals[x].elem, self.vals[x].info);
        let value = match e {
            Elem::F32 | Elem::F64 => {
                self.src.pick(&[0.0, -0.0, 1.5, -2.0, f64::NEG_INFINITY, f64::INFINITY, f64::NAN, 0.0])
            }
            Elem::I1 => self.src.pick(&[0.0, 1.0]),
            _ => self.src.pick(&[0.0, -1.0, 7.0, 2.5]),
        };
        let fill = if e.is_int() { value.trunc() } else { value };
        let info = if fill.is_finite() {
            Info::new(e, a.lo.min(fill), a.hi.max(fill), a.special, a.err)
        } else {
            Info::new(e, a.lo, a.hi, true, a.err)
        };
        let attrs = format!("low = [{}], high = [{}], value = {}", list(&low), list(&high), float_attr(value));
        Some(self.emit("graph.pad", &[x], &attrs, out, e, info))
    }

    pub(super) fn gather(&mut self, x: usize) -> Option<usize> {
        let s = self.vals[x].shape.clone();
        if s.is_empty() {
            return None;
        }
        let axis = self.src.int(0, s.len() as i64 - 1) as usize;
        let extent = s[axis];
        let irank = self.src.int(0, 2) as usize;
        let ishape: Vec<i64> =
            if self.src.chance(20) { vec![extent] } else { (0..irank).map(|_| self.src.int(1, 4)).collect() };
        let n = numel(&ishape) as usize;
        let iota = ishape == [extent] && self.src.chance(50);
        let idx: Vec<i64> = (0..n).map(|k| if iota { k as i64 } else { self.rng.int(-extent, extent - 1) }).collect();
        let ie = self.src.pick(&[Elem::I32, Elem::I64]);
        let d = if ie == Elem::I32 { Data::I32(idx.iter().map(|&v| v as i32).collect()) } else { Data::I64(idx) };
        let indices = if self.src.chance(20) {
            // Indices computed at run time: an input (in range).
            let name = format!("%arg{}", self.args.len());
            let dims = ishape.iter().map(|&v| v as usize).collect();
            let info = info_of(&d, ie);
            self.inputs.push(ITensor::new(dims, d).expect("sizes match"));
            let i = self.push(name, ishape.clone(), ie, info);
            self.vals[i].hidden = true;
            self.args.push(i);
            i
        } else {
            let c = self.constant_data(&ishape, ie, d);
            self.vals[c].hidden = true;
            c
        };
        let mut out = s[..axis].to_vec();
        out.extend_from_slice(&ishape);
        out.extend_from_slice(&s[axis + 1..]);
        if numel(&out) > MAX_NUMEL {
            return None;
        }
        let (e, info) = (self.vals[x].elem, self.vals[x].info);
        Some(self.emit("graph.gather", &[x, indices], &format!("axis = {axis}"), out, e, info))
    }

    pub(super) fn layout_transform(&mut self, x: usize) -> Option<usize> {
        let x = match self.pick(|v| v.elem == Elem::F32 && v.shape.len() == 4) {
            Some(x) => x,
            None if self.vals[x].elem == Elem::F32 && numel(&self.vals[x].shape) >= 1 => {
                let n = numel(&self.vals[x].shape);
                let c = if n % 4 == 0 { 4 } else { n };
                self.e_reshape(x, vec![1, c, n / c, 1], &[1, c, n / c, 1])
            }
            None => return None,
        };
        let b = self.src.pick(&[2, 4, 8]);
        let dst = if self.src.chance(25) { "NHWC".to_string() } else { format!("NCHW{b}c") };
        let src = Layout::parse("NCHW").ok()?;
        let dl = Layout::parse(&dst).ok()?;
        let s = self.vals[x].shape.clone();
        let out = transform_shape(&src, &dl, &s).ok()?;
        if numel(&out) > MAX_NUMEL {
            return None;
        }
        let a = self.vals[x].info;
        // Channels padded to whole blocks hold zeros.
        let info = Info::new(Elem::F32, a.lo.min(0.0), a.hi.max(0.0), a.special, a.err);
        let attrs = format!("src = \"NCHW\", dst = \"{dst}\"");
        let y = self.emit("graph.layout_transform", &[x], &attrs, out.clone(), Elem::F32, info);
        if dst == "NHWC" || self.src.chance(40) {
            return Some(y);
        }
        let back = transform_shape(&dl, &src, &out).ok()?;
        let attrs = format!("src = \"{dst}\", dst = \"NCHW\"");
        Some(self.emit("graph.layout_transform", &[y], &attrs, back, Elem::F32, info))
    }
}
