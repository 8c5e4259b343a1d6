//! The entry point of ahead-of-time compiled models.
//!
//! An object file made by `tcc --emit=obj` exports `NAME_run(inputs, outputs)`, which
//! packs the tensor pointers and calls [`tcc_aot_run`] with the model's entry function.
//! This supplies what the compiled code needs: a workspace (one per calling thread,
//! reused between calls) and the process-wide thread pool.

use std::cell::RefCell;

use crate::{EntryFn, Workspace, pool};

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::new(Workspace::new(0));
}

/// Runs a compiled model: `args` holds the input then output buffer pointers,
/// `workspace_size` is the bytes the model needs, `threads` the thread count (0 or less:
/// `TCC_NUM_THREADS`, else one per physical core). Returns 0, or the id (1-based) of the
/// run-time check that failed.
///
/// # Safety
/// `entry` must be a model entry compiled by tcc, and `args` must point to its
/// buffers, each large enough for its tensor.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tcc_aot_run(entry: EntryFn, args: *const *mut u8, workspace_size: i64, threads: i32) -> i32 {
    let threads = if threads > 0 { threads as usize } else { crate::cpu::default_threads() };
    let pool = pool::shared(threads);
    let pool_ptr = pool.as_ref().map_or(std::ptr::null(), std::sync::Arc::as_ptr);
    let mut status = 0u32;
    WORKSPACE.with(|ws| {
        let mut ws = ws.borrow_mut();
        if ws.size() < workspace_size.max(0) as usize {
            *ws = Workspace::new(workspace_size as usize);
        }
        // SAFETY: forwarded from the caller's contract; the workspace is large enough
        // and the pool is alive for the call.
        unsafe { entry(args, ws.as_mut_ptr(), pool_ptr, &mut status) };
    });
    status as i32
}
