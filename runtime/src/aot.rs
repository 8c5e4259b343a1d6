//! The entry point of ahead-of-time compiled models.
//!
//! An object file made by `tcc --emit=obj` exports `NAME_run(inputs, outputs)` and
//! `NAME_run_threads(inputs, outputs, threads)`, which hand the caller's arrays, their
//! lengths and the model's entry function to [`tcc_aot_run`]. It checks every pointer
//! and the thread count before anything runs, so that a caller's mistake returns a
//! negative [`AotError`] code instead of crashing the program, then supplies what the
//! compiled code needs: a workspace (one per calling thread, reused between calls) and
//! the process-wide thread pool.

use std::cell::RefCell;

pub use tcc_runtime_abi::AotError;

use crate::threads::{resolve_threads, validate_threads};
use crate::{EntryFn, Workspace, pool};

/// What a thread keeps between runs: the workspace (grown to the largest model run)
/// and the argument array.
#[derive(Default)]
struct CallState {
    workspace: Option<Workspace>,
    args: Vec<*mut u8>,
}

thread_local! {
    static STATE: RefCell<CallState> = RefCell::default();
}

/// Runs a compiled model; its C declaration:
///
/// ```c
/// int32_t tcc_aot_run(void (*entry)(void *const *, void *, const void *, uint32_t *),
///                     const float *const *inputs, size_t n_inputs,
///                     float *const *outputs, size_t n_outputs,
///                     size_t workspace_size, int32_t threads, int32_t isa);
/// ```
///
/// `inputs` holds `n_inputs` pointers and `outputs` `n_outputs` (an array may be NULL
/// only when its count is 0), `workspace_size` is the bytes the model needs, `threads`
/// the thread count (0: the default, see [`resolve_threads`]), `isa` the microkernel
/// level the code calls ([`tcc_runtime_abi::Isa::code`]; 0: none). Returns 0 on success,
/// the 1-based id of the run-time check that failed, or a negative [`AotError::code`]
/// when nothing ran (checked in that order: microkernel level, pointers, thread count,
/// workspace).
///
/// # Safety
/// `entry` must be a model entry compiled by tcc taking `n_inputs` inputs and
/// `n_outputs` outputs and needing `workspace_size` bytes of workspace; non-NULL arrays
/// must hold their counts of pointers, and non-NULL elements must point to buffers large
/// enough for their tensors.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tcc_aot_run(
    entry: EntryFn,
    inputs: *const *const f32,
    n_inputs: usize,
    outputs: *const *mut f32,
    n_outputs: usize,
    workspace_size: usize,
    threads: i32,
    isa: i32,
) -> i32 {
    match tcc_runtime_abi::Isa::from_code(isa) {
        Ok(None) => {}
        Ok(Some(level)) if tcc_runtime_abi::Isa::may_run(level) => {}
        _ => return AotError::UnsupportedIsa.code(),
    }
    let call = |state: &mut CallState| {
        // SAFETY: forwarded from the caller's contract.
        unsafe { run(state, entry, inputs, n_inputs, outputs, n_outputs, workspace_size, threads) }
    };
    // A panic must not unwind into C (that aborts the program): it is an error code.
    // `TCC_INJECT_PANIC=aot-run` forces one, for tests.
    let guarded = std::panic::catch_unwind(|| {
        if std::env::var_os("TCC_INJECT_PANIC").is_some_and(|s| s == "aot-run") {
            panic!("TCC_INJECT_PANIC: injected panic at 'aot-run'");
        }
        // A thread being torn down, or a run started from inside a run, gets a fresh state.
        STATE
            .try_with(|s| s.try_borrow_mut().ok().map(|mut s| call(&mut s)))
            .ok()
            .flatten()
            .unwrap_or_else(|| call(&mut CallState::default()))
    });
    guarded.unwrap_or(Err(AotError::Internal)).unwrap_or_else(AotError::code)
}

