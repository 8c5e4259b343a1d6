//! The bf16 dot tile on AMX tiles (issue 29), for CPUs with AMX-BF16 (Intel Sapphire
//! Rapids and later). One `tdpbf16ps` multiplies a tile of up to 16 rows x 16 pairs of
//! bf16 inputs by a tile of 16 pairs x 16 lanes of pair-packed weights into a tile of
//! 16 x 16 f32 accumulators: 8,192 products, against `vdpbf16ps`'s 32. The dot tile's
//! layouts are already the ones AMX loads: a row's pairs are contiguous (rows `x_row`
//! apart), and a step's 16 weight pairs of one vector are one 64-byte row (steps
//! `w_step` apart).
//!
//! A sub-tile is up to 32 rows (two input tiles of 16, the last ones of the rows left)
//! x 2 vectors (two weight tiles): four accumulator tiles, eight tile registers in all.
//! Rows that fit one input tile take it with four weight tiles instead (four
//! accumulators in flight, where two would wait on each other's latency). The
//! reduction runs in chunks of `kc` pairs, the largest divisor of `pairs` up to 16, so
//! that a chunk never straddles two iterations of the levels (whose steps are not
//! contiguous). The accumulators go to a scratch block and the epilogue runs on them
//! with AVX-512, as the vector tile applies it.
//!
//! A call over several output rows ([`OutRows`], a convolution's rows on a padded
//! input) runs as one sequence of positions when the rows are evenly spaced in the
//! input (`period` positions apart, the row's columns and then the columns of the
//! padding): position `p` reads the input at `p * x_row` and is column `p % period` of
//! row `p / period`; positions past a row's columns are computed and not stored (their
//! inputs lie between two rows' inputs). A 7 x 7 map on a 9-wide padded input is then
//! 63 positions, four tiles, where row by row it was seven tiles of 7 rows; and the
//! weight tiles each serve 32 positions. Only where it takes no more input tiles than
//! row by row ([`spans_rows`]: not for strided rows on wide maps, which would compute
//! as many discarded positions as kept ones).
//!
//! The weights' prefetch hint is not used (a tile's weights stream from L2).
//!
//! Linux gives a process AMX state only on request (`arch_prctl(ARCH_REQ_XCOMP_PERM)`);
//! [`available`] asks once. `TCC_AMX=0` in the environment leaves AMX unused.
//!
//! `tdpbf16ps` sums a chunk's even and odd products separately, then adds both to the
//! accumulator ([`super::amx_definition`]; measured on a Xeon with AMX: every element
//! of 51,200 matched it, 18,481 the other levels' order): results differ from the
//! other levels within f32 rounding.

use std::arch::asm;
use std::arch::x86_64::__m512;
use std::sync::OnceLock;

use super::{DotTile, OutRows};

/// Rows of an input or accumulator tile; lanes of a vector (and of a tile's row).
const TILE_ROWS: usize = 16;

/// Whether this process runs AMX-BF16: the CPU has it, Linux granted the process its
/// tile state, and `TCC_AMX` is not `0`. Decided once.
pub fn available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        if std::env::var("TCC_AMX").is_ok_and(|v| v == "0") {
            return false;
        }
        // SAFETY: CPUID leaf 7 exists on every x86-64 CPU that runs AVX-512 code, and
        // CPUID itself on every x86-64 CPU.
        #[allow(unused_unsafe)]
        let features = unsafe { std::arch::x86_64::__cpuid_count(7, 0) };
        let (amx_bf16, amx_tile) = ((features.edx >> 22) & 1 == 1, (features.edx >> 24) & 1 == 1);
        // (The epilogue rounds with AVX512_BF16 and tests for subnormals with AVX512DQ,
        // which every CPU with AMX has.)
        let epilogue = is_x86_feature_detected!("avx512bf16") && is_x86_feature_detected!("avx512dq");
        amx_bf16 && amx_tile && epilogue && request_tile_state()
    })
}

