//! `materialize-padding`: a blocked convolution whose configuration asks for a padded
//! input (`pad_input`, chosen by `configure-kernels`) gets its padding as an explicit
//! `graph.pad` of the input and none of its own, so that every column of an output row
//! reads every kernel tap (a microkernel call then covers a whole row's window). The
//! flag is dropped once applied. Only for constant, finite filters (see
//! [`crate::pad_input`]): elsewhere the convolution keeps its padding.

use tcc_dialect_graph::config::{ConvConfig, KernelConfig};
use tcc_dialect_graph::ops as g;
use tcc_ir::builtin::func_entry;
use tcc_ir::{Diagnostics, Module, Op, Pass, PassInfo};

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
                crate::pad_input(m, op);
                KernelConfig::Conv(ConvConfig { pad_input: None, ..config }).set_on(m, op);
            }
        }
        Ok(())
    }
}