/// The pointers of a C array of `n` of them, each checked; `Err(array_null)` if the
/// array is NULL (with `n > 0`), `Err(element_null)` if an element is.
///
/// # Safety
/// A non-NULL `array` holds `n` pointers.
unsafe fn push_checked<T>(
    args: &mut Vec<*mut u8>,
    array: *const *const T,
    n: usize,
    array_null: AotError,
    element_null: AotError,
) -> Result<(), AotError> {
    if n == 0 {
        return Ok(());
    }
    if array.is_null() {
        return Err(array_null);
    }
    // SAFETY: the caller's contract: a non-NULL array holds n pointers.
    let elements = unsafe { std::slice::from_raw_parts(array, n) };
    if elements.iter().any(|p| p.is_null()) {
        return Err(element_null);
    }
    args.extend(elements.iter().map(|&p| p as *mut u8));
    Ok(())
}

/// The thread count `threads` (from C) stands for.
fn thread_count(threads: i32) -> Result<usize, AotError> {
    match usize::try_from(threads) {
        Ok(0) => resolve_threads(None).map_err(|_| AotError::InvalidThreadsEnv),
        Ok(n) => validate_threads(n).map_err(|_| AotError::InvalidThreads),
        Err(_) => Err(AotError::InvalidThreads),
    }
}

