//! The analytic default kernel configuration of a kernel op, derived from the target
//! description: what `configure-kernels` gives kernels the I/O bound does not rank, and
//! where the candidates the bound ranks and the tuner measures start from.
//!
//! A register tile of `R` columns x `C` vectors of output channels needs `R * C`
//! accumulators, `C` filter vectors and one broadcast register; it should fill the
//! vector register file (16 xmm for Cranelift, 32 zmm with AVX-512) without spilling.
//! For each block count `C` the tile takes the widest `R` that fits (or the whole row);
//! among them the choice maximizes an estimate of FMA throughput: the share of a step's
//! instructions that are FMAs (`R * C` FMAs against `R` broadcasts and `C` filter loads,
//! weighted by how much a load costs next to an FMA on the target), times how often each
//! filter vector is reused (`R / (R + 1)`: narrow tiles re-read the filters from L2),
//! times (the square root of) the share of the row in whole tiles; for a pointwise conv
//! whose filters fit in L2, also how many times the input is read (once per group of
//! channel blocks).
//!
//! Tasks keep the larger operand in cache: a channel group's tasks run one after
//! another when the filters are larger, the tasks over the same columns (whose input
//! fits in half of L2) when the input is.
//!
//! Filters and packed weights that do not fit L2 stream from L3 or memory: the kernel
//! then prefetches the next channel group's (or column block's) into L2 while the
//! current one runs, and a convolution with few output rows runs in input-channel
//! passes so that each pass's filters are read once for all rows.

use tcc_dialect_graph::GraphOp;
use tcc_dialect_graph::config::{
    ConvClass, ConvConfig, ConvGeometry, ConvTemplate, KernelConfig, MatmulConfig, PoolConfig,
};
use tcc_dialect_graph::ops as g;
use tcc_ir::{Module, Op};
use tcc_target::Target;

/// The analytic default configuration of kernel op `op`, or `None` if it is not one.
pub fn default_config(m: &Module, op: Op, codegen: &Target) -> Option<KernelConfig> {
    let shape = |i: usize| crate::shape(m, m.operand(op, i));
    let out = crate::shape(m, *m.results(op).first()?);
    // Matmul tiles are planned for the vectors and registers of the code that runs
    // them: the microkernels' when the target calls them.
    let target = &codegen.kernel_target();
    let lanes = target.f32_lanes();
    match tcc_dialect_graph::kind_of(m, op)? {
        GraphOp::Conv2dNchwc => conv_config(m, op, codegen).map(KernelConfig::Conv),
        GraphOp::Pool2dNchwc(_) => {
            // Generated code at the backend's own width: a block of the microkernels'
            // width is several of its vectors, and the tile's accumulators must fit.
            let vectors = (shape(0)[4] / codegen.f32_lanes()).max(1);
            let most = ((codegen.vector_registers as i64 - 2) / vectors).clamp(1, 8);
            Some(KernelConfig::Pool(PoolConfig { tile_w: Some(out[3].clamp(1, most)) }))
        }
        GraphOp::BatchMatmul => {
            let (rows, n) = (out[out.len() - 2], out[out.len() - 1]);
            let vectors = matmul_block(target, rows, n) / lanes;
            let (r, _) = register_tile(target, rows, 1, vectors, TileReads::default());
            Some(KernelConfig::Matmul(MatmulConfig { tile_m: Some(r), tile_n: Some(vectors), ..Default::default() }))
        }
        GraphOp::MatmulPacked => {
            let rows: i64 = out[..out.len() - 1].iter().product();
            let packed = shape(1);
            let nb = packed[2];
            if packed.len() == 4 {
                // bf16 pairs: the bf16 dot microkernel's tiles (AVX-512's 32 registers
                // holding the sums, a step's weight vectors and, as rustc's LLVM
                // schedules it, every row's broadcast: `dot::max_rows`).
                // On AMX tiles: two tiles of 16 rows.
                let vectors = (nb / tcc_target::BF16_DOT_LANES).clamp(1, 4);
                let most = if codegen.amx_bf16 { 32 } else { (32 - vectors) / (vectors + 1) };
                let r = most.min(rows.max(1));
                return Some(KernelConfig::Matmul(MatmulConfig {
                    tile_m: Some(r),
                    tile_n: Some(vectors),
                    ..Default::default()
                }));
            }
            let (r, _) = register_tile(target, rows, 1, (nb / lanes).max(1), TileReads::default());
            // Weights larger than L2 (BERT's 9 MB feed-forward ones) come from L3 or memory
            // block by block: fetch the next column block's while this one runs, when the
            // two blocks together take at most half of L2 (else the prefetch evicts the
            // current block: BERT's second feed-forward matmul, 786 KB per block, slowed
            // from 84% to 74% of peak).
            let weight_bytes = packed.iter().product::<i64>() * 4;
            let block_bytes = packed[1] * packed[2] * 4;
            let prefetch = weight_bytes > target.l2_bytes as i64 && 4 * block_bytes <= target.l2_bytes as i64;
            Some(KernelConfig::Matmul(MatmulConfig {
                tile_m: Some(r),
                tile_n: Some((nb / lanes).max(1)),
                prefetch: prefetch.then_some(true),
                ..Default::default()
            }))
        }
        _ => None,
    }
}

