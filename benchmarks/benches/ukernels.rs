//! The register tiles in L1, one thread: the f32 broadcast tile (AVX-512, 14 rows x 2
//! vectors, what the conv and matmul templates call) against the bf16 dot tile (10 x 2,
//! with `vdpbf16ps` and with widening FMAs), each over a reduction of 512 elements (256
//! pairs). Throughput in FLOPs (two per multiply-add); compare with the FMA and bf16
//! dot peaks of `../shared/tools/roofline/run.sh`. Then, on CPUs with AMX, pointwise
//! convolutions as whole sequences of AMX calls: one residual block in L2
//! (`pointwise_residual_l2`) and ResNet-50's in the models' own layouts
//! (`pointwise_resnet50_bf16`). Results in benchmarks/RESULTS.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tcc_ukernels::dot::{DotLevel, DotTile, LANES, OutRows, run_dot, run_dot_rows};
use tcc_ukernels::{Epilogue, Isa, Level, Reduce, Tile, run};

const K: i64 = 512;
const VECTORS: i64 = 2;

fn tiles(c: &mut Criterion) {
    let mut group = c.benchmark_group("register_tile_l1");
    if Isa::Avx512.is_supported() {
        let rows = 14;
        let x = vec![0.5f32; (rows * K) as usize];
        let w = vec![0.25f32; (K * VECTORS * 16) as usize];
        let mut o = vec![0f32; (rows * VECTORS * 16) as usize];
        let tile = Tile {
            x: x.as_ptr(),
            w: w.as_ptr(),
            o: o.as_mut_ptr(),
            rows,
            vectors: VECTORS,
            accumulate: false,
            narrow: false,
            bf16_residual: false,
            x_row: K,
            o_row: VECTORS * 16,
            group_vectors: VECTORS,
            w_group: 0,
            o_group: 0,
            inner: K,
            w_step: VECTORS * 16,
            levels: [Level { count: 1, x: 0, w: 0 }; 3],
            x_vector: false,
            x_step: 0,
            x_group: 0,
            reduce: Reduce::Fma,
            divisor: 0,
            prefetch: 0,
            epilogue: Epilogue::NONE,
            out_rows: 1,
            x_out_row: 0,
            o_out_row: 0,
        };
        group.throughput(Throughput::Elements((2 * rows * VECTORS * 16 * K) as u64));
        // SAFETY: the buffers cover the tile.
        group.bench_function("f32_avx512_14x2", |b| b.iter(|| unsafe { run(Isa::Avx512, black_box(&tile)) }));
    }
    let rows = 10;
    let x = vec![0x3f00u16; (rows * K) as usize];
    let w = vec![0x3e80u16; (K * VECTORS * LANES as i64) as usize];
    let mut o = vec![0f32; (rows * VECTORS * LANES as i64) as usize];
    let tile = DotTile {
        x: x.as_ptr(),
        w: w.as_ptr(),
        o: o.as_mut_ptr(),
        rows,
        vectors: VECTORS,
        accumulate: false,
        narrow: false,
        bf16_residual: false,
        x_row: K,
        o_row: VECTORS * LANES as i64,
        group_vectors: VECTORS,
        w_group: 0,
        o_group: 0,
        pairs: K / 2,
        w_step: VECTORS * 2 * LANES as i64,
        levels: [Level { count: 1, x: 0, w: 0 }; 3],
        prefetch: 0,
        epilogue: Epilogue::NONE,
    };
    group.throughput(Throughput::Elements((2 * rows * VECTORS * LANES as i64 * K) as u64));
    for (name, level) in [
        ("bf16_amx_10x2", DotLevel::Amx),
        ("bf16_dot_10x2", DotLevel::Avx512Bf16),
        ("bf16_widened_10x2", DotLevel::Avx512),
    ] {
        if level.is_supported() {
            // SAFETY: the buffers cover the tile; the level runs on this CPU.
            group.bench_function(name, |b| b.iter(|| unsafe { run_dot(level, black_box(&tile)) }));
        }
    }
    // A 3x3 convolution's row as the conv template calls the dot tile: 28 output
    // columns (stride 1: rows 16 elements apart), two output blocks of 16 channels,
    // reduced over 8 input-channel blocks, 3 kernel rows and, inner, 3 kernel columns'
    // 16 channels (24 pairs); the input a padded 30 x 30 map, all of it in L1/L2.
    let (cols, icb, side) = (28i64, 8i64, 30i64);
    let x = vec![0x3f00u16; (icb * side * side * 16) as usize];
    let w_group = icb * 3 * 3 * 16 * 16;
    let w = vec![0x3e80u16; (2 * w_group) as usize];
    let mut o = vec![0f32; (cols * 2 * 16) as usize];
    let conv = DotTile {
        x: x.as_ptr(),
        w: w.as_ptr(),
        o: o.as_mut_ptr(),
        rows: cols,
        vectors: 2,
        accumulate: false,
        narrow: false,
        bf16_residual: false,
        x_row: 16,
        o_row: 16,
        group_vectors: 1,
        w_group,
        o_group: cols * 16,
        pairs: 24,
        w_step: 32,
        levels: [
            Level { count: icb, x: side * side * 16, w: 3 * 3 * 16 * 16 },
            Level { count: 3, x: side * 16, w: 3 * 16 * 16 },
            Level { count: 1, x: 0, w: 0 },
        ],
        prefetch: 0,
        epilogue: Epilogue::NONE,
    };
    group.throughput(Throughput::Elements((2 * cols * 2 * 16 * icb * 3 * 48) as u64));
    for (name, level) in
        [("bf16_amx_conv3x3_row28x2", DotLevel::Amx), ("bf16_dot_conv3x3_row28x2", DotLevel::Avx512Bf16)]
    {
        if level.is_supported() {
            // SAFETY: the buffers cover the tile; the level runs on this CPU.
            group.bench_function(name, |b| b.iter(|| unsafe { run_dot(level, black_box(&conv)) }));
        }
    }
    // The same row as AMX's blocks take it (`block-layouts` on AMX targets): 32-channel
    // blocks (two vectors each), so a kernel row's 3 columns are 48 pairs; 4 vectors.
    let x32 = vec![0x3f00u16; (icb / 2 * side * side * 32) as usize];
    let w_group32 = icb / 2 * 3 * 3 * 32 * 32;
    let w32 = vec![0x3e80u16; (2 * w_group32) as usize];
    let mut o32 = vec![0f32; (cols * 2 * 32) as usize];
    let amx = DotTile {
        x: x32.as_ptr(),
        w: w32.as_ptr(),
        o: o32.as_mut_ptr(),
        rows: cols,
        vectors: 4,
        x_row: 32,
        o_row: 32,
        group_vectors: 2,
        w_group: w_group32,
        o_group: cols * 32,
        pairs: 48,
        w_step: 64,
        levels: [
            Level { count: icb / 2, x: side * side * 32, w: 3 * 3 * 32 * 32 },
            Level { count: 3, x: side * 32, w: 3 * 32 * 32 },
            Level { count: 1, x: 0, w: 0 },
        ],
        ..conv
    };
    group.throughput(Throughput::Elements((2 * cols * 4 * 16 * icb * 3 * 48) as u64));
    if DotLevel::Amx.is_supported() {
        // SAFETY: the buffers cover the tile; the level runs on this CPU.
        group.bench_function("bf16_amx_conv3x3_row28x4_blocks32", |b| {
            b.iter(|| unsafe { run_dot(DotLevel::Amx, black_box(&amx)) })
        });
    }
    // A whole 7 x 7 map as ResNet-50's last 3x3 convolutions call the dot tile on AMX
    // (512 channels in 16 blocks of 32; a 9 x 9 padded input; two output blocks):
    // row by row, seven calls of 7 rows, against one call over the 7 rows, which AMX
    // runs as 63 positions of the padded rows (four input tiles instead of seven).
    let (side, cols, icb) = (9i64, 7i64, 16i64);
    let x7 = vec![0x3f00u16; (icb * side * side * 32) as usize];
    let w_group7 = icb * 3 * 3 * 32 * 32;
    let w7 = vec![0x3e80u16; (2 * w_group7) as usize];
    let mut o7 = vec![0f32; (cols * cols * 2 * 32) as usize];
    let map = DotTile {
        x: x7.as_ptr(),
        w: w7.as_ptr(),
        o: o7.as_mut_ptr(),
        rows: cols,
        o_group: cols * cols * 32,
        w_group: w_group7,
        levels: [
            Level { count: icb, x: side * side * 32, w: 3 * 3 * 32 * 32 },
            Level { count: 3, x: side * 32, w: 3 * 32 * 32 },
            Level { count: 1, x: 0, w: 0 },
        ],
        ..amx
    };
    let rows = OutRows { count: cols, x: side * 32, o: cols * 32 };
    group.throughput(Throughput::Elements((2 * cols * cols * 4 * 16 * icb * 3 * 48) as u64));
    if DotLevel::Amx.is_supported() {
        group.bench_function("bf16_amx_conv3x3_map7x7x4_row_by_row", |b| {
            b.iter(|| {
                for i in 0..rows.count {
                    // SAFETY: the buffers cover every row; the level runs on this CPU.
                    unsafe { run_dot(DotLevel::Amx, black_box(&map.out_row(rows, i))) }
                }
            })
        });
        group.bench_function("bf16_amx_conv3x3_map7x7x4_one_call", |b| {
            // SAFETY: as above.
            b.iter(|| unsafe { run_dot_rows(DotLevel::Amx, black_box(&map), rows) })
        });
    }
    group.finish();
}

