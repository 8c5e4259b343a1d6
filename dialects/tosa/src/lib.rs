//! TOSA import, part one: the `tosa.*` ops torch-mlir writes (and `arith.constant`),
//! defined for parsing and attribute checking (see [`ops`]). Their conversion to the
//! graph dialect is the `convert-tosa-to-graph` pass of `tcc-lower`, so that no dialect
//! depends on another.

pub mod ops;

use tcc_ir::Registry;

/// Adds the TOSA ops and `arith.constant` to a registry.
pub fn register(registry: &mut Registry) {
    registry.register_all(ops::ALL);
    registry.set_reference("tosa", "docs/tosa.md", true);
}
