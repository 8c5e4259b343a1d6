//! Property test: fusion groups compute what the ops they stitch compute.
//!
//! Random memory-bound graphs: elementwise ops (unary, transcendental, binary with
//! broadcast constants or with earlier values), reductions over random axes (mostly
//! keeping dimensions, then combined with the full-size values they came from, as in
//! softmax and norms; some in f64 between casts), whole softmaxes and norms over the
//! innermost dimensions (stitched groups), reshapes and transposes between them, on
//! odd shapes, sometimes with a long innermost dimension. For each:
//! the interpreter on the graph as written is the oracle; the interpreter on the graph
//! after `fuse-memory-bound` must agree, and so must the compiled graph (whose pipeline
//! fuses) on every backend, on 1 and 2 threads.

use tcc::graph::{Data, Tensor as ITensor, run_function};

mod common;

use common::Rng;

fn ty(s: &[i64]) -> String {
    if s.is_empty() {
        return "tensor<f32>".into();
    }
    format!("tensor<{}xf32>", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"))
}

fn list(v: &[i64]) -> String {
    v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
}

/// Builds the text of `@main` op by op, tracking each value's shape.
struct Graph {
    body: String,
    values: Vec<(String, Vec<i64>)>,
    r: Rng,
    /// Draws added later (blocked shapes, a norm's scale and shift), from their own
    /// stream so the graphs drawn before them stay the same.
    extra: Rng,
}

impl Graph {
    fn add(&mut self, text: &str, args: &[usize], out: Vec<i64>) -> usize {
        let v = format!("%v{}", self.values.len());
        let names: Vec<&str> = args.iter().map(|&a| self.values[a].0.as_str()).collect();
        let types: Vec<String> = args.iter().map(|&a| ty(&self.values[a].1)).collect();
        let (name, attrs) = text.split_once(' ').unwrap_or((text, ""));
        self.body += &format!("  {v} = {name} {}{attrs} : ({}) -> {}\n", names.join(", "), types.join(", "), ty(&out));
        self.values.push((v, out));
        self.values.len() - 1
    }

    fn constant(&mut self, shape: &[i64]) -> usize {
        let n: i64 = shape.iter().product();
        let hex: String =
            self.r.values(n, 500.0).iter().flat_map(|v| v.to_le_bytes()).map(|b| format!("{b:02X}")).collect();
        let v = format!("%v{}", self.values.len());
        self.body +=
            &format!("  {v} = graph.constant {{value = dense<\"0x{hex}\"> : {t}}} : () -> {t}\n", t = ty(shape));
        self.values.push((v, shape.to_vec()));
        self.values.len() - 1
    }

    /// One random memory-bound op on value `x`; returns its result.
    fn step(&mut self, x: usize) -> usize {
        let s = self.values[x].1.clone();
        let rank = s.len();
        match self.r.int(0, 11) {
            0 | 1 => {
                let op = ["graph.neg", "graph.exp", "graph.tanh", "graph.abs", "graph.relu"][self.r.int(0, 4) as usize];
                self.add(op, &[x], s)
            }
            2 | 3 => {
                let c_shape: Vec<i64> = s.iter().map(|&d| if self.r.int(0, 1) == 0 { 1 } else { d }).collect();
                let c = self.constant(&c_shape);
                let op = ["graph.add", "graph.sub", "graph.mul", "graph.max"][self.r.int(0, 3) as usize];
                let args = if self.r.int(0, 1) == 0 { [x, c] } else { [c, x] };
                self.add(op, &args, s)
            }
            4 | 5 if rank > 0 => {
                // A reduction kept as 1s, then combined with the value it reduced.
                let axis = self.r.int(0, rank as i64 - 1);
                let op = ["graph.reduce_sum", "graph.reduce_max", "graph.reduce_mean"][self.r.int(0, 2) as usize];
                let mut out = s.clone();
                out[axis as usize] = 1;
                let red = self.add(&format!("{op} {{axes = [{axis}], keepdims = true}}"), &[x], out);
                if self.r.int(0, 2) > 0 {
                    let comb = ["graph.sub", "graph.mul", "graph.add"][self.r.int(0, 2) as usize];
                    self.add(comb, &[x, red], s)
                } else {
                    red
                }
            }
            6 if rank >= 2 => {
                // Merge two neighbouring dimensions.
                let d = self.r.int(0, rank as i64 - 2) as usize;
                let mut out = s.clone();
                out[d] *= out.remove(d + 1);
                self.add(&format!("graph.reshape {{shape = [{}]}}", list(&out)), &[x], out)
            }
            7 if rank >= 2 => {
                let mut perm: Vec<i64> = (0..rank as i64).collect();
                let (a, b) = (self.r.int(0, rank as i64 - 1) as usize, self.r.int(0, rank as i64 - 1) as usize);
                perm.swap(a, b);
                let out: Vec<i64> = perm.iter().map(|&p| s[p as usize]).collect();
                self.add(&format!("graph.transpose {{perm = [{}]}}", list(&perm)), &[x], out)
            }
            8 => {
                // With an earlier value of the same shape.
                let same: Vec<usize> = (0..self.values.len()).filter(|&i| self.values[i].1 == s && i != x).collect();
                if same.is_empty() {
                    return self.add("graph.neg", &[x], s);
                }
                let y = same[self.r.int(0, same.len() as i64 - 1) as usize];
                self.add("graph.add", &[x, y], s)
            }
            9 if rank > 0 && self.r.int(0, 1) == 0 => {
                // A sum in f64 of the centred square, as torch-mlir writes a norm's
                // variance: a group mixing element types.
                // Over the innermost dimension or another one (the innermost kept).
                let axis = if self.r.int(0, 1) == 0 { rank - 1 } else { self.r.int(0, rank as i64 - 1) as usize };
                let mut out = s.clone();
                out[axis] = 1;
                let n = self.values.len();
                let (name, t64, o64) =
                    (&self.values[x].0, ty(&s).replace("f32", "f64"), ty(&out).replace("f32", "f64"));
                let v = format!("%v{n}");
                self.body += &format!(
                    "  %w{n}a = graph.cast {name} : ({}) -> {t64}\n  %w{n}b = graph.mul %w{n}a, %w{n}a : ({t64}, {t64}) -> {t64}\n  \
                     %w{n}c = graph.reduce_sum %w{n}b {{axes = [{axis}], keepdims = true}} : ({t64}) -> {o64}\n  \
                     {v} = graph.cast %w{n}c : ({o64}) -> {}\n",
                    ty(&s),
                    ty(&out)
                );
                self.values.push((v, out));
                self.values.len() - 1
            }
            10 | 11 if rank > 0 => {
                // A softmax or a norm over the innermost dimensions: several reductions
                // of the same rows, stitched into one group.
                let first = self.r.int(0, rank as i64 - 1) as usize;
                // On a blocked activation, often a group norm: over `H, W, b`.
                let first = if rank == 5 && self.extra.int(0, 1) == 0 { 2 } else { first };
                let axes: Vec<i64> = (first as i64..rank as i64).collect();
                let mut row = s.clone();
                row[first..].fill(1);
                let attrs = format!("{{axes = [{}], keepdims = true}}", list(&axes));
                if self.r.int(0, 1) == 0 {
                    let m = self.add(&format!("graph.reduce_max {attrs}"), &[x], row.clone());
                    let d = self.add("graph.sub", &[x, m], s.clone());
                    let e = self.add("graph.exp", &[d], s.clone());
                    let sum = self.add(&format!("graph.reduce_sum {attrs}"), &[e], row.clone());
                    let r = self.add("graph.reciprocal", &[sum], row.clone());
                    let y = self.add("graph.mul", &[e, r], s.clone());
                    if self.extra.int(0, 2) > 0 {
                        return y;
                    }
                    // As torch-mlir masks attention: rows whose inputs all equal a value
                    // give zeros (a row's condition, an i1, selects per element).
                    let n = self.values.len();
                    let c = self.constant(&vec![1; rank]);
                    let zeros = self.constant(&vec![1; rank]);
                    let (xn, cn, zn, yn) = (
                        self.values[x].0.clone(),
                        self.values[c].0.clone(),
                        self.values[zeros].0.clone(),
                        self.values[y].0.clone(),
                    );
                    let (ts, tr, t1) = (ty(&s), ty(&row), ty(&vec![1; rank]));
                    let (bs, br) = (ts.replace("f32", "i1"), tr.replace("f32", "i1"));
                    // The condition counted in f32 or, as torch-mlir exports BERT, in i32.
                    let counted = ["f32", "i32"][self.extra.int(0, 1) as usize];
                    let (cs, cr) = (ts.replace("f32", counted), tr.replace("f32", counted));
                    let v = format!("%v{n}m");
                    self.body += &format!(
                        "  %m{n}a = graph.equal {xn}, {cn} : ({ts}, {t1}) -> {bs}\n  \
                         %m{n}b = graph.cast %m{n}a : ({bs}) -> {cs}\n  \
                         %m{n}c = graph.reduce_min %m{n}b {attrs} : ({cs}) -> {cr}\n  \
                         %m{n}d = graph.cast %m{n}c : ({cr}) -> {br}\n  \
                         {v} = graph.select %m{n}d, {zn}, {yn} : ({br}, {t1}, {ts}) -> {ts}\n"
                    );
                    self.values.push((v, s));
                    self.values.len() - 1
                } else {
                    let mean = self.add(&format!("graph.reduce_mean {attrs}"), &[x], row.clone());
                    let c = self.add("graph.sub", &[x, mean], s.clone());
                    let sq = self.add("graph.mul", &[c, c], s.clone());
                    let var = self.add(&format!("graph.reduce_mean {attrs}"), &[sq], row.clone());
                    // Sometimes of a lower rank, as torch-mlir writes scalars (broadcast).
                    let eps_rank = rank - self.extra.int(0, rank as i64 - 1) as usize;
                    let eps = self.constant(&vec![1; eps_rank]);
                    let abs = self.add("graph.abs", &[eps], vec![1; eps_rank]);
                    let ve = self.add("graph.add", &[var, abs], row.clone());
                    let rs = self.add("graph.rsqrt", &[ve], row);
                    let y = self.add("graph.mul", &[c, rs], s.clone());
                    if self.extra.int(0, 1) == 0 {
                        return y;
                    }
                    // A per-channel scale and shift, as a group norm has: constant along
                    // the row's leading dimensions, varying along its trailing ones
                    // (or per row too), so it repeats along the row.
                    let t = if rank == 5 { 4 } else { self.extra.int(first as i64, rank as i64 - 1) as usize };
                    let cs: Vec<i64> = (0..rank)
                        .map(|d| match d {
                            d if d < first => [1, s[d]][self.extra.int(0, 1) as usize],
                            d if d < t => 1,
                            d => s[d],
                        })
                        .collect();
                    let (gamma, beta) = (self.constant(&cs), self.constant(&cs));
                    let scaled = self.add("graph.mul", &[y, gamma], s.clone());
                    self.add("graph.add", &[scaled, beta], s)
                }
            }
            _ => self.add("graph.clamp {max = 2.0, min = -1.5}", &[x], s),
        }
    }
}

fn model(seed: u64) -> (String, Vec<i64>) {
    let mut r = Rng::new(seed);
    let rank = r.int(1, 4) as usize;
    let mut xs: Vec<i64> = (0..rank).map(|_| r.int(1, 9)).collect();
    // Sometimes a long innermost dimension (whole vectors, partial accumulators).
    if r.int(0, 2) == 0 {
        xs[rank - 1] = r.int(16, 40);
    }
    // Sometimes a blocked activation `[N, C/b, H, W, b]` with a short block: a norm over
    // its trailing dimensions walks them as one run of vectors.
    let mut extra = Rng::new(seed.wrapping_mul(7919) ^ 0x5EED);
    if extra.int(0, 3) == 0 {
        let e = &mut extra;
        xs = vec![e.int(1, 2), e.int(1, 5), 2 * e.int(1, 3), 2 * e.int(1, 4), [2, 4, 8][e.int(0, 2) as usize]];
    }
    let mut g = Graph { body: String::new(), values: vec![("%x".into(), xs.clone())], r, extra };
    let mut v = 0;
    for _ in 0..g.r.int(2, 8) {
        v = g.step(v);
    }
    let out = g.values[v].1.clone();
    let text = format!(
        "func.func @main(%x: {}) -> {} {{\n{}  return {} : {}\n}}\n",
        ty(&xs),
        ty(&out),
        g.body,
        g.values[v].0,
        ty(&out)
    );
    (text, xs)
}

fn close(got: &[f64], want: &[f64]) -> Option<usize> {
    let scale = want.iter().filter(|v| v.is_finite()).fold(1e-3f64, |a, &v| a.max(v.abs()));
    got.iter().zip(want).position(|(&g, &w)| !((g - w).abs() <= 1e-4 * scale || (g.is_nan() && w.is_nan()) || g == w))
}

#[test]
fn fused_graphs_match_the_interpreter() {
    let (mut groups, mut stitched) = (0, 0);
    for seed in 1..=150u64 {
        let (text, xs) = model(seed);
        let m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let n: i64 = xs.iter().product();
        let input = Rng::new(seed ^ 0xABCD).values(n, 500.0);
        let dims: Vec<usize> = xs.iter().map(|&d| d as usize).collect();
        let x = ITensor::new(dims.clone(), Data::F32(input.clone())).unwrap();
        let want = run_function(&m, m.func("main").unwrap(), std::slice::from_ref(&x))
            .unwrap_or_else(|e| panic!("{e}\n{text}"))[0]
            .to_f64s();

        // The interpreter on the fused graph.
        let mut fused = m.clone();
        for pass in tcc::pass_registry().parse_pipeline("fuse-memory-bound").unwrap() {
            pass.run(&mut fused).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        }
        tcc::ir::verify(&fused).unwrap_or_else(|e| panic!("seed {seed}: fused graph does not verify: {e}\n{text}"));
        let fused_text = tcc::ir::print_module(&fused, tcc::ir::PrintOptions::default());
        groups += fused_text.matches("graph.fused").count();
        stitched += fused_text
            .split("graph.fused")
            .skip(1)
            .filter(|g| g.split("graph.yield").next().is_some_and(|body| body.matches("graph.reduce_").count() >= 2))
            .count();
        let got =
            run_function(&fused, fused.func("main").unwrap(), &[x]).unwrap_or_else(|e| panic!("{e}\n{fused_text}"));
        if let Some(i) = close(&got[0].to_f64s(), &want) {
            panic!("seed {seed}: fused graph in the interpreter differs at element {i}\n{text}\n{fused_text}");
        }

        // Compiled (the pipeline fuses), every backend, 1 or 2 threads.
        for backend in tcc::backend::compiled_backends() {
            let threads = 1 + (seed % 2) as usize;
            let model = tcc::Runtime::builder().backend(backend).threads(threads).load_str(&text);
            let model = model.unwrap_or_else(|e| panic!("seed {seed}, {backend:?}: {e}\n{text}"));
            let got = model.run(&[tcc::Tensor::from_slice(&input, &dims).unwrap()]);
            let got = got.unwrap_or_else(|e| panic!("seed {seed}, {backend:?}: {e}"));
            let got = got[0].to_f64s();
            if let Some(i) = close(&got, &want) {
                panic!(
                    "seed {seed}, {backend:?}, {threads} thread(s): element {i}: compiled {}, interpreter {}\n{text}\n{fused_text}",
                    got[i], want[i]
                );
            }
        }
    }
    // The graphs must actually form groups, or the property says little.
    eprintln!("{groups} fusion groups formed, {stitched} stitched around several reductions");
    assert!(groups >= 100, "only {groups} fusion groups formed");
    assert!(stitched >= 20, "only {stitched} groups stitched around several reductions");
}

/// Groups with too few rows for the pool, and long ones, split each row across the
/// threads (partial results in scratch memory, combined per row): a lone reduction, a
/// softmax, a norm with its variance in f64 and a reduction of a product, over one to
/// three rows of 16384 to 40000 elements (whole vectors or not), compiled on every
/// backend with 1 and 2 threads, against the interpreter.
#[test]
fn long_rows_split_across_threads_match_the_interpreter() {
    for seed in 1..=12u64 {
        let mut r = Rng::new(seed ^ 0x5917);
        let rows = r.int(1, 3);
        let len = if r.int(0, 1) == 0 { 16 * r.int(1024, 2500) } else { r.int(16384, 40000) };
        let (s, row) = (vec![rows, len], vec![rows, 1]);
        let mut g = Graph {
            body: String::new(),
            values: vec![("%x".into(), s.clone())],
            r: Rng::new(seed),
            extra: Rng::new(seed + 1),
        };
        let attrs = "{axes = [1], keepdims = true}";
        let kind = seed % 4;
        let out = match kind {
            0 => {
                let op = ["graph.reduce_sum", "graph.reduce_max", "graph.reduce_mean"][r.int(0, 2) as usize];
                g.add(&format!("{op} {attrs}"), &[0], row)
            }
            1 => {
                let m = g.add(&format!("graph.reduce_max {attrs}"), &[0], row.clone());
                let d = g.add("graph.sub", &[0, m], s.clone());
                let e = g.add("graph.exp", &[d], s.clone());
                let sum = g.add(&format!("graph.reduce_sum {attrs}"), &[e], row.clone());
                let rec = g.add("graph.reciprocal", &[sum], row);
                g.add("graph.mul", &[e, rec], s.clone())
            }
            2 => {
                let mean = g.add(&format!("graph.reduce_mean {attrs}"), &[0], row.clone());
                let c = g.add("graph.sub", &[0, mean], s.clone());
                let sq = g.add("graph.mul", &[c, c], s.clone());
                let var = g.add(&format!("graph.reduce_mean {attrs}"), &[sq], row.clone());
                let rs = g.add("graph.rsqrt", &[var], row);
                g.add("graph.mul", &[c, rs], s.clone())
            }
            _ => {
                let sq = g.add("graph.mul", &[0, 0], s.clone());
                g.add(&format!("graph.reduce_sum {attrs}"), &[sq], row)
            }
        };
        let out_shape = g.values[out].1.clone();
        let text = format!(
            "func.func @main(%x: {}) -> {} {{\n{}  return {} : {}\n}}\n",
            ty(&s),
            ty(&out_shape),
            g.body,
            g.values[out].0,
            ty(&out_shape)
        );
        let input = Rng::new(seed ^ 0xABCD).values(rows * len, 3.0);
        compiled_matches_interpreter(
            &text,
            &input,
            &[rows as usize, len as usize],
            &format!("seed {seed} (kind {kind})"),
        );
    }
}

/// A group norm's statistics as torch-mlir exports them: per-channel sums over the
/// pixels (the channels innermost, kept) of f32 data with a bias added in f32, then
/// widened to f64 (and sometimes centred and squared in f64), on maps large enough
/// that the channel chunks are the parallel tasks, channel counts whole vectors or
/// not; compiled on every backend with 1 and 2 threads, against the interpreter.
#[test]
fn channel_sums_in_f64_after_f32_arithmetic_match_the_interpreter() {
    for seed in 1..=10u64 {
        let mut r = Rng::new(seed ^ 0xC4A2);
        let (h, w) = (r.int(12, 48), r.int(12, 48));
        let c = [16, 32, 64, 128, 24, 20, 9][r.int(0, 6) as usize];
        let s = vec![1, h, w, c];
        let mut g = Graph { body: String::new(), values: vec![("%x".into(), s.clone())], r, extra: Rng::new(seed) };
        let bias = g.constant(&[c]);
        let op = ["graph.add", "graph.sub", "graph.mul", "graph.max"][g.r.int(0, 3) as usize];
        let biased = g.add(op, &[0, bias], s.clone());
        let (t32, t64) = (ty(&s), ty(&s).replace("f32", "f64"));
        let (o32, o64) = (ty(&[1, 1, 1, c]), ty(&[1, 1, 1, c]).replace("f32", "f64"));
        let name = g.values[biased].0.clone();
        let centred = g.r.int(0, 1) == 1;
        let summed = if centred {
            format!(
                "  %c = graph.constant {{value = dense<0.25> : tensor<1xf64>}} : () -> tensor<1xf64>\n  \
                 %d = graph.sub %w, %c : ({t64}, tensor<1xf64>) -> {t64}\n  \
                 %s = graph.mul %d, %d : ({t64}, {t64}) -> {t64}\n"
            )
        } else {
            format!("  %s = graph.add %w, %w : ({t64}, {t64}) -> {t64}\n")
        };
        let text = format!(
            "func.func @main(%x: {t32}) -> {o32} {{\n{}  %w = graph.cast {name} : ({t32}) -> {t64}\n{summed}  \
             %r = graph.reduce_sum %s {{axes = [1, 2], keepdims = true}} : ({t64}) -> {o64}\n  \
             %y = graph.cast %r : ({o64}) -> {o32}\n  return %y : {o32}\n}}\n",
            g.body
        );
        let input = Rng::new(seed ^ 0xABCD).values(h * w * c, 3.0);
        let dims = [1, h as usize, w as usize, c as usize];
        compiled_matches_interpreter(&text, &input, &dims, &format!("seed {seed}"));
    }
}

/// Model `text` (one f32 input of shape `dims`) compiled on every backend, on 1 and 2
/// threads, gives the interpreter's result on `input`; panics naming `case` otherwise.
fn compiled_matches_interpreter(text: &str, input: &[f32], dims: &[usize], case: &str) {
    let m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let x = ITensor::new(dims.to_vec(), Data::F32(input.to_vec())).unwrap();
    let want = run_function(&m, m.func("main").unwrap(), &[x]).unwrap()[0].to_f64s();
    for backend in tcc::backend::compiled_backends() {
        for threads in [1, 2] {
            let model = tcc::Runtime::builder().backend(backend).threads(threads).load_str(text).unwrap();
            let got = model.run(&[tcc::Tensor::from_slice(input, dims).unwrap()]).unwrap();
            let got = got[0].to_f64s();
            if let Some(i) = close(&got, &want) {
                panic!(
                    "{case} {dims:?}, {backend:?}, {threads} thread(s): element {i}: compiled {}, interpreter {}\n{text}",
                    got[i], want[i]
                );
            }
        }
    }
}
