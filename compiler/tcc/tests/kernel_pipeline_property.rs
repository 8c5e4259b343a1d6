//! Property test: the whole kernel pipeline (blocking, layout propagation, epilogue
//! fusion, kernel configuration, templates) computes what the unoptimized graph computes.
//!
//! Random small CNN-like graphs with constant weights: a convolution (any kernel,
//! stride, asymmetric padding, sometimes dilated, sometimes depthwise with or without a
//! channel multiplier, sometimes grouped with any group width) with bias and an
//! activation, an optional pool, a second convolution (1x1 or 3x3, sometimes on a
//! channel concat of two branches) with an optional residual add, then a global
//! average and a dense layer. Channel counts are drawn from 1 to 40, so the last
//! channel block is usually padded: padded lanes must never leak into results. Each
//! graph is compiled by every backend on 1 and 2 threads and compared with the
//! reference interpreter on the graph as written.

use tcc::graph::{Data, Tensor as ITensor, run_function};

mod common;

use common::Rng;

fn ty(s: &[i64]) -> String {
    format!("tensor<{}xf32>", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"))
}

/// Builds the text of `@main` op by op.
struct Graph {
    body: String,
    next: usize,
    r: Rng,
}

impl Graph {
    fn value(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }
    fn constant(&mut self, shape: &[i64]) -> String {
        let n: i64 = shape.iter().product();
        let hex: String =
            self.r.values(n, 1000.0).iter().flat_map(|v| v.to_le_bytes()).map(|b| format!("{b:02X}")).collect();
        let v = self.value();
        self.body +=
            &format!("  {v} = graph.constant {{value = dense<\"0x{hex}\"> : {t}}} : () -> {t}\n", t = ty(shape));
        v
    }
    fn op(&mut self, text: &str, args: &[(&str, &[i64])], out: &[i64]) -> String {
        let v = self.value();
        let names: Vec<&str> = args.iter().map(|a| a.0).collect();
        let types: Vec<String> = args.iter().map(|a| ty(a.1)).collect();
        let (name, attrs) = text.split_once(' ').unwrap_or((text, ""));
        self.body += &format!("  {v} = {name} {}{attrs} : ({}) -> {}\n", names.join(", "), types.join(", "), ty(out));
        v
    }

    /// conv2d with bias; returns the result and its shape.
    fn conv(
        &mut self,
        x: &str,
        xs: &[i64],
        o: i64,
        k: [i64; 2],
        s: [i64; 2],
        p: [i64; 4],
        groups: i64,
        d: i64,
    ) -> Option<(String, Vec<i64>)> {
        let extent = [(k[0] - 1) * d + 1, (k[1] - 1) * d + 1];
        let (oh, ow) = ((xs[2] + p[0] + p[2] - extent[0]) / s[0] + 1, (xs[3] + p[1] + p[3] - extent[1]) / s[1] + 1);
        if xs[2] + p[0] + p[2] < extent[0] || xs[3] + p[1] + p[3] < extent[1] {
            return None;
        }
        let ws = [o, xs[1] / groups, k[0], k[1]];
        let w = self.constant(&ws);
        let b = self.constant(&[o]);
        let out = vec![xs[0], o, oh, ow];
        let attrs = format!(
            "graph.conv2d {{strides = [{}, {}], pads = [{}, {}, {}, {}], dilations = [{d}, {d}], groups = {groups}}}",
            s[0], s[1], p[0], p[1], p[2], p[3]
        );
        Some((self.op(&attrs, &[(x, xs), (&w, &ws), (&b, &[o])], &out), out))
    }

    fn activation(&mut self, x: &str, xs: &[i64]) -> String {
        match self.r.int(0, 4) {
            0 => self.op("graph.relu", &[(x, xs)], xs),
            1 => self.op("graph.clamp {min = 0.0, max = 6.0}", &[(x, xs)], xs),
            2 => self.op("graph.sigmoid", &[(x, xs)], xs),
            3 => {
                // SiLU: the kernel's result used twice.
                let s = self.op("graph.sigmoid", &[(x, xs)], xs);
                self.op("graph.mul", &[(x, xs), (&s, xs)], xs)
            }
            _ => x.to_string(),
        }
    }
}

fn model(seed: u64) -> Option<(String, Vec<i64>)> {
    let mut g = Graph { body: String::new(), next: 0, r: Rng::new(seed) };
    let c = g.r.int(1, 40);
    let xs = vec![1, c, g.r.int(4, 14), g.r.int(4, 40)];
    // First conv: any window, or depthwise (sometimes with a channel multiplier), or
    // grouped with any group width.
    let depthwise = g.r.chance(0.2);
    let divisors: Vec<i64> = (2..=c.min(8)).filter(|d| c % d == 0).collect();
    let grouped = !depthwise && !divisors.is_empty() && g.r.chance(0.25);
    let (o1, groups) = if depthwise {
        (c * g.r.pick(&[1, 1, 2, 3]), c)
    } else if grouped {
        let groups = g.r.pick(&divisors);
        (groups * g.r.int(1, 12), groups)
    } else {
        (g.r.int(1, 40), 1)
    };
    let k = [g.r.int(1, 3), g.r.int(1, 3)];
    let s = [g.r.int(1, 2), g.r.int(1, 2)];
    let p = [g.r.int(0, k[0] - 1), g.r.int(0, k[1] - 1), g.r.int(0, k[0] - 1), g.r.int(0, k[1] - 1)];
    let d = if g.r.chance(0.2) { 2 } else { 1 };
    let (mut y, mut ys) = g.conv("%x", &xs, o1, k, s, p, groups, d)?;
    y = g.activation(&y, &ys);
    if g.r.chance(0.4) && ys[2] >= 2 && ys[3] >= 2 {
        let (op, extra) = if g.r.chance(0.5) {
            ("graph.max_pool2d", "")
        } else {
            ("graph.avg_pool2d", ", count_include_pad = false")
        };
        let out = vec![ys[0], ys[1], (ys[2] - 2) / 2 + 1, (ys[3] - 2) / 2 + 1];
        y = g.op(&format!("{op} {{kernel = [2, 2], strides = [2, 2]{extra}}}"), &[(&y, &ys)], &out);
        ys = out;
    }
    let skip = (y.clone(), ys.clone());
    let o2 = if g.r.chance(0.3) { ys[1] } else { g.r.int(1, 40) };
    let k2 = if g.r.chance(0.5) { 1 } else { 3 };
    let (mut z, mut zs) = if g.r.chance(0.25) {
        // Two branches joined along the channels (SqueezeNet's fire module).
        let half = (o2 / 2).max(1);
        let (a, a_s) = g.conv(&y, &ys, half, [1, 1], [1, 1], [0; 4], 1, 1)?;
        let (b, b_s) = g.conv(&y, &ys, o2 - half + 1, [3, 3], [1, 1], [1; 4], 1, 1)?;
        let out = vec![a_s[0], a_s[1] + b_s[1], a_s[2], a_s[3]];
        (g.op("graph.concat {axis = 1}", &[(&a, &a_s), (&b, &b_s)], &out), out)
    } else {
        g.conv(&y, &ys, o2, [k2, k2], [1, 1], [k2 / 2; 4], 1, 1)?
    };
    if zs == skip.1 && g.r.chance(0.7) {
        z = g.op("graph.add", &[(&z, &zs), (&skip.0, &skip.1)], &zs);
    }
    z = g.activation(&z, &zs);
    // Global average, flatten, dense layer with bias.
    let pooled = vec![zs[0], zs[1], 1, 1];
    z = g.op("graph.reduce_mean {axes = [2, 3], keepdims = true}", &[(&z, &zs)], &pooled);
    zs = vec![1, 1, pooled[1]];
    z = g.op(&format!("graph.reshape {{shape = [1, 1, {}]}}", pooled[1]), &[(&z, &pooled)], &zs);
    let n = g.r.int(1, 24);
    let ws = [1, zs[2], n];
    let w = g.constant(&ws);
    let out = vec![1, 1, n];
    z = g.op("graph.matmul", &[(&z, &zs), (&w, &ws)], &out);
    let b = g.constant(&[1, 1, n]);
    z = g.op("graph.add", &[(&z, &out), (&b, &[1, 1, n])], &out);
    let text =
        format!("func.func @main(%x: {}) -> {} {{\n{}  return {z} : {}\n}}\n", ty(&xs), ty(&out), g.body, ty(&out));
    Some((text, xs))
}

/// Compiles `text` with every backend on 1 or 2 threads and compares its output on a
/// random input of shape `xs` with the interpreter's, within `tolerance` of the
/// output's scale.
fn check(text: &str, xs: &[i64], seed: u64, tolerance: f64) {
    let m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let n: i64 = xs.iter().product();
    let input = Rng::new(seed ^ 0xABCD).values(n, 1000.0);
    let x = ITensor::new(xs.iter().map(|&d| d as usize).collect(), Data::F32(input.clone())).unwrap();
    let want = run_function(&m, m.func("main").unwrap(), &[x]).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let want = want[0].to_f64s();
    let scale = want.iter().fold(1e-3f64, |a, &v| a.max(v.abs()));
    for (backend, builder) in common::code_generators(seed / 2) {
        let threads = 1 + (seed % 2) as usize;
        let model = builder.threads(threads).load_str(text);
        let model = model.unwrap_or_else(|e| panic!("seed {seed}, {backend}: {e}\n{text}"));
        let got =
            model.run(&[tcc::Tensor::from_slice(&input, &xs.iter().map(|&d| d as usize).collect::<Vec<_>>()).unwrap()]);
        let got = got.unwrap_or_else(|e| panic!("seed {seed}, {backend}: {e}"));
        let got = got[0].as_slice::<f32>().unwrap();
        for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
            assert!(
                (g as f64 - w).abs() <= tolerance * scale,
                "seed {seed}, {backend}, {threads} thread(s): element {i}: compiled {g}, interpreter {w}\n{text}"
            );
        }
    }
}