/// Asks Linux for this process's AMX tile data state; whether it was granted.
#[cfg(target_os = "linux")]
fn request_tile_state() -> bool {
    const SYS_ARCH_PRCTL: i64 = 158;
    const ARCH_REQ_XCOMP_PERM: i64 = 0x1023;
    const XFEATURE_XTILEDATA: i64 = 18;
    let ret: i64;
    // SAFETY: a system call that only changes this process's permitted XSAVE features.
    unsafe {
        asm!(
            "syscall",
            inlateout("rax") SYS_ARCH_PRCTL => ret,
            in("rdi") ARCH_REQ_XCOMP_PERM,
            in("rsi") XFEATURE_XTILEDATA,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    ret == 0
}

/// Other systems: not used (no x86 Mac has AMX; Windows is untested).
#[cfg(not(target_os = "linux"))]
fn request_tile_state() -> bool {
    false
}

/// The tile configuration `ldtilecfg` reads (palette 1).
#[repr(C, align(64))]
#[derive(PartialEq, Eq)]
struct Config {
    palette: u8,
    start_row: u8,
    reserved: [u8; 14],
    /// Bytes per row of each tile register.
    colsb: [u16; 16],
    rows: [u8; 16],
}

impl Config {
    /// Square (`m1 > 0`): accumulators `tmm0`, `tmm1` (input tile 0 with weight tiles
    /// 0 and 1) of `m0` rows, `tmm2`, `tmm3` (input tile 1) of `m1` rows; inputs `tmm4`
    /// (`m0` rows) and `tmm5` (`m1` rows) of `kc` pairs; weights `tmm6`, `tmm7` of `kc`
    /// pair rows. Wide (`m1 = 0`): accumulators `tmm0` to `tmm3` of `m0` rows (input
    /// tile `tmm4` with four weight tiles), the weights in `tmm5`, `tmm6` and `tmm7` in
    /// turn.
    fn new(m0: usize, m1: usize, kc: usize) -> Config {
        let mut c = Config { palette: 1, start_row: 0, reserved: [0; 14], colsb: [0; 16], rows: [0; 16] };
        let tiles = if m1 > 0 {
            [(0, m0, 64), (1, m0, 64), (2, m1, 64), (3, m1, 64), (4, m0, 4 * kc), (5, m1, 4 * kc)]
        } else {
            [(0, m0, 64), (1, m0, 64), (2, m0, 64), (3, m0, 64), (4, m0, 4 * kc), (5, kc, 64)]
        };
        for (t, rows, colsb) in tiles.into_iter().chain([(6, kc, 64), (7, kc, 64)]) {
            c.rows[t] = rows as u8;
            c.colsb[t] = colsb as u16;
        }
        c
    }

    /// Makes this the thread's tile configuration, unless it already is. A thread's
    /// tiles stay configured from one call to the next (never released): `ldtilecfg`
    /// takes ~200 cycles and `sttilecfg` ~20 (Sapphire Rapids), where a pointwise
    /// convolution's call of 32 pixels x 64 channels over 64 input channels is 16
    /// products of 16 cycles, and a convolution makes hundreds of such calls. Whatever
    /// else configured the tiles in between (another library on this thread) is seen in
    /// the stored configuration; the tiles' contents are never assumed (every sub-tile
    /// zeroes or loads its accumulators).
    ///
    /// # Safety
    /// This process has tile state ([`available`]).
    #[target_feature(enable = "avx512f,avx512bf16,avx512dq")]
    unsafe fn load(&self) {
        let mut current = Config { palette: 0, start_row: 0, reserved: [0; 14], colsb: [0; 16], rows: [0; 16] };
        // SAFETY: both are 64 bytes, 64-byte aligned; the process has tile state.
        unsafe {
            asm!("sttilecfg [{}]", in(reg) &mut current, options(nostack));
            if current != *self {
                asm!("ldtilecfg [{}]", in(reg) self, options(nostack, readonly));
            }
        }
    }
}

/// `tileloadd tmmN, [p + stride]` (N a literal).
macro_rules! load {
    ($t:literal, $p:expr, $stride:expr) => {
        asm!(concat!("tileloadd tmm", $t, ", [{p} + {s}]"), p = in(reg) $p, s = in(reg) $stride,
            options(nostack, readonly))
    };
}

/// `tilestored [p + stride], tmmN`.
macro_rules! store {
    ($t:literal, $p:expr, $stride:expr) => {
        asm!(concat!("tilestored [{p} + {s}], tmm", $t), p = in(reg) $p, s = in(reg) $stride, options(nostack))
    };
}

/// `tdpbf16ps tmmC, tmmA, tmmB`.
macro_rules! dot {
    ($c:literal, $a:literal, $b:literal) => {
        asm!(concat!("tdpbf16ps tmm", $c, ", tmm", $a, ", tmm", $b), options(nostack, nomem))
    };
}

/// `tilezero tmmN`.
macro_rules! zero {
    ($t:literal) => {
        asm!(concat!("tilezero tmm", $t), options(nostack, nomem))
    };
}

/// Accumulator tiles stored for the epilogue: four of 16 rows x 16 lanes.
#[repr(C, align(64))]
struct Scratch([f32; 4 * TILE_ROWS * TILE_ROWS]);

/// Whether [`run`] takes `t`'s output `rows` as one sequence of positions: more than
/// one row, evenly spaced in the input and the output, starting from zero, a
/// per-channel bias (if any), and no more input tiles than row by row.
pub fn spans_rows(t: &DotTile, rows: OutRows) -> bool {
    if rows.count <= 1 || t.accumulate || t.epilogue.bias_row != 0 || t.rows <= 0 || t.x_row <= 0 || t.o_row <= 0 {
        return false;
    }
    if rows.x % t.x_row != 0 || rows.o % t.o_row != 0 || rows.x / t.x_row < t.rows {
        return false;
    }
    let positions = (rows.count - 1) * (rows.x / t.x_row) + t.rows;
    let tiles = |n: i64| (n + TILE_ROWS as i64 - 1) / TILE_ROWS as i64;
    positions >= super::AMX_ROWS && tiles(positions) <= rows.count * tiles(t.rows)
}

/// Positions of a call and where each is stored: position `p` is column `p % period`
/// of output row `p / period`, stored when the column is one of the tile's `rows`, as
/// output row index `row * per_row + column` (in `o_row`s).
#[derive(Copy, Clone)]
struct Positions {
    count: usize,
    period: usize,
    rows: usize,
    per_row: isize,
}

impl Positions {
    fn of(t: &DotTile, rows: OutRows) -> Positions {
        let r = t.rows.max(0) as usize;
        if rows.count <= 1 {
            return Positions { count: r * rows.count.max(0) as usize, period: r.max(1), rows: r, per_row: 0 };
        }
        let period = (rows.x / t.x_row) as usize;
        let count = (rows.count as usize - 1) * period + r;
        Positions { count, period, rows: r, per_row: (rows.o / t.o_row) as isize }
    }
}

/// Runs `t` on AMX tiles, over output `rows`: [`OutRows::ONE`], or rows that
/// [`spans_rows`] accepts.
///
/// # Safety
/// [`available`] is true; as [`super::run_dot`] otherwise, for every output row.
#[target_feature(enable = "avx512f,avx512bf16,avx512dq")]
pub unsafe fn run(t: &DotTile, rows: OutRows) {
    let positions = Positions::of(t, rows);
    let (rows, vectors) = (positions.count, t.vectors.max(0) as usize);
    if rows == 0 || vectors == 0 {
        return;
    }
    let kc = super::amx_chunk(t.pairs) as usize;
    let mut configured = None;
    let mut scratch = Scratch([0.0; 4 * TILE_ROWS * TILE_ROWS]);
    // Whole tiles of 16 rows, two at a time, the last one with the rows left (one
    // `tdpbf16ps` takes about as long on 4 rows as on 16: 14.4 against 16.2 ns, Xeon).
    let mut r0 = 0;
    while r0 < rows {
        let m0 = (rows - r0).min(TILE_ROWS);
        let m1 = (rows - r0 - m0).min(TILE_ROWS);
        let n = m0 + m1;
        if configured != Some((m0, m1)) {
            // SAFETY: this process has tile state.
            unsafe { Config::new(m0, m1, kc).load() };
            configured = Some((m0, m1));
        }
        if m1 > 0 {
            for v in (0..vectors).step_by(2) {
                // SAFETY: the caller's contract; the sub-tile stays inside the tile.
                unsafe { sub_tile(t, &positions, r0, (m0, m1), v, v + 1 < vectors, kc, &mut scratch) };
            }
        } else {
            for v in (0..vectors).step_by(4) {
                // SAFETY: as above.
                unsafe { wide_sub_tile(t, &positions, r0, m0, v, (vectors - v).min(4), kc, &mut scratch) };
            }
        }
        r0 += n;
    }
    // (The tiles stay configured for the thread's next call: see [`Config::load`].)
}

/// Positions `r0..r0 + m0 + m1` x vector `v` (and `v + 1` with `two`) over the whole
/// reduction in chunks of `kc` pairs, then the epilogue.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512bf16,avx512dq")]
unsafe fn sub_tile(
    t: &DotTile,
    positions: &Positions,
    r0: usize,
    (m0, m1): (usize, usize),
    v: usize,
    two: bool,
    kc: usize,
    scratch: &mut Scratch,
) {
    let offsets = [t.vector_offsets(v as isize), t.vector_offsets(v as isize + usize::from(two) as isize)];
    let (x_row, o_row, w_step) = (t.x_row as isize, t.o_row as isize, t.w_step as isize);
    let (x_stride, w_stride, o_stride) = (2 * x_row, 2 * w_step, 4 * o_row);
    let (r0, m0i) = (r0 as isize, m0 as isize);
    // SAFETY: the tile's addresses are valid (the caller's contract); the tiles
    // configured by `run` have these rows.
    unsafe {
        if t.accumulate {
            let o = t.o.offset(r0 * o_row);
            let o1 = o.offset(m0i * o_row);
            load!(0, o.offset(offsets[0].1), o_stride);
            if two {
                load!(1, o.offset(offsets[1].1), o_stride);
            }
            if m1 > 0 {
                load!(2, o1.offset(offsets[0].1), o_stride);
                if two {
                    load!(3, o1.offset(offsets[1].1), o_stride);
                }
            }
        } else {
            zero!(0);
            zero!(1);
            if m1 > 0 {
                zero!(2);
                zero!(3);
            }
        }
        let x0 = t.x.offset(r0 * x_row);
        let x1 = x0.offset(m0i * x_row);
        for (xl, wl) in super::level_offsets(&t.levels) {
            let (w0, w1) = (t.w.offset(offsets[0].0 + wl), t.w.offset(offsets[1].0 + wl));
            for j in (0..t.pairs as isize).step_by(kc) {
                load!(4, x0.offset(xl + 2 * j), x_stride);
                load!(6, w0.offset(j * w_step), w_stride);
                dot!(0, 4, 6);
                if two {
                    load!(7, w1.offset(j * w_step), w_stride);
                    dot!(1, 4, 7);
                }
                if m1 > 0 {
                    load!(5, x1.offset(xl + 2 * j), x_stride);
                    dot!(2, 5, 6);
                    if two {
                        dot!(3, 5, 7);
                    }
                }
            }
        }
        let block = TILE_ROWS * TILE_ROWS;
        let s = scratch.0.as_mut_ptr();
        store!(0, s, 64isize);
        if two {
            store!(1, s.add(block), 64isize);
        }
        if m1 > 0 {
            store!(2, s.add(2 * block), 64isize);
            if two {
                store!(3, s.add(3 * block), 64isize);
            }
        }
        let tile_of = |r: usize, c: usize| if r < m0 { (c, r) } else { (2 + c, r - m0) };
        finish(t, positions, r0 as usize, m0 + m1, &offsets[..1 + usize::from(two)], s, tile_of);
    }
}

/// Positions `r0..r0 + m` (at most 16) x vectors `v..v + n` (`n` up to 4), one input
/// tile with `n` weight tiles per step, over the whole reduction in chunks of `kc`
/// pairs, then the epilogue.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512bf16,avx512dq")]
unsafe fn wide_sub_tile(
    t: &DotTile,
    positions: &Positions,
    r0: usize,
    m: usize,
    v: usize,
    n: usize,
    kc: usize,
    scratch: &mut Scratch,
) {
    let offsets: [(isize, isize, isize); 4] = std::array::from_fn(|c| t.vector_offsets((v + c.min(n - 1)) as isize));
    let (x_row, o_row, w_step) = (t.x_row as isize, t.o_row as isize, t.w_step as isize);
    let (x_stride, w_stride, o_stride) = (2 * x_row, 2 * w_step, 4 * o_row);
    let r0 = r0 as isize;
    // SAFETY: the tile's addresses are valid (the caller's contract); the tiles
    // configured by `run` have these rows.
    unsafe {
        if t.accumulate {
            let o = t.o.offset(r0 * o_row);
            load!(0, o.offset(offsets[0].1), o_stride);
            load!(1, o.offset(offsets[1].1), o_stride);
            load!(2, o.offset(offsets[2].1), o_stride);
            load!(3, o.offset(offsets[3].1), o_stride);
        } else {
            zero!(0);
            zero!(1);
            zero!(2);
            zero!(3);
        }
        let x0 = t.x.offset(r0 * x_row);
        for (xl, wl) in super::level_offsets(&t.levels) {
            let w: [*const u16; 4] = std::array::from_fn(|c| t.w.offset(offsets[c].0 + wl));
            for j in (0..t.pairs as isize).step_by(kc) {
                // (Weights in three registers in turn: a load waits for the last
                // product that read its register.)
                load!(4, x0.offset(xl + 2 * j), x_stride);
                load!(6, w[0].offset(j * w_step), w_stride);
                dot!(0, 4, 6);
                if n > 1 {
                    load!(7, w[1].offset(j * w_step), w_stride);
                    dot!(1, 4, 7);
                }
                if n > 2 {
                    load!(5, w[2].offset(j * w_step), w_stride);
                    dot!(2, 4, 5);
                }
                if n > 3 {
                    load!(6, w[3].offset(j * w_step), w_stride);
                    dot!(3, 4, 6);
                }
            }
        }
        let block = TILE_ROWS * TILE_ROWS;
        let s = scratch.0.as_mut_ptr();
        store!(0, s, 64isize);
        store!(1, s.add(block), 64isize);
        store!(2, s.add(2 * block), 64isize);
        store!(3, s.add(3 * block), 64isize);
        finish(t, positions, r0 as usize, m, &offsets[..n], s, |r, c| (c, r));
    }
}

/// The epilogue of `rows` positions from `r0` x the vectors `offsets` lists (of the
/// stored positions), their sums in the scratch tiles: position `r0 + r`, vector `c` in
/// row `.1` of tile `.0` of `tile_of(r, c)`. A plain epilogue runs without testing its
/// steps' conditions for each vector ([`super::x86::finish_plain`]).
#[target_feature(enable = "avx512f,avx512bf16,avx512dq")]
unsafe fn finish(
    t: &DotTile,
    positions: &Positions,
    r0: usize,
    rows: usize,
    offsets: &[(isize, isize, isize)],
    s: *const f32,
    tile_of: impl Fn(usize, usize) -> (usize, usize),
) {
    use super::x86::{BF16_RESIDUAL, F32_RESIDUAL, NO_RESIDUAL};
    let at = (positions, r0, rows, offsets, s);
    let residual = match (t.epilogue.residual.is_null(), t.bf16_residual) {
        (true, _) => NO_RESIDUAL,
        (false, false) => F32_RESIDUAL,
        (false, true) => BF16_RESIDUAL,
    };
    // SAFETY: the caller's.
    unsafe {
        match (super::x86::is_plain(t), residual, t.narrow) {
            (false, _, _) => finish_rows::<false, NO_RESIDUAL, false>(t, at, tile_of),
            (true, NO_RESIDUAL, false) => finish_rows::<true, NO_RESIDUAL, false>(t, at, tile_of),
            (true, NO_RESIDUAL, true) => finish_rows::<true, NO_RESIDUAL, true>(t, at, tile_of),
            (true, F32_RESIDUAL, false) => finish_rows::<true, F32_RESIDUAL, false>(t, at, tile_of),
            (true, F32_RESIDUAL, true) => finish_rows::<true, F32_RESIDUAL, true>(t, at, tile_of),
            (true, _, false) => finish_rows::<true, BF16_RESIDUAL, false>(t, at, tile_of),
            (true, _, true) => finish_rows::<true, BF16_RESIDUAL, true>(t, at, tile_of),
        }
    }
}

/// [`finish`], plain (`PLAIN`, with `RESIDUAL` and `NARROW`) or not.
#[target_feature(enable = "avx512f,avx512bf16,avx512dq")]
unsafe fn finish_rows<const PLAIN: bool, const RESIDUAL: u8, const NARROW: bool>(
    t: &DotTile,
    (positions, r0, rows, offsets, s): (&Positions, usize, usize, &[(isize, isize, isize)], *const f32),
    tile_of: impl Fn(usize, usize) -> (usize, usize),
) {
    let o_row = t.o_row as isize;
    // SAFETY: the scratch holds four tiles; the output rows and channels are the tile's.
    unsafe {
        let mut channels: [[__m512; 2]; 4] = [[std::arch::x86_64::_mm512_setzero_ps(); 2]; 4];
        for (c, offset) in offsets.iter().enumerate() {
            channels[c] = super::x86::per_channel(t, offset.2);
            if PLAIN && t.epilogue.bias.is_null() {
                // (-0: adding it changes nothing, not even the sign of a zero.)
                channels[c][0] = std::arch::x86_64::_mm512_set1_ps(-0.0);
            }
        }
        let e = &t.epilogue;
        let lo = std::arch::x86_64::_mm512_set1_ps(e.lo);
        let hi = (e.hi < f32::INFINITY).then(|| std::arch::x86_64::_mm512_set1_ps(e.hi));
        // Position `r0 + r` is column `column` of row `row` (no division per position).
        let (mut row, mut column) = (r0 / positions.period, r0 % positions.period);
        for r in 0..rows {
            if column < positions.rows {
                let at = row as isize * positions.per_row + column as isize;
                for (c, offset) in offsets.iter().enumerate() {
                    let (tile, tile_row) = tile_of(r, c);
                    let sum = std::arch::x86_64::_mm512_load_ps(s.add((tile * TILE_ROWS + tile_row) * TILE_ROWS));
                    let out = at * o_row + offset.1;
                    if PLAIN {
                        let (bias, bounds) = (channels[c][0], (lo, hi));
                        super::x86::finish_plain::<RESIDUAL, NARROW>(t, sum, at, offset.1, bias, bounds, t.o, out);
                    } else {
                        super::x86::finish_vector(t, sum, at, offset.1, channels[c], t.o, out);
                    }
                }
            }
            column += 1;
            if column == positions.period {
                (row, column) = (row + 1, 0);
            }
        }
    }
}

/// `tdpbf16ps` instructions per step of [`chains`]: one per accumulator tile.
pub const CHAIN_TILES: usize = 4;

/// FLOPs of one `tdpbf16ps` on whole tiles: 16 x 16 accumulators, 16 pairs each.
pub const TILE_FLOPS: f64 = (TILE_ROWS * TILE_ROWS * 16 * 4) as f64;

/// Runs `steps` iterations of [`CHAIN_TILES`] `tdpbf16ps` on whole tiles, four
/// accumulators from the same input and weight tiles (the AMX ceiling, with no loads:
/// [`crate::peak::amx_chains`]), and returns a sum of one accumulator's elements.
///
/// # Safety
/// [`available`] is true.
pub unsafe fn chains(steps: i64) -> f32 {
    let config = Config::new(TILE_ROWS, TILE_ROWS, 16);
    // Small bf16 values (2^-7): the sums grow slowly.
    let ones = [0x3c00u16; TILE_ROWS * 32];
    let mut sums = Scratch([0.0; 4 * TILE_ROWS * TILE_ROWS]);
    // SAFETY: a valid configuration; this process has tile state (the caller's
    // contract); the loads read `ones`, the store writes one tile of `sums`.
    unsafe {
        asm!("ldtilecfg [{}]", in(reg) &config, options(nostack, readonly));
        zero!(0);
        zero!(1);
        zero!(2);
        zero!(3);
        load!(4, ones.as_ptr(), 64isize);
        load!(5, ones.as_ptr(), 64isize);
        load!(6, ones.as_ptr(), 64isize);
        load!(7, ones.as_ptr(), 64isize);
        for _ in 0..steps {
            dot!(0, 4, 6);
            dot!(1, 4, 7);
            dot!(2, 5, 6);
            dot!(3, 5, 7);
        }
        store!(0, sums.0.as_mut_ptr(), 64isize);
        asm!("tilerelease", options(nostack, nomem));
    }
    sums.0[..TILE_ROWS * TILE_ROWS].iter().sum()
}
