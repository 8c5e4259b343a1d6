//! The superoptimizer's pipeline (TASO): enumerate graphs per world, group them by
//! fingerprint, pair each graph of a group with the group's smallest (both ways), prune
//! the pairs, re-check them on floats, prove them with the verifier, drop rules that
//! are instances of more general ones, and write the survivors as rule files.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::time::Instant;

use crate::axioms::{Axiom, Term};
use crate::emit::{guards, prune_reason, render_side};
use crate::enumerate::{self, Graph, World};
use crate::terms::graph_terms;
use crate::verify::{Prover, Verdict};

/// How many candidates each stage kept, per world.
#[derive(Default, Debug)]
pub struct Counts {
    pub graphs: usize,
    pub distinct: usize,
    pub pairs: usize,
    pub pruned: HashMap<&'static str, usize>,
    pub float_rejected: usize,
    pub verified: usize,
    pub unverified: usize,
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

/// Runs the pipeline on every world with graphs of up to `max_ops` ops.
pub fn generate(
    max_ops: usize,
    axioms: &[Axiom],
    prover: &mut dyn Prover,
    progress: bool,
) -> (Vec<Generated>, Vec<(&'static str, Counts)>) {
    let mut rules = Vec::new();
    let mut report = Vec::new();
    for world in enumerate::worlds() {
        let start = Instant::now();
        let mut counts = Counts::default();
        let graphs = enumerate::enumerate(&world, max_ops);
        counts.graphs = graphs.len();
        // One graph per rendering (the same graph with its ops in another order).
        let mut seen_render: HashSet<String> = HashSet::new();
        let distinct: Vec<Graph> = graphs
            .into_iter()
            .filter(|g| {
                g.outputs.len() <= 2
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
        let mut seen_pairs: HashSet<String> = HashSet::new();
        let mut world_rules = Vec::new();
        let mut n = 0;
        let groups = enumerate::candidates(&distinct);
        let mut last_report = Instant::now();
        for (gi, group) in groups.iter().enumerate() {
            if progress && last_report.elapsed().as_secs() >= 10 {
                last_report = Instant::now();
                eprintln!(
                    "{}: group {gi}/{}, {} pairs, {} verified, {} not proved ({:.0} s)",
                    world.name,
                    groups.len(),
                    counts.pairs,
                    counts.verified,
                    counts.unverified,
                    start.elapsed().as_secs_f64()
                );
            }
            // Each graph is paired with the group's smallest, both ways: equivalences
            // between the others follow by two rewrites.
            let rep = group[0];
            for &t in &group[1..] {
                {
                    for (src, tgt) in [(&distinct[rep], &distinct[t]), (&distinct[t], &distinct[rep])] {
                        counts.pairs += 1;
                        if let Some(why) = prune_reason(&world, src, tgt, &mut seen_pairs) {
                            *counts.pruned.entry(why).or_default() += 1;
                            continue;
                        }
                        if !same_floats(&world, src, tgt) {
                            counts.float_rejected += 1;
                            continue;
                        }
                        let vars: Vec<String> = world.inputs.iter().map(|i| i.name.to_string()).collect();
                        let (src_terms, tgt_terms) = (graph_terms(&world, src), graph_terms(&world, tgt));
                        match prover.prove(axioms, &vars, &src_terms, &tgt_terms) {
                            Verdict::Proved => counts.verified += 1,
                            Verdict::NotProved(_) => {
                                counts.unverified += 1;
                                continue;
                            }
                        }
                        n += 1;
                        let mut text = String::new();
                        let g = guards(&world, src.inputs_used | tgt.inputs_used);
                        writeln!(
                            text,
                            "(rule {}-{n:04}\n  {}\n  => {}\n  (if {})\n  (by rulegen :fingerprint \"{:016x}\" :verified \"{}\"))",
                            world.name,
                            render_side(&world, src),
                            render_side(&world, tgt),
                            g.join(" "),
                            src.fingerprint,
                            prover.name(axioms.len())
                        )
                        .unwrap();
                        let terms = src_terms.into_iter().chain(tgt_terms).collect();
                        world_rules.push(Generated { world: world.name, text, terms });
                    }
                }
            }
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
