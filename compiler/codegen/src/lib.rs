//! Code generation: loop+vector IR to machine code.
//!
//! [`clif`] is the Cranelift backend (the default; pure Rust); `llvm` the LLVM backend
//! (cargo feature `llvm`), which takes the same IR at the host's full vector width. A
//! [`CompiledModel`] is callable code plus what the runtime needs to call it: the
//! tensor signature, the workspace size and the messages of run-time checks.
//! [`disassemble`] renders machine code for `--emit=asm`.

pub mod clif;
pub mod header;
#[cfg(feature = "llvm")]
pub mod llvm;
pub mod model;

use std::fmt;

pub use clif::compile_jit;
pub use clif::object::{ObjectCode, compile_object};

#[derive(Debug, Clone)]
pub enum CodegenError {
    /// The IR uses something this backend cannot compile.
    Unsupported(String),
    /// Cranelift or its module layer failed.
    Backend(String),
    /// Memory for the model's data (a constant's expanded elements) could not be
    /// allocated; the message names what and how many bytes.
    OutOfMemory(String),
}

impl fmt::Display for CodegenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodegenError::Unsupported(m) => write!(f, "code generation does not support {m}"),
            CodegenError::Backend(m) => write!(f, "code generation failed: {m}"),
            CodegenError::OutOfMemory(m) => write!(f, "out of memory: {m}"),
        }
    }
}

impl std::error::Error for CodegenError {}

pub use tcc_target::{Isa, Target};

/// The runtime functions JIT-compiled code calls, by symbol name, with their addresses
/// in this process (the runtime lists them: `tcc_runtime::math::symbols()`). Object
/// files link against the runtime library instead.
pub type RuntimeSymbols<'a> = &'a [(&'static str, *const u8)];

/// The Cranelift backend's target: the host ISA, with 128-bit vectors in 16 registers
/// (the widest Cranelift's x86-64 backend compiles), calling the microkernels of level
/// `ukernels` (if any) for the blocked kernels' interior tiles.
pub fn cranelift_target(ukernels: Option<Isa>) -> Target {
    Target { ukernels, bf16_dot: ukernels == Some(Isa::Avx512), ..Target::host(128, 16) }
}

/// Compiled code for `--emit=clif|llvm|asm`: one function (Cranelift) or the whole
/// module (LLVM).
#[derive(Clone, Debug)]
pub struct FunctionListing {
    pub name: String,
    /// The backend's IR: Cranelift IR or LLVM IR.
    pub ir: String,
    /// Machine code to disassemble (Cranelift).
    pub code: Vec<u8>,
    /// Assembly text, when the backend prints its own (LLVM).
    pub asm: Option<String>,
}

impl FunctionListing {
    /// The assembly: the backend's own, or a disassembly of the machine code.
    pub fn assembly(&self) -> String {
        self.asm.clone().unwrap_or_else(|| disassemble(&self.code))
    }
}

pub use tcc_dialect_loop::abi::KernelRecord;

/// A model compiled to machine code.
pub struct CompiledModel {
    pub entry: tcc_runtime_abi::EntryFn,
    pub signature: tcc_runtime_abi::Signature,
    pub workspace_size: usize,
    /// Message of each run-time check; a run fails with `asserts[status - 1]`.
    pub asserts: Vec<String>,
    pub listings: Vec<FunctionListing>,
    /// With profiling: each kernel's name, location and FLOPs, by `loop.kernel` id.
    pub kernels: Vec<KernelRecord>,
    pub(crate) _jit: Box<dyn Send + Sync>,
    pub(crate) _constants: model::KeepAlive,
}

impl fmt::Debug for CompiledModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CompiledModel({:?}, workspace {} bytes)", self.signature, self.workspace_size)
    }
}

/// Disassembles x86-64 machine code (GNU syntax), one instruction a line.
pub fn disassemble(code: &[u8]) -> String {
    use iced_x86::{Decoder, DecoderOptions, Formatter, GasFormatter, Instruction};
    let mut decoder = Decoder::with_ip(64, code, 0, DecoderOptions::NONE);
    let mut formatter = GasFormatter::new();
    let mut ins = Instruction::default();
    let mut out = String::new();
    while decoder.can_decode() {
        decoder.decode_out(&mut ins);
        let mut text = String::new();
        formatter.format(&ins, &mut text);
        out += &format!("{:6x}:  {text}\n", ins.ip());
    }
    out
}
