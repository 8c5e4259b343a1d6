//! MACO's I/O lower bound for a kernel configuration, the measure by which the tuner
//! prunes candidates ([`crate::candidates::candidates`]): what a register tile must move
//! per FMA, at the register file and at the level-1 cache.
//!
//! At the register file, a tile of `rows` broadcasts (or input vectors) by `cols`
//! filter (or weight) vectors does `rows x cols` vector FMAs per `rows + cols` vector
//! loads. At the level-1 cache, a tile over one pass of its reduction reads its slice
//! of the filters, its input window and writes (with passes: reads and writes) its
//! outputs; the filters stay in L1 across the tiles of a row only when the slice fits
//! in it beside the input windows and outputs streaming through, else every tile reads
//! them again from L2. A
//! tile too wide for L1 thus pays at the cache level what it saves at the registers:
//! ResNet-50's 256 -> 64 pointwise convolution at 56x56 ran 1.21x faster in 6 x 2
//! tiles, whose 32 KiB of filters stay in a 48 KiB L1, than in 4 x 4, whose 64 KiB do
//! not, where loads per FMA alone rank 4 x 4 first (Intel Xeon, LLVM). The bound is
//! the sum of both, in vector loads per vector FMA, a byte from L2 weighted by how much
//! slower L2 reads than L1 ([`L2_READ_COST`]).

use tcc_dialect_graph::config::{ConvClass, ConvConfig, ConvGeometry, ConvTemplate, KernelConfig};
use tcc_ir::{Module, Op};
use tcc_target::Target;

/// How many L1 vector loads a vector's worth of bytes read from L2 costs: L1 reads
/// about twice as fast as L2 (measured on an Intel Xeon, `roofline/run.sh`: 162-248
/// against 87-131 GB/s per core; Zen 4's L1 serves two 64-byte loads a cycle, its L2
/// 32 bytes to L1).
const L2_READ_COST: f64 = 2.0;

/// The I/O bound of configuration `c` of kernel op `op` on `target`, in vector loads
/// per vector FMA (lower is better), or `None` for kernels without FMAs (pools) and
/// the row template (which tiles itself).
pub fn loads_per_fma(m: &Module, op: Op, c: &KernelConfig, target: &Target) -> Option<f64> {
    let (rows, cols) = tile_shape(m, op, c, target)?;
    let (all_rows, all_cols) = tiled_extent(m, op, c, target)?;
    // A dimension of `n` in tiles of `t` has ceil(n / t) tiles, each loading its `t`
    // (the last its remainder) for FMAs with every vector of the other dimension: so
    // ceil(n / t) / n loads per FMA, 1 / t when `t` divides `n`.
    let per_fma = |t: i64, n: i64| ((n + t - 1) / t) as f64 / n as f64;
    let registers = per_fma(rows, all_rows) + per_fma(cols, all_cols);
    let cache = match c {
        KernelConfig::Conv(conv) => conv_l2_bytes_per_fma(m, op, conv, target).unwrap_or(0.0),
        _ => 0.0,
    };
    // Bytes per scalar FMA are vectors per vector FMA times four (f32 lanes).
    Some(registers + L2_READ_COST * cache / 4.0)
}

/// The register tile `(rows, columns)` of configuration `c` of `op`: per reduction
/// step, `rows` broadcasts (or input vectors) and `columns` filter (or weight) vectors
/// are loaded for `rows x columns` FMAs.
fn tile_shape(m: &Module, op: Op, c: &KernelConfig, target: &Target) -> Option<(i64, i64)> {
    match c {
        KernelConfig::Conv(conv) => {
            let geometry = ConvGeometry::of(m, op)?;
            let w = crate::shape(m, m.operand(op, 1));
            let vectors = (w.get(5)? / target.kernel_target().f32_lanes()).max(1);
            match conv.template {
                Some(ConvTemplate::Depthwise) => {
                    let multiples = if geometry.class() == ConvClass::Multiplier { geometry.multiplier() } else { 1 };
                    Some((conv.tile_w(), multiples * vectors))
                }
                Some(ConvTemplate::Direct | ConvTemplate::Pointwise) => Some((conv.tile_w(), conv.tile_oc() * vectors)),
                _ => None,
            }
        }
        KernelConfig::Matmul(mm) => Some((mm.tile_m(), mm.tile_n())),
        KernelConfig::Pool(_) => None,
    }
}

