//! The thread pool that runs `loop.parallel` loops (NeoCPU's design).
//!
//! - One worker thread per physical core but the caller's, each pinned to its core.
//! - Each worker has a single-slot mailbox: the caller writes a task and bumps the
//!   slot's sequence number (release); the worker sees the new number (acquire), runs
//!   the task and decrements the shared `pending` counter. No locks, no allocation.
//! - Every piece of shared state sits on its own 64-byte line (no false sharing).
//! - Idle workers spin for a while (new work usually comes within microseconds,
//!   between the kernels of one model run), then park; the caller unparks them. With
//!   more threads than usable cores nobody spins (the spinner would hold the core the
//!   others need).
//! - The range is split into contiguous blocks, a few per thread, which the threads
//!   (the caller among them) claim with an atomic counter: a thread slowed down by a
//!   busy core takes fewer blocks instead of holding up the loop. The caller then
//!   waits for the workers.
//!
//! One caller at a time owns the pool; a second concurrent caller (or a parallel loop
//! started from inside a task) runs its loop on its own thread instead of waiting.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle, Thread};

/// The body of a parallel loop: runs iterations `begin..end` with its captured state.
pub type TaskFn = unsafe extern "C" fn(ctx: *const u8, begin: i64, end: i64);

/// Spins before a worker parks (about 100 µs on a current core).
const SPIN_LIMIT: u32 = 1 << 16;
/// Spins of a caller waiting for the workers before it yields its core.
const CALLER_SPIN_LIMIT: u32 = 1 << 12;

#[repr(align(64))]
struct Padded<T>(T);

#[derive(Copy, Clone)]
struct Task {
    func: Option<TaskFn>,
    ctx: *const u8,
    /// The loop's range `0..n`, split into `blocks` contiguous blocks that the threads
    /// claim one at a time.
    n: i64,
    blocks: usize,
}

impl Task {
    /// Claims and runs blocks until none is left.
    ///
    /// # Safety
    /// The `parallel_for` contract for `func` and `ctx`.
    unsafe fn run_blocks(&self, next: &AtomicUsize) {
        let Some(func) = self.func else { return };
        loop {
            let b = next.fetch_add(1, Ordering::Relaxed);
            if b >= self.blocks {
                return;
            }
            let bound = |b: usize| (self.n as i128 * b as i128 / self.blocks as i128) as i64;
            let (begin, end) = (bound(b), bound(b + 1));
            if begin < end {
                // SAFETY: forwarded from the caller's contract; blocks are disjoint.
                unsafe { func(self.ctx, begin, end) };
            }
        }
    }
}

/// Blocks per thread of a parallel loop: more than one, so that a thread slowed down
/// (a busy core on a shared machine, a late wake-up) takes fewer of them instead of
/// making everyone wait.
const BLOCKS_PER_THREAD: usize = 4;

#[repr(align(64))]
struct Slot {
    /// Bumped by the caller each time it publishes a task.
    seq: AtomicU64,
    task: UnsafeCell<Task>,
    sleeping: AtomicBool,
    thread: Mutex<Option<Thread>>,
}

// SAFETY: `task` is written only by the pool's single active caller before it
// publishes `seq` (release) and read by the worker after it observes `seq` (acquire);
// its raw context pointer is only dereferenced by the task function, whose contract
// (see `parallel_for`) makes it valid on any thread.
unsafe impl Sync for Slot {}
unsafe impl Send for Slot {}

struct Shared {
    slots: Box<[Slot]>,
    pending: Padded<AtomicUsize>,
    /// The next block of the current loop to claim.
    next: Padded<AtomicUsize>,
    shutdown: Padded<AtomicBool>,
    /// Spins of an idle worker before it parks.
    spin_limit: u32,
}

/// A pool of `threads - 1` workers plus the calling thread.
pub struct ThreadPool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
    threads: usize,
    /// Held by the caller of `parallel_for` for the duration of a loop.
    busy: Mutex<()>,
    /// Spins of the caller waiting for the workers before it yields.
    caller_spin_limit: u32,
}

