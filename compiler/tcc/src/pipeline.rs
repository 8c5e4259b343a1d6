//! The compilation pipeline: named pipelines of passes built with typed options, and
//! the [`Session`] of one compile, which resolves the backend and its target once.
//!
//! ```text
//! import_and_clean_up   convert-tosa-to-graph, widen-half, canonicalize, cse
//! rewrite               rewrite-search (TASO, measured costs; canonicalize and cse
//!                       of what it rewrote)
//! (--winograd 2x2|4x4)  winograd-convolutions, canonicalize
//! (precision bf16)      reduce-precision, canonicalize
//! kernel_ops(target)    block-layouts, propagate-layouts, canonicalize, fuse-epilogues
//! kernel_configuration  configure-kernels (from the tuning database, else the
//!                       default), narrow-outputs, materialize-padding, cse,
//!                       fuse-memory-bound
//! lowering(target)      convert-graph-to-loop, vectorize, expand-half, expand-math, cse
//! ```
//!
//! Each stage is a function returning passes, so tools can stop at any level; the same
//! passes are also registered by name for textual pipelines (`tcc-opt`), whose options
//! parse into the same structs.

use std::sync::Arc;

use tcc_codegen::Target;
use tcc_dialect_graph::config::ConfigSource;
use tcc_graph_opt::blocking::BlockLayouts;
use tcc_graph_opt::configure_kernels::ConfigureKernels;
use tcc_graph_opt::epilogue_fusion::FuseEpilogues;
use tcc_graph_opt::fusion::FuseMemoryBound;
use tcc_graph_opt::layout_propagation::PropagateLayouts;
use tcc_graph_opt::narrow_outputs::NarrowOutputs;
use tcc_graph_opt::padding::MaterializePadding;
use tcc_graph_opt::tuning::TuningDb;
use tcc_graph_opt::winograd::{Winograd, WinogradConvolutions};
use tcc_ir::canonicalize::Canonicalize;
use tcc_ir::cse::Cse;
use tcc_ir::{Diagnostics, Module, Pass, PassManager, verify};
use tcc_lower::expand_half::ExpandHalf;
use tcc_lower::expand_math::ExpandMath;
use tcc_lower::offload_math::OffloadMath;
use tcc_lower::reduce_precision::{Precision, ReducePrecision};
use tcc_lower::tosa_to_graph::ConvertTosaToGraph;
use tcc_lower::vectorize::{UNROLL_ITERATIONS, Vectorize};
use tcc_lower::widen_half::WidenHalf;
use tcc_lower::{ConvertGraphToLoop, register_passes};

use crate::Options;
use crate::backend::CodeGenerator;

/// One compile: its options, the backend and target they choose, resolved once, the
/// threads the code will run on, and the tuning database's configurations for them.
pub struct Session {
    pub options: Options,
    pub generator: CodeGenerator,
    pub target: Target,
    pub threads: u32,
    pub tuned: Option<Arc<TuningDb>>,
}

impl Session {
    /// The session for `options`; an error when they choose a backend this build lacks
    /// or options that do not apply to it, or name a tuning database that cannot be
    /// read.
    pub fn new(options: &Options) -> Result<Session, String> {
        if options.winograd.is_explicit() && options.precision != Precision::Fp32 {
            return Err(format!(
                "--winograd {} needs --precision fp32 (Winograd's transforms would amplify {}'s rounding)",
                options.winograd, options.precision
            ));
        }
        let generator = CodeGenerator::new(options)?;
        let target = generator.target();
        // An invalid count is the run's error to report, not the compile's (an object
        // file runs on the threads its caller asks for).
        let threads = crate::resolve_threads(options).map_or(1, |t| t as u32);
        let tuned = crate::tune::load_tuning_db(options, &target)?.map(Arc::new);
        Ok(Session { options: options.clone(), generator, target, threads, tuned })
    }

    /// [`Session::new`], its error located at the module.
    pub fn for_module(m: &Module, options: &Options) -> Result<Session, Diagnostics> {
        Session::new(options).map_err(|e| Diagnostics::error(m.loc(m.top()).clone(), e))
    }
}

/// A list of passes.
pub type Passes = Vec<Box<dyn Pass>>;

fn canonicalize() -> Box<dyn Pass> {
    Box::new(Canonicalize { config: Default::default() })
}

/// Import and graph-level clean-up: TOSA ops to graph ops, f16 ops to f32 between
/// casts, then canonicalization (folding, batch-norm folding, transpose cancelling,
/// identities, dead code) and CSE.
pub fn import_and_clean_up() -> Passes {
    vec![Box::new(ConvertTosaToGraph), Box::new(WidenHalf), canonicalize(), Box::new(Cse)]
}

/// The rewrite search the session's options ask for, with costs measured on this
/// machine for its target (none when the search is off).
pub fn rewrite(session: &Session) -> Passes {
    if session.options.rewrite_search == tcc_graph_opt::search::Mode::Off {
        return Vec::new();
    }
    vec![Box::new(crate::search::rewrite_search(&session.options, &session.target))]
}

/// The kernel ops for `target`: blocked layouts with packed weights (folded by
/// canonicalization), transforms moved to the boundaries, epilogues fused. (What the
/// tuner measures.)
pub fn kernel_ops(target: &Target) -> Passes {
    vec![
        Box::new(BlockLayouts { target: *target }),
        Box::new(PropagateLayouts),
        canonicalize(),
        Box::new(FuseEpilogues),
    ]
}

