//! The machine's read bandwidth at each memory level, measured: the ceiling `tcc
//! bench` states a memory-bound kernel's compulsory traffic against.
//!
//! Each of `threads` threads, pinned to its own core, sums its own 64-byte aligned
//! buffer of 64-bit words over and over with the widest vectors the CPU has (AVX-512,
//! AVX2 or SSE2, chosen at run time; eight accumulators, so only the loads limit it),
//! as a roofline tool measures a core's ceilings. Each buffer is sized to
//! live in one level: half the L1 data cache, half the L2 (both per core), a quarter
//! of the L3 shared among the threads (sysfs; 32 MiB when unknown), and 256 MiB of main
//! memory. A kernel's data lives in the smallest level its compulsory traffic (inputs
//! read once, outputs written once) fits, on the threads in use. Results are cached per
//! CPU model and thread count in `$XDG_CACHE_HOME/tcc/bandwidth` (or
//! `~/.cache/tcc/bandwidth`), like the FMA peak ([`crate::peak`]), and as there only
//! when they were measured undisturbed: a pass during which a thread lost its core
//! (thread CPU time short of wall time) does not count, and a set of levels that is
//! not ordered (a level faster than the one above it by more than the noise) is not
//! cached (a busy machine once left L1 at 51 GB/s, a tenth of its real bandwidth, in
//! the cache of every later benchmark).

use std::time::Instant;

/// One memory level's measured read bandwidth.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub name: &'static str,
    /// Bytes that fit in the level for all threads together (the last level: any).
    pub capacity: usize,
    pub gb_per_s: f64,
}

/// The read bandwidth of every level, for a number of threads.
#[derive(Clone, Debug, PartialEq)]
pub struct Bandwidth {
    pub levels: Vec<Level>,
    /// Whether the values came from the cache.
    pub cached: bool,
    /// Why the values measured now were not cached, if they were not.
    pub note: Option<String>,
}

impl Bandwidth {
    /// The level data of `bytes` bytes lives in: the smallest it fits.
    pub fn level_for(&self, bytes: u64) -> &Level {
        let fits = self.levels.iter().find(|l| bytes as usize <= l.capacity);
        fits.unwrap_or_else(|| self.levels.last().expect("at least main memory"))
    }
}

/// The bandwidth of each level on `threads` threads: from the cache, or measured (and
/// cached).
pub fn measured(threads: usize) -> Bandwidth {
    let threads = threads.max(1);
    let caches = tcc::target::host::caches();
    let (l1, l2) = (caches.l1.unwrap_or(32 << 10), caches.l2.unwrap_or(1 << 20));
    let l3 = caches.l3.map_or(32 << 20, |b| b as usize);
    let per_thread = [l1 as usize / 2, l2 as usize / 2, l3 / 4 / threads, 256 << 20];
    let capacity = [l1 as usize * threads, l2 as usize * threads, l3, usize::MAX];
    let names = ["L1", "L2", "L3", "memory"];
    // v2: aligned buffers, pinned threads, L3 a quarter full; v3: undisturbed and ordered
    // values only (earlier values may be low and are not reused).
    let key = format!("v3|{}|{threads}", tcc::target::host::cpu_model());
    let cached = crate::cache::read("bandwidth", &key).and_then(|text| {
        let v: Vec<f64> = text.split(',').filter_map(|x| x.parse().ok()).collect();
        (v.len() == names.len()).then_some(v)
    });
    let (values, was_cached, note) = match cached {
        Some(v) => (v, true, None),
        None => {
            let rates: Vec<Rate> = per_thread.iter().map(|&bytes| read_rate(bytes, threads)).collect();
            let v: Vec<f64> = rates.iter().map(|r| r.gb_per_s).collect();
            let note = cache_refusal(&rates);
            if note.is_none() {
                let text = v.iter().map(|g| format!("{g:.1}")).collect::<Vec<_>>().join(",");
                crate::cache::write("bandwidth", &key, &text);
            }
            (v, false, note)
        }
    };
    let levels =
        (0..names.len()).map(|i| Level { name: names[i], capacity: capacity[i], gb_per_s: values[i] }).collect();
    Bandwidth { levels, cached: was_cached, note }
}

