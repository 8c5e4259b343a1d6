//! The thread pool that runs `loop.parallel` loops (NeoCPU's design).
//!
//! - A run on `threads` threads (by default one per physical core) uses `threads - 1`
//!   worker threads, each pinned to a core other than the caller's, plus the caller.
//!   The caller is not pinned and may move: each loop tells every worker the core to
//!   run on, counted from the caller's core of the moment, and a worker whose core
//!   changed moves before it starts (else the caller could share a core with a worker
//!   while another core idles, halving the loop's speed; measured from Python, where
//!   the calling thread moves between cores from one run to the next).
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
//! One process-wide pool ([`shared`]) serves every model: created on first use, it
//! grows, worker by worker, to the largest thread count a run has asked for (never
//! beyond [`MAX_THREADS`]) and never shrinks. A [`ThreadPool`] is a handle on those
//! workers with a thread count of its own: a run asking for fewer threads than the pool
//! has splits its loops for that many threads and hands them to that many workers (the
//! first ones) plus the caller; the other workers stay idle. Whether idle workers spin
//! is decided per run, by that run's thread count.
//!
//! One caller at a time owns the workers; a second concurrent caller (or a parallel
//! loop started from inside a task) runs its loop on its own thread instead of waiting.
//!
//! The pool survives `fork` (a C program forking after a run, Python's multiprocessing
//! with the fork start method). The child gets a copy of the pool's memory but only the
//! thread that forked: its workers do not exist there, and a loop handed to them would
//! wait for them forever. So every [`Workers`] remembers the fork generation it was
//! created in, and a `pthread_atfork` child handler (registered with the first workers)
//! bumps the generation and forgets the process-wide workers. In the child, the next
//! run creates fresh workers on first use, like the first run of a process; a handle
//! made before the fork (the one a JIT `tcc::Model` keeps, a private pool) sees that its
//! workers are from an older generation and runs its loops on the child's process-wide
//! workers instead. The old workers are leaked in the child, never dropped: dropping
//! them would join threads that are not there, and their locks may have been held by
//! threads that vanished with the fork. Nothing of theirs is touched again.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle, Thread};

use tcc_runtime_abi::PoolHandle;

use crate::threads::MAX_THREADS;

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
    /// Spins of a worker waiting for its next task, after this one, before it parks.
    spin_limit: u32,
    /// The core the worker runs this task on (see [`Workers::core_for`]).
    core: Option<usize>,
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
}

/// Workers and their mailboxes, shared by every [`ThreadPool`] handle on them.
struct Workers {
    shared: Arc<Shared>,
    /// Workers started so far: they serve `shared.slots[..started]`. Only grows.
    started: AtomicUsize,
    /// The started workers' join handles; the lock also serializes growth.
    handles: Mutex<Vec<JoinHandle<()>>>,
    /// The usable physical cores, in increasing order (see [`Workers::core_for`]).
    cores: Vec<usize>,
    /// By logical CPU, the position of its core in `cores` (for the CPUs the process
    /// may use).
    core_of_cpu: Vec<Option<usize>>,
    /// Held by the caller of `parallel_for` for the duration of a loop.
    busy: Mutex<()>,
    /// The [`fork_generation`] these workers were started in. In a child forked since,
    /// they do not exist: nothing may wait for them, lock what they use or join them.
    generation: u64,
}

impl Workers {
    /// Room for `capacity` threads in total (the caller counts as one, and `capacity`
    /// is clamped to `1..=MAX_THREADS`); no worker is started yet.
    fn new(capacity: usize) -> Workers {
        watch_forks();
        let capacity = capacity.clamp(1, MAX_THREADS);
        let (cores, by_cpu) = crate::cpu::usable_cores_by_cpu();
        let mut core_of_cpu = vec![None; by_cpu.iter().map(|&(cpu, _)| cpu + 1).max().unwrap_or(0)];
        for (cpu, core) in by_cpu {
            core_of_cpu[cpu] = Some(core);
        }
        let slots: Box<[Slot]> = (1..capacity)
            .map(|_| Slot {
                seq: AtomicU64::new(0),
                task: UnsafeCell::new(Task {
                    func: None,
                    ctx: std::ptr::null(),
                    n: 0,
                    blocks: 0,
                    spin_limit: 0,
                    core: None,
                }),
                sleeping: AtomicBool::new(false),
                thread: Mutex::new(None),
            })
            .collect();
        let shared = Arc::new(Shared {
            slots,
            pending: Padded(AtomicUsize::new(0)),
            next: Padded(AtomicUsize::new(0)),
            shutdown: Padded(AtomicBool::new(false)),
        });
        Workers {
            shared,
            started: AtomicUsize::new(0),
            handles: Mutex::new(Vec::new()),
            cores,
            core_of_cpu,
            busy: Mutex::new(()),
            generation: fork_generation(),
        }
    }

