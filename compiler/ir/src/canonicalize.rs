//! The `canonicalize` pass: dead-code removal plus every op kind's own
//! canonicalization patterns (`OpDef::patterns`), applied greedily to a fixed point.
//! Dialects put their folds (constant folding, identity removal, ...) in those
//! patterns; this pass is generic.

use crate::diagnostics::Diagnostics;
use crate::module::Module;
use crate::pass::{Pass, PassInfo};
use crate::rewrite::{GreedyConfig, GreedyStats, apply_patterns_greedily};

pub static CANONICALIZE: PassInfo = PassInfo {
    name: "canonicalize",
    summary: "Remove dead ops and apply each op's canonicalization patterns to a fixed point",
    options: &[("max-iterations", "sweeps over the IR before stopping (default 10)")],
    create: |opts| {
        let max_iterations = opts.parse_or("max-iterations", 10u32)?;
        Ok(Box::new(Canonicalize { config: GreedyConfig { max_iterations, ..Default::default() } }))
    },
};

pub struct Canonicalize {
    pub config: GreedyConfig,
}

impl Canonicalize {
    pub fn run_with_stats(&self, m: &mut Module) -> GreedyStats {
        apply_patterns_greedily(m, &|def| def.patterns, &self.config)
    }
}

impl Pass for Canonicalize {
    fn name(&self) -> &'static str {
        "canonicalize"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        self.run_with_stats(m);
        Ok(())
    }
}

/// Canonicalizes with default settings.
pub fn canonicalize(m: &mut Module) -> GreedyStats {
    Canonicalize { config: GreedyConfig::default() }.run_with_stats(m)
}
