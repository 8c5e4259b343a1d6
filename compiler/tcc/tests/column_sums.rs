//! Column sums computed by the runtime's microkernel (`loop.column_sums`: Cranelift
//! with AVX2 or AVX-512 microkernels): sums over the outer dimensions of an f32 tensor
//! keeping the inner ones, with a per-column bias, a widening to f64, a per-column
//! center and a square in every combination (a group norm's statistics), on random
//! shapes (columns that fill no vector, one, several blocks and a tail; one or two kept
//! dimensions; leading dimensions of one; with and without `keepdims`), 1 and 2
//! threads. Every code generator against the interpreter within rounding; the
//! microkernel's calls bit for bit against the definition (each column's rows added in
//! order, in f32 or f64). The lowered code is checked to call the microkernel where the
//! columns fill a vector of the level (and the reduction is in one group with its
//! operand's ops).

use common::Rng;
use tcc::graph::{Data, Tensor as ITensor, run_function};

mod common;

struct Case {
    /// The input's shape and the reduced axes.
    shape: Vec<usize>,
    axes: Vec<usize>,
    columns: usize,
    bias: bool,
    widen: bool,
    center: bool,
    square: bool,
    keepdims: bool,
}

fn draw(seed: u64) -> Case {
    let mut r = Rng::new(seed);
    let rows = [r.int(1, 9) as usize, r.int(2, 40) as usize];
    let kept: Vec<usize> = if r.chance(0.3) {
        vec![r.int(1, 4) as usize, r.pick(&[4, 8, 16, 20])]
    } else {
        vec![r.pick(&[3, 8, 12, 16, 24, 37, 64, 100, 130, 200])]
    };
    let lead = r.chance(0.3);
    let mut shape: Vec<usize> = if lead { vec![1] } else { vec![] };
    shape.extend(rows);
    let axes: Vec<usize> = (shape.len() - 2..shape.len()).collect();
    shape.extend(&kept);
    Case {
        columns: kept.iter().product(),
        shape,
        axes,
        bias: r.chance(0.6),
        widen: r.chance(0.5),
        center: r.chance(0.5),
        square: r.chance(0.5),
        keepdims: r.chance(0.7),
    }
}

fn tensor(shape: &[usize], elem: &str) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("tensor<{}x{elem}>", dims.join("x"))
}

impl Case {
    /// The shape of a per-column operand (right-aligned: ones over the reduced
    /// dimensions, or only the kept dimensions).
    fn per_column(&self, full_rank: bool) -> Vec<usize> {
        let kept = self.shape.iter().enumerate().filter(|(d, _)| !self.axes.contains(d)).map(|(_, &n)| n);
        let kept: Vec<usize> = kept.skip_while(|&n| n == 1).collect();
        if full_rank {
            self.shape.iter().enumerate().map(|(d, &n)| if self.axes.contains(&d) { 1 } else { n }).collect()
        } else {
            kept
        }
    }

    fn model(&self) -> String {
        let sum = if self.widen { "f64" } else { "f32" };
        let x = tensor(&self.shape, "f32");
        let mut args = vec![format!("%x: {x}")];
        let mut body = Vec::new();
        let mut v = ("%x".to_string(), x.clone());
        let bias = tensor(&self.per_column(false), "f32");
        let center = tensor(&self.per_column(true), sum);
        if self.bias {
            args.push(format!("%b: {bias}"));
            body.push(format!("  %0 = graph.add %b, %x : ({bias}, {x}) -> {x}"));
            v = ("%0".into(), x.clone());
        }
        if self.widen {
            let wide = tensor(&self.shape, "f64");
            body.push(format!("  %1 = graph.cast {} : ({}) -> {wide}", v.0, v.1));
            v = ("%1".into(), wide);
        }
        if self.center {
            args.push(format!("%m: {center}"));
            body.push(format!("  %2 = graph.sub {}, %m : ({}, {center}) -> {}", v.0, v.1, v.1));
            v = ("%2".into(), v.1);
        }
        if self.square {
            body.push(format!("  %3 = graph.mul {}, {} : ({}, {}) -> {}", v.0, v.0, v.1, v.1, v.1));
            v = ("%3".into(), v.1);
        }
        let out: Vec<usize> = if self.keepdims {
            self.shape.iter().enumerate().map(|(d, &n)| if self.axes.contains(&d) { 1 } else { n }).collect()
        } else {
            self.shape.iter().enumerate().filter(|(d, _)| !self.axes.contains(d)).map(|(_, &n)| n).collect()
        };
        let y = tensor(&out, sum);
        let axes: Vec<String> = self.axes.iter().map(|a| a.to_string()).collect();
        body.push(format!(
            "  %y = graph.reduce_sum {} {{axes = [{}], keepdims = {}}} : ({}) -> {y}",
            v.0,
            axes.join(", "),
            self.keepdims,
            v.1
        ));
        format!("func.func @main({}) -> {y} {{\n{}\n  return %y : {y}\n}}\n", args.join(", "), body.join("\n"))
    }

    /// The inputs' values (the center's widened with `widen`).
    fn values(&self, seed: u64) -> Vec<(Vec<usize>, Vec<f64>)> {
        let mut r = Rng::new(seed ^ 0xc01);
        let numel = |s: &[usize]| s.iter().product::<usize>() as i64;
        let widened = |v: Vec<f32>| v.into_iter().map(|v| v as f64).collect::<Vec<f64>>();
        let mut values = vec![(self.shape.clone(), widened(r.values(numel(&self.shape), 250.0)))];
        if self.bias {
            let s = self.per_column(false);
            values.push((s.clone(), widened(r.values(numel(&s), 500.0))));
        }
        if self.center {
            let s = self.per_column(true);
            let v = widened(r.values(numel(&s), 700.0));
            // An f64 center with bits below f32's.
            values.push((s, if self.widen { v.iter().map(|&v| v * (1.0 + 1e-9)).collect() } else { v }));
        }
        values
    }