#[test]
fn kernel_pipeline_matches_the_interpreter() {
    let (mut valid, mut seed) = (0, 0u64);
    while valid < 60 {
        seed += 1;
        assert!(seed < 1000, "too many invalid draws");
        let Some((text, xs)) = model(seed) else { continue };
        check(&text, &xs, seed, 1e-4);
        valid += 1;
    }
}

/// Grouped convolutions on rows too narrow for the row template, whose groups fill no
/// block at either vector width: `block-layouts` pads each group to whole blocks (at
/// least with Cranelift's 4 lanes), and the padded lanes must not leak.
#[test]
fn group_padded_convolutions_match_the_interpreter() {
    for (seed, (groups, gin, gout, size, stride)) in
        [(2, 5, 5, 3, 1), (3, 7, 6, 4, 1), (2, 13, 21, 5, 2), (4, 3, 9, 2, 1), (2, 18, 18, 6, 1)]
            .into_iter()
            .enumerate()
    {
        let mut g = Graph { body: String::new(), next: 0, r: Rng::new(seed as u64) };
        let xs = vec![1, groups * gin, size, size];
        let (y, ys) = g.conv("%x", &xs, groups * gout, [3, 3], [stride, stride], [1; 4], groups, 1).expect("valid");
        let y = g.activation(&y, &ys);
        let text =
            format!("func.func @main(%x: {}) -> {} {{\n{}  return {y} : {}\n}}\n", ty(&xs), ty(&ys), g.body, ty(&ys));
        check(&text, &xs, seed as u64, 1e-4);
    }
}

