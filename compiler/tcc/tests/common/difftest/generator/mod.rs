//! The generator: random well-typed graph-dialect models, each value annotated with
//! what the comparison may expect of it (see the module doc of `difftest`). This file
//! holds the generator's state and its step loop; the op families are written by
//! `elementwise`, `movement` (reductions and data movement) and `nn` (matmuls, convs,
//! pools and the patterns that become kernels and fusion groups).

mod elementwise;
mod movement;
mod nn;
mod values;

use std::fmt::Write as _;

use tcc::graph::layout::{Layout, transform_shape};
use tcc::graph::{Data, Tensor as ITensor};

use super::source::{Rng, Source};
use values::*;
pub use values::{Case, Elem, Expect, Info, MAX_MACS, MAX_NUMEL, Val, ty};

struct Gen<'s, 'a> {
    src: &'s mut Source<'a>,
    rng: Rng,
    body: String,
    vals: Vec<Val>,
    args: Vec<usize>,
    inputs: Vec<ITensor>,
    ops: Vec<&'static str>,
    next: usize,
}

impl<'s, 'a> Gen<'s, 'a> {
    /// A generator with nothing written yet, its tensor data drawn from `seed`.
    fn new(src: &'s mut Source<'a>, seed: u64) -> Self {
        Gen {
            src,
            rng: Rng::new(seed),
            body: String::new(),
            vals: Vec::new(),
            args: Vec::new(),
            inputs: Vec::new(),
            ops: Vec::new(),
            next: 0,
        }
    }
}

/// Generates one case from `src`.
pub fn generate(src: &mut Source) -> Case {
    let seed = src.seed();
    let mut g = Gen::new(src, seed);
    g.first_inputs();
    let steps = g.src.int(1, 9);
    for _ in 0..steps {
        if g.step().is_none() {
            // Not applicable to the values at hand: something that always is.
            let x = g.last();
            let op = if g.vals[x].elem == Elem::I1 { None } else { g.e_unary("graph.neg", x) };
            if op.is_none() {
                g.reshape_random(x);
            }
        }
    }
    g.finish()
}

