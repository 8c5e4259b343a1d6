//! A forked child runs parallel loops on workers of its own. `fork` copies only the
//! calling thread: the parent's workers are not in the child, and a loop handed to them
//! would wait forever. Handles made before the fork (as a JIT model keeps one), handles
//! made after it (as every AOT run makes one) and a private pool must all work in the
//! child, in a grandchild, and in the parent afterwards. A test program of its own: a
//! fork copies whatever locks the other tests' threads hold at that moment.

#![cfg(unix)]

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use tcc_runtime::ThreadPool;
use tcc_runtime::pool::shared;

unsafe extern "C" fn mark(ctx: *const u8, begin: i64, end: i64) {
    // SAFETY: the test passes a Vec of counters.
    let counters = unsafe { &*(ctx as *const Vec<AtomicI64>) };
    for i in begin..end {
        counters[i as usize].fetch_add(1, Ordering::Relaxed);
    }
}

/// Whether a loop of `n` iterations on `pool` ran each of them exactly once.
fn runs_once(pool: &ThreadPool, n: usize) -> bool {
    let counters: Vec<AtomicI64> = (0..n).map(|_| AtomicI64::new(0)).collect();
    // SAFETY: `mark` touches disjoint indices; `counters` outlives the call.
    unsafe { pool.parallel_for(mark, &counters as *const _ as *const u8, n as i64, 0) };
    counters.iter().all(|c| c.load(Ordering::Relaxed) == 1)
}

/// Runs `body` in a forked child: `Ok(true)` if it returned true, `Ok(false)` if it
/// returned false or panicked, `Err` if it did not finish within `limit` (it is killed).
fn in_child(limit: Duration, body: impl FnOnce() -> bool) -> Result<bool, String> {
    // SAFETY: the child runs `body` and leaves with `_exit` (no destructors, no atexit
    // handlers, no flushing of the parent's buffers).
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork: {}", std::io::Error::last_os_error());
    if pid == 0 {
        let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)).unwrap_or(false);
        // SAFETY: see above.
        unsafe { libc::_exit(if ok { 0 } else { 1 }) };
    }
    let deadline = Instant::now() + limit;
    let mut status = 0;
    loop {
        // SAFETY: `pid` is this process's child; `status` is a valid out-pointer.
        match unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) } {
            0 if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            0 => {
                // SAFETY: as above.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, &mut status, 0);
                }
                return Err(format!("the child hung (killed after {limit:?})"));
            }
            r if r < 0 => return Err(format!("waitpid: {}", std::io::Error::last_os_error())),
            _ => return Ok(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0),
        }
    }
}

#[test]
fn a_forked_child_runs_loops_on_workers_of_its_own() {
    let kept = shared(2).unwrap();
    let private = ThreadPool::new(3);
    let doomed = ThreadPool::new(2);
    assert!(runs_once(&kept, 1000) && runs_once(&private, 1000) && runs_once(&doomed, 1000));
    let child = in_child(Duration::from_secs(30), || {
        let ok = runs_once(&shared(2).unwrap(), 1000)
            && runs_once(&kept, 1000)
            && runs_once(&private, 1000)
            // More threads than the parent had: the child's own pool grows.
            && runs_once(&shared(4).unwrap(), 1000)
            && in_child(Duration::from_secs(10), || runs_once(&kept, 1000)) == Ok(true);
        // Dropping a pool made before the fork must not join the parent's workers (the
        // parent drops it when it drops this closure, unrun).
        drop(doomed);
        ok
    });
    assert_eq!(child, Ok(true));
    // The parent's workers still serve it.
    assert!(runs_once(&kept, 1000) && runs_once(&private, 1000));
}
