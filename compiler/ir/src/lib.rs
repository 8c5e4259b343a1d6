//! tcc's core IR, in MLIR's model.
//!
//! A [`Module`] owns operations, values, blocks and regions in arenas addressed by
//! `u32` handles ([`Op`], [`Value`], [`Block`], [`Region`]). Each op kind has one
//! declarative [`OpDef`] (operands, attributes, traits, shape inference, verifier,
//! syntax, canonicalization patterns) registered in a [`Registry`]. The text format is
//! MLIR's: [`parse_bytes`] reads generic and pretty forms, aliases and resource blobs;
//! [`print_module`] writes text that re-parses to itself. [`verify`] checks structure
//! and types; [`PassManager`] runs [`Pass`]es built from pipeline strings; the greedy
//! [`rewrite`] driver applies patterns. Every error is a located [`Diagnostic`].

pub mod attributes;
pub mod builtin;
pub mod canonicalize;
pub mod cse;
pub mod dense;
pub mod diagnostics;
mod entity;
pub mod files;
pub mod indexed;
pub mod internal_error;
pub mod lexer;
pub mod module;
pub mod opdef;
mod parse_attr;
mod parse_resources;
pub mod parser;
pub mod pass;
pub mod printer;
pub mod rewrite;
pub mod scalar;
pub mod types;
pub mod verifier;

pub use attributes::{AttrDict, Attribute};
pub use dense::{AlignedBytes, DenseElements, Resource, Scalar};
pub use diagnostics::{Diagnostic, Diagnostics, Location, Severity, SourceFile};
pub use entity::{Arena, EntityRef, SecondaryMap};
pub use module::{Block, Module, Op, OperationState, Region, Use, Value, ValueDef};
pub use opdef::{Arity, AttrDefault, AttrKind, AttrSpec, OpDef, Pattern, Registry, Signature, Syntax, Traits};
pub use parse_resources::decode_hex_aligned;
pub use parser::{Parser, parse_bytes, parse_chunk, parse_owned, parse_source};
pub use pass::{Pass, PassInfo, PassManager, PassOptions, PassRegistry, Timing};
pub use printer::{PrintOptions, Printer, print_module, print_op};
pub use rewrite::{GreedyConfig, GreedyStats, Rewriter, apply_patterns_greedily};
pub use types::{BufferType, FunctionType, ScalarType, TensorType, Type, VectorType};
pub use verifier::verify;