/// The default configuration of blocked convolution `op`: its tiles are planned for the
/// microkernels when the target calls them.
fn conv_config(m: &Module, op: Op, codegen: &Target) -> Option<ConvConfig> {
    let shape = |i: usize| crate::shape(m, m.operand(op, i));
    let out = crate::shape(m, *m.results(op).first()?);
    let target = &codegen.kernel_target();
    let lanes = target.f32_lanes();
    let (x, w) = (shape(0), shape(1));
    // A bf16 pair filter (`[.., i/2, o, 2]`) as the packed blocks it holds, of 2-byte
    // elements.
    let (w, elem_bytes) = match w[..] {
        [o, i, kh, kw, pairs, ob, 2] => (vec![o, i, kh, kw, 2 * pairs, ob], 2),
        _ => (w, 4),
    };
    let geometry = ConvGeometry::of(m, op)?;
    let groups = geometry.groups;
    let vectors = (w[5] / lanes).max(1);
    let class = geometry.class();
    let pointwise = class == ConvClass::Pointwise;
    if w[5] == 1 && lanes > 1 {
        // Blocks of one output channel: `block-layouts` left the convolution to the row
        // template (groups that fill no block, channel multipliers), which tiles itself.
        return Some(ConvConfig { template: Some(ConvTemplate::Rows), ..Default::default() });
    }
    let config = if matches!(class, ConvClass::Depthwise | ConvClass::Multiplier) && x[4] == w[5] {
        let cols = out[3];
        // Microkernels compute the depthwise tiles too when the target calls them.
        let vectors = (w[5] / target.f32_lanes()).max(1);
        let r = (target.vector_registers as i64 - vectors - 2).max(1) / vectors;
        // A multiplier's tile holds a vector per multiple of each column, and the
        // interleaving needs registers of its own: about 12 accumulators in all were
        // fastest (Zen 5, AVX-512, 28x28 and 56x56 maps: multiplier 2 at 4-7 columns
        // 68-75% of peak, 8 at 52-64%; 4 at 3-5 columns 47-66%, 6 at 44-50%).
        let multiples = geometry.multiplier();
        let r = if multiples > 1 { (r / multiples).min(12 / multiples).max(2) } else { r.min(8) };
        ConvConfig { template: Some(ConvTemplate::Depthwise), tile_w: Some(r.min(cols)), ..Default::default() }
    } else {
        let cols = if pointwise { out[2] * out[3] } else { out[3] };
        // A pointwise conv reads each input element once per output-channel group:
        // when its filters fit in L2 (so wider groups cost no filter traffic), the
        // input passes count against narrow groups.
        let filter_bytes = w.iter().product::<i64>() * elem_bytes;
        let input_passes = pointwise && filter_bytes <= target.l2_bytes as i64;
        let [kw, sw, dw] = [geometry.kernel[1], geometry.strides[1], geometry.dilations[1]];
        let shared_broadcasts = x[4] == 1 && sw < (kw - 1) * dw + 1;
        let (r, c) = register_tile(
            target,
            cols,
            out[1] / groups,
            vectors,
            TileReads { input_passes, shared_broadcasts, partial_tiles: true },
        );
        // On AMX tiles (bf16 pairs of 16 or more input channels per block): calls of up
        // to 32 columns (two tiles of 16 rows) and two blocks (a 32-channel block is
        // two vectors), so that each weight tile loaded serves two input tiles and each
        // input tile two weight tiles.
        let amx = codegen.amx_bf16 && elem_bytes == 2 && x[4] >= 16;
        let (r, c) = if amx { (cols.min(32), (out[1] / groups).min(if vectors > 1 { 2 } else { 4 })) } else { (r, c) };
        // The share of the filters a row reads: taps on padding read none (the atrous
        // convolutions of DeepLabV3).
        let image_share = tcc_dialect_graph::cost::image_taps(m, op)
            .map_or(1.0, |(image, all)| if all == 0 { 1.0 } else { image as f64 / all as f64 });
        let row_bytes = geometry.kernel[0] * x[3] * x[4] * elem_bytes;
        let chunk_ic = if pointwise {
            None
        } else {
            input_channel_passes(target, &w, elem_bytes, &out, c, row_bytes, image_share)
        };
        ConvConfig {
            template: Some(if pointwise { ConvTemplate::Pointwise } else { ConvTemplate::Direct }),
            tile_w: Some(r),
            tile_oc: Some(c),
            chunk_ic,
            // A microkernel call covers one run of columns with the same kernel taps: a
            // padded row's edge columns split it into a call per kernel column, each
            // reading every third slice of the filters. Streamed filters (the passes'
            // case) then came from memory at 64% of peak where one call per row, on an
            // explicitly padded input, reads them as one stream the hardware prefetches:
            // ResNet-18's 512-channel 3x3 convs at 7x7 1.28 -> 1.05-1.10 ms, the pad
            // 0.014 ms (Zen 5). A stem's edge tiles split into a call per kernel column
            // too (7 for ResNet's): its 1.19 ms -> 1.00 ms, the pad 0.034 ms. Now for
            // every undilated padded direct convolution on microkernels: where the
            // filters stay in cache the copy cost about what the calls saved until the
            // plain epilogues made the calls cheaper; then SqueezeNet 1.0 7.88 -> 7.45
            // ms, GoogLeNet 13.58 -> 13.24, ResNet-18 16.05 -> 15.87 (Cranelift, one
            // thread, Zen 5; `tcc tune` had picked the pad for four of ResNet-18's nine
            // direct convolutions, 1.04-1.14x each). No longer for f32 convolutions
            // without passes: their edge columns are now one call down the rows
            // (`edges_over_rows` in the lowering), which reads each filter slice once and
            // computes no tap on padding. Against the padded inputs (Cranelift, Intel
            // Xeon, interleaved in one process): ResNet-18 0.984x on one thread and
            // 0.953x on two, SqueezeNet 0.991x and 0.979x, GoogLeNet 1.000x and 0.966x,
            // ResNet-50 0.993x and 1.001x, VGG-11 0.994x (one thread).
            // A bf16 stem (its colours in two pairs, always on the dot tile) likewise:
            // ResNet-50's 0.92 -> 0.67 ms (Zen 5; the f32 stem 0.94).
            // Passes over many rows likewise, whatever the backend: FCN's 3x3 head
            // convolution (2048 -> 512 channels at 28x28) in passes of 4 blocks, 81% ->
            // 85-88% of peak with LLVM (Zen 5). Not LLVM's passes over few rows
            // (ResNet's 512-channel 3x3 convs at 7x7: 100% -> 88%).
            // Nor atrous convolutions, whose taps on padding a padded input computes:
            // DeepLabV3's with dilation 12 and 36 took 2.4 and 40 times as long.
            pad_input: (((chunk_ic.is_some()
                && if out[2] <= 8 { target.ukernels.is_some() } else { geometry.dilations == [1, 1] })
                || (target.ukernels.is_some() && (x[4] == 1 || (elem_bytes == 2 && geometry.dilations == [1, 1])))
                || (elem_bytes == 2 && x[4] < lanes)
                || (amx && geometry.dilations == [1, 1]))
                && geometry.pads.iter().any(|&p| p > 0))
            .then_some(true),
            task_w: task_columns(target, &x, &w, cols, r, pointwise),
            // A stem's reduction steps are its kernel row's taps: one loop iteration
            // for the whole row. Cranelift moves every accumulator back to its
            // register at each iteration's end (the FMA's result takes the broadcast's
            // register), 13 moves per 14 FMAs at one tap per iteration: VGG's stem 64%
            // -> 74-77% of the 128-bit peak, ResNet's 7x7 75% -> 83% (Zen 5); LLVM
            // unrolls either way (unchanged). Not for ViT's patches (16 taps that no
            // neighbour shares): 89% -> 38% on both backends.
            unroll_ic: shared_broadcasts.then_some(kw.min(16)),
            // The caller's tensor (seen through reshapes, which are views) was last
            // touched before the run and is read a few rows apart: a stride-2 stem
            // conv on 3 channels ran at half speed on it until its rows were
            // prefetched.
            // (Only where the backend emits prefetches: Cranelift drops them and paid
            // 5-8 points of the peak for their addresses on the stems, Zen 5.)
            prefetch_input: (codegen.prefetch && !pointwise && from_caller(m, m.operand(op, 0))).then_some(true),
            // Filters larger than L2 come from L3 or memory at the start of each
            // channel group: fetch the next group's while this one runs.
            prefetch: (target.prefetch && filter_bytes > target.l2_bytes as i64).then_some(true),
            ..Default::default()
        }
    };
    Some(config)
}

