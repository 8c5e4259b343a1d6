//! `materialize-padding`: a blocked convolution whose configuration asks for a padded
//! input (`pad_input`, chosen by `configure-kernels`) gets its padding as an explicit
//! `graph.pad` of the input, so that every column of an output row reads every kernel
//! tap (a microkernel call then covers a whole row's window); it keeps the padding of
//! its rows unless its input is bf16. The flag is dropped once applied. Only for
//! constant, finite filters (see [`crate::pad_input`]): elsewhere the convolution keeps
//! its padding.

use tcc_dialect_graph::config::{ConvConfig, KernelConfig};
use tcc_dialect_graph::ops as g;
use tcc_ir::builtin::func_entry;
use tcc_ir::{Diagnostics, Module, Op, Pass, PassInfo, ScalarType};

pub static MATERIALIZE_PADDING: PassInfo = PassInfo {
    name: "materialize-padding",
    summary: "Move the padding of convolutions configured with `pad_input` into a `graph.pad` of their input",
    options: &[],
    create: |_| Ok(Box::new(MaterializePadding)),
};

pub struct MaterializePadding;

impl Pass for MaterializePadding {
    fn name(&self) -> &'static str {
        "materialize-padding"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        for func in m.funcs() {
            let Some(entry) = func_entry(m, func) else { continue };
            let convs: Vec<Op> = m.block_ops(entry).filter(|&op| m.is(op, &g::CONV2D_NCHWC)).collect();
            for op in convs {
                let config = ConvConfig::of(m, op);
                if config.pad_input != Some(true) {
                    continue;
                }
                // f32: the columns only. The edge rows skip the kernel rows outside the
                // input instead of multiplying zeros: a 7x7 map padded to 9x9 spent 18%
                // of its FMAs on padding, 9% now. ResNet-18 on Cranelift (one thread,
                // the two builds interleaved in one process) 0.968x, ResNet-50 0.981x,
                // SqueezeNet, GoogLeNet, VGG-11 0.98-0.99x; LLVM unchanged. bf16 pairs
                // keep both: the dot tile's calls over several rows need every row to
                // read the same kernel rows.
                let bf16 = m.value_type(m.operand(op, 0)).as_tensor().is_some_and(|t| t.elem() == ScalarType::BF16);
                crate::pad_input_dims(m, op, bf16);
                KernelConfig::Conv(ConvConfig { pad_input: None, ..config }).set_on(m, op);
            }
        }
        Ok(())
    }
}