/// A level's measured bandwidth, and whether any timed pass ran undisturbed.
#[derive(Clone, Copy, Debug)]
struct Rate {
    gb_per_s: f64,
    undisturbed: bool,
}

/// Why measured `rates` (fastest level first) must not be cached, or `None`.
fn cache_refusal(rates: &[Rate]) -> Option<String> {
    if rates.iter().any(|r| !r.undisturbed) {
        return Some("the cores were shared while measuring: not cached".into());
    }
    // A level may measure a little faster than the one above it (noise; main memory
    // against a small L3), not a quarter faster.
    let unordered = rates.windows(2).any(|w| w[1].gb_per_s > 1.25 * w[0].gb_per_s);
    unordered.then(|| "a lower level measured faster than the one above it: not cached".into())
}

/// A cache line of words: buffers of them are 64-byte aligned, so no vector load
/// splits a line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u64; 8]);

/// GB/s of `threads` threads (each pinned to its own core) each reading its own buffer
/// of `bytes` bytes: the best of several timed passes, each long enough (about 20 ms)
/// to be measured well; of the undisturbed passes when there are some (every thread
/// had its core: thread CPU time at least [`crate::peak::CPU_SHARE`] of wall time).
fn read_rate(bytes: usize, threads: usize) -> Rate {
    let lines = (bytes / 64).max(4) / 4 * 4;
    let repeats = ((20 << 20) / (lines * 64)).max(1) as u32 * 4;
    let buffers: Vec<Vec<Line>> = (0..threads)
        .map(|t| (0..lines as u64).map(|i| Line(std::array::from_fn(|k| (i * 8 + k as u64) ^ t as u64))).collect())
        .collect();
    let cores = tcc::runtime::cpu::usable_physical_cores();
    let (mut best, mut best_undisturbed) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..5 {
        let barrier = std::sync::Barrier::new(threads);
        let start = std::sync::OnceLock::new();
        let undisturbed = std::sync::atomic::AtomicBool::new(true);
        std::thread::scope(|s| {
            for (t, buf) in buffers.iter().enumerate() {
                let (barrier, start, cores, undisturbed) = (&barrier, &start, &cores, &undisturbed);
                s.spawn(move || {
                    if let Some(&cpu) = cores.get(t) {
                        tcc::runtime::cpu::pin_current_thread(cpu);
                    }
                    barrier.wait();
                    start.get_or_init(Instant::now);
                    let (wall, cpu) = (Instant::now(), crate::peak::thread_cpu_seconds());
                    // SAFETY: `Line` is `repr(C)` around `[u64; 8]` (size 64, no padding),
                    // so the buffer's lines are `8 * len` contiguous words.
                    let words = unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<u64>(), buf.len() * 8) };
                    let mut total = 0u64;
                    for _ in 0..repeats {
                        total = total.wrapping_add(sum(std::hint::black_box(words)));
                    }
                    std::hint::black_box(total);
                    // Without a thread clock (NaN) the pass counts as undisturbed.
                    let cpu = crate::peak::thread_cpu_seconds() - cpu;
                    if cpu < crate::peak::CPU_SHARE * wall.elapsed().as_secs_f64() {
                        undisturbed.store(false, std::sync::atomic::Ordering::Relaxed);
                    }
                });
            }
        });
        let seconds = start.get().expect("a thread started the clock").elapsed().as_secs_f64();
        best = best.min(seconds);
        if undisturbed.into_inner() {
            best_undisturbed = best_undisturbed.min(seconds);
        }
    }
    let undisturbed = best_undisturbed.is_finite();
    let seconds = if undisturbed { best_undisturbed } else { best };
    Rate { gb_per_s: (threads * lines * 64) as f64 * repeats as f64 / seconds / 1e9, undisturbed }
}

