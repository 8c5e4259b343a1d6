//! tcc's runtime: what compiled models need at run time, and nothing of the compiler.
//!
//! - [`pool`]: the thread pool behind `loop.parallel`, with the C entry point
//!   `tcc_parallel_for_blocks` that generated code calls.
//! - [`tensor`]: tensors exchanged with callers (64-byte aligned storage).
//! - [`Workspace`]: the per-model scratch arena whose offsets the compiler planned.
//! - [`Signature`] / [`validate`]: input checks (count, dtype, shape) done before any
//!   compiled code runs.
//! - [`EntryFn`]: the ABI of a compiled model's entry function (from
//!   `tcc-runtime-abi`, all the compiler sees of the runtime); [`aot`]: the entry point
//!   objects made by `tcc --emit=obj` call.
//! - [`ukernels`]: the microkernels generated code calls (`tcc-ukernels`).
//! - [`threads`]: the thread-count rule ([`threads::MAX_THREADS`],
//!   [`threads::resolve_threads`]) shared by the C API, the CLI and the builder.
//!
//! Built as an rlib (for the JIT) and as `libtcc_runtime.a` (for C programs linking
//! compiled models).

pub mod aot;
pub mod cpu;
pub mod math;
pub mod pool;
pub mod profile;
pub mod tensor;
pub mod threads;

pub use pool::{TaskFn, ThreadPool, tcc_parallel_for_blocks};
pub use tcc_runtime_abi::{AotError, BF16, DType, EntryFn, F16, PoolHandle, Signature, TensorSpec};
pub use tcc_ukernels as ukernels;
pub use tensor::{AlignedBuf, Element, Tensor};

/// `1 input`, `2 inputs`: a count and its noun, for messages.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// Checks inputs against the signature before anything runs.
pub fn validate(sig: &Signature, inputs: &[Tensor]) -> Result<(), String> {
    if inputs.len() != sig.inputs.len() {
        return Err(format!("the model takes {}, {} given", count(sig.inputs.len(), "input"), inputs.len()));
    }
    for (i, (t, spec)) in inputs.iter().zip(&sig.inputs).enumerate() {
        if t.dtype() != spec.dtype {
            return Err(format!("input #{i} has element type {}, the model expects {}", t.dtype(), spec.dtype));
        }
        if t.shape() != spec.shape.as_slice() {
            return Err(format!("input #{i} has shape {:?}, the model expects {:?}", t.shape(), spec.shape));
        }
    }
    Ok(())
}

/// The scratch memory of one model run: `size` bytes, 64-byte aligned.
pub struct Workspace {
    buf: AlignedBuf,
}

impl Workspace {
    pub fn new(size: usize) -> Workspace {
        Workspace { buf: AlignedBuf::zeroed(size) }
    }
    /// `size` bytes of workspace, or an error naming them when they cannot be had.
    pub fn try_new(size: usize) -> Result<Workspace, String> {
        Ok(Workspace { buf: AlignedBuf::try_zeroed(size).map_err(|e| format!("workspace: {e}"))? })
    }
    pub fn size(&self) -> usize {
        self.buf.len()
    }
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.buf.as_mut_ptr()
    }
}
