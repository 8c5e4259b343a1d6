//! Dispatch latency of a parallel loop over empty tasks: tcc's thread pool
//! (`ThreadPool::parallel_for`, what compiled `loop.parallel` calls) against rayon and
//! against spawning with `std::thread::scope`, each using 2 threads (the caller plus
//! one worker). Results are recorded in benchmarks/RESULTS.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tcc_runtime::ThreadPool;

unsafe extern "C" fn empty(_ctx: *const u8, begin: i64, end: i64) {
    black_box((begin, end));
}

fn dispatch(c: &mut Criterion) {
    let threads = 2;
    let mut group = c.benchmark_group("parallel_for_empty_2_threads");

    let pool = ThreadPool::new(threads);
    group.bench_function("tcc_pool", |b| {
        // SAFETY: `empty` touches nothing.
        b.iter(|| unsafe { pool.parallel_for(empty, std::ptr::null(), black_box(threads as i64), 0) })
    });

    // A cold dispatch: the worker has stopped spinning and parked, so it must be woken.
    group.bench_function("tcc_pool_parked_worker", |b| {
        b.iter_custom(|iters| {
            let mut total = std::time::Duration::ZERO;
            for _ in 0..iters {
                std::thread::sleep(std::time::Duration::from_millis(2));
                let t = std::time::Instant::now();
                // SAFETY: as above.
                unsafe { pool.parallel_for(empty, std::ptr::null(), threads as i64, 0) };
                total += t.elapsed();
            }
            total
        })
    });

    let rayon_pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    group.bench_function("rayon_scope", |b| {
        b.iter(|| {
            rayon_pool.scope(|s| {
                s.spawn(|_| {
                    black_box(1);
                });
                black_box(0);
            })
        })
    });
    group.bench_function("rayon_join", |b| {
        b.iter(|| {
            rayon_pool.install(|| rayon::join(|| black_box(0), || black_box(1)));
        })
    });

    group.bench_function("rayon_join_parked_workers", |b| {
        b.iter_custom(|iters| {
            let mut total = std::time::Duration::ZERO;
            for _ in 0..iters {
                std::thread::sleep(std::time::Duration::from_millis(2));
                let t = std::time::Instant::now();
                rayon_pool.install(|| rayon::join(|| black_box(0), || black_box(1)));
                total += t.elapsed();
            }
            total
        })
    });

    group.bench_function("std_thread_scope", |b| {
        b.iter(|| {
            std::thread::scope(|s| {
                s.spawn(|| black_box(1));
                black_box(0);
            })
        })
    });
    group.finish();
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