/// The wrapping sum of `data`, with the widest vectors this CPU has.
fn sum(data: &[u64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F (checked just above).
            return unsafe { sum_avx512(data) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { sum_avx2(data) };
        }
    }
    sum_portable(data)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn sum_avx512(data: &[u64]) -> u64 {
    use std::arch::x86_64::*;
    let mut acc = [_mm512_setzero_si512(); 8];
    let chunks = data.chunks_exact(64);
    let rest = chunks.remainder();
    for chunk in chunks {
        for (k, a) in acc.iter_mut().enumerate() {
            // SAFETY: the chunk holds 64 words, so 8 from word 8k on are in bounds.
            let v = unsafe { _mm512_loadu_si512(chunk.as_ptr().add(8 * k).cast()) };
            *a = _mm512_add_epi64(*a, v);
        }
    }
    let total = acc.iter().fold(_mm512_setzero_si512(), |s, &a| _mm512_add_epi64(s, a));
    (_mm512_reduce_add_epi64(total) as u64).wrapping_add(sum_portable(rest))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn sum_avx2(data: &[u64]) -> u64 {
    use std::arch::x86_64::*;
    let mut acc = [_mm256_setzero_si256(); 4];
    let chunks = data.chunks_exact(16);
    let rest = chunks.remainder();
    for chunk in chunks {
        for (k, a) in acc.iter_mut().enumerate() {
            // SAFETY: the chunk holds 16 words, so 4 from word 4k on are in bounds.
            let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().add(4 * k).cast()) };
            *a = _mm256_add_epi64(*a, v);
        }
    }
    let mut lanes = [0u64; 4];
    let total = _mm256_add_epi64(_mm256_add_epi64(acc[0], acc[1]), _mm256_add_epi64(acc[2], acc[3]));
    // SAFETY: `lanes` has room for the 4 words stored.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), total) };
    lanes.iter().fold(sum_portable(rest), |s, &a| s.wrapping_add(a))
}

/// The plain wrapping sum (the rest of a vectorized sum, and CPUs without AVX2).
fn sum_portable(data: &[u64]) -> u64 {
    data.iter().fold(0, |s, &x| s.wrapping_add(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_wrap_and_cover_every_word() {
        let data: Vec<u64> = (0..96).map(|i| u64::MAX - i).collect();
        let want = data.iter().fold(0u64, |s, &x| s.wrapping_add(x));
        assert_eq!(sum(&data), want);
    }

    #[test]
    fn only_undisturbed_ordered_rates_are_cached() {
        let rate = |gb_per_s, undisturbed| Rate { gb_per_s, undisturbed };
        // Zen 5, measured: L1 534, L2 265, L3 117, memory 63 GB/s.
        let good = [rate(534.0, true), rate(265.0, true), rate(117.0, true), rate(63.0, true)];
        assert_eq!(cache_refusal(&good), None);
        // Noise between neighbours is fine.
        assert_eq!(cache_refusal(&[rate(60.0, true), rate(66.0, true)]), None);
        // What a busy machine once cached: L1 at 51, below L2.
        let busy = [rate(51.3, true), rate(65.6, true), rate(59.8, true), rate(28.7, true)];
        assert!(cache_refusal(&busy).unwrap().contains("faster"));
        let shared = [rate(534.0, true), rate(265.0, false)];
        assert!(cache_refusal(&shared).unwrap().contains("shared"));
    }

    #[test]
    fn data_lives_in_the_smallest_level_it_fits() {
        let level = |name, capacity| Level { name, capacity, gb_per_s: 1.0 };
        let bw = Bandwidth {
            levels: vec![level("L1", 100), level("L2", 1000), level("memory", usize::MAX)],
            cached: false,
            note: None,
        };
        assert_eq!(bw.level_for(100).name, "L1");
        assert_eq!(bw.level_for(101).name, "L2");
        assert_eq!(bw.level_for(1 << 40).name, "memory");
    }
}