/// Whether `v` is a function argument, or a reshape of one (a view of the caller's
/// tensor).
fn from_caller(m: &Module, v: tcc_ir::Value) -> bool {
    match m.defining_op(v) {
        None => true,
        Some(d) => m.is(d, &g::RESHAPE) && from_caller(m, m.operand(d, 0)),
    }
}

/// Input-channel blocks per pass for a convolution whose filters do not stay in cache:
/// in passes, each pass's share of the filters of one task's output-channel group
/// (`tile_oc` blocks of the blocked filter `w`) is read once and serves all rows of the
/// group. `None`: one pass. (`w` is the packed filter's shape, `elem_bytes` its
/// elements' size, `row_bytes` the input an output row reads per input-channel block,
/// its kernel's rows, and `image_share` the share of the kernel's taps that read the
/// image rather than padding.)
///
/// - Few output rows (at most 8), the group's filters over half of L2: each row's task
///   would start with a burst of filter reads from L3 or memory that its little compute
///   cannot hide (measured: ResNet-50's 512-channel 3x3 convs at 7x7 gain 10 points of
///   peak; VGG-11's at 14x14, 14 rows, gain nothing). A pass's share is a third of L1
///   (a quarter of L2 with microkernels).
/// - More rows, the filters a row of the group reads (those of the taps on the image)
///   over all of L2: every row would stream them from L3. A pass is as many blocks as
///   keep one row's input rows in half of L1: FCN's 3x3 head convolution, 2048 -> 512
///   channels at 28x28 (2.4 MB of filters per group of two blocks), ran at 68% of peak in
///   one pass, 81% in passes of 4 blocks, 74% of 8 and 62% of 32; DeepLabV3's atrous
///   one with dilation 12 (half its taps on the image) 20.7-22.7 ms in one pass,
///   18.4-19.4 in passes of 4; with dilation 36 (one tap in nine) 3.43-3.69 ms in one,
///   3.66-4.13 in passes (LLVM, Zen 5, alternating).
fn input_channel_passes(
    target: &Target,
    w: &[i64],
    elem_bytes: i64,
    out: &[i64],
    tile_oc: i64,
    row_bytes: i64,
    image_share: f64,
) -> Option<i64> {
    let per_block = tile_oc * w[2] * w[3] * w[4] * w[5] * elem_bytes;
    let group_bytes = per_block * w[1];
    let chunk = if out[2] <= 8 {
        // A microkernel call covers a pass's whole reduction: passes of a third of L1 made
        // each call a few hundred FMAs and the calls' overhead a quarter of the time
        // (ResNet-18's 512-channel 3x3 convs at 7x7, Zen 5: 1.13 ms, against 1.07 ms with
        // a quarter of L2, which keeps a pass's filters in cache for all rows with calls 14
        // times longer).
        let share = if target.ukernels.is_some() { target.l2_bytes / 4 } else { target.l1_bytes / 3 };
        (group_bytes > target.l2_bytes as i64 / 2).then_some(share as i64 / per_block)?
    } else {
        let read = group_bytes as f64 * image_share;
        (read > target.l2_bytes as f64).then_some(target.l1_bytes as i64 / 2 / row_bytes.max(1))?
    };
    let chunk = chunk.max(1);
    (chunk < w[1]).then_some(chunk)
}