/// The row template's tiles on rows of several vectors (whole ones and a last one moved
/// back to end at the row's end, as the microkernels take them at stride 1), several
/// output rows a task: narrow groups and channel multipliers (odd ones too), dilated or
/// strided, with a bias and an activation, sometimes a residual.
#[test]
fn row_template_tiles_match_the_interpreter() {
    for (seed, (groups, gin, gout, [h, w], stride, dilation)) in [
        (32, 4, 4, [9, 37], 1, 1),
        (8, 1, 2, [12, 56], 1, 1),
        (6, 1, 4, [7, 20], 1, 2),
        (5, 3, 3, [10, 33], 1, 1),
        (4, 1, 2, [8, 40], 2, 1),
        (3, 2, 5, [6, 17], 1, 1),
        // Channel multipliers in the microkernels' shared-rows kernels: an odd
        // multiplier (a channel pair and a single channel), rows not in whole blocks.
        (5, 1, 3, [11, 45], 1, 1),
        (7, 1, 2, [13, 30], 1, 1),
        // Rows narrower than a vector: two overlapping narrower vectors.
        (4, 1, 2, [9, 14], 1, 1),
        (3, 2, 2, [5, 10], 1, 1),
        (2, 1, 3, [6, 6], 1, 1),
        // Flat rows (tiles of one row of several input channels; rows that are no
        // whole vectors, a cycle of them is): groups of 8 at 28 pixels (cycles of 4
        // rows, 2 rows left over), rows of 7 (a 16-lane vector in up to three rows), a
        // dilated kernel on rows of 10, rows of 14 in 4 lanes.
        (4, 8, 8, [10, 28], 1, 1),
        (2, 2, 24, [19, 7], 1, 1),
        (2, 3, 24, [20, 12], 1, 2),
        (2, 4, 12, [9, 14], 1, 1),
    ]
    .into_iter()
    .enumerate()
    {
        let mut g = Graph { body: String::new(), next: 0, r: Rng::new(seed as u64 + 100) };
        let xs = vec![1, groups * gin, h, w];
        let pads = [1, 1, 1, 1];
        let (y, ys) =
            g.conv("%x", &xs, groups * gout, [3, 3], [stride, stride], pads, groups, dilation).expect("valid");
        let mut y = g.activation(&y, &ys);
        if seed % 2 == 1 {
            let (z, zs) = g.conv(&y, &ys, ys[1], [3, 3], [1, 1], pads, groups * gout / gout.max(1), 1).expect("valid");
            y = g.op("graph.add", &[(&z, &zs), (&y, &ys)], &zs);
        }
        let text =
            format!("func.func @main(%x: {}) -> {} {{\n{}  return {y} : {}\n}}\n", ty(&xs), ty(&ys), g.body, ty(&ys));
        // Eight seeds a case: every microkernel level (`common::code_generators`) on 1
        // and 2 threads.
        for k in 0..8 {
            check(&text, &xs, 8 * seed as u64 + k, 1e-4);
        }
    }
}

