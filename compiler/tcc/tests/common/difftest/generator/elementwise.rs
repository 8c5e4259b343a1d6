//! Elementwise ops: unary, binary with broadcasting, pow, comparisons, select, casts
//! and clamps, each with the bounds and error its result carries.

use std::fmt::Write as _;

use tcc::graph::layout::{Layout, transform_shape};
use tcc::graph::{Data, Tensor as ITensor};

use super::*;

impl Gen<'_, '_> {
    pub(super) fn unary(&mut self) -> Option<usize> {
        let x = self.pick(|v| v.elem != Elem::I1)?;
        let e = self.vals[x].elem;
        let op = if e.is_int() {
            self.src.pick(&["graph.neg", "graph.abs", "graph.relu"])
        } else if self.src.chance(45) {
            self.src.pick(EXACT_UNARY)
        } else if self.src.chance(15) {
            "graph.reciprocal"
        } else {
            self.src.pick(APPROX_UNARY)
        };
        self.e_unary(op, x)
    }

    pub(super) fn e_unary(&mut self, op: &'static str, x: usize) -> Option<usize> {
        let e = self.vals[x].elem;
        if e == Elem::I1 {
            return None;
        }
        let a = self.vals[x].info;
        let shape = self.vals[x].shape.clone();
        if e.is_int() {
            let (tmin, _) = e.range();
            let (lo, hi) = match op {
                "graph.neg" if a.lo > tmin => (-a.hi, -a.lo),
                "graph.abs" if a.lo > tmin => {
                    if a.lo >= 0.0 {
                        (a.lo, a.hi)
                    } else {
                        (0.0, a.mag())
                    }
                }
                "graph.neg" | "graph.abs" => (f64::NEG_INFINITY, f64::INFINITY),
                "graph.relu" => (a.lo.max(0.0), a.hi.max(0.0)),
                _ => return None,
            };
            return Some(self.emit(op, &[x], "", shape, e, Info::new(e, lo, hi, false, 0.0)));
        }
        let (eps, m) = (e.eps(), e.math());
        match op {
            "graph.neg" => Some(self.emit(op, &[x], "", shape, e, Info::new(e, -a.hi, -a.lo, a.special, a.err))),
            "graph.abs" => {
                let (lo, hi) = if a.lo >= 0.0 {
                    (a.lo, a.hi)
                } else if a.hi <= 0.0 {
                    (-a.hi, -a.lo)
                } else {
                    (0.0, a.mag())
                };
                Some(self.emit(op, &[x], "", shape, e, Info::new(e, lo, hi, a.special, a.err)))
            }
            "graph.relu" => {
                let info = Info::new(e, a.lo.max(0.0), a.hi.max(0.0), a.special, a.err);
                Some(self.emit(op, &[x], "", shape, e, info))
            }
            "graph.floor" | "graph.ceil" => {
                // Discontinuous: only of exact values.
                if !a.exact() {
                    return None;
                }
                let f = if op == "graph.floor" { f64::floor } else { f64::ceil };
                Some(self.emit(op, &[x], "", shape, e, Info::new(e, f(a.lo), f(a.hi), a.special, 0.0)))
            }
            "graph.sqrt" => {
                if a.exact() {
                    // Correctly rounded on both sides.
                    let info = Info::new(e, a.lo.max(0.0).sqrt(), a.hi.max(0.0).sqrt(), a.special || a.lo < 0.0, 0.0);
                    return Some(self.emit(op, &[x], "", shape, e, info));
                }
                let x = if a.lo >= 0.0 { x } else { self.e_unary("graph.abs", x)? };
                let a = self.vals[x].info;
                let d = if a.lo > 0.0 { (a.err / (2.0 * a.lo.sqrt())).min(a.err.sqrt()) } else { a.err.sqrt() };
                let hi = a.hi.sqrt();
                let info = Info::new(e, a.lo.sqrt(), hi, a.special, d + 2.0 * eps * hi);
                Some(self.emit(op, &[x], "", shape, e, info))
            }
            "graph.reciprocal" => {
                if a.exact() {
                    let info = if a.lo > 0.0 || a.hi < 0.0 {
                        let (p, q) = (1.0 / a.lo, 1.0 / a.hi);
                        Info::new(e, p.min(q), p.max(q), a.special, 0.0)
                    } else {
                        Info::new(e, f64::NEG_INFINITY, f64::INFINITY, true, 0.0)
                    };
                    return Some(self.emit(op, &[x], "", shape, e, info));
                }
                let x = if a.lo >= 0.05 || a.hi <= -0.05 { x } else { self.positive(x, 0.05) };
                let a = self.vals[x].info;
                let mn = if a.lo > 0.0 { a.lo } else { -a.hi };
                let (p, q) = (1.0 / a.lo, 1.0 / a.hi);
                let err = a.err / (mn * mn) + eps / mn;
                Some(self.emit(op, &[x], "", shape, e, Info::new(e, p.min(q), p.max(q), a.special, err)))
            }
            "graph.rsqrt" => {
                let x = self.positive(x, 0.01);
                let a = self.vals[x].info;
                let hi = 1.0 / a.lo.sqrt();
                let err = a.err / (2.0 * a.lo.powf(1.5)) + 2.0 * m * hi;
                Some(self.emit(op, &[x], "", shape, e, Info::new(e, 1.0 / a.hi.sqrt(), hi, a.special, err)))
            }
            "graph.exp" => {
                let limit = if e == Elem::F32 { 40.0 } else { 300.0 };
                let x = if a.hi <= limit {
                    x
                } else {
                    let c = self.src.pick(&[4.0, 10.0, 20.0]);
                    self.e_clamp(x, f64::NEG_INFINITY, c)
                };
                let a = self.vals[x].info;
                let hi = a.hi.exp();
                let lo = if a.special { 0.0 } else { a.lo.exp() };
                let err = hi * (a.err.exp_m1() + m);
                Some(self.emit(op, &[x], "", shape, e, Info::new(e, lo, hi, a.special, err)))
            }
            "graph.log" => {
                if a.exact() && a.hi <= TAME && self.src.chance(30) {
                    // Zeros and negatives: -inf and NaN on both sides.
                    let lnmax: f64 = if e == Elem::F32 { 104.0 } else { 745.0 };
                    let err = m * lnmax.max(a.hi.max(1.0).ln());
                    let hi = a.hi.max(1e-300).ln();
                    let info = Info::new(e, -lnmax, hi, true, err);
                    return Some(self.emit(op, &[x], "", shape, e, info));
                }
                let x = self.positive(x, 0.01);
                let a = self.vals[x].info;
                let (lo, hi) = (a.lo.ln(), a.hi.ln());
                let err = a.err / a.lo + m * lo.abs().max(hi.abs()).max(1.0);
                let info = Info::new(e, lo, hi, a.special, err).widened(m);
                Some(self.emit(op, &[x], "", shape, e, info))
            }
            "graph.tanh" | "graph.sigmoid" | "graph.erf" => {
                let x = if a.exact() { x } else { self.tame(x, TAME) };
                let a = self.vals[x].info;
                let (f, slope): (fn(f64) -> f64, f64) = match op {
                    "graph.tanh" => (f64::tanh, 1.0),
                    "graph.sigmoid" => (|v: f64| 1.0 / (1.0 + (-v).exp()), 0.25),
                    _ => (libm_erf, 1.13),
                };
                let (lo, hi) = if a.special { (f(f64::NEG_INFINITY), f(f64::INFINITY)) } else { (f(a.lo), f(a.hi)) };
                // Widened: `libm_erf` is an approximation (the bounds need only be safe).
                let info = Info::new(e, lo - 1e-3, hi + 1e-3, a.special, a.err * slope + m);
                Some(self.emit(op, &[x], "", shape, e, info))
            }
            "graph.gelu" => {
                let x = self.tame(x, 100.0);
                let a = self.vals[x].info;
                let tanh = self.src.chance(50);
                let attrs = if tanh { "approximate = \"tanh\"" } else { "" };
                let g = |v: f64| 0.5 * v * (1.0 + libm_erf(v / std::f64::consts::SQRT_2));
                let lo = if a.lo < 0.0 { -0.2 } else { g(a.lo) };
                let hi = g(a.hi).max(0.0);
                // The tanh form differs from erf's by < 5e-4; compiled code computes
                // the form written, like the interpreter.
                let err = a.err * 1.13 + m * a.mag().max(1.0);
                let info = Info::new(e, lo - 1e-3, hi + 1e-3, a.special, err);
                Some(self.emit(op, &[x], attrs, shape, e, info))
            }
            _ => None,
        }
    }