    /// Starts workers until `threads` threads (the caller included, at most the
    /// capacity) can run a loop; returns how many can. A worker the OS refuses to start
    /// is not an error: runs use the ones there are.
    fn grow(&self, threads: usize) -> usize {
        let wanted = threads.clamp(1, self.shared.slots.len() + 1) - 1;
        if self.started.load(Ordering::Acquire) >= wanted {
            return wanted + 1;
        }
        let mut handles = self.handles.lock().unwrap_or_else(|e| e.into_inner());
        // A new worker spins before its first task only if a run of this size has a
        // core per thread (see `ThreadPool::parallel_for`).
        let spin_limit = if wanted < self.cores.len() { SPIN_LIMIT } else { 0 };
        let caller = self.caller_core(crate::cpu::current_cpu());
        while handles.len() < wanted {
            let w = handles.len();
            let shared = self.shared.clone();
            let core = self.core_for(w, caller);
            let spawned = thread::Builder::new()
                .name(format!("tcc-worker-{}", w + 1))
                .spawn(move || worker_loop(&shared, w, core, spin_limit));
            match spawned {
                Ok(h) => handles.push(h),
                Err(_) => break,
            }
        }
        self.started.store(handles.len(), Ordering::Release);
        handles.len().min(wanted) + 1
    }

    /// The position in `cores` of the core of CPU `cpu` (the caller's), or of the last
    /// core if the process may not use it or the OS does not say.
    fn caller_core(&self, cpu: Option<usize>) -> usize {
        cpu.and_then(|c| self.core_of_cpu.get(c).copied().flatten()).unwrap_or(self.cores.len().saturating_sub(1))
    }

    /// The core worker `w` runs on while the caller is on core `caller` (a position in
    /// `cores`, [`Workers::caller_core`]): the usable cores in turn, starting after the
    /// caller's, so that the caller's comes last (taken only when threads outnumber
    /// cores). None with a single core.
    fn core_for(&self, w: usize, caller: usize) -> Option<usize> {
        let n = self.cores.len();
        (n >= 2).then(|| self.cores[(caller + 1 + w) % n])
    }

    /// A handle running loops on `threads` threads (see [`Workers::grow`]).
    fn handle(self: &Arc<Self>, threads: usize) -> ThreadPool {
        ThreadPool { threads: self.grow(threads), workers: self.clone() }
    }

    /// Whether these workers were started before a `fork` that made this process: then
    /// none of them runs here.
    fn forked_away(&self) -> bool {
        self.generation != fork_generation()
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        if self.forked_away() {
            // The threads behind the handles are the parent's: joining them here would
            // wait forever (and detaching them would touch the parent's thread records).
            // Leak them.
            std::mem::forget(std::mem::take(self.handles.get_mut().unwrap_or_else(|e| e.into_inner())));
            return;
        }
        self.shared.shutdown.0.store(true, Ordering::SeqCst);
        let handles = std::mem::take(self.handles.get_mut().unwrap_or_else(|e| e.into_inner()));
        for slot in &self.shared.slots[..handles.len()] {
            if let Some(t) = slot.thread.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                t.unpark();
            }
        }
        for h in handles {
            let _ = h.join();
        }
    }
}

/// A thread pool as one run sees it: `threads - 1` workers plus the calling thread.
/// Handles from [`shared`] share the process-wide workers; [`ThreadPool::new`] makes a
/// private pool.
pub struct ThreadPool {
    workers: Arc<Workers>,
    /// Threads a loop runs on (the caller included); never more than the workers
    /// started plus one.
    threads: usize,
}