impl Gen<'_, '_> {
    // ---- values, constants, inputs ----

    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next - 1)
    }

    fn push(&mut self, name: String, shape: Vec<i64>, elem: Elem, info: Info) -> usize {
        // Larger tensors (a conv's weights) are not reused: every value ops are built on
        // has at most MAX_NUMEL elements.
        let hidden = numel(&shape) > MAX_NUMEL;
        self.vals.push(Val { name, shape, elem, info, hidden });
        self.vals.len() - 1
    }

    fn last(&self) -> usize {
        (0..self.vals.len()).rev().find(|&i| !self.vals[i].hidden).unwrap_or(0)
    }

    /// Writes `op` on `operands` and records its result.
    fn emit(
        &mut self,
        op: &'static str,
        operands: &[usize],
        attrs: &str,
        shape: Vec<i64>,
        elem: Elem,
        info: Info,
    ) -> usize {
        let name = self.fresh();
        let names: Vec<&str> = operands.iter().map(|&i| self.vals[i].name.as_str()).collect();
        let types: Vec<String> = operands.iter().map(|&i| ty(&self.vals[i].shape, self.vals[i].elem)).collect();
        let attrs = if attrs.is_empty() { String::new() } else { format!(" {{{attrs}}}") };
        let _ = writeln!(
            self.body,
            "  {name} = {op} {}{attrs} : ({}) -> {}",
            names.join(", "),
            types.join(", "),
            ty(&shape, elem)
        );
        self.ops.push(op);
        self.push(name, shape, elem, info)
    }

    /// A value among the visible ones satisfying `pred`: often the latest (chains),
    /// otherwise any.
    fn pick(&mut self, pred: impl Fn(&Val) -> bool) -> Option<usize> {
        let c: Vec<usize> = (0..self.vals.len()).filter(|&i| !self.vals[i].hidden && pred(&self.vals[i])).collect();
        if c.is_empty() {
            return None;
        }
        if self.src.chance(50) { c.last().copied() } else { Some(self.src.pick(&c)) }
    }

    fn style(&mut self) -> Style {
        use Style::*;
        [Small, Positive, Ints, Wide, Special, Ties, Nonzero][self.src.weighted(&[10, 2, 2, 2, 2, 2, 1])]
    }

    fn draw_float(&mut self, style: Style) -> f64 {
        let r = &mut self.rng;
        let sign = |r: &mut Rng| if r.chance(50) { -1.0 } else { 1.0 };
        match style {
            Style::Small => r.int(-4000, 4000) as f64 / 1000.0,
            Style::Positive => 0.05 + r.int(0, 4000) as f64 / 1000.0,
            Style::Ints => r.int(-8, 8) as f64,
            Style::Wide => {
                let m = 1.0 + r.int(0, 1023) as f64 / 1024.0;
                let e = r.int(-12, 12) as i32;
                sign(r) * m * 2f64.powi(e)
            }
            Style::Special if r.chance(15) => {
                [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0, -f64::NAN][r.int(0, 5) as usize]
            }
            Style::Special => r.int(-4000, 4000) as f64 / 1000.0,
            Style::Ties => [-1.0, -0.0, 0.0, 0.5, 1.0, 2.0, -2.5][r.int(0, 6) as usize],
            Style::Nonzero => sign(r) * (0.25 + r.int(0, 3750) as f64 / 1000.0),
        }
    }

    fn draw_int(&mut self, style: Style, elem: Elem) -> i64 {
        let r = &mut self.rng;
        let (min, max) = if elem == Elem::I32 { (i32::MIN as i64, i32::MAX as i64) } else { (i64::MIN, i64::MAX) };
        match style {
            Style::Small => r.int(-50, 50),
            Style::Positive => r.int(1, 50),
            Style::Ints | Style::Ties => r.int(-3, 3),
            Style::Wide | Style::Special => {
                [min, max, -1, 0, 1, min + 1, max - 1, r.int(-1_000_000, 1_000_000)][r.int(0, 7) as usize]
            }
            Style::Nonzero => [-7, -5, -3, -2, -1, 1, 2, 3, 4, 7][r.int(0, 9) as usize],
        }
    }

    fn data(&mut self, n: usize, elem: Elem, style: Style, splat: bool) -> Data {
        let count = if splat { 1 } else { n };
        let mut d = match elem {
            Elem::F32 => Data::F32((0..count).map(|_| self.draw_float(style) as f32).collect()),
            Elem::F64 => Data::F64((0..count).map(|_| self.draw_float(style)).collect()),
            Elem::I32 => Data::I32((0..count).map(|_| self.draw_int(style, elem) as i32).collect()),
            Elem::I64 => Data::I64((0..count).map(|_| self.draw_int(style, elem)).collect()),
            Elem::I1 => Data::I1((0..count).map(|_| self.rng.chance(50)).collect()),
        };
        if splat {
            d = match d {
                Data::F32(v) => Data::F32(vec![v[0]; n]),
                Data::F64(v) => Data::F64(vec![v[0]; n]),
                Data::F16(v) => Data::F16(vec![v[0]; n]),
                Data::BF16(v) => Data::BF16(vec![v[0]; n]),
                Data::I8(v) => Data::I8(vec![v[0]; n]),
                Data::I16(v) => Data::I16(vec![v[0]; n]),
                Data::I32(v) => Data::I32(vec![v[0]; n]),
                Data::I64(v) => Data::I64(vec![v[0]; n]),
                Data::I1(v) => Data::I1(vec![v[0]; n]),
            };
        }
        d
    }

    fn constant_data(&mut self, shape: &[i64], elem: Elem, d: Data) -> usize {
        debug_assert_eq!(d.len() as i64, numel(shape));
        let name = self.fresh();
        let t = ty(shape, elem);
        let _ =
            writeln!(self.body, "  {name} = graph.constant {{value = {} : {t}}} : () -> {t}", dense_literal(&d, elem));
        self.ops.push("graph.constant");
        let info = info_of(&d, elem);
        self.push(name, shape.to_vec(), elem, info)
    }

    fn constant(&mut self, shape: &[i64], elem: Elem, style: Style) -> usize {
        let n = numel(shape) as usize;
        let splat = n > 1 && self.src.chance(25);
        let d = self.data(n, elem, style, splat);
        self.constant_data(shape, elem, d)
    }

    fn splat(&mut self, shape: &[i64], elem: Elem, v: f64) -> usize {
        let n = numel(shape) as usize;
        let d = match elem {
            Elem::F32 => Data::F32(vec![v as f32; n]),
            Elem::F64 => Data::F64(vec![v; n]),
            Elem::I32 => Data::I32(vec![v as i32; n]),
            Elem::I64 => Data::I64(vec![v as i64; n]),
            Elem::I1 => Data::I1(vec![v != 0.0; n]),
        };
        self.constant_data(shape, elem, d)
    }

    fn input(&mut self, shape: &[i64], elem: Elem, style: Style) -> usize {
        let name = format!("%arg{}", self.args.len());
        let d = self.data(numel(shape) as usize, elem, style, false);
        let info = info_of(&d, elem);
        let dims = shape.iter().map(|&x| x as usize).collect();
        self.inputs.push(ITensor::new(dims, d).expect("sizes match"));
        let i = self.push(name, shape.to_vec(), elem, info);
        self.args.push(i);
        i
    }

    /// A new input or constant (mostly constant) of `shape`.
    fn operand(&mut self, shape: &[i64], elem: Elem, style: Style) -> usize {
        if self.src.chance(20) { self.input(shape, elem, style) } else { self.constant(shape, elem, style) }
    }

    // ---- shapes ----

    fn extent(&mut self) -> i64 {
        self.src.pick(&[1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 31])
    }

    fn fit(mut s: Vec<i64>, max: i64) -> Vec<i64> {
        while numel(&s) > max {
            let (i, _) = s.iter().enumerate().max_by_key(|(_, d)| **d).unwrap();
            s[i] = (s[i] + 1) / 2;
        }
        s
    }

    fn shape(&mut self, rank: usize) -> Vec<i64> {
        let s: Vec<i64> = (0..rank).map(|_| self.extent()).collect();
        Self::fit(s, MAX_NUMEL)
    }

    fn image_shape(&mut self) -> Vec<i64> {
        let n = self.src.pick(&[1, 1, 1, 2]);
        let c = self.src.pick(&[1, 2, 3, 4, 5, 8, 16]);
        let h = self.src.int(1, 12);
        let w = self.src.int(1, 12);
        Self::fit(vec![n, c, h, w], MAX_NUMEL / 2)
    }

    fn first_inputs(&mut self) {
        for k in 0..self.src.int(1, 2) {
            match self.src.weighted(&[8, 4, 1, 2, 1]) {
                0 => {
                    let rank = self.src.int(if k == 0 { 1 } else { 0 }, 4) as usize;
                    let s = self.shape(rank);
                    let st = self.style();
                    self.input(&s, Elem::F32, st)
                }
                1 => {
                    let s = self.image_shape();
                    let st = self.style();
                    self.input(&s, Elem::F32, st)
                }
                2 => {
                    let rank = self.src.int(1, 3) as usize;
                    let s = self.shape(rank);
                    let st = self.style();
                    self.input(&s, Elem::F64, st)
                }
                3 => {
                    let rank = self.src.int(1, 3) as usize;
                    let s = self.shape(rank);
                    let e = self.src.pick(&[Elem::I32, Elem::I64]);
                    let st = self.style();
                    self.input(&s, e, st)
                }
                _ => {
                    let rank = self.src.int(1, 3) as usize;
                    let s = self.shape(rank);
                    self.input(&s, Elem::I1, Style::Small)
                }
            };
        }
    }

    /// A shape that broadcasts with `s` (and a result no larger than the limit).
    fn partner_shape(&mut self, s: &[i64]) -> Vec<i64> {
        let r = s.len();
        let out = match self.src.int(0, 6) {
            0 | 1 => s.to_vec(),
            2 => s[self.src.int(0, r as i64) as usize..].to_vec(),
            3 => {
                let mut v = s.to_vec();
                for d in v.iter_mut() {
                    if self.src.chance(50) {
                        *d = 1;
                    }
                }
                v
            }
            4 => Vec::new(),
            5 if r >= 3 => {
                // Per channel: [1, C, 1, 1] or [C, 1, 1].
                let mut v = vec![1; r];
                v[1] = s[1];
                if self.src.chance(50) { v[1..].to_vec() } else { v }
            }
            _ => {
                // Growing the result: extents 1 become larger, maybe a new leading one.
                let mut v = s.to_vec();
                for d in v.iter_mut() {
                    if *d == 1 && self.src.chance(60) {
                        *d = self.src.int(2, 5);
                    }
                }
                if self.src.chance(30) {
                    v.insert(0, self.src.int(2, 3));
                }
                v
            }
        };
        match broadcast(s, &out) {
            Some(b) if numel(&b) <= MAX_NUMEL => out,
            _ => s.to_vec(),
        }
    }

    // ---- the random step ----

    fn step(&mut self) -> Option<usize> {
        let weights = [
            14, // 0 unary
            18, // 1 binary
            5,  // 2 compare / select
            5,  // 3 cast
            4,  // 4 clamp
            8,  // 5 reduction
            3,  // 6 softmax
            12, // 7 data movement
            5,  // 8 matmul
            5,  // 9 conv
            3,  // 10 pool
            5,  // 11 conv block (epilogues)
            4,  // 12 norm (layer, rms, group)
            3,  // 13 softmax written out
            2,  // 14 attention
            2,  // 15 linear layer
            2,  // 16 grouped conv written per group
            2,  // 17 integer bit operations
        ];
        match self.src.weighted(&weights) {
            0 => self.unary(),
            1 => self.binary(),
            2 => {
                if self.src.chance(50) {
                    self.compare()
                } else {
                    self.select()
                }
            }
            3 => self.cast(),
            4 => self.clamp(),
            5 => self.reduce(),
            6 => self.softmax(),
            7 => self.data_movement(),
            8 => self.matmul(),
            9 => self.conv(),
            10 => self.pool(),
            11 => self.conv_block(),
            12 => self.norm(),
            13 => self.hand_softmax(),
            14 => self.attention(),
            15 => self.linear(),
            16 => self.split_conv(),
            _ => self.bit_op(),
        }
    }

    // ---- taming ----

    /// `x`, or `x` clamped into a range within +-limit when it may exceed it.
    fn tame(&mut self, x: usize, limit: f64) -> usize {
        if self.vals[x].info.mag() <= limit {
            return x;
        }
        let c = self.src.pick(&[1.0f64, 4.0, 8.0, 100.0]).min(limit);
        self.e_clamp(x, -c, c)
    }

    /// `x`, or `x` clamped when it may hold infinities: the operand of a product with
    /// an approximate value, where inf * (a value near 0 that may differ in sign or be
    /// 0 on one side) would not be the same non-finite value on both sides.
    fn finite(&mut self, x: usize) -> usize {
        if !self.vals[x].info.inf {
            return x;
        }
        let c = self.vals[x].info.mag().clamp(1.0, TAME);
        self.e_clamp(x, -c, c)
    }

    /// `x` if its elements are >= min, else abs(tame(x)) + c.
    fn positive(&mut self, x: usize, min: f64) -> usize {
        let x = self.tame(x, TAME);
        if self.vals[x].info.lo >= min {
            return x;
        }
        let a = self.e_unary("graph.abs", x).expect("abs of a float");
        let c = self.src.pick(&[0.5f64, 1.0, 2.0]).max(min);
        let rank = if self.src.chance(50) { 0 } else { self.vals[a].shape.len() };
        let cs = vec![1; rank];
        let e = self.vals[a].elem;
        let k = self.splat(&cs, e, c);
        self.e_binary("graph.add", a, k).expect("add of a splat")
    }
}

