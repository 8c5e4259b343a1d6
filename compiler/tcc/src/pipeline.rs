//! The compilation pipeline, stage by stage, so tools can stop at any level.

use tcc_ir::{Diagnostics, Module, PassManager, verify};

use crate::Options;

/// Import and graph-level clean-up: TOSA ops to graph ops, then canonicalization
/// (folding, batch-norm folding, transpose cancelling, identities, dead code) and CSE.
pub const GRAPH_PIPELINE: &str = "convert-tosa-to-graph,canonicalize,cse";

/// Kernel planning for `target`: blocked layouts with packed weights (folded by
/// canonicalization), transforms moved to the boundaries, epilogues fused, kernel
/// configurations chosen, the memory-bound ops between kernels stitched into groups.
pub fn kernel_pipeline(target: &tcc_codegen::Target) -> String {
    let t = target.to_pass_options();
    format!(
        "block-layouts{{{t}}},propagate-layouts,canonicalize,fuse-epilogues,configure-kernels{{{t}}},cse,fuse-memory-bound"
    )
}
/// From the optimized graph to loops ready for code generation, vectorized for
/// `target`.
pub fn lowering_pipeline(target: &tcc_codegen::Target, profile: bool) -> String {
    format!(
        "convert-graph-to-loop{{profile={profile} vector-bits={0}}},vectorize{{vector-bits={0}}},expand-math{{ldexp={1}}},cse",
        target.vector_bits, target.ldexp
    )
}

/// The target description of the chosen backend.
pub fn target(m: &Module, options: &Options) -> Result<tcc_codegen::Target, Diagnostics> {
    let generator =
        crate::backend::CodeGenerator::new(options).map_err(|e| Diagnostics::error(m.loc(m.top()).clone(), e))?;
    Ok(generator.target())
}

/// Runs a pipeline string on `m`.
pub fn run_pipeline(m: &mut Module, pipeline: &str, options: &Options) -> Result<(), Diagnostics> {
    let passes =
        crate::pass_registry().parse_pipeline(pipeline).map_err(|e| Diagnostics::error(m.loc(m.top()).clone(), e))?;
    let mut pm = PassManager::new(passes);
    pm.print_ir_after_all = options.print_ir_after_all;
    pm.timing = options.timing.then(Default::default);
    let r = pm.run(m);
    if let Some(t) = pm.timing {
        eprint!("{t}");
    }
    r
}

/// Verifies and optimizes a graph-dialect module in place, for the target `options`
/// choose: import and clean-up, the rewrite search (`options.rewrite_search`), kernel
/// planning.
pub fn optimize_graph(m: &mut Module, options: &Options) -> Result<(), Diagnostics> {
    verify(m)?;
    run_pipeline(m, GRAPH_PIPELINE, options)?;
    // The rewrite search, then clean-up of what it built (concatenated weights fold).
    if crate::search::rewrite_search(m, options)?.is_some_and(|s| !s.path.is_empty()) {
        run_pipeline(m, "canonicalize,cse", options)?;
    }
    run_pipeline(m, &kernel_pipeline(&target(m, options)?), options)
}

/// Lowers an optimized graph module to the loop (and vector) dialects.
pub fn lower(m: &mut Module, options: &Options) -> Result<(), Diagnostics> {
    run_pipeline(m, &lowering_pipeline(&target(m, options)?, options.profile), options)?;
    verify(m)
}
