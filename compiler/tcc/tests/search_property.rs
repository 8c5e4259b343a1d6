//! Property: the rewrite search's merges compute what the graph computed.
//!
//! Random graphs with parallel branches on one input: two or three matmuls of an
//! activation (2-D or batched) by constant weights, or two or three convolutions of an
//! image with one geometry (kernel, strides, pads, dilations drawn) and constant
//! filters and biases; each branch ends in a random elementwise op, and the branches
//! are concatenated. Every search rule is applied wherever it matches, repeatedly (the
//! most the search could merge), and the merged graph must match the interpreter on
//! the graph as written in the interpreter and compiled, on every backend, with 1 and
//! 2 threads, with the merged matmuls' weights packed in layouts drawn from the
//! target's choices (what the joint layout search tries). The compiler's own choice (`--rewrite-search=taso`, by the estimate)
//! must match too.

use tcc::graph::rules::matching;
use tcc::graph::{Data, Tensor as ITensor, run_function};
use tcc::ir::Module;
use tcc_graph_opt::cost::folds_to_constant;

mod common;

use common::{Rng, mismatch};

fn ty(s: &[i64]) -> String {
    format!("tensor<{}xf32>", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"))
}

fn constant(r: &mut Rng, name: &str, shape: &[i64]) -> String {
    let n: i64 = shape.iter().product();
    let hex: String = r.values(n, 500.0).iter().flat_map(|v| v.to_le_bytes()).map(|b| format!("{b:02X}")).collect();
    format!("  {name} = graph.constant {{value = dense<\"0x{hex}\"> : {t}}} : () -> {t}\n", t = ty(shape))
}

/// A random elementwise op on `v` of type `t`, as `name`.
fn epilogue(r: &mut Rng, name: &str, v: &str, t: &str) -> String {
    match r.int(0, 2) {
        0 => format!("  {name} = graph.relu {v} : ({t}) -> {t}\n"),
        1 => format!("  {name} = graph.tanh {v} : ({t}) -> {t}\n"),
        _ => format!("  {name} = graph.neg {v} : ({t}) -> {t}\n"),
    }
}

/// The text of a random graph with parallel branches, and its input's shape.
fn model(seed: u64) -> (String, Vec<i64>) {
    let mut r = Rng::new(seed);
    let branches = r.int(2, 3) as usize;
    let mut body = String::new();
    let mut outs = Vec::new();
    let (input, out_shape, axis);
    if seed.is_multiple_of(2) {
        // Matmuls: x [m, k] or [b, m, k] by [k, n] (or [b, k, n]).
        let (m, k) = (r.int(1, 24), r.int(1, 40));
        let batch = if r.chance(0.4) { Some(r.int(1, 3)) } else { None };
        input = batch.map_or(vec![m, k], |b| vec![b, m, k]);
        let mut total = 0;
        for i in 0..branches {
            let n = r.int(1, 20);
            total += n;
            let w: Vec<i64> = match batch {
                Some(b) if r.chance(0.5) => vec![b, k, n],
                _ => vec![k, n],
            };
            let out: Vec<i64> = batch.map_or(vec![m, n], |b| vec![b, m, n]);
            body += &constant(&mut r, &format!("%w{i}"), &w);
            body += &format!("  %m{i} = graph.matmul %x, %w{i} : ({}, {}) -> {}\n", ty(&input), ty(&w), ty(&out));
            body += &epilogue(&mut r, &format!("%e{i}"), &format!("%m{i}"), &ty(&out));
            outs.push((format!("%e{i}"), out));
        }
        axis = input.len() - 1;
        out_shape = batch.map_or(vec![m, total], |b| vec![b, m, total]);
    } else {
        // Convolutions of x [1, c, h, w] with one geometry.
        let (c, h, w) = (r.int(1, 12), r.int(3, 14), r.int(3, 14));
        input = vec![1, c, h, w];
        let (kh, kw) = (r.pick(&[1, 1, 3]), r.pick(&[1, 3]));
        let (sh, sw) = (r.int(1, 2), r.int(1, 2));
        let d = r.int(1, 2);
        let pads = [r.int(0, 1), r.int(0, 1), r.int(0, 1), r.int(0, 1)];
        let oh = (h + pads[0] + pads[2] - d * (kh - 1) - 1) / sh + 1;
        let ow = (w + pads[1] + pads[3] - d * (kw - 1) - 1) / sw + 1;
        if oh < 1 || ow < 1 {
            return model(seed + 1000);
        }
        let mut total = 0;
        for i in 0..branches {
            let o = r.int(1, 12);
            total += o;
            let (filt, out) = (vec![o, c, kh, kw], vec![1, o, oh, ow]);
            body += &constant(&mut r, &format!("%w{i}"), &filt);
            body += &constant(&mut r, &format!("%b{i}"), &[o]);
            body += &format!(
                "  %m{i} = graph.conv2d %x, %w{i}, %b{i} {{strides = [{sh}, {sw}], pads = [{}, {}, {}, {}], dilations = [{d}, {d}], groups = 1}} : ({}, {}, {}) -> {}\n",
                pads[0],
                pads[1],
                pads[2],
                pads[3],
                ty(&input),
                ty(&filt),
                ty(&[o]),
                ty(&out)
            );
            body += &epilogue(&mut r, &format!("%e{i}"), &format!("%m{i}"), &ty(&out));
            outs.push((format!("%e{i}"), out));
        }
        axis = 1;
        out_shape = vec![1, total, oh, ow];
    }
    let names: Vec<&str> = outs.iter().map(|o| o.0.as_str()).collect();
    let types: Vec<String> = outs.iter().map(|o| ty(&o.1)).collect();
    body += &format!(
        "  %y = graph.concat {} {{axis = {axis}}} : ({}) -> {}\n",
        names.join(", "),
        types.join(", "),
        ty(&out_shape)
    );
    let text = format!(
        "func.func @main(%x: {}) -> {} {{\n{body}  return %y : {}\n}}\n",
        ty(&input),
        ty(&out_shape),
        ty(&out_shape)
    );
    (text, input)
}

/// `m` with every search rule applied wherever it matches, until none does; and how
/// many rewrites that took.
fn merge_all(m: &Module) -> (Module, usize) {
    let mut current = m.clone();
    let mut applied = 0;
    'outer: for _ in 0..8 {
        for rule in tcc::graph::rules::search_rules() {
            if let Some(b) = matching::find_matches(&current, rule).into_iter().next()
                && let Some(mut next) = matching::apply_to_copy(&current, rule, &b)
            {
                tcc_graph_opt::search::erase_dead(&mut next);
                current = next;
                applied += 1;
                continue 'outer;
            }
        }
        break;
    }
    (current, applied)
}