    /// A second operand for `x`: an earlier value or a new constant or input.
    pub(super) fn partner(&mut self, x: usize, style: Option<Style>) -> usize {
        let (s, e) = (self.vals[x].shape.clone(), self.vals[x].elem);
        if style.is_none() && self.src.chance(40) {
            let found = self.pick(|v| v.elem == e && broadcast(&v.shape, &s).is_some_and(|b| numel(&b) <= MAX_NUMEL));
            if let Some(y) = found {
                return y;
            }
        }
        let ps = self.partner_shape(&s);
        let st = match style {
            Some(st) => st,
            None => self.style(),
        };
        self.operand(&ps, e, st)
    }

    pub(super) fn binary(&mut self) -> Option<usize> {
        let x = self.pick(|v| v.elem != Elem::I1)?;
        let e = self.vals[x].elem;
        let op = if e.is_float() {
            self.src.pick(&[
                "graph.add",
                "graph.add",
                "graph.sub",
                "graph.mul",
                "graph.mul",
                "graph.div",
                "graph.max",
                "graph.min",
                "graph.pow",
            ])
        } else {
            self.src.pick(&["graph.add", "graph.sub", "graph.mul", "graph.div", "graph.max", "graph.min"])
        };
        match op {
            "graph.div" => {
                let exact_any = e.is_float() && self.vals[x].info.exact() && self.src.chance(30);
                let y = if exact_any {
                    self.partner(x, None)
                } else if self.src.chance(70) {
                    self.partner(x, Some(Style::Nonzero))
                } else {
                    // An earlier value away from zero, if any.
                    let s = self.vals[x].shape.clone();
                    let found = self.pick(|v| {
                        v.elem == e
                            && (v.info.lo >= 0.25 || v.info.hi <= -0.25)
                            && broadcast(&v.shape, &s).is_some_and(|b| numel(&b) <= MAX_NUMEL)
                    });
                    match found {
                        Some(y) => y,
                        None => self.partner(x, Some(Style::Nonzero)),
                    }
                };
                self.e_binary(op, x, y)
            }
            "graph.pow" => {
                let s = self.vals[x].shape.clone();
                let ps = self.partner_shape(&s);
                let n = numel(&ps) as usize;
                let splat = self.src.chance(50);
                let pick = |r: &mut Rng| [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0][r.int(0, 8) as usize];
                let v: Vec<f64> =
                    if splat { vec![pick(&mut self.rng); n] } else { (0..n).map(|_| pick(&mut self.rng)).collect() };
                let d = if e == Elem::F32 { Data::F32(v.iter().map(|&x| x as f32).collect()) } else { Data::F64(v) };
                let y = self.constant_data(&ps, e, d);
                self.e_binary(op, x, y)
            }
            _ => {
                let y = self.partner(x, None);
                if self.src.chance(50) { self.e_binary(op, x, y) } else { self.e_binary(op, y, x) }
            }
        }
    }