/// [`tcc_aot_run`] with the thread's state: the status of the run, or why it did not run.
///
/// # Safety
/// [`tcc_aot_run`]'s contract.
unsafe fn run(
    state: &mut CallState,
    entry: EntryFn,
    inputs: *const *const f32,
    n_inputs: usize,
    outputs: *const *mut f32,
    n_outputs: usize,
    workspace_size: usize,
    threads: i32,
) -> Result<i32, AotError> {
    let args = &mut state.args;
    args.clear();
    // SAFETY: the caller's contract on both arrays.
    unsafe {
        push_checked(args, inputs, n_inputs, AotError::NullInputs, AotError::NullInput)?;
        push_checked(args, outputs.cast::<*const f32>(), n_outputs, AotError::NullOutputs, AotError::NullOutput)?;
    }
    let threads = thread_count(threads)?;
    let workspace = match &mut state.workspace {
        Some(ws) if ws.size() >= workspace_size => ws,
        slot => {
            // The old workspace goes first, so that both are never held at once.
            *slot = None;
            slot.insert(Workspace::try_new(workspace_size).map_err(|_| AotError::OutOfMemory)?)
        }
    };
    let pool = pool::shared_handle(threads);
    let pool_ptr = pool.as_ref().map_or(std::ptr::null(), |p| p.handle());
    let mut status = 0u32;
    // SAFETY: forwarded from the caller's contract; every pointer was checked, the
    // workspace is large enough and the pool outlives the call.
    unsafe { entry(args.as_ptr(), workspace.as_mut_ptr(), pool_ptr, &mut status) };
    Ok(status as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threads::MAX_THREADS;
    use crate::{PoolHandle, ThreadPool};

    /// A one-input, one-output model: `out[0] = in[0] + 1`, `out[1]` = the pool's thread
    /// count (0 without a pool); its check 1 fails on a negative input.
    unsafe extern "C" fn entry(args: *const *mut u8, ws: *mut u8, pool: *const PoolHandle, status: *mut u32) {
        // SAFETY: the tests pass one input of 1 float and one output of 2.
        unsafe {
            assert!(!ws.is_null());
            let x = *(*args as *const f32);
            let out = *args.add(1) as *mut f32;
            *out = x + 1.0;
            *out.add(1) = (pool as *const ThreadPool).as_ref().map_or(0, |p| p.threads()) as f32;
            if x < 0.0 {
                *status = 1;
            }
        }
    }

    fn call(inputs: *const *const f32, outputs: *const *mut f32, workspace: usize, threads: i32) -> i32 {
        // SAFETY: the arrays, when not NULL, hold one pointer each to large enough buffers.
        unsafe { tcc_aot_run(entry, inputs, 1, outputs, 1, workspace, threads, 0) }
    }

    #[test]
    fn runs_and_reports_checks() {
        let (x, mut out) = (2.0f32, [0.0f32; 2]);
        let (ins, outs) = ([&x as *const f32], [out.as_mut_ptr()]);
        assert_eq!(call(ins.as_ptr(), outs.as_ptr(), 1000, 3), 0);
        assert_eq!(out, [3.0, 3.0]);
        assert_eq!(call(ins.as_ptr(), outs.as_ptr(), 1 << 20, 1), 0);
        assert_eq!(out, [3.0, 0.0]);
        let neg = -5.0f32;
        assert_eq!(call([&neg as *const f32].as_ptr(), outs.as_ptr(), 0, 2), 1);
    }

    #[test]
    fn refuses_bad_arguments_with_codes() {
        let (x, mut out) = (2.0f32, [0.0f32; 2]);
        let (ins, outs) = ([&x as *const f32], [out.as_mut_ptr()]);
        let (null_in, null_out) = ([std::ptr::null::<f32>()], [std::ptr::null_mut::<f32>()]);
        let cases = [
            (call(std::ptr::null(), outs.as_ptr(), 64, 1), AotError::NullInputs),
            (call(null_in.as_ptr(), outs.as_ptr(), 64, 1), AotError::NullInput),
            (call(ins.as_ptr(), std::ptr::null(), 64, 1), AotError::NullOutputs),
            (call(ins.as_ptr(), null_out.as_ptr(), 64, 1), AotError::NullOutput),
            (call(ins.as_ptr(), outs.as_ptr(), 64, -1), AotError::InvalidThreads),
            (call(ins.as_ptr(), outs.as_ptr(), 64, i32::MIN), AotError::InvalidThreads),
            (call(ins.as_ptr(), outs.as_ptr(), 64, i32::MAX), AotError::InvalidThreads),
            (call(ins.as_ptr(), outs.as_ptr(), 64, MAX_THREADS as i32 + 1), AotError::InvalidThreads),
            (call(ins.as_ptr(), outs.as_ptr(), 1 << 62, 1), AotError::OutOfMemory),
        ];
        for (i, (got, want)) in cases.into_iter().enumerate() {
            assert_eq!(got, want.code(), "case {i}: {want:?}");
        }
        assert_eq!(out, [0.0, 0.0], "nothing ran");
        // The workspace kept from before a failed allocation still serves.
        assert_eq!(call(ins.as_ptr(), outs.as_ptr(), 64, 1), 0);
    }

    #[test]
    fn empty_arrays_may_be_null() {
        unsafe extern "C" fn nothing(_: *const *mut u8, _: *mut u8, _: *const PoolHandle, _: *mut u32) {}
        // SAFETY: the entry reads nothing.
        assert_eq!(unsafe { tcc_aot_run(nothing, std::ptr::null(), 0, std::ptr::null(), 0, 0, 1, 0) }, 0);
    }

    #[test]
    fn a_microkernel_level_the_cpu_lacks_or_an_unknown_one_is_refused() {
        unsafe extern "C" fn nothing(_: *const *mut u8, _: *mut u8, _: *const PoolHandle, _: *mut u32) {}
        let run = |isa: i32| unsafe { tcc_aot_run(nothing, std::ptr::null(), 0, std::ptr::null(), 0, 0, 1, isa) };
        let refused = AotError::UnsupportedIsa.code();
        assert_eq!(run(99), refused);
        assert_eq!(run(-1), refused);
        for level in tcc_runtime_abi::Isa::ALL {
            let code = tcc_runtime_abi::Isa::code(Some(level));
            let allowed = level.is_supported() && std::env::var_os("TCC_ISA").is_none();
            assert_eq!(run(code) == 0, allowed, "{level}");
        }
    }

    #[test]
    fn codes_are_distinct_negative_and_named() {
        for (i, e) in AotError::ALL.into_iter().enumerate() {
            assert_eq!(e.code(), -1 - i as i32);
            assert_eq!(AotError::from_code(e.code()), Some(e));
            assert!(e.macro_name().starts_with("TCC_ERROR_") && !e.message().is_empty());
        }
        assert_eq!(AotError::from_code(0), None);
        assert!(AotError::InvalidThreads.message().contains("256"));
    }
}