/// What configuration `c` of `op` tiles by [`tile_shape`]'s `(rows, columns)`: the
/// columns of an output row (of all rows for pointwise convolutions and matmuls) and
/// the output vectors of a channel group (a matmul's columns, in vectors).
fn tiled_extent(m: &Module, op: Op, c: &KernelConfig, target: &Target) -> Option<(i64, i64)> {
    let out = crate::shape(m, *m.results(op).first()?);
    let lanes = target.kernel_target().f32_lanes();
    match c {
        KernelConfig::Conv(conv) => {
            let geometry = ConvGeometry::of(m, op)?;
            let (_, vectors) = tile_shape(m, op, c, target)?;
            let cols = if conv.template == Some(ConvTemplate::Pointwise) { out[2] * out[3] } else { out[3] };
            let blocks = match conv.template {
                // One tile spans the channels a depthwise step makes.
                Some(ConvTemplate::Depthwise) => return Some((cols, vectors)),
                _ => out[1] / geometry.groups.max(1),
            };
            let per_block = vectors / conv.tile_oc().max(1);
            Some((cols, (blocks * per_block).max(1)))
        }
        KernelConfig::Matmul(_) => {
            let [.., rows, cols] = out[..] else { return None };
            Some((rows.max(1), ((cols + lanes - 1) / lanes).max(1)))
        }
        KernelConfig::Pool(_) => None,
    }
}