    /// Integer bit operations: not, and, or, xor (i1 too), and shifts whose amounts are
    /// masked into range first (`and` with bits - 1, as index arithmetic does).
    pub(super) fn bit_op(&mut self) -> Option<usize> {
        let x = match self.pick(|v| !v.elem.is_float()) {
            Some(x) if self.src.chance(60) => x,
            _ => {
                let rank = self.src.int(0, 3) as usize;
                let (s, e) = (self.shape(rank), self.src.pick(&[Elem::I32, Elem::I64, Elem::I1]));
                let st = if self.src.chance(50) { Style::Wide } else { self.style() };
                self.input(&s, e, st)
            }
        };
        let e = self.vals[x].elem;
        let (tmin, tmax) = e.range();
        let any = Info::new(e, tmin, tmax, false, 0.0);
        let s = self.vals[x].shape.clone();
        let op = if e == Elem::I1 {
            self.src.pick(&["graph.not", "graph.and", "graph.or", "graph.xor"])
        } else {
            self.src.pick(&[
                "graph.not",
                "graph.and",
                "graph.or",
                "graph.xor",
                "graph.shift_left",
                "graph.shift_right",
                "graph.shift_right_logical",
            ])
        };
        if op == "graph.not" {
            return Some(self.emit(op, &[x], "", s, e, any));
        }
        let st = if self.src.chance(50) { Style::Wide } else { self.style() };
        let y = self.partner(x, Some(st));
        let out = broadcast(&s, &self.vals[y].shape).filter(|o| numel(o) <= MAX_NUMEL)?;
        if !op.starts_with("graph.shift") {
            return Some(self.emit(op, &[x, y], "", out, e, any));
        }
        let bits = if e == Elem::I32 { 32 } else { 64 };
        let mask = self.constant_data(
            &[],
            e,
            if e == Elem::I32 { Data::I32(vec![bits - 1]) } else { Data::I64(vec![bits as i64 - 1]) },
        );
        let ys = self.vals[y].shape.clone();
        let amount = self.emit("graph.and", &[y, mask], "", ys, e, Info::new(e, 0.0, bits as f64 - 1.0, false, 0.0));
        Some(self.emit(op, &[x, amount], "", out, e, any))
    }