/// Kernel configurations chosen (from `tuned`, else the untuned choice: the I/O
/// bound's optimum or the analytic default), bf16
/// kernels' results stored as bf16 where only read so, the memory-bound ops between
/// kernels stitched into groups.
pub fn kernel_configuration(target: &Target, tuned: Option<Arc<TuningDb>>, threads: u32) -> Passes {
    vec![
        Box::new(ConfigureKernels {
            target: *target,
            source: tuned.map(|db| db as Arc<dyn ConfigSource>),
            io_bound: true,
            threads,
        }),
        Box::new(NarrowOutputs { depthwise: target.ukernels.is_none() }),
        Box::new(MaterializePadding),
        Box::new(Cse),
        Box::new(FuseMemoryBound),
    ]
}

/// From the optimized graph to plain loop nests for `target`; with `profile`, each
/// kernel's loops are marked for the profiler.
pub fn to_loops(target: &Target, profile: bool) -> Passes {
    vec![Box::new(ConvertGraphToLoop { profile, target: *target })]
}

/// From the optimized graph to loops ready for code generation: [`to_loops`], then
/// vectorized for `target`, with the f16 conversions and the f32 math expanded.
pub fn lowering(target: &Target, profile: bool) -> Passes {
    let mut passes = to_loops(target, profile);
    passes.push(Box::new(Vectorize { vector_bits: target.vector_bits, unroll_iterations: UNROLL_ITERATIONS }));
    passes.push(Box::new(OffloadMath { isa: target.ukernels }));
    passes.push(Box::new(ExpandHalf));
    passes.push(Box::new(ExpandMath { ldexp: target.ldexp }));
    passes.push(Box::new(Cse));
    passes
}

/// Runs `passes` on `m`, printing the IR after each or their timing as `options` ask.
pub fn run(m: &mut Module, passes: Passes, options: &Options) -> Result<(), Diagnostics> {
    let mut pm = PassManager::new(passes);
    pm.print_ir_after_all = options.print_ir_after_all;
    pm.timing = options.timing.then(Default::default);
    let r = pm.run(m);
    if let Some(t) = pm.timing {
        eprint!("{t}");
    }
    r
}

/// Verifies and optimizes a graph-dialect module in place for the session: import and
/// clean-up, the rewrite search, kernel planning.
pub fn optimize_graph(m: &mut Module, session: &Session) -> Result<(), Diagnostics> {
    to_kernel_ops(m, session)?;
    run(m, kernel_configuration(&session.target, session.tuned.clone(), session.threads), &session.options)
}

/// [`optimize_graph`] up to the kernel ops, unconfigured: what the tuner measures.
pub fn to_kernel_ops(m: &mut Module, session: &Session) -> Result<(), Diagnostics> {
    import(m, session)?;
    let mut passes = rewrite(session);
    passes.extend(graph_to_kernel_ops(session));
    run(m, passes, &session.options)
}

/// The graph imported, cleaned up and rewritten by the search: the graph whose
/// convolutions the Winograd policy chooses among (then [`graph_to_kernel_ops`]).
pub fn to_rewritten_graph(m: &mut Module, session: &Session) -> Result<(), Diagnostics> {
    import(m, session)?;
    run(m, rewrite(session), &session.options)
}

/// Verifies `m`, imports it to the graph dialect and cleans it up.
fn import(m: &mut Module, session: &Session) -> Result<(), Diagnostics> {
    verify(m)?;
    run(m, import_and_clean_up(), &session.options)?;
    // The import's output is verified in every build (debug builds verify after every
    // pass): what it produced from valid TOSA but the graph dialect does not accept (an
    // element type it lacks) is a located error here, not a failure further down.
    verify(m)
}

/// After the rewrite search, to the kernel ops: Winograd convolutions (the tuning
/// database's choices, else where they should pay), the precision policy, the blocked
/// layouts.
pub fn graph_to_kernel_ops(session: &Session) -> Passes {
    let mut passes = Vec::new();
    let policy = session.options.winograd_policy();
    if policy != Winograd::Off {
        let winograd = WinogradConvolutions { policy, all: false, measured: session.tuned.clone() };
        passes.extend([Box::new(winograd) as Box<dyn Pass>, canonicalize()]);
    }
    if session.options.precision == Precision::Bf16 {
        // (Canonicalization folds the rounded weights into constants again.)
        passes.extend([Box::new(ReducePrecision) as Box<dyn Pass>, canonicalize()]);
    }
    passes.extend(kernel_ops(&session.target));
    passes
}

/// Lowers an optimized graph module to the loop (and vector) dialects.
pub fn lower(m: &mut Module, session: &Session) -> Result<(), Diagnostics> {
    run(m, lowering(&session.target, session.options.profile), &session.options)?;
    verify(m)
}

/// Every pass tcc knows, by pipeline name (for textual pipelines).
pub fn pass_registry() -> tcc_ir::PassRegistry {
    let mut r = tcc_ir::PassRegistry::new();
    tcc_graph_opt::register_passes(&mut r);
    register_passes(&mut r);
    r
}