/// Bytes a direct or pointwise convolution's tile reads from L2 (and writes) per
/// scalar FMA: its filter slice for one pass of `chunk_ic` input blocks (once per row
/// of tiles, with passes once per channel group, when it fits L1 beside the input
/// windows and outputs streaming through; else once per tile), its input window, and
/// its outputs (read back and written again by every pass after the first). `None` for
/// other templates.
fn conv_l2_bytes_per_fma(m: &Module, op: Op, conv: &ConvConfig, target: &Target) -> Option<f64> {
    if !matches!(conv.template, Some(ConvTemplate::Direct | ConvTemplate::Pointwise)) {
        return None;
    }
    let geometry = ConvGeometry::of(m, op)?;
    let (x, out) = (crate::shape(m, m.operand(op, 0)), crate::shape(m, m.result(op, 0)));
    // A bf16 pair filter (`[.., i/2, o, 2]`) as its blocks of 2-byte elements.
    let (w, elem) = match crate::shape(m, m.operand(op, 1))[..] {
        [o, i, kh, kw, pairs, ob, 2] => (vec![o, i, kh, kw, 2 * pairs, ob], 2.0),
        ref w if w.len() == 6 => (w.to_vec(), 4.0),
        _ => return None,
    };
    let pointwise = conv.template == Some(ConvTemplate::Pointwise);
    let cols = if pointwise { out[2] * out[3] } else { out[3] };
    let (r, tile_oc) = (conv.tile_w().min(cols).max(1), conv.tile_oc().min(w[0]).max(1));
    let chunk = conv.chunk_ic.unwrap_or(w[1]).clamp(1, w[1]);
    let passes = (w[1] + chunk - 1) / chunk;
    let [kh, kw] = geometry.kernel;
    let (sw, dw) = (geometry.strides[1], geometry.dilations[1]);
    let taps = chunk * w[4] * kh * kw;
    let filters = (tile_oc * taps * w[5]) as f64 * elem;
    let window = if pointwise { r } else { (r - 1) * sw + (kw - 1) * dw + 1 };
    let input = (kh * window * chunk * x[4]) as f64 * elem;
    let outputs = (r * tile_oc * w[5]) as f64 * 4.0 * if passes > 1 { 2.0 } else { 1.0 };
    // The tiles that read the same filter slice one after another: a row's, and with
    // passes every row's (a pass covers all rows of its channel group).
    let rows = if passes > 1 && !pointwise { out[2] } else { 1 };
    let sharing = (((cols + r - 1) / r) * rows) as f64;
    // The filters stay when they fit beside what streams through L1 meanwhile: this
    // tile's input window, the next one's and the outputs.
    let resident = filters + 2.0 * input + outputs <= target.l1_bytes as f64;
    let filter_reads = if resident { filters / sharing } else { filters };
    let fmas = (r * tile_oc * w[5] * taps) as f64;
    Some((filter_reads + input + outputs) / fmas)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tcc_dialect_graph::config::MatmulConfig;
    use tcc_ir::builtin::func_entry;

    /// ResNet-50's 256 -> 64 pointwise convolution at 56x56 and a 3x3 one, 64 -> 64 at
    /// 14x14, in 16-channel blocks, and an 8 x 16 by 16 x 64 packed matmul; the kernel
    /// ops and the module.
    fn convs() -> (Module, Vec<Op>) {
        let text = "func.func @main(%x: tensor<1x16x56x56x16xf32>, %w: tensor<4x16x1x1x16x16xf32>,\n\
                      %y: tensor<1x4x14x14x16xf32>, %v: tensor<4x4x3x3x16x16xf32>,\n\
                      %a: tensor<8x16xf32>, %b: tensor<4x16x16xf32>)\n\
                      -> (tensor<1x4x56x56x16xf32>, tensor<1x4x14x14x16xf32>, tensor<8x64xf32>) {\n\
                      %0 = graph.conv2d_nchwc %x, %w : (tensor<1x16x56x56x16xf32>, tensor<4x16x1x1x16x16xf32>) \
                      -> tensor<1x4x56x56x16xf32>\n\
                      %1 = graph.conv2d_nchwc %y, %v {pads = [1, 1, 1, 1]} : (tensor<1x4x14x14x16xf32>, \
                      tensor<4x4x3x3x16x16xf32>) -> tensor<1x4x14x14x16xf32>\n\
                      %2 = graph.matmul_packed %a, %b : (tensor<8x16xf32>, tensor<4x16x16xf32>) -> tensor<8x64xf32>\n\
                      return %0, %1, %2 : tensor<1x4x56x56x16xf32>, tensor<1x4x14x14x16xf32>, tensor<8x64xf32>\n}";
        let m = tcc_ir::parse_bytes("t.mlir", text.as_bytes(), &tcc_dialect_graph::registry()).unwrap();
        let entry = func_entry(&m, m.func("main").unwrap()).unwrap();
        let ops = m.block_ops(entry).collect();
        (m, ops)
    }

    fn avx512(l1_kib: u32) -> Target {
        Target { vector_bits: 512, vector_registers: 32, l1_bytes: l1_kib << 10, ..Target::default() }
    }

    fn conv(template: ConvTemplate, tile_w: i64, tile_oc: i64, chunk_ic: Option<i64>) -> KernelConfig {
        KernelConfig::Conv(ConvConfig {
            template: Some(template),
            tile_w: Some(tile_w),
            tile_oc: Some(tile_oc),
            chunk_ic,
            ..Default::default()
        })
    }

    #[test]
    fn the_bound_counts_a_hand_counted_tile() {
        let (m, ops) = convs();
        let t = avx512(48);
        // 6 x 2 tile of the pointwise conv: 12 vector FMAs per 8 loads; filters 2 x 256 x
        // 16 x 4 = 32 KiB, input window 6 x 256 x 4 = 6 KiB, outputs 6 x 32 x 4 = 768 B:
        // 45.8 KiB fit 48 KiB, so the filters are read once per row of 523 tiles.
        let c = conv(ConvTemplate::Pointwise, 6, 2, None);
        let fmas = 6.0 * 32.0 * 256.0;
        let l2 = (32768.0 / 523.0 + 6144.0 + 768.0) / fmas;
        // 3136 columns in 523 tiles of 6 (the last of 4); 4 blocks in tiles of 2.
        let want = 523.0 / 3136.0 + 1.0 / 2.0 + L2_READ_COST * l2 / 4.0;
        assert!((loads_per_fma(&m, ops[0], &c, &t).unwrap() - want).abs() < 1e-12);
        assert_eq!(tile_shape(&m, ops[0], &c, &t), Some((6, 2)));
        // A matmul's tile: loads per FMA at the registers only; 8 x 4 vectors in tiles of
        // 4 x 2, then 3 x 3 (three tiles of rows, two of vectors).
        let mm = |tile_m, tile_n| {
            KernelConfig::Matmul(MatmulConfig { tile_m: Some(tile_m), tile_n: Some(tile_n), ..Default::default() })
        };
        assert_eq!(loads_per_fma(&m, ops[2], &mm(4, 2), &t), Some(0.75));
        assert_eq!(loads_per_fma(&m, ops[2], &mm(3, 3), &t), Some(3.0 / 8.0 + 2.0 / 4.0));
    }

    #[test]
    fn partial_tiles_load_as_much_as_whole_ones() {
        let (m, ops) = convs();
        let t = avx512(48);
        let registers = |tile_w, tile_oc| {
            let c = conv(ConvTemplate::Direct, tile_w, tile_oc, Some(1));
            let l2 = L2_READ_COST * conv_l2_bytes_per_fma(&m, ops[1], conv_config(&c), &t).unwrap() / 4.0;
            loads_per_fma(&m, ops[1], &c, &t).unwrap() - l2
        };
        // 14 columns: tiles of 7 load once per 7 columns, tiles of 8 twice per 14.
        assert!((registers(7, 2) - (1.0 / 7.0 + 0.5)).abs() < 1e-12);
        assert!((registers(8, 2) - (2.0 / 14.0 + 0.5)).abs() < 1e-12);
        // 4 blocks in tiles of 3: two tiles, as many loads as tiles of 2.
        assert!((registers(7, 3) - registers(7, 2)).abs() < 1e-12);
    }

    fn conv_config(c: &KernelConfig) -> &ConvConfig {
        match c {
            KernelConfig::Conv(c) => c,
            _ => unreachable!(),
        }
    }

    #[test]
    fn filters_that_leave_l1_cost_what_wide_tiles_save() {
        let (m, ops) = convs();
        let bound = |c: &KernelConfig, t: &Target| loads_per_fma(&m, ops[0], c, t).unwrap();
        let (six_by_two, four_by_four) =
            (conv(ConvTemplate::Pointwise, 6, 2, None), conv(ConvTemplate::Pointwise, 4, 4, None));
        // At the registers alone 4 x 4 is better (0.5 loads per FMA against 0.67); its
        // 64 KiB of filters leave a 48 KiB L1, 6 x 2's 32 KiB stay.
        assert!(bound(&six_by_two, &avx512(48)) < bound(&four_by_four, &avx512(48)));
        // In a 128 KiB L1 both stay, and 4 x 4 is better again.
        assert!(bound(&six_by_two, &avx512(128)) > bound(&four_by_four, &avx512(128)));
    }

    #[test]
    fn passes_keep_a_filter_slice_for_every_row() {
        let (m, ops) = convs();
        let t = avx512(48);
        let bound = |c: &KernelConfig| loads_per_fma(&m, ops[1], c, &t).unwrap();
        // 3x3, 64 channels in: a group's 73 KiB of filters leave L1 at every tile of
        // 14 columns; in passes of one block, 18 KiB serve all 14 rows.
        let one_pass = bound(&conv(ConvTemplate::Direct, 14, 2, None));
        let passes = bound(&conv(ConvTemplate::Direct, 14, 2, Some(1)));
        assert!(passes < one_pass, "{passes} {one_pass}");
        // Same registers either way.
        assert!(passes > 1.0 / 14.0 + 1.0 / 2.0);
        // Templates without a register tile of their own have no bound.
        let rows = KernelConfig::Conv(ConvConfig { template: Some(ConvTemplate::Rows), ..Default::default() });
        assert_eq!(loads_per_fma(&m, ops[1], &rows, &t), None);
    }
}