    pub(super) fn e_binary(&mut self, op: &'static str, p: usize, q: usize) -> Option<usize> {
        let e = self.vals[p].elem;
        if self.vals[q].elem != e || e == Elem::I1 {
            return None;
        }
        let out = broadcast(&self.vals[p].shape, &self.vals[q].shape).filter(|s| numel(s) <= MAX_NUMEL)?;
        let (a, b) = (self.vals[p].info, self.vals[q].info);
        if e.is_int() {
            let (lo, hi) = match op {
                "graph.add" => (a.lo + b.lo, a.hi + b.hi),
                "graph.sub" => (a.lo - b.hi, a.hi - b.lo),
                "graph.mul" => corners(a, b, |x, y| x * y),
                "graph.div" => {
                    if b.lo <= 0.0 && b.hi >= 0.0 {
                        return None;
                    }
                    (-a.mag(), a.mag())
                }
                "graph.max" => (a.lo.max(b.lo), a.hi.max(b.hi)),
                "graph.min" => (a.lo.min(b.lo), a.hi.min(b.hi)),
                _ => return None,
            };
            return Some(self.emit(op, &[p, q], "", out, e, Info::new(e, lo, hi, false, 0.0)));
        }
        let special = a.special || b.special;
        let exact = a.exact() && b.exact() && op != "graph.pow";
        let eps = e.eps();
        if exact {
            let (lo, hi, special) = match op {
                "graph.add" => (a.lo + b.lo, a.hi + b.hi, special),
                "graph.sub" => (a.lo - b.hi, a.hi - b.lo, special),
                "graph.mul" => {
                    let (lo, hi) = corners(a, b, |x, y| x * y);
                    (lo, hi, special)
                }
                "graph.div" if b.lo > 0.0 || b.hi < 0.0 => {
                    let (lo, hi) = corners(a, b, |x, y| x / y);
                    (lo, hi, special)
                }
                "graph.div" => (f64::NEG_INFINITY, f64::INFINITY, true),
                "graph.max" => (a.lo.max(b.lo), a.hi.max(b.hi), special),
                "graph.min" => (a.lo.min(b.lo), a.hi.min(b.hi), special),
                _ => return None,
            };
            return Some(self.emit(op, &[p, q], "", out, e, Info::new(e, lo, hi, special, 0.0)));
        }
        // Approximate: operands bounded first (and finite for products).
        let (p, q) = if op == "graph.pow" {
            (p, q)
        } else {
            let p = self.tame(p, TAME);
            (p, self.tame(q, TAME))
        };
        let (p, q) = if op == "graph.mul" || op == "graph.div" {
            let p = self.finite(p);
            (p, self.finite(q))
        } else {
            (p, q)
        };
        let (a, b) = (self.vals[p].info, self.vals[q].info);
        let (lo, hi, err) = match op {
            "graph.add" | "graph.sub" => {
                let (lo, hi) = if op == "graph.add" { (a.lo + b.lo, a.hi + b.hi) } else { (a.lo - b.hi, a.hi - b.lo) };
                (lo, hi, a.err + b.err + eps * lo.abs().max(hi.abs()))
            }
            "graph.mul" => {
                let (lo, hi) = corners(a, b, |x, y| x * y);
                (lo, hi, a.err * b.mag() + b.err * a.mag() + a.err * b.err + eps * lo.abs().max(hi.abs()))
            }
            "graph.div" => {
                let bmin = if b.lo > 0.0 {
                    b.lo
                } else if b.hi < 0.0 {
                    -b.hi
                } else {
                    0.0
                };
                if bmin < 0.2 || b.err >= bmin / 2.0 {
                    return None;
                }
                let (lo, hi) = corners(a, b, |x, y| x / y);
                (lo, hi, a.err / bmin + a.mag() * b.err / (bmin * bmin) + eps * lo.abs().max(hi.abs()))
            }
            "graph.max" | "graph.min" => {
                let (lo, hi) =
                    if op == "graph.max" { (a.lo.max(b.lo), a.hi.max(b.hi)) } else { (a.lo.min(b.lo), a.hi.min(b.hi)) };
                (lo, hi, a.err.max(b.err))
            }
            "graph.pow" => return self.e_pow(p, q, out),
            _ => return None,
        };
        Some(self.emit(op, &[p, q], "", out, e, Info::new(e, lo, hi, special, err)))
    }