impl ThreadPool {
    /// A pool using `threads` threads in total (the caller counts as one). Workers are
    /// pinned to the usable physical cores other than the one the caller runs on (the
    /// caller is not pinned: a worker pinned to its core would share that core with it
    /// while another one idles, halving the speed of every parallel loop).
    pub fn new(threads: usize) -> ThreadPool {
        let threads = threads.max(1);
        let mut cores = crate::cpu::usable_physical_cores();
        if let Some(caller) = crate::cpu::current_cpu()
            && let Some(i) = cores.iter().position(|&c| c == caller)
        {
            // The caller's core last, so workers take the others first.
            let own = cores.remove(i);
            cores.push(own);
        }
        let slots: Box<[Slot]> = (1..threads)
            .map(|_| Slot {
                seq: AtomicU64::new(0),
                task: UnsafeCell::new(Task { func: None, ctx: std::ptr::null(), n: 0, blocks: 0 }),
                sleeping: AtomicBool::new(false),
                thread: Mutex::new(None),
            })
            .collect();
        // More threads than cores: a spinning thread would take the core from the one
        // it waits for, so nobody spins.
        let oversubscribed = threads > cores.len();
        let (spin_limit, caller_spin_limit) = if oversubscribed { (0, 0) } else { (SPIN_LIMIT, CALLER_SPIN_LIMIT) };
        let shared = Arc::new(Shared {
            slots,
            pending: Padded(AtomicUsize::new(0)),
            next: Padded(AtomicUsize::new(0)),
            shutdown: Padded(AtomicBool::new(false)),
            spin_limit,
        });
        let workers = (1..threads)
            .map(|w| {
                let shared = shared.clone();
                let core = (cores.len() > 1).then(|| cores[(w - 1) % cores.len()]);
                thread::Builder::new()
                    .name(format!("tcc-worker-{w}"))
                    .spawn(move || worker_loop(&shared, w - 1, core))
                    .expect("cannot spawn a thread-pool worker")
            })
            .collect();
        ThreadPool { shared, workers, threads, busy: Mutex::new(()), caller_spin_limit }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `func(ctx, begin, end)` over `0..n` split into contiguous blocks, a few per
    /// thread, which the threads claim one at a time; returns when all are done.
    ///
    /// # Safety
    /// `func` must be safe to call concurrently on disjoint ranges with `ctx`, and
    /// `ctx` must stay valid until this returns.
    pub unsafe fn parallel_for(&self, func: TaskFn, ctx: *const u8, n: i64) {
        let threads = (self.threads as i64).min(n).max(0) as usize;
        let guard = if threads > 1 { self.busy.try_lock().ok() } else { None };
        if guard.is_none() {
            // One thread's worth, or the pool is in use: run everything here.
            if n > 0 {
                // SAFETY: forwarded from the caller's contract.
                unsafe { func(ctx, 0, n) };
            }
            return;
        }
        let blocks = (threads * BLOCKS_PER_THREAD).min(n as usize);
        let task = Task { func: Some(func), ctx, n, blocks };
        self.shared.next.0.store(0, Ordering::Relaxed);
        self.shared.pending.0.store(threads - 1, Ordering::Relaxed);
        for slot in &self.shared.slots[..threads - 1] {
            // SAFETY: the worker is idle (pending was 0 before this loop and we hold
            // `busy`), so nobody reads `task` until `seq` is bumped below, which also
            // publishes the stores above.
            unsafe { *slot.task.get() = task };
            slot.seq.fetch_add(1, Ordering::SeqCst);
            if slot.sleeping.swap(false, Ordering::SeqCst)
                && let Some(t) = slot.thread.lock().unwrap_or_else(|e| e.into_inner()).as_ref()
            {
                t.unpark();
            }
        }
        // SAFETY: forwarded from the caller's contract.
        unsafe { task.run_blocks(&self.shared.next.0) };
        // The workers finish their last blocks about when we do: spin briefly, then
        // yield (a worker sharing this core, when threads outnumber cores, needs it).
        let mut spins = 0u32;
        while self.shared.pending.0.load(Ordering::Acquire) != 0 {
            spins += 1;
            if spins < self.caller_spin_limit {
                std::hint::spin_loop();
            } else {
                thread::yield_now();
            }
        }
        drop(guard);
    }
}

fn worker_loop(shared: &Shared, index: usize, core: Option<usize>) {
    if let Some(c) = core {
        crate::cpu::pin_current_thread(c);
    }
    let slot = &shared.slots[index];
    *slot.thread.lock().unwrap_or_else(|e| e.into_inner()) = Some(thread::current());
    let mut seen = 0u64;
    loop {
        let mut spins = 0u32;
        let seq = loop {
            let s = slot.seq.load(Ordering::Acquire);
            if s != seen || shared.shutdown.0.load(Ordering::Acquire) {
                break s;
            }
            if spins < shared.spin_limit {
                spins += 1;
                std::hint::spin_loop();
                continue;
            }
            // Announce sleep, then re-check so a task published meanwhile is not missed.
            slot.sleeping.store(true, Ordering::SeqCst);
            if slot.seq.load(Ordering::SeqCst) == seen && !shared.shutdown.0.load(Ordering::SeqCst) {
                thread::park();
            }
            slot.sleeping.store(false, Ordering::SeqCst);
        };
        if shared.shutdown.0.load(Ordering::Acquire) && seq == seen {
            return;
        }
        seen = seq;
        // SAFETY: the caller wrote the task before bumping `seq`, which we observed.
        let task = unsafe { *slot.task.get() };
        // SAFETY: the parallel_for contract covers concurrent calls on disjoint ranges.
        unsafe { task.run_blocks(&shared.next.0) };
        shared.pending.0.fetch_sub(1, Ordering::Release);
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.shared.shutdown.0.store(true, Ordering::SeqCst);
        for slot in self.shared.slots.iter() {
            if let Some(t) = slot.thread.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                t.unpark();
            }
        }
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

/// The process-wide pool for a thread count, created on first use and shared by every
/// model (so loading many models does not multiply spinning workers). One thread needs
/// no pool.
pub fn shared(threads: usize) -> Option<Arc<ThreadPool>> {
    static POOLS: std::sync::OnceLock<Mutex<Vec<(usize, Arc<ThreadPool>)>>> = std::sync::OnceLock::new();
    if threads <= 1 {
        return None;
    }
    let mut pools = POOLS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == threads) {
        return Some(p.clone());
    }
    let p = Arc::new(ThreadPool::new(threads));
    pools.push((threads, p.clone()));
    Some(p)
}

/// The C entry point compiled code calls for `loop.parallel`. A null pool runs the
/// loop on the calling thread.
///
/// # Safety
/// `pool` is null or a live [`ThreadPool`]; `func` and `ctx` follow
/// [`ThreadPool::parallel_for`]'s contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tcc_parallel_for(pool: *const ThreadPool, func: TaskFn, ctx: *const u8, n: i64) {
    // SAFETY: forwarded from the caller's contract.
    unsafe {
        match pool.as_ref() {
            Some(p) => p.parallel_for(func, ctx, n),
            None if n > 0 => func(ctx, 0, n),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicI64;

    unsafe extern "C" fn mark(ctx: *const u8, begin: i64, end: i64) {
        // SAFETY: the tests pass a slice of AtomicI64 counters.
        let counters = unsafe { &*(ctx as *const Vec<AtomicI64>) };
        for i in begin..end {
            counters[i as usize].fetch_add(1, Ordering::Relaxed);
        }
    }

    fn run(pool: &ThreadPool, n: usize) -> Vec<i64> {
        let counters: Vec<AtomicI64> = (0..n).map(|_| AtomicI64::new(0)).collect();
        // SAFETY: `mark` touches disjoint indices; `counters` outlives the call.
        unsafe { pool.parallel_for(mark, &counters as *const _ as *const u8, n as i64) };
        counters.iter().map(|c| c.load(Ordering::Relaxed)).collect()
    }

    #[test]
    fn every_iteration_runs_exactly_once() {
        for threads in [1, 2, 3, 8] {
            let pool = ThreadPool::new(threads);
            for n in [0, 1, 2, 3, 7, 64, 1000] {
                assert!(run(&pool, n).iter().all(|&c| c == 1), "threads {threads}, n {n}");
            }
        }
    }

    #[test]
    fn many_loops_in_a_row_and_after_parking() {
        let pool = ThreadPool::new(3);
        for round in 0..2000 {
            assert!(run(&pool, 17).iter().all(|&c| c == 1), "round {round}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50)); // workers park
        assert!(run(&pool, 17).iter().all(|&c| c == 1));
    }

    #[test]
    fn concurrent_callers_share_one_pool() {
        let pool = Arc::new(ThreadPool::new(2));
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let pool = pool.clone();
                std::thread::spawn(move || (0..200).all(|_| run(&pool, 33).iter().all(|&c| c == 1)))
            })
            .collect();
        assert!(handles.into_iter().all(|h| h.join().unwrap()));
    }
}