/// The depthwise template (where the code does not call microkernels: LLVM, and
/// Cranelift without them): depthwise convolutions whose edge columns go in the row's
/// first and last tiles, and channel multipliers of 2, 4 and 8 on whole blocks of input
/// channels (one input block times a filter block per multiple, interleaved into the
/// output's blocks; 20 channels are whole blocks of Cranelift's 4 lanes only, 5 of
/// none: the row template), on rows of 1 to 45 columns, asymmetric padding, strides
/// and dilations, with a bias and an activation, sometimes a residual.
#[test]
fn depthwise_template_tiles_match_the_interpreter() {
    for (seed, (c, multiplier, [h, w], stride, dilation, pads)) in [
        (16, 2, [9, 28], 1, 1, [1, 1, 1, 1]),
        (32, 2, [6, 14], 1, 1, [1, 1, 1, 1]),
        (16, 4, [7, 13], 1, 1, [0, 1, 2, 0]),
        (16, 8, [5, 9], 1, 1, [1, 1, 1, 1]),
        (48, 2, [10, 45], 2, 1, [1, 0, 1, 1]),
        (32, 4, [8, 17], 1, 2, [2, 2, 2, 2]),
        (16, 2, [4, 3], 1, 1, [1, 1, 1, 1]),
        (20, 2, [3, 1], 1, 1, [1, 1, 1, 1]),
        (5, 2, [6, 14], 1, 1, [1, 1, 1, 1]),
        (24, 1, [6, 30], 1, 1, [1, 1, 1, 1]),
        (13, 1, [5, 2], 1, 1, [1, 2, 1, 2]),
        (40, 1, [9, 23], 2, 2, [2, 1, 0, 2]),
    ]
    .into_iter()
    .enumerate()
    {
        let mut g = Graph { body: String::new(), next: 0, r: Rng::new(seed as u64 + 300) };
        let xs = vec![1, c, h, w];
        let (y, ys) = g.conv("%x", &xs, c * multiplier, [3, 3], [stride, stride], pads, c, dilation).expect("valid");
        let mut y = g.activation(&y, &ys);
        if seed % 2 == 1 {
            let (z, zs) = g.conv(&y, &ys, ys[1], [3, 3], [1, 1], [1; 4], ys[1], 1).expect("valid");
            y = g.op("graph.add", &[(&z, &zs), (&y, &ys)], &zs);
        }
        let text =
            format!("func.func @main(%x: {}) -> {} {{\n{}  return {y} : {}\n}}\n", ty(&xs), ty(&ys), g.body, ty(&ys));
        // Eight seeds a case: every microkernel level (`common::code_generators`) on 1
        // and 2 threads.
        for k in 0..8 {
            check(&text, &xs, 8 * seed as u64 + k, 1e-4);
        }
        // The blocked graph means what the template computes: its packed filter's
        // channel order is part of `conv2d_nchwc`'s semantics.
        for bits in [128, 512] {
            blocked_graph_matches(&text, &xs, bits, seed as u64);
        }
    }
}