/// A pointwise convolution's residual block as its AMX calls see it: 64 input channels
/// (32 pairs), 64 output channels (four vectors) of 3,136 pixels (a 56 x 56 map) in
/// calls of 32 pixels, with a bias, a bf16 residual, the ReLU clamp and bf16 output
/// (ResNet's last pointwise convolution of a block under `--precision bf16`). Inputs,
/// residual and output (400 KiB each) stay in L2. Throughput in outputs.
fn pointwise_residual(c: &mut Criterion) {
    if !DotLevel::Amx.is_supported() {
        return;
    }
    let mut group = c.benchmark_group("pointwise_residual_l2");
    let (pixels, channels, k, rows) = (3136i64, 64i64, 64i64, 32i64);
    let x = vec![0x3f00u16; (pixels * k) as usize];
    let w = vec![0x3e80u16; (k * channels) as usize];
    let bias = vec![0.25f32; channels as usize];
    let residual = vec![0xbf00u16; (pixels * channels) as usize];
    let mut o = vec![0u16; (pixels * channels) as usize];
    let tile = |chunk: i64| DotTile {
        // SAFETY (of the offsets): `chunk` < pixels / rows.
        x: unsafe { x.as_ptr().offset((chunk * rows * k) as isize) },
        w: w.as_ptr(),
        o: unsafe { o.as_mut_ptr().offset((chunk * rows * channels) as isize) }.cast(),
        rows,
        vectors: channels / LANES as i64,
        accumulate: false,
        narrow: true,
        bf16_residual: true,
        x_row: k,
        o_row: channels,
        group_vectors: channels / LANES as i64,
        w_group: 0,
        o_group: 0,
        pairs: k / 2,
        w_step: channels * 2,
        levels: [Level { count: 1, x: 0, w: 0 }; 3],
        prefetch: 0,
        epilogue: Epilogue {
            bias: bias.as_ptr(),
            residual: unsafe { residual.as_ptr().offset((chunk * rows * channels) as isize) }.cast(),
            lo: 0.0,
            ..Epilogue::NONE
        },
    };
    let tiles: Vec<DotTile> = (0..pixels / rows).map(tile).collect();
    group.throughput(Throughput::Elements((pixels * channels) as u64));
    group.bench_function("bf16_amx_pointwise_k64_residual_bf16", |b| {
        b.iter(|| {
            for t in &tiles {
                // SAFETY: each tile's buffers cover its 32 pixels; AMX runs on this CPU.
                unsafe { run_dot(DotLevel::Amx, black_box(t)) }
            }
        })
    });
    group.finish();
}

