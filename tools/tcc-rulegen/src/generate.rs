//! The superoptimizer's pipeline (TASO): enumerate graphs per world, group them by
//! fingerprint, pair each graph of a group with the group's smallest (both ways), prune
//! the pairs, re-check them on floats, prove them with the verifier (on every core,
//! one solver per thread), check the proved ones on every small shape (the proof is
//! blind to shapes), drop rules that are instances of more general ones, and write the
//! survivors as rule files.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::axioms::constant_operator;
use crate::axioms::{Axiom, Term};
use crate::emit::{batched, fixed, guards, prune_reason, render_rule_side, render_side};
use crate::enumerate::{self, Graph, World};
use crate::terms::graph_terms;
use crate::validate::{Fixed, check_shapes};
use crate::verify::{Prover, Verdict};

/// How many candidates each stage kept, per world.
#[derive(Default, Debug)]
pub struct Counts {
    pub graphs: usize,
    /// Whether the graphs of the most ops are a sample (the budget was smaller).
    pub truncated: bool,
    pub distinct: usize,
    pub pairs: usize,
    pub pruned: HashMap<&'static str, usize>,
    pub float_rejected: usize,
    pub verified: usize,
    pub unverified: usize,
    /// Proved, but false on some small shapes ([`crate::validate::check_shapes`]).
    pub shape_rejected: usize,
    /// Verified rules dropped as instances of more general ones.
    pub instances: usize,
}

/// A verified rule, as text, with its terms (for the instance check).
pub struct Generated {
    pub world: &'static str,
    pub text: String,
    terms: Vec<Term>,
}

/// Whether `specific` is `general` with some variables made equal (or renamed): then
/// the general rule covers it.
fn instance_of(general: &[Term], specific: &[Term]) -> bool {
    fn go(g: &Term, s: &Term, map: &mut HashMap<usize, usize>) -> bool {
        match (g, s) {
            (Term::Var(a), Term::Var(b)) => *map.entry(*a).or_insert(*b) == *b,
            (Term::App(f, x), Term::App(h, y)) => {
                f == h && x.len() == y.len() && x.iter().zip(y).all(|(p, q)| go(p, q, map))
            }
            _ => false,
        }
    }
    let mut map = HashMap::new();
    general.len() == specific.len() && general.iter().zip(specific).all(|(g, s)| go(g, s, &mut map))
}

fn distinct_vars(terms: &[Term]) -> usize {
    fn walk(t: &Term, out: &mut HashSet<usize>) {
        match t {
            Term::Var(v) => {
                out.insert(*v);
            }
            Term::App(_, args) => args.iter().for_each(|a| walk(a, out)),
        }
    }
    let mut vars = HashSet::new();
    terms.iter().for_each(|t| walk(t, &mut vars));
    vars.len()
}

/// Drops rules that are instances of another rule with more distinct variables.
fn drop_instances(rules: Vec<Generated>) -> (Vec<Generated>, usize) {
    let shape = |t: &[Term]| format!("{:?}", t).chars().filter(|c| !c.is_ascii_digit()).collect::<String>();
    let mut by_shape: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, r) in rules.iter().enumerate() {
        by_shape.entry(shape(&r.terms)).or_default().push(i);
    }
    let mut drop = vec![false; rules.len()];
    for group in by_shape.values() {
        for &i in group {
            let vi = distinct_vars(&rules[i].terms);
            if group.iter().any(|&j| {
                j != i && distinct_vars(&rules[j].terms) > vi && instance_of(&rules[j].terms, &rules[i].terms)
            }) {
                drop[i] = true;
            }
        }
    }
    let dropped = drop.iter().filter(|&&d| d).count();
    (rules.into_iter().zip(drop).filter(|(_, d)| !d).map(|(r, _)| r).collect(), dropped)
}

fn same_floats(world: &World, a: &Graph, b: &Graph) -> bool {
    (0..3u64).all(|k| match (enumerate::eval_float(world, a, 77 + k), enumerate::eval_float(world, b, 77 + k)) {
        (Some(x), Some(y)) => {
            x.len() == y.len()
                && x.iter().zip(&y).all(|(p, q)| {
                    p.shape == q.shape
                        && p.data.iter().zip(&q.data).all(|(u, v)| (u - v).abs() <= 1e-5 * (1.0 + u.abs()))
                })
        }
        _ => false,
    })
}

/// Proves `pairs` (source and target graphs of `world`) on `threads` threads, each
/// with its own prover from `make_prover`: the verdicts in order. Progress goes to
/// stderr every 10 s.
fn prove_all(
    world: &World,
    graphs: &[Graph],
    pairs: &[(usize, usize)],
    axioms: &[Axiom],
    make_prover: &(dyn Fn() -> Box<dyn Prover> + Sync),
    threads: usize,
    progress: bool,
) -> Vec<Verdict> {
    let vars: Vec<String> = world.inputs.iter().map(|i| i.name.to_string()).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let start = Instant::now();
    let mut verdicts: Vec<Option<Verdict>> = vec![None; pairs.len()];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|w| {
                let (next, done, vars) = (&next, &done, &vars);
                scope.spawn(move || {
                    let mut prover = make_prover();
                    let mut out = Vec::new();
                    let mut last_report = Instant::now();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(s, t)) = pairs.get(k) else { break };
                        let (src, tgt) = (graph_terms(world, &graphs[s]), graph_terms(world, &graphs[t]));
                        out.push((k, prover.prove(axioms, vars, &src, &tgt)));
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if progress && w == 0 && last_report.elapsed().as_secs() >= 10 {
                            last_report = Instant::now();
                            eprintln!(
                                "{}: {n}/{} candidates verified or rejected ({:.0} s)",
                                world.name,
                                pairs.len(),
                                start.elapsed().as_secs_f64()
                            );
                        }
                    }
                    out
                })
            })
            .collect();
        for w in workers {
            for (k, v) in w.join().expect("a verifier thread panicked") {
                verdicts[k] = Some(v);
            }
        }
    });
    verdicts.into_iter().map(|v| v.expect("every pair is proved by some thread")).collect()
}