impl Gen<'_, '_> {
    // ---- the function ----

    fn finish(mut self) -> Case {
        let mut outs = vec![self.last()];
        for _ in 0..self.src.int(0, 2) {
            if let Some(v) = self.pick(|_| true) {
                outs.push(v);
            }
        }
        let args: Vec<String> = self
            .args
            .iter()
            .map(|&i| format!("{}: {}", self.vals[i].name, ty(&self.vals[i].shape, self.vals[i].elem)))
            .collect();
        let types: Vec<String> = outs.iter().map(|&i| ty(&self.vals[i].shape, self.vals[i].elem)).collect();
        let results = if types.len() == 1 { types[0].clone() } else { format!("({})", types.join(", ")) };
        let names: Vec<&str> = outs.iter().map(|&i| self.vals[i].name.as_str()).collect();
        let text = format!(
            "func.func @main({}) -> {results} {{\n{}  return {} : {}\n}}\n",
            args.join(", "),
            self.body,
            names.join(", "),
            types.join(", ")
        );
        let outputs = outs
            .iter()
            .map(|&i| {
                let v = &self.vals[i];
                Expect { elem: v.elem, exact: v.info.exact(), tol: 2.0 * v.info.err, scale: v.info.mag() }
            })
            .collect();
        let mut notes = String::new();
        for v in self.vals.iter().filter(|v| !v.hidden) {
            let i = v.info;
            let _ = writeln!(
                notes,
                "{}: [{:e}, {:e}] err {:e}{}",
                v.name,
                i.lo,
                i.hi,
                i.err,
                if i.special { " special" } else { "" }
            );
        }
        Case { text, inputs: self.inputs, outputs, ops: self.ops, notes }
    }
}

