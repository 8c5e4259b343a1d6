//! Tuning's Winograd stage (`tcc tune --winograd 4x4`): each distinct convolution the
//! policy could rewrite ([`eligible`]) is timed in the model both ways, and the faster
//! way goes to the tuning database ([`TuningDb::winograd`]), which the Winograd pass
//! reads before its analytic rule.
//!
//! The model is compiled twice, every convolution not yet decided direct, then every one
//! as a Winograd convolution (those decided before as decided), and the two are timed
//! one after another in [`ROUNDS`] rounds, the order alternating. A convolution's time
//! is that of the kernels at its instances' locations: the direct kernel with its fused
//! epilogue, or the slices, transforms, matmuls and bias of its Winograd form (whose
//! activation, a separate group at the activation's location, is not counted, which
//! [`MARGIN`] covers). It becomes a Winograd convolution when the median ratio of its
//! paired times, Winograd to direct, is below 1 - [`MARGIN`].

use std::collections::HashMap;
use std::sync::Arc;

use tcc_dialect_graph::config::KernelKey;
use tcc_graph_opt::tuning::{Tuned, TuningDb, winograd_key};
use tcc_graph_opt::winograd::{WinogradConvolutions, eligible};
use tcc_ir::builtin::func_entry;
use tcc_ir::{Module, Pass};

use super::{Timed, TunedKernel, paired_ratio};
use crate::{Error, Options, Winograd};

/// Rounds of paired timings.
const ROUNDS: usize = 6;

/// How much faster than direct a convolution must be as a Winograd convolution (the
/// median of its paired ratios) to become one.
const MARGIN: f64 = 0.05;

/// A distinct convolution of the graph: its key and the locations of its instances.
struct Convolution {
    key: KernelKey,
    name: String,
    locations: Vec<String>,
}

/// Decides, into `db`, which eligible convolutions of `graph` (imported and rewritten)
/// are Winograd convolutions under `options.winograd`, measuring those `db` has no
/// choice for (all of them when `again`); one report entry per distinct convolution.
pub(super) fn choose(
    graph: &Module,
    options: &Options,
    db: &mut TuningDb,
    again: bool,
) -> Result<Vec<TunedKernel>, Error> {
    let convolutions = convolutions(graph, options.winograd_policy());
    let undecided: Vec<usize> =
        (0..convolutions.len()).filter(|&i| again || db.winograd(&convolutions[i].key).is_none()).collect();
    if !undecided.is_empty() {
        match measure(graph, options, db, &convolutions, &undecided) {
            Ok(pairs) => {
                for (&i, pairs) in undecided.iter().zip(pairs) {
                    if let Some((direct, ratio)) = paired_ratio(&pairs) {
                        let tuned = Tuned::winograd(ratio < 1.0 - MARGIN, direct * ratio, direct);
                        db.kernels.insert(convolutions[i].key.0.clone(), tuned);
                    }
                }
            }
            // A model that does not compile or run one way leaves the choices to the
            // analytic rule.
            Err(e) => eprintln!("tcc: warning: Winograd convolutions not measured: {e}"),
        }
    }
    Ok(convolutions
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let entry = db.kernels.get(&c.key.0);
            let winograd = db.winograd(&c.key);
            TunedKernel {
                kernel: c.name,
                instances: c.locations.len(),
                candidates: 2,
                measured: if undecided.contains(&i) && entry.is_some() { 2 } else { 0 },
                pruned: 0,
                default_seconds: entry.map(|e| e.default_seconds),
                best_seconds: entry.map(|e| if winograd == Some(true) { e.seconds } else { e.default_seconds }),
                config: winograd.map(|w| format!("{{winograd = {w}}}")),
                key: c.key,
            }
        })
        .collect())
}

/// The distinct eligible convolutions of `graph`, in program order.
fn convolutions(graph: &Module, policy: Winograd) -> Vec<Convolution> {
    let mut out: Vec<Convolution> = Vec::new();
    let mut index: HashMap<KernelKey, usize> = HashMap::new();
    for func in graph.funcs() {
        let Some(entry) = func_entry(graph, func) else { continue };
        for op in graph.block_ops(entry) {
            if !eligible(graph, op) {
                continue;
            }
            let key = winograd_key(graph, op, policy.name());
            let location = graph.loc(op).to_string();
            match index.get(&key) {
                Some(&i) => out[i].locations.push(location),
                None => {
                    index.insert(key.clone(), out.len());
                    let name = format!("{} at {location} as Winograd {policy}", graph.name(op));
                    out.push(Convolution { key, name, locations: vec![location] });
                }
            }
        }
    }
    out
}

/// The paired seconds per run (direct, Winograd) of each of the `undecided`
/// convolutions, [`ROUNDS`] pairs each.
fn measure(
    graph: &Module,
    options: &Options,
    db: &TuningDb,
    convolutions: &[Convolution],
    undecided: &[usize],
) -> Result<Vec<Vec<(f64, f64)>>, Error> {
    let compile = |winograd: bool| -> Result<Timed, Error> {
        let mut choices = db.clone();
        for &i in undecided {
            choices.kernels.insert(convolutions[i].key.0.clone(), Tuned::winograd(winograd, 0.0, 0.0));
        }
        let mut m = graph.clone();
        let pass =
            WinogradConvolutions { policy: options.winograd_policy(), all: false, measured: Some(Arc::new(choices)) };
        pass.run(&mut m)?;
        // The graph is rewritten already: compiled as it is, with the default kernel
        // configurations (as the kernels' tuning rounds are).
        let options = Options {
            winograd: Winograd::Off,
            rewrite_search: tcc_graph_opt::search::Mode::Off,
            untuned: true,
            tuning_db: None,
            profile: true,
            print_ir_after_all: false,
            timing: false,
            ..options.clone()
        };
        Timed::compile(m, &options)
    };
    let models = [compile(false)?, compile(true)?];
    let mut pairs = vec![Vec::with_capacity(ROUNDS); undecided.len()];
    for round in 0..ROUNDS {
        let mut seconds: [HashMap<String, f64>; 2] = Default::default();
        for turn in 0..2 {
            let way = (turn + round) % 2;
            for (_, loc, time) in models[way].profile()? {
                *seconds[way].entry(loc.to_string()).or_default() += time;
            }
        }
        for (pair, &i) in pairs.iter_mut().zip(undecided) {
            let at = |way: usize| convolutions[i].locations.iter().filter_map(|l| seconds[way].get(l)).sum::<f64>();
            pair.push((at(0), at(1)));
        }
    }
    Ok(pairs)
}