/// Depthwise convolutions with a sigmoid, EfficientNet's SiLU (the microkernels apply
/// both after the bias) or a tanh (which they do not: the microkernel stores the sums
/// and generated code finishes each run of columns while it is in L1); 3x3 and 5x5
/// windows, strides 1 and 2, channels that fill blocks of 16, of 8 only and of 4 only,
/// rows of 1 to 29 columns.
#[test]
fn depthwise_epilogues_match_the_interpreter() {
    for (seed, (c, [h, w], k, stride, activation)) in [
        (32, [9, 29], 3, 1, "silu"),
        (48, [7, 12], 5, 2, "silu"),
        (16, [5, 1], 3, 1, "sigmoid"),
        (24, [6, 17], 3, 2, "tanh"),
        (20, [8, 9], 5, 1, "sigmoid"),
        (32, [11, 21], 3, 1, "tanh"),
    ]
    .into_iter()
    .enumerate()
    {
        let mut g = Graph { body: String::new(), next: 0, r: Rng::new(seed as u64 + 500) };
        let xs = vec![1, c, h, w];
        let p = k / 2;
        let (y, ys) = g.conv("%x", &xs, c, [k, k], [stride, stride], [p; 4], c, 1).expect("valid");
        let y = match activation {
            "tanh" => g.op("graph.tanh", &[(&y, &ys)], &ys),
            "sigmoid" => g.op("graph.sigmoid", &[(&y, &ys)], &ys),
            _ => {
                let s = g.op("graph.sigmoid", &[(&y, &ys)], &ys);
                g.op("graph.mul", &[(&s, &ys), (&y, &ys)], &ys)
            }
        };
        let text =
            format!("func.func @main(%x: {}) -> {} {{\n{}  return {y} : {}\n}}\n", ty(&xs), ty(&ys), g.body, ty(&ys));
        // Every microkernel level (`common::code_generators`) on 1 and 2 threads.
        for k in 0..8 {
            check(&text, &xs, 8 * seed as u64 + k, 1e-4);
        }
    }
}

/// The interpreter gives the same result on `text` and on `text` blocked for vectors of
/// `bits` (`block-layouts`, the packed filters folded).
fn blocked_graph_matches(text: &str, xs: &[i64], bits: u32, seed: u64) {
    let run = |m: &tcc::ir::Module| {
        let n: i64 = xs.iter().product();
        let input = Rng::new(seed ^ 0x5EED).values(n, 1000.0);
        let x = ITensor::new(xs.iter().map(|&d| d as usize).collect(), Data::F32(input)).unwrap();
        run_function(m, m.func("main").unwrap(), &[x]).unwrap_or_else(|e| panic!("{e}\n{text}"))[0].to_f64s()
    };
    let plain = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
    let mut blocked = plain.clone();
    let pipeline = format!("block-layouts{{vector-bits={bits}}},canonicalize");
    for pass in tcc::pass_registry().parse_pipeline(&pipeline).unwrap() {
        pass.run(&mut blocked).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
    let printed = tcc::ir::print_module(&blocked, tcc::ir::PrintOptions::default());
    assert!(printed.contains("graph.conv2d_nchwc"), "not blocked at {bits} bits\n{printed}");
    let (want, got) = (run(&plain), run(&blocked));
    let scale = want.iter().fold(1e-3f64, |a, &v| a.max(v.abs()));
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!((g - w).abs() <= 1e-4 * scale, "{bits} bits: element {i}: blocked {g}, plain {w}\n{printed}");
    }
}