/// `m` with an `rhs_block` drawn from `target`'s choices on every matmul whose right
/// operand folds to a constant.
fn with_layouts(m: &Module, target: &tcc_target::Target, r: &mut Rng) -> Module {
    let mut out = m.clone();
    let top = m.top();
    for op in m.walk(top) {
        let rhs = (m.name(op) == "graph.matmul").then(|| m.operand(op, 1));
        if let Some(b) = rhs.filter(|&b| m.defining_op(b).is_some_and(|d| folds_to_constant(m, d))) {
            let n = *m.value_type(b).as_tensor().unwrap().shape().last().unwrap();
            let choices = tcc_graph_opt::kernel_config::matmul_block_choices(target, n);
            let pick = choices[r.int(0, choices.len() as i64 - 1) as usize];
            out.set_attr(op, "rhs_block", tcc::ir::Attribute::i64(pick));
        }
    }
    out
}

#[test]
fn merged_graphs_match_the_interpreter() {
    let mut merges = 0;
    let mut layout_rng = Rng::new(77);
    let dir = std::env::temp_dir().join(format!("tcc-search-property-{}", std::process::id()));
    for seed in 1..=60u64 {
        let (text, xs) = model(seed);
        let m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let n: i64 = xs.iter().product();
        let input = Rng::new(seed ^ 0xABCD).values(n, 500.0);
        let dims: Vec<usize> = xs.iter().map(|&d| d as usize).collect();
        let x = ITensor::new(dims.clone(), Data::F32(input.clone())).unwrap();
        let want = run_function(&m, m.func("main").unwrap(), std::slice::from_ref(&x))
            .unwrap_or_else(|e| panic!("{e}\n{text}"))[0]
            .to_f64s();

        let (merged, applied) = merge_all(&m);
        merges += applied;
        tcc::ir::verify(&merged).unwrap_or_else(|e| panic!("seed {seed}: merged graph does not verify: {e}\n{text}"));
        let merged_text = tcc::ir::print_module(&merged, tcc::ir::PrintOptions::default());
        let got = run_function(&merged, merged.func("main").unwrap(), std::slice::from_ref(&x))
            .unwrap_or_else(|e| panic!("{e}\n{merged_text}"));
        if let Some(why) = mismatch(&got[0].to_f64s(), &want) {
            panic!("seed {seed}: merged graph in the interpreter differs: {why}\n{text}\n{merged_text}");
        }

        for backend in tcc::backend::compiled_backends() {
            for threads in [1, 2] {
                let mut options = tcc::Options {
                    backend,
                    threads: Some(threads),
                    rewrite_search: tcc_graph_opt::search::Mode::Off,
                    ..Default::default()
                };
                // Packed layouts as the joint layout search tries them: every matmul of
                // constant weights in a column block drawn from the target's choices.
                let target = tcc::Session::new(&options).unwrap().target;
                let laid_out = with_layouts(&merged, &target, &mut layout_rng);
                let merged_model = tcc::Model::compile(laid_out, &options)
                    .unwrap_or_else(|e| panic!("seed {seed}, {backend:?}: {e}\n{merged_text}"));
                // The compiler's own search, by the estimate (deterministic), into a
                // scratch cost database.
                options.rewrite_search = tcc_graph_opt::search::Mode::Taso;
                options.estimate_costs_only = true;
                options.cost_db = Some(dir.join("costs.json"));
                let searched = tcc::Model::compile(m.clone(), &options)
                    .unwrap_or_else(|e| panic!("seed {seed}, {backend:?}: {e}\n{text}"));
                for (what, model) in [("merged", &merged_model), ("searched", &searched)] {
                    let got = model.run(&[tcc::Tensor::from_slice(&input, &dims).unwrap()]);
                    let got = got.unwrap_or_else(|e| panic!("seed {seed}, {backend:?}: {e}"));
                    let got = got[0].to_f64s();
                    if let Some(why) = mismatch(&got, &want) {
                        panic!("seed {seed}, {what}, {backend:?}, {threads} thread(s): {why}\n{text}\n{merged_text}");
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // The graphs must actually merge, or the property says little.
    eprintln!("{merges} merges applied");
    assert!(merges >= 60, "only {merges} merges applied");
}