    /// The sums as the microkernel defines them: each column's rows in order, in f32 or
    /// (widened) f64.
    fn row_ordered_sums(&self, values: &[(Vec<usize>, Vec<f64>)]) -> Vec<f64> {
        let x = &values[0].1;
        let bias = self.bias.then(|| &values[1].1);
        let center = self.center.then(|| &values.last().unwrap().1);
        let rows = x.len() / self.columns;
        (0..self.columns)
            .map(|c| {
                let value = |r: usize| {
                    let v = x[r * self.columns + c] as f32;
                    bias.map_or(v, |b| v + b[c] as f32)
                };
                if self.widen {
                    let mut sum = 0f64;
                    for r in 0..rows {
                        let w = value(r) as f64 - center.map_or(0.0, |m| m[c]);
                        sum += if self.square { w * w } else { w };
                    }
                    sum
                } else {
                    let mut sum = 0f32;
                    for r in 0..rows {
                        let w = value(r) - center.map_or(0.0, |m| m[c] as f32);
                        sum += if self.square { w * w } else { w };
                    }
                    sum as f64
                }
            })
            .collect()
    }
}

/// `values` as the interpreter's tensors and the runtime's (the center in f64 with
/// `widen`, everything else f32).
fn tensors(case: &Case, values: &[(Vec<usize>, Vec<f64>)]) -> (Vec<ITensor>, Vec<tcc::Tensor>) {
    let mut interpreted = Vec::new();
    let mut runtime = Vec::new();
    for (i, (shape, v)) in values.iter().enumerate() {
        let wide = case.widen && case.center && i == values.len() - 1;
        if wide {
            runtime.push(tcc::Tensor::from_slice(v, shape).unwrap());
            interpreted.push(ITensor::new(shape.clone(), Data::F64(v.clone())).unwrap());
        } else {
            let v: Vec<f32> = v.iter().map(|&v| v as f32).collect();
            runtime.push(tcc::Tensor::from_slice(&v, shape).unwrap());
            interpreted.push(ITensor::new(shape.clone(), Data::F32(v)).unwrap());
        }
    }
    (interpreted, runtime)
}

/// Whether the lowered code of `text` for Cranelift with `level`'s microkernels calls
/// the column sums.
fn calls_column_sums(text: &str, level: &str) -> bool {
    let options = tcc::Options { isa: Some(level.into()), ..Default::default() };
    let mut m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
    let session = tcc::pipeline::Session::for_module(&m, &options).unwrap();
    tcc::pipeline::optimize_graph(&mut m, &session).unwrap();
    tcc::pipeline::lower(&mut m, &session).unwrap();
    tcc::ir::print_module(&m, tcc::ir::PrintOptions::default()).contains("loop.column_sums")
}

#[test]
fn column_sums_match_the_interpreter_and_their_definition() {
    let levels: Vec<tcc::Isa> =
        tcc::Isa::ALL.iter().copied().filter(|i| i.is_supported() && i.column_sums_symbol().is_some()).collect();
    let mut called = 0;
    for seed in 0..40 {
        let case = draw(seed);
        let text = case.model();
        let values = case.values(seed);
        let (interpreted, inputs) = tensors(&case, &values);
        let m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
        let want = run_function(&m, m.func("main").unwrap(), &interpreted).unwrap()[0].to_f64s();
        let run = |builder: tcc::RuntimeBuilder| -> Vec<f64> {
            let compiled = builder.load_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            compiled.run(&inputs).unwrap()[0].to_f64s()
        };
        // Rounding of sums of up to 360 rows, in f32 or f64, against the interpreter's
        // (f64 sums).
        let rows: usize = case.axes.iter().map(|&a| case.shape[a]).product();
        let tolerance = if case.widen { 1e-13 } else { 1e-6 } * rows as f64 * common::scale(&want);
        for threads in [1, 2] {
            for (name, builder) in common::code_generators(seed) {
                let got = run(builder.threads(threads));
                let error = common::max_error(&got, &want).unwrap();
                assert!(error <= tolerance, "seed {seed}, {name}, {threads} threads: error {error}\n{text}");
            }
        }
        let exact = case.row_ordered_sums(&values);
        for level in &levels {
            // (`fuse-memory-bound` groups only reductions that keep their dimensions; a
            // lone reduction sums its f32 operand alone, or an f64 one not at all.)
            let fused = case.keepdims || !case.widen;
            let fills = case.columns >= level.lanes() as usize / if case.widen { 2 } else { 1 };
            let calls = calls_column_sums(&text, level.name());
            assert_eq!(calls, fills && fused, "seed {seed}, {level}: calls the column sums\n{text}");
            if calls {
                called += 1;
                for threads in [1, 2] {
                    let builder = tcc::Runtime::builder().backend(tcc::Backend::Cranelift).isa(level.name());
                    let got = run(builder.threads(threads));
                    let same = got.iter().zip(&exact).all(|(g, w)| g.to_bits() == w.to_bits());
                    assert!(same, "seed {seed}, {level}, {threads} threads: {got:?}\nvs {exact:?}\n{text}");
                }
            }
        }
    }
    assert!(levels.is_empty() || called > 20, "only {called} cases called the column sums of a whole group");
}