/// Padded output channels are zeroed in the epilogue, so that an infinite input (0 x
/// inf = NaN in a padded lane) does not reach the next convolution through its zero
/// filter lanes: 1 -> 5 -> 1 channels, 1x1, positive weights (a bias of 1/2 before
/// the ReLU), one input element +inf.
/// The interpreter gives +inf at that pixel; a leak gives NaN. Every code generator
/// (each microkernel level in turn) and 1 and 2 threads.
#[test]
fn padded_channels_stay_zero_under_infinite_inputs() {
    let ones = |n: usize| format!("0x{}", "0000803F".repeat(n));
    let halves = |n: usize| format!("0x{}", "0000003F".repeat(n));
    let text = format!(
        "func.func @main(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32> {{\n\
         %w1 = graph.constant {{value = dense<\"{}\"> : tensor<5x1x1x1xf32>}} : () -> tensor<5x1x1x1xf32>\n\
         %b1 = graph.constant {{value = dense<\"{}\"> : tensor<5xf32>}} : () -> tensor<5xf32>\n\
         %y = graph.conv2d %x, %w1, %b1 : (tensor<1x1x6x6xf32>, tensor<5x1x1x1xf32>, tensor<5xf32>) -> tensor<1x5x6x6xf32>\n\
         %r = graph.relu %y : (tensor<1x5x6x6xf32>) -> tensor<1x5x6x6xf32>\n\
         %w2 = graph.constant {{value = dense<\"{}\"> : tensor<1x5x1x1xf32>}} : () -> tensor<1x5x1x1xf32>\n\
         %b2 = graph.constant {{value = dense<\"{}\"> : tensor<1xf32>}} : () -> tensor<1xf32>\n\
         %z = graph.conv2d %r, %w2, %b2 : (tensor<1x5x6x6xf32>, tensor<1x5x1x1xf32>, tensor<1xf32>) -> tensor<1x1x6x6xf32>\n\
         return %z : tensor<1x1x6x6xf32>\n}}\n",
        ones(5),
        halves(5),
        ones(5),
        ones(1)
    );
    let mut input = vec![0.5f32; 36];
    input[14] = f32::INFINITY;
    for seed in 0..8 {
        for (backend, builder) in common::code_generators(seed) {
            let threads = 1 + (seed % 2) as usize;
            let model = builder.threads(threads).load_str(&text).unwrap_or_else(|e| panic!("{backend}: {e}"));
            let got = model.run(&[tcc::Tensor::from_slice(&input, &[1, 1, 6, 6]).unwrap()]).unwrap();
            let got = got[0].as_slice::<f32>().unwrap();
            assert_eq!(got[14], f32::INFINITY, "{backend}, {threads} thread(s): the infinite pixel");
            assert!(got.iter().enumerate().all(|(i, &v)| i == 14 || v == 6.0), "{backend}: {got:?}");
        }
    }
}

/// The bf16 policy's numerics (`reduce-precision`: convolution and matmul operands
/// rounded to bf16) on the same random graphs: compiled, they compute what the
/// interpreter computes on the rounded graph; and the rounding happened (the outputs
/// differ from the f32 graph's) while staying within bf16's precision of them.
#[test]
fn bf16_policy_graphs_match_the_interpreter() {
    let (mut valid, mut seed) = (0, 1000u64);
    while valid < 20 {
        seed += 1;
        let Some((text, xs)) = model(seed) else { continue };
        let mut m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
        for pass in tcc::pass_registry().parse_pipeline("reduce-precision").unwrap() {
            pass.run(&mut m).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        }
        tcc::ir::verify(&m).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let rounded = tcc::ir::print_module(&m, tcc::ir::PrintOptions::default());
        assert!(rounded.contains("xbf16>"), "seed {seed}: nothing rounded\n{rounded}");
        // On AMX tiles the dot kernels sum in another order than the interpreter
        // (`tcc_ukernels::dot::amx_definition`), which can round a value cast to bf16
        // between two kernels to the neighbouring bf16 (2^-8 of it apart): up to one
        // bf16 step of the output's scale then (seed 1004 moved by 6.3e-4 of it on a
        // Xeon with AMX). The kernels themselves are checked bit for bit against AMX's
        // order (`runtime/ukernels/tests/dot.rs`).
        let tolerance = if tcc::target::host::has_amx_bf16() { 2f64.powi(-8) } else { 1e-4 };
        check(&rounded, &xs, seed, tolerance);

        let n: i64 = xs.iter().product();
        let input = Rng::new(seed ^ 0xABCD).values(n, 1000.0);
        let x = ITensor::new(xs.iter().map(|&d| d as usize).collect(), Data::F32(input)).unwrap();
        let run = |m: &tcc::ir::Module| run_function(m, m.func("main").unwrap(), std::slice::from_ref(&x)).unwrap();
        let exact = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
        let (want, got) = (run(&exact)[0].to_f64s(), run(&m)[0].to_f64s());
        let scale = want.iter().fold(1e-3f64, |a, &v| a.max(v.abs()));
        let error = want.iter().zip(&got).map(|(w, g)| (w - g).abs()).fold(0.0f64, f64::max) / scale;
        assert!(error > 0.0 && error < 3e-2, "seed {seed}: bf16 error {error:e} of the output's scale\n{text}");
        valid += 1;
    }
}