/// Output columns per task when the input is the larger operand: the tasks over the
/// same columns then run one after another for every channel group, and the input
/// they read stays in cache (the filters, smaller, cycle through it). A pointwise
/// conv's row (all its pixels) is cut into chunks whose input fits in half of L2; a
/// direct conv's task is a whole row (its input rows are small). `None`: the filters
/// are the larger operand, a channel group's tasks run one after another instead.
/// Measured (ResNet-50, Cranelift): the 1x1 convs at 56x56 went from 72-75% of peak
/// to 81-83%; VGG-11's 3x3 convs at 56x56 and 112x112 (LLVM) from 76-79% to 87%.
fn task_columns(target: &Target, x: &[i64], w: &[i64], cols: i64, tile_w: i64, pointwise: bool) -> Option<i64> {
    let numel = |s: &[i64]| s.iter().product::<i64>();
    if numel(x) <= numel(w) {
        return None;
    }
    if !pointwise {
        return Some(cols);
    }
    let column_bytes = x[1] * x[4] * 4;
    let fit = (target.l2_bytes as i64 / 2 / column_bytes) / tile_w * tile_w;
    Some(fit.clamp(tile_w, cols.max(tile_w)))
}

/// How a register tile reads its input, beside the FMAs.
#[derive(Copy, Clone, Debug, Default)]
pub struct TileReads {
    /// The input is read once per group of `blocks`, with no reuse between passes (a
    /// pointwise conv), so more blocks per tile mean fewer passes.
    pub input_passes: bool,
    /// Neighbouring columns broadcast some of the same input elements: an input block of
    /// one channel (a stem) read by kernel columns that overlap between output columns.
    pub shared_broadcasts: bool,
    /// The template takes a partial last tile of blocks (the convolution templates,
    /// in every channel group; not a matmul's packed columns): the tile's block count
    /// need not divide the blocks.
    pub partial_tiles: bool,
}

