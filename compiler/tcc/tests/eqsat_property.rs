//! Property: equality saturation (`--rewrite-search=eqsat`) keeps what a graph computes.
//!
//! Random graphs of the matrix world as exports have them (matrices or batches of
//! them: rank 2 or 3): matmuls by constant weights, low-rank adapters beside them
//! (`v @ W + (v @ A) @ B`), transposes of the last two axes, ReLUs, sums and products
//! with other values or constants. Each is saturated with every single-output search
//! rule and its cheapest form extracted (by the estimate); the extracted graph must
//! verify and match the interpreter on the graph as written, and so must the graph
//! compiled with `--rewrite-search=eqsat` on every backend, with 1 and 2 threads.
//! The rules must fire and the extraction must change some graphs, or the property
//! says little.

use std::time::{Duration, Instant};

use tcc::graph::{Data, Tensor as ITensor, run_function};
use tcc_graph_opt::cost::{Ceilings, CostDb, CostModel};
use tcc_graph_opt::search::Mode;

mod common;

use common::{Rng, mismatch};

fn ty(s: &[i64]) -> String {
    format!("tensor<{}xf32>", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"))
}

/// A random graph of the matrix world, and its input's shape.
fn model(seed: u64) -> (String, Vec<i64>) {
    let mut r = Rng::new(seed);
    let batch: Vec<i64> = if r.chance(0.5) { vec![r.int(1, 2)] } else { vec![] };
    let with_batch = |s: &[i64]| batch.iter().chain(s).copied().collect::<Vec<i64>>();
    let input = with_batch(&[r.int(1, 12), r.int(1, 16)]);
    let mut body = String::new();
    let mut values: Vec<(String, Vec<i64>)> = vec![("%arg0".into(), input.clone())];
    let mut n = 0;
    let mut fresh = |prefix: &str| {
        n += 1;
        format!("%{prefix}{n}")
    };
    let constant = |r: &mut Rng, body: &mut String, name: &str, shape: &[i64]| {
        let count: i64 = shape.iter().product();
        let hex: String =
            r.values(count, 1.0).iter().flat_map(|v| v.to_le_bytes()).map(|b| format!("{b:02X}")).collect();
        *body +=
            &format!("  {name} = graph.constant {{value = dense<\"0x{hex}\"> : {t}}} : () -> {t}\n", t = ty(shape));
    };
    for _ in 0..r.int(3, 7) {
        let (v, s) = values[values.len() - 1 - r.int(0, values.len().min(3) as i64 - 1) as usize].clone();
        let cols = s[s.len() - 1];
        let out = fresh("v");
        let matmul = |a: &str, sa: &[i64], b: &str, sb: &[i64], name: &str| {
            let mut so = sa.to_vec();
            *so.last_mut().unwrap() = *sb.last().unwrap();
            (format!("  {name} = graph.matmul {a}, {b} : ({}, {}) -> {}\n", ty(sa), ty(sb), ty(&so)), so)
        };
        let shape = match r.int(0, 5) {
            0 => {
                let w = fresh("w");
                let sw = with_batch(&[cols, r.int(1, 16)]);
                constant(&mut r, &mut body, &w, &sw);
                let (text, so) = matmul(&v, &s, &w, &sw, &out);
                body += &text;
                so
            }
            1 => {
                // v @ W + (v @ A) @ B.
                let (w, a, b) = (fresh("w"), fresh("a"), fresh("b"));
                let (width, rank) = (r.int(1, 16), r.int(1, 4));
                let (sw, sa, sb) = (with_batch(&[cols, width]), with_batch(&[cols, rank]), with_batch(&[rank, width]));
                constant(&mut r, &mut body, &w, &sw);
                constant(&mut r, &mut body, &a, &sa);
                constant(&mut r, &mut body, &b, &sb);
                let (p, q, u) = (fresh("p"), fresh("q"), fresh("u"));
                let (t1, s1) = matmul(&v, &s, &w, &sw, &p);
                let (t2, s2) = matmul(&v, &s, &a, &sa, &q);
                let (t3, s3) = matmul(&q, &s2, &b, &sb, &u);
                body += &(t1 + &t2 + &t3);
                body += &format!("  {out} = graph.add {p}, {u} : ({}, {}) -> {}\n", ty(&s1), ty(&s3), ty(&s1));
                s1
            }
            2 => {
                let mut st = s.clone();
                let r2 = st.len();
                st.swap(r2 - 2, r2 - 1);
                let perm: Vec<String> = (0..r2)
                    .map(|d| {
                        if d + 2 == r2 {
                            r2 - 1
                        } else if d + 1 == r2 {
                            r2 - 2
                        } else {
                            d
                        }
                    })
                    .map(|d| d.to_string())
                    .collect();
                body += &format!(
                    "  {out} = graph.transpose {v} {{perm = [{}]}} : ({}) -> {}\n",
                    perm.join(", "),
                    ty(&s),
                    ty(&st)
                );
                st
            }
            3 => {
                body += &format!("  {out} = graph.relu {v} : ({t}) -> {t}\n", t = ty(&s));
                s.clone()
            }
            k => {
                // A sum or product with an earlier value of this shape, or a constant.
                let other = values.iter().rev().find(|(name, so)| *so == s && *name != v).map(|(name, _)| name.clone());
                let other = match other {
                    Some(o) if r.chance(0.7) => o,
                    _ => {
                        let c = fresh("c");
                        constant(&mut r, &mut body, &c, &s);
                        c
                    }
                };
                let op = if k == 4 { "add" } else { "mul" };
                body += &format!("  {out} = graph.{op} {v}, {other} : ({t}, {t}) -> {t}\n", t = ty(&s));
                s.clone()
            }
        };
        values.push((out, shape));
    }
    let (last, s) = values.last().unwrap().clone();
    let text =
        format!("func.func @main(%arg0: {}) -> {} {{\n{body}  return {last} : {}\n}}\n", ty(&input), ty(&s), ty(&s));
    (text, input)
}

#[test]
fn saturated_graphs_match_the_interpreter() {
    let (mut equalities, mut changed) = (0, 0);
    let dir = std::env::temp_dir().join(format!("tcc-eqsat-property-{}", std::process::id()));
    for seed in 1..=40u64 {
        let (text, xs) = model(seed);
        let m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let n: i64 = xs.iter().product();
        let input = Rng::new(seed ^ 0xE0).values(n, 1.0);
        let dims: Vec<usize> = xs.iter().map(|&d| d as usize).collect();
        let x = ITensor::new(dims.clone(), Data::F32(input.clone())).unwrap();
        let want = run_function(&m, m.func("main").unwrap(), std::slice::from_ref(&x))
            .unwrap_or_else(|e| panic!("{e}\n{text}"))[0]
            .to_f64s();

        let mut cost = CostModel::new(Ceilings::new(100.0, 20.0), CostDb::new("test"));
        let deadline = Instant::now() + Duration::from_secs(20);
        let (g, sat) = tcc_graph_opt::eqsat::saturate(&m, tcc::graph::rules::search_rule_asts(), &mut cost, deadline)
            .unwrap_or_else(|| panic!("seed {seed}: no extraction\n{text}"));
        equalities += sat.by_rule.iter().map(|(_, k)| k).sum::<usize>();
        tcc::ir::verify(&g).unwrap_or_else(|e| panic!("seed {seed}: the extracted graph does not verify: {e}\n{text}"));
        let g_text = tcc::ir::print_module(&g, tcc::ir::PrintOptions::default());
        if g_text != tcc::ir::print_module(&m, tcc::ir::PrintOptions::default()) {
            changed += 1;
        }
        let got = run_function(&g, g.func("main").unwrap(), std::slice::from_ref(&x))
            .unwrap_or_else(|e| panic!("{e}\n{g_text}"));
        if let Some(why) = mismatch(&got[0].to_f64s(), &want) {
            panic!("seed {seed}: the extracted graph differs in the interpreter: {why}\n{text}\n{g_text}");
        }

        for backend in tcc::backend::compiled_backends() {
            for threads in [1, 2] {
                let options = tcc::Options {
                    backend,
                    threads: Some(threads),
                    rewrite_search: Mode::Eqsat,
                    estimate_costs_only: true,
                    cost_db: Some(dir.join("costs.json")),
                    ..Default::default()
                };
                let model = tcc::Model::compile(m.clone(), &options)
                    .unwrap_or_else(|e| panic!("seed {seed}, {backend:?}: {e}\n{text}"));
                let got = model.run(&[tcc::Tensor::from_slice(&input, &dims).unwrap()]);
                let got = got.unwrap_or_else(|e| panic!("seed {seed}, {backend:?}: {e}"));
                let got = got[0].to_f64s();
                if let Some(why) = mismatch(&got, &want) {
                    panic!("seed {seed}, {backend:?}, {threads} thread(s): {why}\n{text}");
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{equalities} equalities added, {changed} graphs changed by the extraction");
    assert!(equalities >= 100, "only {equalities} equalities added");
    assert!(changed >= 8, "only {changed} graphs changed");
}

/// A planted wrong rule (`relu(a) = a`) is applied, its target extracted (cheaper), and
/// the comparison catches it: the harness can fail.
#[test]
fn a_planted_wrong_rule_is_caught() {
    let text = "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = graph.relu %arg0 : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n";
    let m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
    let wrong =
        tcc_rules::parse::parse_file("planted", "(rule relu-is-identity (relu ?a) => ?a (by hand))").unwrap().rules;
    let mut cost = CostModel::new(Ceilings::new(100.0, 20.0), CostDb::new("test"));
    let deadline = Instant::now() + Duration::from_secs(20);
    let (g, sat) = tcc_graph_opt::eqsat::saturate(&m, &wrong, &mut cost, deadline).unwrap();
    assert_eq!(sat.by_rule, vec![("relu-is-identity".to_string(), 1)]);
    let g_text = tcc::ir::print_module(&g, tcc::ir::PrintOptions::default());
    assert!(!g_text.contains("graph.relu"), "the cheaper (wrong) form is extracted:\n{g_text}");
    let x = ITensor::new(vec![4], Data::F32(vec![-1.0, 2.0, -3.0, 4.0])).unwrap();
    let want = run_function(&m, m.func("main").unwrap(), std::slice::from_ref(&x)).unwrap()[0].to_f64s();
    let got = run_function(&g, g.func("main").unwrap(), std::slice::from_ref(&x)).unwrap()[0].to_f64s();
    assert!(mismatch(&got, &want).is_some(), "the planted rule went unnoticed");
}
