//! The configurations of a kernel op around its analytic default that its template
//! accepts: what `tcc tune` measures ([`candidates`], pruned by MACO's I/O bound,
//! [`crate::io_bound`]) and what an untuned compile picks from ([`bound_optimum`]).

use tcc_dialect_graph::GraphOp;
use tcc_dialect_graph::config::{
    ConvClass, ConvConfig, ConvGeometry, ConvTemplate, Edges, KernelConfig, MatmulConfig, PoolConfig,
};
use tcc_ir::{Module, Op};
use tcc_target::Target;

use crate::kernel_config::default_config;

/// How far above the best candidate's I/O bound ([`crate::io_bound`]) a candidate's
/// may be for the tuner to measure it.
pub const BOUND_FACTOR: f64 = 1.15;

/// What the tuner measures of a kernel: its candidate configurations, and how many the
/// I/O bound pruned.
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    pub configs: Vec<KernelConfig>,
    pub pruned: usize,
}

/// The configurations of kernel op `op` the tuner measures for `target`: the untuned
/// one first ([`untuned_config`]), then the analytic default and the register tiles
/// around it that fit the target's registers (and, for convolutions, the other
/// placement of a row's edge columns, the other task order, input-channel passes and
/// the padded input, of the default and of the untuned one), each once, the tiles
/// nearest the default's first (a budget that ends the search early has measured
/// those). Unless `exhaustive`, they are pruned by MACO's I/O bound
/// ([`crate::io_bound::loads_per_fma`]: at the register file and the level-1 cache):
/// the best of the kernel's candidates sets the bound, and those whose own exceeds it
/// by more than [`BOUND_FACTOR`] are not measured. The untuned configuration always
/// is, and so are its variants the bound cannot tell apart from it (edges, padding,
/// task order); pools, which do no FMAs, are not pruned. `threads`: those the code will
/// run on, which the untuned configuration depends on.
pub fn candidates(m: &Module, op: Op, target: &Target, threads: u32, exhaustive: bool) -> Candidates {
    let mut configs = all_candidates(m, op, target);
    // The untuned configuration first (the one the tuned ones must beat), with its
    // variants in task order, passes and padding.
    if let Some((KernelConfig::Conv(untuned), Origin::Bound)) = untuned_config(m, op, target, threads)
        && let Some(i) = configs.iter().position(|c| *c == KernelConfig::Conv(untuned.clone()))
    {
        let c = configs.remove(i);
        configs.insert(0, c);
        for variant in variants(m, op, &untuned) {
            let variant = KernelConfig::Conv(variant);
            if !configs.contains(&variant) {
                configs.push(variant);
            }
        }
    }
    if exhaustive {
        return Candidates { configs, pruned: 0 };
    }
    let bound = |c: &KernelConfig| crate::io_bound::loads_per_fma(m, op, c, target);
    let Some(best) = configs.iter().filter_map(bound).min_by(f64::total_cmp) else {
        return Candidates { configs, pruned: 0 };
    };
    let total = configs.len();
    let default = configs[0].clone();
    let kept: Vec<KernelConfig> = configs
        .into_iter()
        .enumerate()
        .filter(|(i, c)| *i == 0 || unseen_variant(c, &default) || bound(c).is_none_or(|l| l <= BOUND_FACTOR * best))
        .map(|(_, c)| c)
        .collect();
    Candidates { pruned: total - kept.len(), configs: kept }
}

/// Where a kernel's untuned configuration comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The candidate with the lowest I/O bound ([`bound_optimum`]).
    Bound,
    /// The analytic default ([`default_config`]).
    Default,
}

/// The configuration an untuned compile gives kernel op `op` on `target`, and where it
/// comes from: the bound's optimum among the candidates for the f32 direct and
/// pointwise convolutions on blocked inputs that the backend's own code computes,
/// whose costs the bound counts (loads at the registers and the L1 cache); the
/// analytic default for the others: stems (an input in blocks of one channel, whose
/// taps share broadcasts), depthwise convolutions (the bound sees no cost in their
/// wider tiles), matmuls, pools, bf16 kernels, and tiles computed by microkernels,
/// whose cost per call the bound does not see. Measured on an Intel Xeon, one thread,
/// whole models: the bound's tiles made ResNet-18, ResNet-50, GoogLeNet and SqueezeNet
/// 5-14% slower with microkernels and SqueezeNet's stem 1.4x slower; with LLVM,
/// ResNet-18, ResNet-50 and DenseNet-121 6-10% faster, four other models within 2%
/// (`benchmarks/RESULTS.md`; with input-channel passes, which [`bound_optimum`] chooses
/// freely for one thread and within limits for more, `threads`).
pub fn untuned_config(m: &Module, op: Op, target: &Target, threads: u32) -> Option<(KernelConfig, Origin)> {
    let default = default_config(m, op, target)?;
    let counted = match &default {
        KernelConfig::Conv(c) => {
            let (x, w) = (crate::shape(m, m.operand(op, 0)), crate::shape(m, m.operand(op, 1)));
            matches!(c.template, Some(ConvTemplate::Direct | ConvTemplate::Pointwise))
                && target.ukernels.is_none()
                && w.len() == 6
                && x[4] > 1
        }
        _ => false,
    };
    if !counted {
        return Some((default, Origin::Default));
    }
    Some((bound_optimum(m, op, target, threads)?, Origin::Bound))
}

