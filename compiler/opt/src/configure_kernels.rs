//! `configure-kernels`: gives every kernel op that has no configuration one: from the
//! tuning database when it has measured the kernel on this machine, else the untuned
//! choice for the target ([`crate::candidates::untuned_config`]: the I/O bound's optimum
//! where the bound counts the kernel's costs, the analytic default
//! ([`crate::kernel_config`]) elsewhere, or everywhere with `io-bound=false`). The
//! op's `config_source` says which (none: the analytic default).

use tcc_dialect_graph::config::{
    CONFIG_ATTR, CONFIG_SOURCE_ATTR, ConfigSource, FROM_BOUND, FROM_DATABASE, KernelKey, takes_config,
};
use tcc_ir::builtin::func_entry;
use tcc_ir::{Attribute, Diagnostics, Module, Op, Pass, PassInfo};
use tcc_target::Target;

use crate::candidates::{Origin, untuned_config};
use crate::kernel_config::default_config;

pub static CONFIGURE_KERNELS: PassInfo = PassInfo {
    name: "configure-kernels",
    summary: "Give every kernel op without a `config` its configuration: tuned, else the I/O bound's optimum or the analytic default for the target",
    options: crate::with_target_options!(&[
        (
            "io-bound",
            "untuned kernels the I/O bound ranks take its optimum; false: the analytic default (default true)"
        ),
        ("threads", "threads the code will run on (default: the target's cores)"),
    ]),
    create: |opts| {
        let target = crate::target_from(opts)?;
        let threads = opts.parse_or("threads", target.cores)?;
        if threads == 0 {
            return Err("threads must be at least 1".into());
        }
        Ok(Box::new(ConfigureKernels { target, source: None, io_bound: opts.parse_or("io-bound", true)?, threads }))
    },
};

/// Configures the kernel ops that have no configuration: from `source` (a tuning
/// database) when it knows the kernel, else the untuned choice for `target`.
pub struct ConfigureKernels {
    pub target: Target,
    pub source: Option<std::sync::Arc<dyn ConfigSource>>,
    /// Whether the I/O bound's optimum is the untuned choice where it applies (else
    /// the analytic default is, everywhere).
    pub io_bound: bool,
    /// The threads the code will run on, which the bound's optimum depends on
    /// ([`crate::candidates::bound_optimum`]).
    pub threads: u32,
}