/// Runs the pipeline on every world with graphs of up to `max_ops` ops (at most
/// `max_graphs` per world), proving on
/// `threads` threads with provers from `make_prover`.
pub fn generate(
    max_ops: usize,
    max_graphs: usize,
    axioms: &[Axiom],
    make_prover: &(dyn Fn() -> Box<dyn Prover> + Sync),
    threads: usize,
    progress: bool,
) -> (Vec<Generated>, Vec<(&'static str, Counts)>) {
    let prover_name = make_prover().name(axioms.len());
    let mut rules = Vec::new();
    let mut report = Vec::new();
    for world in enumerate::worlds() {
        let start = Instant::now();
        let mut counts = Counts::default();
        let (graphs, truncated) = enumerate::enumerate(&world, max_ops, max_graphs);
        counts.graphs = graphs.len();
        counts.truncated = truncated;
        // One graph per rendering (the same graph with its ops in another order).
        let mut seen_render: HashSet<String> = HashSet::new();
        let distinct: Vec<Graph> = graphs
            .into_iter()
            .filter(|g| {
                g.outputs.len() <= 2
                    && !g.repeated_output
                    && !g.constant(&world)
                    && seen_render.insert(format!("{}|{}", render_side(&world, g), g.inputs_used))
            })
            .collect();
        counts.distinct = distinct.len();
        if progress {
            eprintln!(
                "{}: {} graphs, {} distinct ({:.1} s)",
                world.name,
                counts.graphs,
                counts.distinct,
                start.elapsed().as_secs_f64()
            );
        }
        // Each graph is paired with its group's smallest, both ways (equivalences
        // between the others follow by two rewrites); pairs are pruned and re-checked
        // on floats, then proved in parallel.
        let mut seen_pairs: HashSet<String> = HashSet::new();
        let mut candidates = Vec::new();
        for group in enumerate::candidates(&distinct) {
            let rep = group[0];
            for &t in &group[1..] {
                for (src, tgt) in [(rep, t), (t, rep)] {
                    counts.pairs += 1;
                    if let Some(why) = prune_reason(&world, &distinct[src], &distinct[tgt], &mut seen_pairs) {
                        *counts.pruned.entry(why).or_default() += 1;
                    } else if !same_floats(&world, &distinct[src], &distinct[tgt]) {
                        counts.float_rejected += 1;
                    } else {
                        candidates.push((src, tgt));
                    }
                }
            }
        }
        if progress {
            eprintln!(
                "{}: {} candidate pairs, {} to prove ({:.1} s)",
                world.name,
                counts.pairs,
                candidates.len(),
                start.elapsed().as_secs_f64()
            );
        }
        let verdicts = prove_all(&world, &distinct, &candidates, axioms, make_prover, threads, progress);
        let mut world_rules = Vec::new();
        for (&(s, t), verdict) in candidates.iter().zip(verdicts) {
            if verdict != Verdict::Proved {
                counts.unverified += 1;
                continue;
            }
            let (src, tgt) = (&distinct[s], &distinct[t]);
            let used = src.inputs_used | tgt.inputs_used;
            let batched = batched(&world, src, used);
            let leaf_fixed = |leaf: &Term| match leaf {
                Term::Var(i) => fixed(&world, *i, batched),
                Term::App(c, _) => (0..world.inputs.len())
                    .find(|&i| constant_operator(world.inputs[i].fill) == Some(*c))
                    .map_or_else(Fixed::default, |i| fixed(&world, i, batched)),
            };
            if check_shapes(&graph_terms(&world, src), &graph_terms(&world, tgt), &leaf_fixed).is_err() {
                counts.shape_rejected += 1;
                continue;
            }
            counts.verified += 1;
            let mut text = String::new();
            let g = guards(&world, used, batched);
            writeln!(
                text,
                "(rule {}-{:04}\n  {}\n  => {}\n  (if {})\n  (by rulegen :fingerprint \"{:016x}\" :verified \"{}\"))",
                world.name,
                counts.verified,
                render_rule_side(&world, src, batched),
                render_rule_side(&world, tgt, batched),
                g.join(" "),
                src.fingerprint,
                prover_name
            )
            .unwrap();
            let terms = graph_terms(&world, src).into_iter().chain(graph_terms(&world, tgt)).collect();
            world_rules.push(Generated { world: world.name, text, terms });
        }
        let (kept, instances) = drop_instances(world_rules);
        counts.instances = instances;
        rules.extend(kept);
        if progress {
            eprintln!("{}: {:?} ({:.1} s)", world.name, counts, start.elapsed().as_secs_f64());
        }
        report.push((world.name, counts));
    }
    (rules, report)
}