/// ResNet-50's pointwise convolutions as the conv lowering calls the AMX tile under
/// `--precision bf16`, in the models' own layouts: inputs and outputs in 32-channel
/// blocks (`NCHW32c`, a pixel's block 64 contiguous bytes), filters
/// `[output block][input block][16 pairs][32][2]`, calls of 32 pixels x two output
/// blocks (four vectors), every input block a level of the reduction; a bias, the ReLU
/// clamp, bf16 output and, where ResNet has one, a bf16 residual. One run is the whole
/// convolution on one thread; throughput in FLOPs (compare with `tcc bench`'s kernel
/// rows and the AMX chains' peak).
fn pointwise_resnet(c: &mut Criterion) {
    if !DotLevel::Amx.is_supported() {
        return;
    }
    let mut group = c.benchmark_group("pointwise_resnet50_bf16");
    // (name, input channels, output channels, pixels, residual)
    let shapes = [
        ("layer1_reduce_256_64_56x56", 256, 64, 3136, false),
        ("layer1_expand_64_256_56x56_residual", 64, 256, 3136, true),
        ("layer2_reduce_256_128_56x56", 256, 128, 3136, false),
        ("layer3_expand_256_1024_14x14_residual", 256, 1024, 196, true),
        ("layer4_reduce_2048_512_7x7", 2048, 512, 49, false),
    ];
    for (name, k, oc, hw, with_residual) in shapes {
        let (icb, ocb) = (k / 32, oc / 32);
        let x = vec![0x3f00u16; (icb * hw * 32) as usize];
        let w = vec![0x3e80u16; (ocb * icb * 1024) as usize];
        let bias = vec![0.25f32; oc as usize];
        let residual = vec![0xbf00u16; (ocb * hw * 32) as usize];
        let mut o = vec![0u16; (ocb * hw * 32) as usize];
        let op = o.as_mut_ptr();
        let mut tiles = Vec::new();
        for g in (0..ocb).step_by(2) {
            for p in (0..hw).step_by(32) {
                // Of pixel `p` of block group `g` in the outputs and residuals (inside
                // the buffers, as the other offsets: the SAFETY of each `offset` below).
                let at = (g * hw * 32 + p * 32) as isize;
                tiles.push(DotTile {
                    x: unsafe { x.as_ptr().offset((p * 32) as isize) },
                    w: unsafe { w.as_ptr().offset((g * icb * 1024) as isize) },
                    o: unsafe { op.offset(at) }.cast(),
                    rows: (hw - p).min(32),
                    vectors: (ocb - g).min(2) * 2,
                    accumulate: false,
                    narrow: true,
                    bf16_residual: true,
                    x_row: 32,
                    o_row: 32,
                    group_vectors: 2,
                    w_group: icb * 1024,
                    o_group: hw * 32,
                    pairs: 16,
                    w_step: 64,
                    levels: [
                        Level { count: icb, x: hw * 32, w: 1024 },
                        Level { count: 1, x: 0, w: 0 },
                        Level { count: 1, x: 0, w: 0 },
                    ],
                    prefetch: 0,
                    epilogue: Epilogue {
                        bias: unsafe { bias.as_ptr().offset((g * 32) as isize) },
                        bias_group: 32,
                        residual: if with_residual {
                            unsafe { residual.as_ptr().offset(at) }.cast()
                        } else {
                            std::ptr::null()
                        },
                        lo: 0.0,
                        ..Epilogue::NONE
                    },
                });
            }
        }
        group.throughput(Throughput::Elements((2 * k * oc * hw) as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for t in &tiles {
                    // SAFETY: each call's buffers cover its pixels and blocks; AMX runs
                    // on this CPU.
                    unsafe { run_dot(DotLevel::Amx, black_box(t)) }
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, tiles, pointwise_residual, pointwise_resnet);
criterion_main!(benches);