/// min and max of f over the corners of two intervals (NaN corners, from 0 * inf,
/// widen to everything).
fn corners(a: Info, b: Info, f: impl Fn(f64, f64) -> f64) -> (f64, f64) {
    let c = [f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)];
    if c.iter().any(|v| v.is_nan()) {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    (c.iter().copied().fold(f64::INFINITY, f64::min), c.iter().copied().fold(f64::NEG_INFINITY, f64::max))
}

/// erf within 4e-4, monotone, in [-1, 1]: only for bounds, which the callers widen by
/// 1e-3 (the test crates have no libm).
fn libm_erf(x: f64) -> f64 {
    let t = x * (std::f64::consts::FRAC_2_SQRT_PI + 0.100_91 * x * x);
    t.tanh()
}

/// A case from hand-written (say, minimized) model text: inputs drawn from `seed` for
/// its `@main`'s argument types (small decimals, small integers, random booleans),
/// every result held to `exact` or else to the tolerance `tol`.
pub fn replay_case(text: &str, seed: u64, exact: bool, tol: f64) -> Result<Case, String> {
    let m = tcc::parse_model("<replay>", text.as_bytes().to_vec()).map_err(|e| e.to_string())?;
    let f = m.func("main").ok_or("no @main")?;
    let fty = tcc::ir::builtin::func_type(&m, f).ok_or("no function type")?;
    let elem = |t: &tcc::ir::Type| -> Result<(Vec<i64>, Elem), String> {
        let t = t.as_tensor().ok_or("not a tensor")?;
        let e = match t.elem() {
            tcc::ir::ScalarType::F32 => Elem::F32,
            tcc::ir::ScalarType::F64 => Elem::F64,
            tcc::ir::ScalarType::I32 => Elem::I32,
            tcc::ir::ScalarType::I64 => Elem::I64,
            tcc::ir::ScalarType::I1 => Elem::I1,
            other => return Err(format!("element type {other}")),
        };
        Ok((t.shape().to_vec(), e))
    };
    let mut src = Source::from_seed(seed);
    let mut g = Gen::new(&mut src, seed);
    for t in &fty.inputs {
        let (s, e) = elem(t)?;
        g.input(&s, e, Style::Small);
    }
    let outputs = fty
        .results
        .iter()
        .map(|t| elem(t).map(|(_, e)| Expect { elem: e, exact, tol, scale: 0.0 }))
        .collect::<Result<_, _>>()?;
    Ok(Case { text: text.to_string(), inputs: g.inputs, outputs, ops: Vec::new(), notes: String::new() })
}