/// The register tile `(columns, channel blocks)` for a row of `cols` output columns,
/// `blocks` output-channel blocks (the tile's block count divides it, unless `reads`
/// allows partial tiles and no count from 2 up does) of `vectors`
/// vectors each, reading its input as `reads` says.
pub fn register_tile(target: &Target, cols: i64, blocks: i64, vectors: i64, reads: TileReads) -> (i64, i64) {
    let regs = target.vector_registers as i64;
    // LLVM keeps the broadcasts that neighbouring columns share in registers instead of
    // folding them into the FMAs: with the accumulators filling the file, they spill
    // (VGG's 3x3 stem, 3 channels at 224x224, 14 x 2 tiles: 37% of peak on Zen 5; 8 x 2
    // and 4 x 4: 76-78%; EfficientNet's stride-2 stem 62% -> 81%, ResNet's 7x7 stem 78% ->
    // 91%). With 16 registers the broadcasts are registers anyway and narrower tiles only
    // lose (Cranelift, same stems: 8 columns instead of 14 cost 3-10 points).
    let max_accumulators = if reads.shared_broadcasts && regs >= 32 { regs / 2 } else { regs };
    // What a broadcast or filter load costs next to an FMA: with 32 registers (AVX-512)
    // broadcasts fold into the FMA's memory operand; with 16 they are separate
    // instructions and the FMA's tied operand adds a move.
    let load_cost = if regs >= 32 { 0.25 } else { 0.5 };
    // With 16 registers in Cranelift's code the broadcast is a register the FMA
    // overwrites (no memory operand): a broadcast shared by several blocks costs a copy
    // per extra block, so the tile takes one block and more columns. The microkernels'
    // FMAs keep their operands (AVX2's 6 x 2 tile alone in L1: 88 GFLOP/s, 13 x 1: 78,
    // Zen 3).
    let ukernels = target.ukernels.is_some();
    let max_blocks = if regs >= 32 || ukernels { 4 } else { 1 };
    // The microkernels' sub-tiles keep registers spare, Cranelift's code none.
    let spare = if ukernels { tcc_target::TILE_SPARE_REGISTERS as i64 } else { 0 };
    // Block counts that only 1 divides up to 4 (25: RegNet-X 400MF's 400 channels, 5:
    // 80 channels) take 5 blocks a tile too: one block a tile re-reads the input per
    // block (its 400 -> 400 pointwise convs at 7x7 80-81% of the peak in 30 x 1 tiles,
    // 86-90% in 5 x 5, Zen 5). Not 7 (3x3 stride-2 convs of 7 blocks a group: 70% in 28 x
    // 1 tiles, 55-58% in 3 x 7 and 2 x 7).
    let five = max_blocks == 4 && blocks % 5 == 0 && (2..=4).all(|c| blocks % c != 0);
    // The tile `(columns, score)` of `c` blocks.
    let tile = |c: i64| {
        let accs_per_col = c * vectors;
        // The widest tile that fits: accumulators, filter vectors and a broadcast fill
        // the register file (with Cranelift's FMA the result takes the broadcast's
        // register, so 14 accumulators fit in 16 xmm: ResNet-50's 3x3 convs went from
        // 80% of peak in 13-column tiles to 87% in 14, rows of 56, 28 and 14 dividing
        // evenly); the whole row when it is narrower; a slightly narrower tile when that
        // divides the row exactly.
        let fits = |r: i64| r * accs_per_col + accs_per_col + spare < regs && r * accs_per_col <= max_accumulators;
        let widest = (1..=32).rev().find(|&r| fits(r))?;
        // FMAs against the step's broadcasts and filter loads, how often each filter
        // vector is reused (narrow tiles re-read the filters from L2 too often), and the
        // share of the row in whole tiles.
        let score = |r: i64| {
            let fmas = (r * accs_per_col) as f64;
            let share = fmas / (fmas + load_cost * (r + accs_per_col) as f64);
            let reuse = r as f64 / (r + 1) as f64;
            let used = cols as f64 / (((cols + r - 1) / r) * r) as f64;
            // Each input element is read once per pass (ResNet-50's 256->64 1x1 conv at
            // 56x56: 75% of peak in 14 x 2 tiles, 88% in 4 x 4).
            let passes = if reads.input_passes { c as f64 / (c + 1) as f64 } else { 1.0 };
            share * reuse * passes * used.sqrt()
        };
        if cols <= widest {
            return Some((cols.max(1), score(cols.max(1))));
        }
        // A slightly narrower tile that divides the row exactly, else the widest; with
        // 16 registers (tiles of 6 columns for two blocks) only where it scores better:
        // 4 columns for 6 lose a third of the reuse for a tail of a few columns.
        let divides = (widest * 3 / 4..=widest).rev().find(|&r| cols % r == 0);
        if regs >= 32 {
            let r = divides.unwrap_or(widest);
            return Some((r, score(r)));
        }
        Some(
            divides
                .into_iter()
                .chain([widest])
                .map(|r| (r, score(r)))
                .fold((0, f64::MIN), |a, b| if b.1 > a.1 + 1e-9 { b } else { a }),
        )
    };
    // Block counts no tile of 2 or more divides (77: RegNet-Y 16GF's 1232 channels; 7
    // a group: its 112-channel groups) take tiles that do not divide them where the
    // template allows a partial last tile, scored by the blocks each tile covers (the
    // 1232 -> 1232 pointwise convs at 14x14: 74-76% of the peak in 28 x 1 tiles, 87-91%
    // in 14 x 2; the grouped 3x3 convs at 56x56, stride 1 and 2: 5.82 and 6.43 ms in
    // 28 x 1 tiles, 5.57 and 6.00 in 14 x 2, Zen 5).
    let partial = reads.partial_tiles && !five && (2..=max_blocks).all(|c| blocks % c != 0);
    let candidates = (1..=max_blocks).chain(five.then_some(5));
    let mut best = (1, 1, f64::MIN);
    for c in candidates.filter(|&c| blocks % c == 0 || (partial && c < blocks)) {
        let Some((r, mut score)) = tile(c) else { continue };
        let left = blocks % c;
        if left > 0 {
            let Some((_, tail)) = tile(left) else { continue };
            score = (score * (blocks - left) as f64 + tail * left as f64) / blocks as f64;
        }
        if score > best.2 + 1e-9 {
            best = (r, c, score);
        }
    }
    (best.0, best.1)
}

