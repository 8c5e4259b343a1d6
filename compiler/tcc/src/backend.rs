//! The chosen code generator, resolved once from the [`Options`]: Cranelift (always
//! built) or LLVM (cargo feature `llvm`, with `--cpu`/`--target`). The layers above
//! codegen read only its [`tcc_codegen::Target`] (the vector width); this module
//! dispatches JIT compilation, object output and the `--emit=clif|llvm|asm` texts.

use tcc_codegen::{CompiledModel, ObjectCode, Target};
use tcc_ir::{Diagnostics, Module};

use crate::{Backend, Options};

/// A backend ready to compile loop-level modules.
pub enum CodeGenerator {
    /// Cranelift, calling the microkernels of this ISA level (if any) for the interior
    /// tiles of blocked convolutions and packed matmuls.
    Cranelift(Option<tcc_codegen::Isa>),
    #[cfg(feature = "llvm")]
    Llvm(tcc_codegen::llvm::LlvmTarget),
}

/// Which listing `--emit` asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// The backend's IR: Cranelift IR or LLVM IR.
    BackendIr,
    Assembly,
}

#[cfg(not(feature = "llvm"))]
fn not_compiled_in() -> String {
    "the LLVM backend was not compiled in (build tcc with `--features llvm`, see the README)".into()
}

impl CodeGenerator {
    /// The backend `options` ask for; a clear error if it was not compiled in or the
    /// options do not apply to it.
    pub fn new(options: &Options) -> Result<CodeGenerator, String> {
        match options.backend {
            Backend::Cranelift => {
                if options.cpu.is_some() || options.target.is_some() {
                    return Err("--cpu and --target choose what LLVM generates code for; add --backend llvm".into());
                }
                let request = options.isa.clone().or_else(|| std::env::var("TCC_ISA").ok());
                let isa = tcc_codegen::Isa::resolve(request.as_deref()).map_err(|e| format!("microkernels: {e}"))?;
                Ok(CodeGenerator::Cranelift(isa))
            }
            #[cfg(feature = "llvm")]
            Backend::Llvm => tcc_codegen::llvm::LlvmTarget::new(options.cpu.as_deref(), options.target.as_deref())
                .map(CodeGenerator::Llvm)
                .map_err(|e| e.to_string()),
            #[cfg(not(feature = "llvm"))]
            Backend::Llvm => Err(not_compiled_in()),
        }
    }

    /// One line for people: backend, CPU and the target description.
    pub fn describe(&self) -> String {
        match self {
            CodeGenerator::Cranelift(_) => format!("cranelift (host): {}", self.target()),
            #[cfg(feature = "llvm")]
            CodeGenerator::Llvm(t) => format!("llvm ({} {}): {}", t.triple, t.cpu, self.target()),
        }
    }

    /// What the lowering reads: vector width, registers, FMA, cores.
    pub fn target(&self) -> Target {
        match self {
            CodeGenerator::Cranelift(isa) => tcc_codegen::cranelift_target(*isa),
            #[cfg(feature = "llvm")]
            CodeGenerator::Llvm(t) => t.target(),
        }
    }

    pub fn jit(&self, lm: &Module, keep_listings: bool) -> Result<CompiledModel, Diagnostics> {
        let symbols = tcc_runtime::math::symbols();
        match self {
            CodeGenerator::Cranelift(_) => tcc_codegen::compile_jit(lm, keep_listings, &symbols),
            #[cfg(feature = "llvm")]
            CodeGenerator::Llvm(t) => tcc_codegen::llvm::compile_jit(lm, t, keep_listings, &symbols),
        }
    }

    pub fn object(&self, lm: &Module, name: &str, source: &str) -> Result<ObjectCode, Diagnostics> {
        match self {
            CodeGenerator::Cranelift(_) => tcc_codegen::compile_object(lm, name, source),
            #[cfg(feature = "llvm")]
            CodeGenerator::Llvm(t) => tcc_codegen::llvm::compile_object(lm, t, name, source),
        }
    }

    /// Cranelift IR or LLVM IR, or assembly, of every function.
    pub fn listing(&self, lm: &Module, what: Listing) -> Result<String, Diagnostics> {
        match self {
            CodeGenerator::Cranelift(_) => {
                let compiled = self.jit(lm, true)?;
                let mut out = String::new();
                for f in &compiled.listings {
                    out += &match what {
                        Listing::BackendIr => format!("; {}\n{}\n", f.name, f.ir),
                        Listing::Assembly => format!("{}:\n{}\n", f.name, f.assembly()),
                    };
                }
                Ok(out)
            }
            #[cfg(feature = "llvm")]
            CodeGenerator::Llvm(t) => tcc_codegen::llvm::emit_text(lm, t, what == Listing::Assembly),
        }
    }
}

/// The backends this build of tcc has: Cranelift, and LLVM with feature `llvm`.
pub fn compiled_backends() -> Vec<Backend> {
    let mut b = vec![Backend::Cranelift];
    if cfg!(feature = "llvm") {
        b.push(Backend::Llvm);
    }
    b
}