impl ThreadPool {
    /// This pool as compiled code receives it (the entry function's `pool` argument,
    /// handed back to `tcc_parallel_for_blocks`).
    pub fn handle(&self) -> *const PoolHandle {
        self as *const ThreadPool as *const PoolHandle
    }

    /// A private pool using `threads` threads in total (the caller counts as one;
    /// clamped to `1..=MAX_THREADS`, and fewer if the OS refuses to start a thread).
    /// Workers are pinned to the usable physical cores other than the one the calling
    /// thread runs on when a loop starts (the caller is not pinned: see the module
    /// comment).
    pub fn new(threads: usize) -> ThreadPool {
        Arc::new(Workers::new(threads)).handle(threads)
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `func(ctx, begin, end)` over `0..n` split into contiguous blocks, a few per
    /// thread or `min_blocks` if more (at most `n`), which the threads claim one at a
    /// time; returns when all are done. Loops of few, long iterations (a convolution's
    /// tiles) ask for more blocks: a thread that starts late or runs slower then leaves
    /// less of the loop to wait for.
    ///
    /// # Safety
    /// `func` must be safe to call concurrently on disjoint ranges with `ctx`, and
    /// `ctx` must stay valid until this returns.
    pub unsafe fn parallel_for(&self, func: TaskFn, ctx: *const u8, n: i64, min_blocks: i64) {
        let workers = &*self.workers;
        if self.threads > 1 && workers.forked_away() {
            // A handle made before this process was forked: its workers are not here
            // and would never take the loop. The process's own workers (started now if
            // this is the child's first parallel loop) run it instead.
            let here = process_workers().handle(self.threads);
            // SAFETY: forwarded from the caller's contract.
            return unsafe { here.parallel_for(func, ctx, n, min_blocks) };
        }
        let threads = (self.threads as i64).min(n).max(0) as usize;
        let guard = if threads > 1 { workers.busy.try_lock().ok() } else { None };
        if guard.is_none() {
            // One thread's worth, or the pool is in use: run everything here.
            if n > 0 {
                // SAFETY: forwarded from the caller's contract.
                unsafe { func(ctx, 0, n) };
            }
            return;
        }
        // More threads than cores: a spinning thread would take the core from the one
        // it waits for, so nobody spins.
        let spin = self.threads <= workers.cores.len();
        let (spin_limit, caller_spin_limit) = if spin { (SPIN_LIMIT, CALLER_SPIN_LIMIT) } else { (0, 0) };
        let blocks = (threads * BLOCKS_PER_THREAD).max(min_blocks.max(0) as usize).min(n as usize);
        let task = Task { func: Some(func), ctx, n, blocks, spin_limit, core: None };
        let shared = &*workers.shared;
        shared.next.0.store(0, Ordering::Relaxed);
        shared.pending.0.store(threads - 1, Ordering::Relaxed);
        let caller = workers.caller_core(crate::cpu::current_cpu());
        // `threads - 1` workers are started: `self.threads` never exceeds them plus one.
        for (w, slot) in shared.slots[..threads - 1].iter().enumerate() {
            // SAFETY: the worker is idle (pending was 0 before this loop and we hold
            // `busy`), so nobody reads `task` until `seq` is bumped below, which also
            // publishes the stores above.
            unsafe { *slot.task.get() = Task { core: workers.core_for(w, caller), ..task } };
            slot.seq.fetch_add(1, Ordering::SeqCst);
            if slot.sleeping.swap(false, Ordering::SeqCst)
                && let Some(t) = slot.thread.lock().unwrap_or_else(|e| e.into_inner()).as_ref()
            {
                t.unpark();
            }
        }
        // SAFETY: forwarded from the caller's contract.
        unsafe { task.run_blocks(&shared.next.0) };
        // The workers finish their last blocks about when we do: spin briefly, then
        // yield (a worker sharing this core, when threads outnumber cores, needs it).
        let mut spins = 0u32;
        while shared.pending.0.load(Ordering::Acquire) != 0 {
            spins += 1;
            if spins < caller_spin_limit {
                std::hint::spin_loop();
            } else {
                thread::yield_now();
            }
        }
        drop(guard);
    }
}

/// Worker `index`'s life: wait for a task in its slot (spinning `spin_limit` times,
/// then parked; each task sets the spin limit for the wait after it), move to the
/// task's core if that changed, run its blocks, repeat until shutdown.
fn worker_loop(shared: &Shared, index: usize, mut core: Option<usize>, mut spin_limit: u32) {
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
            if spins < spin_limit {
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
        spin_limit = task.spin_limit;
        if task.core != core
            && let Some(c) = task.core
        {
            crate::cpu::pin_current_thread(c);
            core = task.core;
        }
        // SAFETY: the parallel_for contract covers concurrent calls on disjoint ranges.
        unsafe { task.run_blocks(&shared.next.0) };
        shared.pending.0.fetch_sub(1, Ordering::Release);
    }
}

/// The process-wide workers: a pointer from `Arc::into_raw` whose reference is never
/// released, or null before the first use (in this process: [`forked_child`] forgets
/// the parent's). Not a `OnceLock`, which could not be reset in a forked child.
static PROCESS_WORKERS: AtomicPtr<Workers> = AtomicPtr::new(std::ptr::null_mut());

/// The process-wide workers, created (without any worker) on first use, in every
/// process: a forked child creates its own.
fn process_workers() -> Arc<Workers> {
    let mut current = PROCESS_WORKERS.load(Ordering::Acquire);
    if current.is_null() {
        let fresh = Arc::into_raw(Arc::new(Workers::new(MAX_THREADS))).cast_mut();
        let null = std::ptr::null_mut();
        current = match PROCESS_WORKERS.compare_exchange(null, fresh, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => fresh,
            Err(winner) => {
                // SAFETY: `fresh` is the `Arc` made above, never published; it has no
                // worker yet, so dropping it joins nothing.
                drop(unsafe { Arc::from_raw(fresh) });
                winner
            }
        };
    }
    // SAFETY: a published pointer came from `Arc::into_raw` and its reference is never
    // released (`forked_child` forgets it), so the workers are alive; this takes
    // another reference for the caller.
    unsafe {
        Arc::increment_strong_count(current);
        Arc::from_raw(current)
    }
}

/// Forks this process descends from since the runtime first made workers: bumped in
/// the child of every `fork` by [`forked_child`]. Workers from an older generation are
/// the parent's, not this process's.
static FORK_GENERATION: AtomicU64 = AtomicU64::new(0);

/// This process's fork generation (see [`FORK_GENERATION`]).
fn fork_generation() -> u64 {
    // Relaxed: the child's bump happens on the forking thread before `fork` returns,
    // and threads started later see it through their spawn.
    FORK_GENERATION.load(Ordering::Relaxed)
}

/// The `pthread_atfork` child handler: in the child of a `fork`, before `fork` returns
/// and while it has a single thread, marks every existing [`Workers`] as the parent's
/// and forgets the process-wide ones (their reference is leaked, never dropped), so
/// that the child's next run starts workers of its own. Only atomic stores: it must be
/// async-signal-safe, as the child of a `fork` that is going to `exec` requires.
#[cfg_attr(not(unix), allow(dead_code))]
extern "C" fn forked_child() {
    FORK_GENERATION.fetch_add(1, Ordering::Relaxed);
    PROCESS_WORKERS.store(std::ptr::null_mut(), Ordering::Relaxed);
}

/// Registers [`forked_child`] once per process, before the first workers start (forks
/// before that leave nothing behind). A flag rather than a `Once`: a `Once` that another
/// thread was running when the process forked would block the child forever.
fn watch_forks() {
    #[cfg(unix)]
    {
        static REGISTERED: AtomicBool = AtomicBool::new(false);
        if !REGISTERED.swap(true, Ordering::AcqRel) {
            // SAFETY: the handler is a plain function that only touches atomics. It can
            // only fail for lack of memory; forks then keep the old behaviour.
            unsafe { libc::pthread_atfork(None, None, Some(forked_child)) };
        }
    }
}

/// A handle on the process-wide pool for a run on `threads` threads, or `None` for
/// one thread (which needs no pool). The pool is shared by every model (so loading many
/// models does not multiply workers) and grows to `threads` here if it has fewer
/// workers. `threads` should be validated first
/// ([`validate_threads`](crate::threads::validate_threads)); larger counts are clamped
/// to [`MAX_THREADS`].
pub fn shared(threads: usize) -> Option<Arc<ThreadPool>> {
    shared_handle(threads).map(Arc::new)
}

/// [`shared`] without the `Arc`, for a handle that lives on the caller's stack.
pub(crate) fn shared_handle(threads: usize) -> Option<ThreadPool> {
    (threads > 1).then(|| process_workers().handle(threads))
}

/// The C entry point compiled code calls for `loop.parallel` (with its `blocks`, or 0).
/// A null pool runs the loop on the calling thread.
///
/// # Safety
/// `pool` is null or a live [`ThreadPool`]'s [`ThreadPool::handle`]; `func` and `ctx` follow
/// [`ThreadPool::parallel_for`]'s contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tcc_parallel_for_blocks(
    pool: *const PoolHandle,
    func: TaskFn,
    ctx: *const u8,
    n: i64,
    min_blocks: i64,
) {
    // SAFETY: forwarded from the caller's contract; a handle is a `ThreadPool` pointer
    // (`ThreadPool::handle`).
    unsafe {
        match (pool as *const ThreadPool).as_ref() {
            Some(p) => p.parallel_for(func, ctx, n, min_blocks),
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
        unsafe { pool.parallel_for(mark, &counters as *const _ as *const u8, n as i64, 0) };
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

    /// A task that counts its calls and the distinct threads that ran them.
    struct Probe {
        counters: Vec<AtomicI64>,
        calls: AtomicUsize,
        threads: Mutex<std::collections::HashSet<thread::ThreadId>>,
    }

    unsafe extern "C" fn probe(ctx: *const u8, begin: i64, end: i64) {
        // SAFETY: the tests pass a Probe.
        let p = unsafe { &*(ctx as *const Probe) };
        p.calls.fetch_add(1, Ordering::Relaxed);
        p.threads.lock().unwrap().insert(thread::current().id());
        for i in begin..end {
            p.counters[i as usize].fetch_add(1, Ordering::Relaxed);
        }
        // Long enough that every thread of the run gets a block.
        thread::sleep(std::time::Duration::from_micros(200));
    }

    /// Runs a loop of `n` on `pool`: (calls of the task, distinct threads that ran it).
    fn run_probe(pool: &ThreadPool, n: usize) -> (usize, usize) {
        run_probe_in_blocks(pool, n, 0)
    }

    /// [`run_probe`] asking for at least `min_blocks` blocks.
    fn run_probe_in_blocks(pool: &ThreadPool, n: usize, min_blocks: i64) -> (usize, usize) {
        let p = Probe {
            counters: (0..n).map(|_| AtomicI64::new(0)).collect(),
            calls: AtomicUsize::new(0),
            threads: Mutex::new(Default::default()),
        };
        // SAFETY: `probe` touches disjoint indices and synchronizes the rest; `p` outlives the call.
        unsafe { pool.parallel_for(probe, &p as *const Probe as *const u8, n as i64, min_blocks) };
        assert!(p.counters.iter().all(|c| c.load(Ordering::Relaxed) == 1));
        (p.calls.into_inner(), p.threads.into_inner().unwrap().len())
    }

    #[test]
    fn a_run_with_fewer_threads_uses_only_those() {
        let workers = Arc::new(Workers::new(8));
        let all = workers.handle(8);
        assert_eq!(all.threads(), 8);
        assert_eq!(workers.started.load(Ordering::Relaxed), 7);
        assert_eq!(run_probe(&all, 1000).0, 8 * BLOCKS_PER_THREAD);
        let few = workers.handle(3);
        assert_eq!(few.threads(), 3);
        for _ in 0..20 {
            let (calls, threads) = run_probe(&few, 1000);
            assert_eq!(calls, 3 * BLOCKS_PER_THREAD, "the loop is split for 3 threads");
            assert!(threads <= 3, "{threads} threads ran a 3-thread loop");
        }
        assert_eq!(workers.started.load(Ordering::Relaxed), 7, "no worker is started or stopped");
    }

    #[test]
    fn loops_of_long_iterations_ask_for_more_blocks() {
        let workers = Arc::new(Workers::new(2));
        let pool = workers.handle(2);
        // Fewer blocks than the default count change nothing; more split the loop
        // finer, at most one iteration a block; every iteration runs once.
        assert_eq!(run_probe_in_blocks(&pool, 100, 3).0, 2 * BLOCKS_PER_THREAD);
        assert_eq!(run_probe_in_blocks(&pool, 100, 27).0, 27);
        assert_eq!(run_probe_in_blocks(&pool, 20, 27).0, 20);
    }

    #[test]
    fn the_pool_grows_to_the_largest_count_asked() {
        let workers = Arc::new(Workers::new(MAX_THREADS));
        assert_eq!(workers.started.load(Ordering::Relaxed), 0);
        for (asked, started) in [(2, 1), (5, 4), (3, 4), (1, 4), (6, 5), (4, 5)] {
            let pool = workers.handle(asked);
            assert_eq!(pool.threads(), asked);
            assert_eq!(workers.started.load(Ordering::Relaxed), started, "after asking for {asked}");
            for n in [0, 1, 5, 100] {
                assert!(run(&pool, n).iter().all(|&c| c == 1), "asked {asked}, n {n}");
            }
            let (_, threads) = run_probe(&pool, 100);
            assert!(threads <= asked);
        }
        // Handles of different sizes used from several threads at once.
        let handles: Vec<_> = (2..6)
            .map(|t| {
                let pool = workers.handle(t);
                std::thread::spawn(move || (0..100).all(|_| run(&pool, 33).iter().all(|&c| c == 1)))
            })
            .collect();
        assert!(handles.into_iter().all(|h| h.join().unwrap()));
    }

    #[test]
    fn the_shared_pool_never_grows_past_the_maximum() {
        let pool = shared(MAX_THREADS + 100).unwrap();
        assert_eq!(pool.threads(), MAX_THREADS);
        assert!(run(&pool, 10_000).iter().all(|&c| c == 1));
        let small = shared(2).unwrap();
        assert_eq!(small.threads(), 2);
        assert!(run(&small, 100).iter().all(|&c| c == 1));
        for threads in [usize::MAX, MAX_THREADS * 2, MAX_THREADS + 1] {
            assert_eq!(shared(threads).unwrap().threads(), MAX_THREADS);
        }
        assert_eq!(process_workers().started.load(Ordering::Relaxed), MAX_THREADS - 1);
        assert!(shared(1).is_none() && shared(0).is_none());
        assert_eq!(ThreadPool::new(MAX_THREADS + 1).threads(), MAX_THREADS);
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

    #[test]
    fn workers_take_the_cores_after_the_callers() {
        // Cores 0, 2, 4, 6 (CPUs 1, 3, 5, 7 their SMT siblings).
        let mut w = Workers::new(1);
        w.cores = vec![0, 2, 4, 6];
        w.core_of_cpu = (0..8).map(|cpu| Some(cpu / 2)).collect();
        let placed = |cpu: Option<usize>| (0..4).map(|k| w.core_for(k, w.caller_core(cpu))).collect::<Vec<_>>();
        // The caller's core (or its sibling's) comes last.
        assert_eq!(placed(Some(4)), vec![Some(6), Some(0), Some(2), Some(4)]);
        assert_eq!(placed(Some(5)), vec![Some(6), Some(0), Some(2), Some(4)]);
        assert_eq!(placed(Some(0)), vec![Some(2), Some(4), Some(6), Some(0)]);
        // A caller on a CPU the process may not use: the cores in order.
        assert_eq!(placed(Some(9)), vec![Some(0), Some(2), Some(4), Some(6)]);
        assert_eq!(placed(None), vec![Some(0), Some(2), Some(4), Some(6)]);
        // One core: nobody is pinned.
        w.cores = vec![0];
        assert_eq!(w.core_for(0, w.caller_core(Some(0))), None);
    }
}