    /// pow(p, q) with `q` a constant of exponents in {-2, .., 3}.
    pub(super) fn e_pow(&mut self, p: usize, q: usize, out: Vec<i64>) -> Option<usize> {
        let e = self.vals[p].elem;
        let b = self.vals[q].info;
        if !b.exact() || b.special || b.mag() > 3.0 {
            return None;
        }
        let (emin, emax) = (b.lo.max(-3.0), b.hi.min(3.0));
        // A negative or fractional exponent needs a positive base (else NaN or inf,
        // which the bound below does not cover); a base of an integer power anything
        // bounded. Whole-number exponent constants are not recognizable from the bounds,
        // so any base that may be <= 0 is made positive unless all exponents are
        // non-negative integers (checked through the constant's data below).
        let all_whole = self.constant_is_whole(q);
        let p = if all_whole && emin >= 0.0 { self.tame(p, 10.0) } else { self.positive(p, 0.05) };
        let p = self.tame(p, 10.0);
        let a = self.vals[p].info;
        let m = e.math();
        // Bounds over the corners of base and exponent ranges (monotone in each for a
        // positive base; for a signed base with a whole exponent, |p|^k).
        let (lo, hi) = if a.lo > 0.0 {
            let c = [a.lo.powf(emin), a.lo.powf(emax), a.hi.powf(emin), a.hi.powf(emax), 1.0];
            (c.iter().copied().fold(f64::INFINITY, f64::min), c.iter().copied().fold(f64::NEG_INFINITY, f64::max))
        } else {
            let bound = a.mag().max(1.0).powf(emax.max(0.0));
            (-bound, bound)
        };
        let mag = lo.abs().max(hi.abs());
        // d(p^k)/dp = k p^(k-1): at most |k| max(lo^(k-1), hi^(k-1)) (or |p|^(k-1)).
        let slope = |k: f64| {
            if a.lo > 0.0 {
                k.abs() * a.lo.powf(k - 1.0).max(a.hi.powf(k - 1.0))
            } else {
                k.abs() * a.mag().max(1.0).powf((k - 1.0).max(0.0))
            }
        };
        let lnmax = if a.lo > 0.0 { a.lo.ln().abs().max(a.hi.ln().abs()) } else { a.mag().max(1.0).ln() };
        let own = m * mag.max(1.0) * (1.0 + 3.0 * lnmax);
        let err = a.err * slope(emin).max(slope(emax)) + own;
        let info = Info::new(e, lo, hi, a.special || b.special, err).widened(own);
        Some(self.emit("graph.pow", &[p, q], "", out, e, info))
    }