/// The candidate of kernel op `op` with the lowest I/O bound (of equal bounds the one
/// nearest the analytic default, which comes first), or `None` if none has a bound,
/// for code that runs on `threads` threads. With input-channel passes a task covers
/// every row of its channel group, so there are only as many tasks as groups: on more
/// than one thread the optimum keeps the default's passes unless its own leave at least
/// [`PASS_TASKS_PER_THREAD`] tasks a thread. Measured on an Intel Xeon with LLVM: the
/// bound's passes made ResNet-50 and DenseNet-121 about 4% faster on one thread and
/// 3-8% slower on two, SqueezeNet 15% slower on two (2 to 8 tasks a convolution);
/// ResNet-50's 512-channel 3x3 convolution at 7x7 in passes of one block (16 tasks)
/// 1.4x faster on one thread, about 1.3x on two.
pub fn bound_optimum(m: &Module, op: Op, target: &Target, threads: u32) -> Option<KernelConfig> {
    let bound = |c: &KernelConfig| crate::io_bound::loads_per_fma(m, op, c, target);
    let candidates = all_candidates(m, op, target);
    let passes = |c: &KernelConfig| match c {
        KernelConfig::Conv(c) => c.chunk_ic,
        _ => None,
    };
    let default_passes = passes(candidates.first()?);
    let enough_tasks = |c: &KernelConfig| match c {
        KernelConfig::Conv(c) => pass_tasks(m, op, c) >= PASS_TASKS_PER_THREAD * i64::from(threads),
        _ => false,
    };
    candidates
        .into_iter()
        .filter(|c| threads <= 1 || passes(c) == default_passes || (passes(c).is_some() && enough_tasks(c)))
        .filter_map(|c| Some((bound(&c)?, c)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// How many tasks a thread needs for [`bound_optimum`] to give a convolution on
/// several threads input-channel passes of its own choosing.
pub const PASS_TASKS_PER_THREAD: i64 = 8;

/// The parallel tasks of convolution `op` in input-channel passes with configuration
/// `c`: one per image and tile of output-channel blocks in each channel group.
fn pass_tasks(m: &Module, op: Op, c: &ConvConfig) -> i64 {
    let (out, groups) = (crate::shape(m, m.result(op, 0)), ConvGeometry::of(m, op).map_or(1, |g| g.groups.max(1)));
    let blocks = out[1] / groups;
    out[0] * groups * ((blocks + c.tile_oc() - 1) / c.tile_oc().max(1))
}

/// Whether `c` is `default` but for what the I/O bound cannot see: where a row's edge
/// columns go, whether the input is padded explicitly, the task order.
fn unseen_variant(c: &KernelConfig, default: &KernelConfig) -> bool {
    match (c, default) {
        (KernelConfig::Conv(c), KernelConfig::Conv(d)) => {
            ConvConfig { edges: d.edges, pad_input: d.pad_input, task_w: d.task_w, ..c.clone() } == *d
        }
        _ => false,
    }
}

/// Every candidate of [`candidates`], unpruned.
fn all_candidates(m: &Module, op: Op, target: &Target) -> Vec<KernelConfig> {
    let Some(default) = default_config(m, op, target) else { return Vec::new() };
    let registers = target.kernel_target().vector_registers as i64;
    let mut out = vec![default.clone()];
    let mut push = |c: KernelConfig| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    match (&default, tcc_dialect_graph::kind_of(m, op)) {
        (KernelConfig::Conv(d), Some(GraphOp::Conv2dNchwc)) => {
            let mut found = conv_candidates(m, op, d, registers);
            let distance = |c: &ConvConfig| 4 * (c.tile_oc() - d.tile_oc()).abs() + (c.tile_w() - d.tile_w()).abs();
            found.sort_by_key(distance);
            for c in found {
                push(KernelConfig::Conv(c));
            }
        }
        (KernelConfig::Matmul(d), _) => {
            let vectors = d.tile_n();
            let mut rows: Vec<i64> = (1..=((registers - 2) / vectors.max(1) - 1).clamp(1, 16)).collect();
            rows.sort_by_key(|r| (r - d.tile_m()).abs());
            for tile_m in rows {
                push(KernelConfig::Matmul(MatmulConfig { tile_m: Some(tile_m), ..d.clone() }));
            }
        }
        (KernelConfig::Pool(d), _) => {
            let mut widths: Vec<i64> = (1..=8).collect();
            widths.sort_by_key(|w| (w - d.tile_w()).abs());
            for tile_w in widths {
                push(KernelConfig::Pool(PoolConfig { tile_w: Some(tile_w) }));
            }
        }
        _ => {}
    }
    out
}

/// A convolution's candidates (its default `d` aside): register tiles of `tile_w`
/// columns x `tile_oc` blocks whose accumulators fit `registers` with a few to spare,
/// the other edge placement, tasks by columns or by channel group.
fn conv_candidates(m: &Module, op: Op, d: &ConvConfig, registers: i64) -> Vec<ConvConfig> {
    let Some(geometry) = ConvGeometry::of(m, op) else { return Vec::new() };
    let out = crate::shape(m, m.result(op, 0));
    let cols = if d.template == Some(ConvTemplate::Pointwise) { out[2] * out[3] } else { out[3] };
    let mut found = Vec::new();
    match d.template {
        Some(ConvTemplate::Depthwise) => {
            // A tile of columns, a vector per multiple of each.
            let multiples = if geometry.class() == ConvClass::Multiplier { geometry.multiplier() } else { 1 };
            for tile_w in 1..=((registers - 2) / multiples).clamp(1, 16).min(cols) {
                for edges in [Edges::Merged, Edges::Split] {
                    found.push(ConvConfig { tile_w: Some(tile_w), edges: Some(edges), ..d.clone() });
                }
            }
        }
        Some(ConvTemplate::Direct | ConvTemplate::Pointwise) => {
            // A channel group's last tile may be partial.
            let blocks = out[1] / geometry.groups.max(1);
            for tile_oc in 1..=4.min(blocks) {
                let most = (registers - tile_oc - 1) / tile_oc;
                for tile_w in 1..=most.clamp(1, 28).min(cols) {
                    // The default's edges first: of equal bounds, the first is the optimum.
                    let tile = ConvConfig { tile_w: Some(tile_w), tile_oc: Some(tile_oc), ..d.clone() };
                    found.push(tile.clone());
                    if d.template == Some(ConvTemplate::Direct) && geometry.pads.iter().any(|&p| p > 0) {
                        let other = if d.edges() == Edges::Merged { Edges::Split } else { Edges::Merged };
                        found.push(ConvConfig { edges: Some(other), ..tile });
                    }
                }
            }
            found.extend(variants(m, op, d));
        }
        _ => {}
    }
    found
}

/// A direct or pointwise convolution's configuration `c` in the other task order (by
/// columns, every channel group over the same columns in turn, or by channel group)
/// and, for a direct one, in input-channel passes and on its padded input.
fn variants(m: &Module, op: Op, c: &ConvConfig) -> Vec<ConvConfig> {
    let Some(geometry) = ConvGeometry::of(m, op) else { return Vec::new() };
    let out = crate::shape(m, m.result(op, 0));
    let cols = if c.template == Some(ConvTemplate::Pointwise) { out[2] * out[3] } else { out[3] };
    let task_w = match c.task_w {
        Some(_) => None,
        None => Some(cols.min(256)),
    };
    let mut found = vec![ConvConfig { task_w, ..c.clone() }];
    if c.template == Some(ConvTemplate::Direct) {
        found.extend(pass_candidates(m, op, c, &geometry));
    }
    found
}

/// A direct convolution's tile `d` in input-channel passes of every power of two
/// of blocks below its blocks (or in one pass), each on its padded input and not
/// (`pad_input`: when it has padding and no dilation, whose taps on padding a padded
/// input would compute): the choices `configure-kernels` makes from the filters' size
/// against the caches, measured instead.
fn pass_candidates(m: &Module, op: Op, d: &ConvConfig, geometry: &ConvGeometry) -> Vec<ConvConfig> {
    let blocks = crate::shape(m, m.operand(op, 1)).get(1).copied().unwrap_or(1);
    let chunks = std::iter::once(None).chain((0..).map(|i| 1i64 << i).take_while(|&c| c < blocks).map(Some));
    let pads: &[Option<bool>] = if geometry.pads.iter().any(|&p| p > 0) && geometry.dilations == [1, 1] {
        &[None, Some(true)]
    } else {
        &[None]
    };
    chunks
        .flat_map(|chunk_ic| pads.iter().map(move |&pad_input| (chunk_ic, pad_input)))
        .filter(|&(chunk_ic, pad_input)| (chunk_ic, pad_input) != (d.chunk_ic, d.pad_input))
        .map(|(chunk_ic, pad_input)| ConvConfig { chunk_ic, pad_input, ..d.clone() })
        .collect()
}