impl Pass for ConfigureKernels {
    fn name(&self) -> &'static str {
        "configure-kernels"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        for func in m.funcs() {
            let Some(entry) = func_entry(m, func) else { continue };
            let ops: Vec<Op> = m.block_ops(entry).collect();
            for op in ops {
                if !takes_config(m, op) || m.attr(op, CONFIG_ATTR).is_some() {
                    continue;
                }
                let tuned = self.source.as_ref().and_then(|s| s.lookup(&KernelKey::of(m, op)));
                let (config, source) = match tuned {
                    Some(config) => (config, Some(FROM_DATABASE)),
                    None if !self.io_bound => match default_config(m, op, &self.target) {
                        Some(config) => (config, None),
                        None => continue,
                    },
                    None => match untuned_config(m, op, &self.target, self.threads) {
                        Some((config, Origin::Bound)) => (config, Some(FROM_BOUND)),
                        Some((config, Origin::Default)) => (config, None),
                        None => continue,
                    },
                };
                config.set_on(m, op);
                if let Some(source) = source {
                    m.set_attr(op, CONFIG_SOURCE_ATTR, Attribute::string(source));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tcc_dialect_graph::config::{ConvConfig, KernelConfig, MatmulConfig};

    fn target(vector_bits: u32, vector_registers: u32) -> Target {
        Target { vector_bits, vector_registers, ..Target::default() }
    }

    /// A tuning database that knows one kernel.
    struct OneKernel(KernelKey, KernelConfig);

    impl ConfigSource for OneKernel {
        fn lookup(&self, key: &KernelKey) -> Option<KernelConfig> {
            (*key == self.0).then(|| self.1.clone())
        }
    }

    #[test]
    fn a_tuning_database_answers_before_the_default() {
        let text = "func.func @main(%a: tensor<8x16xf32>, %b: tensor<3x16x4xf32>, %c: tensor<4x16xf32>)\n\
                      -> (tensor<8x10xf32>, tensor<4x10xf32>) {\n\
                      %0 = graph.matmul_packed %a, %b : (tensor<8x16xf32>, tensor<3x16x4xf32>) -> tensor<8x10xf32>\n\
                      %1 = graph.matmul_packed %c, %b : (tensor<4x16xf32>, tensor<3x16x4xf32>) -> tensor<4x10xf32>\n\
                      return %0, %1 : tensor<8x10xf32>, tensor<4x10xf32>\n}";
        let mut m = tcc_ir::parse_bytes("t.mlir", text.as_bytes(), &tcc_dialect_graph::registry()).unwrap();
        let entry = func_entry(&m, m.func("main").unwrap()).unwrap();
        let ops: Vec<Op> = m.block_ops(entry).collect();
        let tuned = KernelConfig::Matmul(MatmulConfig { tile_m: Some(2), unroll_k: Some(4), ..Default::default() });
        let source = OneKernel(KernelKey::of(&m, ops[0]), tuned);
        let pass = ConfigureKernels {
            target: target(128, 16),
            source: Some(std::sync::Arc::new(source)),
            io_bound: true,
            threads: 1,
        };
        pass.run(&mut m).unwrap();
        assert_eq!(
            MatmulConfig::of(&m, ops[0]),
            MatmulConfig { tile_m: Some(2), unroll_k: Some(4), ..Default::default() }
        );
        assert_eq!(m.attr(ops[0], CONFIG_SOURCE_ATTR).and_then(|a| a.as_str()), Some(FROM_DATABASE));
        // The other kernel (another shape) gets the analytic default, unmarked.
        let Some((KernelConfig::Matmul(default), Origin::Default)) = untuned_config(&m, ops[1], &target(128, 16), 1)
        else {
            panic!()
        };
        assert_eq!(MatmulConfig::of(&m, ops[1]), default);
        assert_ne!(default.tile_m, Some(2));
        assert!(m.attr(ops[1], CONFIG_SOURCE_ATTR).is_none());
    }

    #[test]
    fn convolutions_the_bound_counts_take_its_optimum() {
        // MobileNet-V2's 960 -> 160 pointwise convolution at 7x7 (49 columns, 10 blocks).
        let text = "func.func @main(%x: tensor<1x60x7x7x16xf32>, %w: tensor<10x60x1x1x16x16xf32>)\n\
                      -> tensor<1x10x7x7x16xf32> {\n\
                      %0 = graph.conv2d_nchwc %x, %w : (tensor<1x60x7x7x16xf32>, tensor<10x60x1x1x16x16xf32>) \
                      -> tensor<1x10x7x7x16xf32>\n\
                      return %0 : tensor<1x10x7x7x16xf32>\n}";
        let parse = || tcc_ir::parse_bytes("t.mlir", text.as_bytes(), &tcc_dialect_graph::registry()).unwrap();
        let first = |m: &Module| m.block_ops(func_entry(m, m.func("main").unwrap()).unwrap()).next().unwrap();
        let llvm = Target { l1_bytes: 48 << 10, ..target(512, 32) };
        let mut m = parse();
        let op = first(&m);
        let optimum = crate::candidates::bound_optimum(&m, op, &llvm, 1).unwrap();
        let bound = |c: &KernelConfig| crate::io_bound::loads_per_fma(&m, op, c, &llvm).unwrap();
        let default = default_config(&m, op, &llvm).unwrap();
        assert!(bound(&optimum) <= bound(&default));
        ConfigureKernels { target: llvm, source: None, io_bound: true, threads: 1 }.run(&mut m).unwrap();
        assert_eq!(KernelConfig::Conv(ConvConfig::of(&m, op)), optimum);
        assert_eq!(m.attr(op, CONFIG_SOURCE_ATTR).and_then(|a| a.as_str()), Some(FROM_BOUND));
        // Without the bound (`io-bound=false`), the analytic default.
        let mut m = parse();
        ConfigureKernels { target: llvm, source: None, io_bound: false, threads: 1 }.run(&mut m).unwrap();
        let op = first(&m);
        assert_eq!(Some(KernelConfig::Conv(ConvConfig::of(&m, op))), default_config(&m, op, &llvm));
        assert_ne!(Some(optimum), default_config(&m, op, &llvm));
        assert!(m.attr(op, CONFIG_SOURCE_ATTR).is_none());
        // Tiles that microkernels compute keep the analytic default.
        let ukernels = Target { ukernels: Some(tcc_target::Isa::Avx512), ..llvm };
        let mut m = parse();
        ConfigureKernels { target: ukernels, source: None, io_bound: true, threads: 1 }.run(&mut m).unwrap();
        let op = first(&m);
        assert_eq!(Some(KernelConfig::Conv(ConvConfig::of(&m, op))), default_config(&m, op, &ukernels));
        assert!(m.attr(op, CONFIG_SOURCE_ATTR).is_none());
    }

    /// The input-channel passes of the bound's optimum on one thread and on two: a
    /// convolution whose passes leave one task (DenseNet-121's 128 -> 32 channels) keeps
    /// the default's on two threads; one whose passes leave 16 (ResNet-50's 512 ->
    /// 512 at 7x7) takes the bound's.
    #[test]
    fn passes_are_the_bounds_where_the_threads_have_tasks() {
        let conv = |c: i64, o: i64, hw: i64| {
            let (x, w, y) = (
                format!("tensor<1x{c}x{hw}x{hw}x16xf32>"),
                format!("tensor<{o}x{c}x3x3x16x16xf32>"),
                format!("tensor<1x{o}x{hw}x{hw}x16xf32>"),
            );
            let text = format!(
                "func.func @main(%x: {x}, %w: {w}) -> {y} {{\n\
                 %0 = graph.conv2d_nchwc %x, %w {{pads = [1, 1, 1, 1]}} : ({x}, {w}) -> {y}\n\
                 return %0 : {y}\n}}"
            );
            tcc_ir::parse_bytes("t.mlir", text.as_bytes(), &tcc_dialect_graph::registry()).unwrap()
        };
        let first = |m: &Module| m.block_ops(func_entry(m, m.func("main").unwrap()).unwrap()).next().unwrap();
        let llvm = Target { l1_bytes: 48 << 10, l2_bytes: 2 << 20, ..target(512, 32) };
        let passes = |m: &Module, threads: u32| {
            let op = first(m);
            match crate::candidates::bound_optimum(m, op, &llvm, threads).unwrap() {
                KernelConfig::Conv(c) => (c.chunk_ic, c.tile_oc()),
                other => panic!("{other:?}"),
            }
        };
        let default_passes = |m: &Module| match default_config(m, first(m), &llvm).unwrap() {
            KernelConfig::Conv(c) => c.chunk_ic,
            other => panic!("{other:?}"),
        };
        // DenseNet-121's: two output blocks, so one or two tasks with passes.
        let m = conv(8, 2, 14);
        assert!(passes(&m, 1).0.is_some(), "the bound ranks passes first on one thread");
        assert_eq!(passes(&m, 2).0, default_passes(&m));
        // ResNet-50's: 32 blocks in tiles of at most 2 on two threads.
        let m = conv(32, 32, 7);
        let (chunk, tile_oc) = passes(&m, 2);
        assert!(chunk.is_some() && chunk != default_passes(&m));
        assert!(32 / tile_oc >= 2 * crate::candidates::PASS_TASKS_PER_THREAD);
        // The pass takes the thread count as an option.
        let mut m = conv(8, 2, 14);
        ConfigureKernels { target: llvm, source: None, io_bound: true, threads: 2 }.run(&mut m).unwrap();
        assert_eq!(ConvConfig::of(&m, first(&m)).chunk_ic, default_passes(&m));
    }
}