    /// Whether value `q` is a constant whose elements are all whole numbers.
    pub(super) fn constant_is_whole(&self, q: usize) -> bool {
        let name = &self.vals[q].name;
        let Some(line) = self.body.lines().find(|l| l.trim_start().starts_with(&format!("{name} = graph.constant")))
        else {
            return false;
        };
        // Splat literals of whole numbers print as "k.0"; hex data is checked by value.
        if let Some(start) = line.find("dense<\"0x") {
            let hex = &line[start + 9..];
            let hex = &hex[..hex.find('"').unwrap_or(0)];
            let bytes: Vec<u8> =
                (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap_or(1)).collect();
            return match self.vals[q].elem {
                Elem::F32 => bytes.chunks(4).all(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]).fract() == 0.0),
                Elem::F64 => bytes.chunks(8).all(|c| f64::from_le_bytes(c.try_into().unwrap()).fract() == 0.0),
                _ => false,
            };
        }
        line.find("dense<").is_some_and(|s| {
            let lit = &line[s + 6..];
            let lit = &lit[..lit.find('>').unwrap_or(0)];
            lit.parse::<f64>().is_ok_and(|v| v.fract() == 0.0)
        })
    }

    pub(super) fn compare(&mut self) -> Option<usize> {
        let x = self.pick(|v| v.elem != Elem::I1 && v.info.exact())?;
        let e = self.vals[x].elem;
        let s = self.vals[x].shape.clone();
        let y = if self.src.chance(40) {
            self.pick(|v| {
                v.elem == e && v.info.exact() && broadcast(&v.shape, &s).is_some_and(|b| numel(&b) <= MAX_NUMEL)
            })
            .unwrap_or(x)
        } else {
            let ps = self.partner_shape(&s);
            let st = if self.src.chance(50) { Style::Ties } else { self.style() };
            self.operand(&ps, e, st)
        };
        let op = self.src.pick(&["graph.greater", "graph.less", "graph.equal"]);
        if self.src.chance(50) { self.e_compare(op, x, y) } else { self.e_compare(op, y, x) }
    }

    pub(super) fn e_compare(&mut self, op: &'static str, p: usize, q: usize) -> Option<usize> {
        let (a, b) = (&self.vals[p], &self.vals[q]);
        if a.elem != b.elem || a.elem == Elem::I1 || !a.info.exact() || !b.info.exact() {
            return None;
        }
        let out = broadcast(&a.shape, &b.shape).filter(|s| numel(s) <= MAX_NUMEL)?;
        Some(self.emit(op, &[p, q], "", out, Elem::I1, Info::new(Elem::I1, 0.0, 1.0, false, 0.0)))
    }

    pub(super) fn select(&mut self) -> Option<usize> {
        let a = self.pick(|v| v.elem != Elem::I1)?;
        let e = self.vals[a].elem;
        let s = self.vals[a].shape.clone();
        // The other branch: often a splat (a mask's fill: -inf, 0).
        let b = if self.src.chance(40) {
            let v = if e.is_float() {
                self.src.pick(&[f64::NEG_INFINITY, 0.0, -0.0, 1.0, f64::NAN])
            } else {
                self.src.pick(&[0.0, -1.0, 7.0])
            };
            let rank = self.src.int(0, s.len() as i64) as usize;
            self.splat(&vec![1; rank], e, v)
        } else {
            self.partner(a, None)
        };
        let c = match self.pick(|v| {
            v.elem == Elem::I1 && v.info.exact() && broadcast(&v.shape, &s).is_some_and(|b| numel(&b) <= MAX_NUMEL)
        }) {
            Some(c) if self.src.chance(60) => c,
            _ => {
                let cs = self.partner_shape(&s);
                if self.src.chance(50) {
                    self.input(&cs, Elem::I1, Style::Small)
                } else {
                    let k = self.pick(|v| v.elem != Elem::I1 && v.info.exact());
                    match k {
                        Some(k) if broadcast(&self.vals[k].shape, &s).is_some_and(|b| numel(&b) <= MAX_NUMEL) => {
                            let ke = self.vals[k].elem;
                            let z = self.constant(&[], ke, Style::Ties);
                            self.e_compare("graph.greater", k, z)?
                        }
                        _ => self.constant(&cs, Elem::I1, Style::Small),
                    }
                }
            }
        };
        if self.src.chance(50) { self.e_select(c, a, b) } else { self.e_select(c, b, a) }
    }

    pub(super) fn e_select(&mut self, c: usize, a: usize, b: usize) -> Option<usize> {
        let (vc, va, vb) = (&self.vals[c], &self.vals[a], &self.vals[b]);
        if vc.elem != Elem::I1 || !vc.info.exact() || va.elem != vb.elem || va.elem == Elem::I1 {
            return None;
        }
        let out =
            broadcast(&vc.shape, &va.shape).and_then(|s| broadcast(&s, &vb.shape)).filter(|s| numel(s) <= MAX_NUMEL)?;
        let (x, y, e) = (va.info, vb.info, va.elem);
        let info = Info::new(e, x.lo.min(y.lo), x.hi.max(y.hi), x.special || y.special, x.err.max(y.err));
        Some(self.emit("graph.select", &[c, a, b], "", out, e, info))
    }

    pub(super) fn cast(&mut self) -> Option<usize> {
        let x = self.pick(|_| true)?;
        let from = self.vals[x].elem;
        let exact = self.vals[x].info.exact();
        let to = match from {
            Elem::F32 if exact => self.src.pick(&[Elem::F64, Elem::I32, Elem::I64, Elem::I1]),
            Elem::F64 if exact => self.src.pick(&[Elem::F32, Elem::F32, Elem::I32, Elem::I64, Elem::I1]),
            Elem::F32 => Elem::F64,
            Elem::F64 => Elem::F32,
            Elem::I32 => self.src.pick(&[Elem::F32, Elem::F64, Elem::I64, Elem::I1]),
            Elem::I64 => self.src.pick(&[Elem::F32, Elem::F64, Elem::I32, Elem::I1]),
            Elem::I1 => self.src.pick(&[Elem::F32, Elem::F64, Elem::I32, Elem::I64]),
        };
        self.e_cast(x, to)
    }

    pub(super) fn e_cast(&mut self, x: usize, to: Elem) -> Option<usize> {
        let from = self.vals[x].elem;
        let a = self.vals[x].info;
        if from == to {
            return None;
        }
        let info = match (from, to) {
            (_, Elem::I1) => {
                if !a.exact() {
                    return None;
                }
                Info::new(to, 0.0, 1.0, false, 0.0)
            }
            (f, t) if f.is_float() && t.is_float() => {
                // f32 -> f64 is exact; f64 -> f32 rounds (once, the same on both sides).
                let err = if a.exact() { 0.0 } else { a.err + to.eps() * a.mag() };
                if !a.exact() && a.mag() > 1e30 {
                    return None;
                }
                Info::new(to, a.lo, a.hi, a.special, err)
            }
            (f, t) if f.is_float() => {
                // Truncates and saturates, NaN -> 0: only of exact values.
                if !a.exact() {
                    return None;
                }
                let (tmin, tmax) = t.range();
                let (mut lo, mut hi) = (a.lo.trunc().clamp(tmin, tmax), a.hi.trunc().clamp(tmin, tmax));
                if a.special {
                    (lo, hi) = (tmin, tmax);
                }
                Info::new(t, lo, hi, false, 0.0)
            }
            (_, t) => Info::new(t, a.lo, a.hi, false, 0.0),
        };
        let shape = self.vals[x].shape.clone();
        Some(self.emit("graph.cast", &[x], "", shape, to, info))
    }

    pub(super) fn clamp(&mut self) -> Option<usize> {
        let x = self.pick(|v| v.elem != Elem::I1)?;
        let inf = f64::INFINITY;
        let (lo, hi) = self.src.pick(&[
            (0.0, 6.0),
            (-1.0, 1.0),
            (-0.0, 0.0),
            (0.0, -0.0),
            (-inf, 0.5),
            (-2.5, inf),
            (-inf, inf),
            (-1.5, 2.0),
            (0.0, inf),
        ]);
        Some(self.e_clamp(x, lo, hi))
    }

    pub(super) fn e_clamp(&mut self, x: usize, lo: f64, hi: f64) -> usize {
        let e = self.vals[x].elem;
        let a = self.vals[x].info;
        let (blo, bhi) = if e.is_int() {
            let (tmin, tmax) = e.range();
            (lo.ceil().clamp(tmin, tmax), hi.floor().clamp(tmin, tmax))
        } else {
            (lo, hi)
        };
        // min(max(v, lo), hi) is monotone in v.
        let f = |v: f64| v.max(blo).min(bhi);
        let mut info = Info::new(e, f(a.lo), f(a.hi), a.special, a.err);
        info.inf = a.inf && !(blo.is_finite() && bhi.is_finite());
        let mut attrs = Vec::new();
        if lo != f64::NEG_INFINITY || self.src.chance(30) {
            attrs.push(format!("min = {}", float_attr(lo)));
        }
        if hi != f64::INFINITY || self.src.chance(30) {
            attrs.push(format!("max = {}", float_attr(hi)));
        }
        let shape = self.vals[x].shape.clone();
        self.emit("graph.clamp", &[x], &attrs.join(", "), shape, e, info)
    }
}