/// The packed column block (`tile_n` vectors) of a matmul with a constant right
/// operand of `n` columns and `rows` rows of the left one: what `block-layouts` packs.
pub fn matmul_block(target: &Target, rows: i64, n: i64) -> i64 {
    let target = &target.kernel_target();
    let lanes = target.f32_lanes();
    let max_vectors = ((n + lanes - 1) / lanes).clamp(1, 4);
    let mut best = (1, f64::MIN);
    for c in 1..=max_vectors {
        let (r, _) = register_tile(target, rows, 1, c, TileReads::default());
        let fmas = (r * c) as f64;
        let padded = ((n + c * lanes - 1) / (c * lanes) * c * lanes) as f64;
        let score = fmas / (fmas + 0.25 * (r + c) as f64) * n as f64 / padded;
        if score > best.1 {
            best = (c, score);
        }
    }
    best.0 * lanes
}

/// The column blocks a packed matmul of `n` columns may take on `target` (one to four
/// vectors, no wider than the columns need): the layouts the rewrite search tries for
/// the matmuls it creates.
pub fn matmul_block_choices(target: &Target, n: i64) -> Vec<i64> {
    let lanes = target.kernel_target().f32_lanes();
    let max_vectors = ((n + lanes - 1) / lanes).clamp(1, 4);
    (1..=max_vectors).map(|c| c * lanes).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tcc_ir::builtin::func_entry;

    fn target(bits: u32, regs: u32) -> Target {
        Target { vector_bits: bits, vector_registers: regs, ..Target::default() }
    }

    #[test]
    fn tiles_fill_the_register_file() {
        // AVX-512: 56 columns, 4 blocks -> 14 x 2 (28 accumulators of 32 registers).
        assert_eq!(register_tile(&target(512, 32), 56, 4, 1, TileReads::default()), (14, 2));
        // Cranelift's 16 xmm registers: one block, 14 accumulators beside the filter
        // vector and the broadcast.
        assert_eq!(register_tile(&target(128, 16), 56, 16, 1, TileReads::default()), (14, 1));
        // Narrow rows use what fits.
        let (r, _) = register_tile(&target(512, 32), 7, 32, 1, TileReads::default());
        assert_eq!(r, 7);
        // Block counts the tile cannot divide are not split.
        let (_, c) = register_tile(&target(512, 32), 56, 3, 1, TileReads::default());
        assert!(c == 1 || c == 3);
        // Unless the template takes a partial last tile and no tile of 2 or more
        // divides them (77 blocks), but not where one does (6 blocks).
        let partial = TileReads { partial_tiles: true, ..Default::default() };
        assert_eq!(register_tile(&target(512, 32), 196, 77, 1, TileReads::default()).1, 1);
        assert!(register_tile(&target(512, 32), 196, 77, 1, partial).1 > 1);
        for blocks in [4, 6, 8, 12] {
            let (_, c) = register_tile(&target(512, 32), 196, blocks, 1, partial);
            assert_eq!(blocks % c, 0, "{blocks} blocks, tiles of {c}");
        }
        // A pointwise conv's input passes favour more blocks per tile: 56 x 56 columns,
        // 4 blocks -> all 4 in one pass (4 columns, which divide the row) rather than 14 x 2.
        let passes = TileReads { input_passes: true, ..Default::default() };
        assert_eq!(register_tile(&target(512, 32), 56 * 56, 4, 1, passes), (4, 4));
        // AVX2's microkernels: 6 x 2 tiles (a spare register), not Cranelift's 14 x 1.
        let avx2 = Target { ukernels: Some(tcc_target::Isa::Avx2), ..target(256, 16) };
        assert_eq!(register_tile(&avx2, 56 * 56, 16, 1, passes), (6, 2));
        assert_eq!(register_tile(&avx2, 56, 8, 1, TileReads::default()), (6, 2));
        assert_eq!(register_tile(&target(512, 32), 56 * 56, 4, 1, TileReads::default()), (14, 2));
        // A stem's shared broadcasts leave half the file to the accumulators with 32
        // registers (224 columns, 4 blocks: 8 x 2 instead of 14 x 2); not with 16.
        let stem = TileReads { shared_broadcasts: true, ..Default::default() };
        let (r, c) = register_tile(&target(512, 32), 224, 4, 1, stem);
        assert!(r * c <= 16 && r * c >= 12, "{r} x {c}");
        assert_eq!(
            register_tile(&target(128, 16), 224, 4, 1, stem),
            register_tile(&target(128, 16), 224, 4, 1, TileReads::default())
        );
        assert_eq!(matmul_block(&target(512, 32), 128, 3072) % 16, 0);
        assert_eq!(matmul_block(&target(128, 16), 1, 10), 4 * (matmul_block(&target(128, 16), 1, 10) / 4));
    }

    #[test]
    fn amx_tiles_take_32_rows_and_padded_inputs() {
        // A bf16 3x3 convolution in AMX's 32-channel blocks (56 columns) and a bf16
        // packed matmul of 128 rows.
        let text = "func.func @main(%x: tensor<1x2x56x56x32xbf16>, %w: tensor<2x2x3x3x16x32x2xbf16>,\n\
                      %a: tensor<128x64xbf16>, %b: tensor<2x32x48x2xbf16>)\n\
                      -> (tensor<1x2x56x56x32xf32>, tensor<128x96xf32>) {\n\
                      %0 = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1]} : (tensor<1x2x56x56x32xbf16>, \
                      tensor<2x2x3x3x16x32x2xbf16>) -> tensor<1x2x56x56x32xf32>\n\
                      %1 = graph.matmul_packed %a, %b : (tensor<128x64xbf16>, tensor<2x32x48x2xbf16>) -> tensor<128x96xf32>\n\
                      return %0, %1 : tensor<1x2x56x56x32xf32>, tensor<128x96xf32>\n}";
        let m = tcc_ir::parse_bytes("t.mlir", text.as_bytes(), &tcc_dialect_graph::registry()).unwrap();
        let entry = func_entry(&m, m.func("main").unwrap()).unwrap();
        let ops: Vec<Op> = m.block_ops(entry).collect();
        let vector = Target { bf16_dot: true, ..target(512, 32) };
        let amx = Target { amx_bf16: true, ..vector };
        let Some(KernelConfig::Conv(conv)) = default_config(&m, ops[0], &amx) else { panic!() };
        assert_eq!((conv.tile_w, conv.tile_oc, conv.pad_input), (Some(32), Some(2), Some(true)));
        let Some(KernelConfig::Conv(conv)) = default_config(&m, ops[0], &vector) else { panic!() };
        assert!(conv.tile_w.unwrap() < 32);
        let Some(KernelConfig::Matmul(mm)) = default_config(&m, ops[1], &amx) else { panic!() };
        assert_eq!((mm.tile_m, mm.tile_n), (Some(32), Some(3)));
        let Some(KernelConfig::Matmul(mm)) = default_config(&m, ops[1], &vector) else { panic!() };
        assert_eq!(mm.tile_m, Some(7));
    }

    #[test]
    fn passes_for_filters_that_overflow_l2() {
        let t = target(512, 32); // L1 32 KiB, L2 1 MiB by default
        // (The input a row reads per block: not read by the rule for 8 rows or fewer.)
        const ROW: i64 = 3 * 16 * 16 * 4;
        // 512 channels, 3x3, two blocks of 16 per task: 590 KB of filters, 7 rows.
        assert_eq!(input_channel_passes(&t, &[32, 32, 3, 3, 16, 16], 4, &[1, 32, 7, 7, 16], 2, ROW, 1.0), Some(1));
        // The same at 14x14: enough rows to amortize the filter reads.
        assert_eq!(input_channel_passes(&t, &[32, 32, 3, 3, 16, 16], 4, &[1, 32, 14, 14, 16], 2, ROW, 1.0), None);
        // Filters that fit: 256 channels (295 KB per task).
        assert_eq!(input_channel_passes(&t, &[16, 16, 3, 3, 16, 16], 4, &[1, 16, 7, 7, 16], 2, ROW, 1.0), None);
        // In bf16, the 512-channel filters take 295 KB per task: they fit.
        assert_eq!(input_channel_passes(&t, &[32, 32, 3, 3, 16, 16], 2, &[1, 32, 7, 7, 16], 2, ROW, 1.0), None);
        // 1x1, 2048 -> 512: 256 KB per task.
        assert_eq!(input_channel_passes(&t, &[32, 128, 1, 1, 16, 16], 4, &[1, 32, 7, 7, 16], 2, ROW, 1.0), None);
        // FCN's head, 3x3, 2048 -> 512 at 28x28: 2.4 MB per task, passes whose 3 input rows
        // of 28 columns (5.25 KB a block) fit in half of L1.
        let fcn_row = 3 * 28 * 16 * 4;
        assert_eq!(
            input_channel_passes(&t, &[32, 128, 3, 3, 16, 16], 4, &[1, 32, 28, 28, 16], 2, fcn_row, 0.95),
            Some(3)
        );
        let big_l1 = Target { l1_bytes: 48 << 10, ..t };
        assert_eq!(
            input_channel_passes(&big_l1, &[32, 128, 3, 3, 16, 16], 4, &[1, 32, 28, 28, 16], 2, fcn_row, 0.95),
            Some(4)
        );
    }
}
