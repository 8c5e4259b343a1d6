//! `winograd-convolutions`: stride-1 3x3 convolutions as Winograd's minimal filtering
//! F(m x m, 3 x 3) (Lavin and Gray, "Fast Algorithms for Convolutional Neural
//! Networks", CVPR 2016), built from graph ops the rest of the pipeline already runs
//! at speed, under the policy `--winograd` (by default F(4x4) where it pays, under the
//! fp32 precision policy).
//!
//! Each output tile of m x m pixels is `A^T [(G g G^T) . (B^T d B)] A` of its input
//! tile `d` of (m + 2) x (m + 2) pixels and each 3x3 filter `g`: per tile and channel
//! pair, (m + 2)^2 products instead of 9 m^2 (4x fewer for F(4x4), 2.25x for F(2x2)).
//! As graph ops, for an input of C channels and O filters:
//! 1. the input, channels last and padded to whole tiles, is gathered (each tile's
//!    pixel (u, v) of every tile, a run of channels, by a constant table of positions) into
//!    `[(m+2)^2, N th tw C]`, and the input transform `B^T d B` of every tile is one
//!    matmul by the `[(m+2)^2, (m+2)^2]` matrix `B^T (x) B^T`;
//! 2. viewed as `[(m+2)^2, N th tw, C]`, the result is multiplied by the transformed
//!    filters `U = G g G^T`, `[(m+2)^2, C, O]` (computed here, in f64, and rounded
//!    once): a batch of (m + 2)^2 matmuls, where the work is, whose columns are the
//!    output channels;
//! 3. the output transform `A^T M A` is one matmul of the `[m^2, (m+2)^2]` matrix by
//!    all tiles; its result is transposed to channels last, `[N, m th, m tw, O]`, then
//!    laid out as NCHW, sliced to the output's size, and the bias added.
//!
//! The interpreter runs the rewritten graph like any other, so it is its own oracle.
//! Winograd's products reassociate the sums: F(2x2) stays within 2.7e-6 of the direct
//! result relative to its scale, F(4x4) within 6.3e-6 with the interpolation points of
//! [`Transforms`] (1.6e-5 with the usual ones; measured on random 3x3 convolutions of
//! 64-512 channels), both within fp32's fidelity bar of 1e-5, so F(4x4) is the
//! default ([`Winograd::Auto`]). With the output channels as the products' columns,
//! every block of them is a microkernel call on Cranelift: VGG-11 runs in 0.79-0.80x
//! of its direct time on either backend, where the tiles as columns took 1.69x on
//! Cranelift (Intel Xeon, one thread, `benchmarks/RESULTS.md`).
//!
//! Only convolutions with constant f32 filters (the filter transform is done once,
//! here) are rewritten ([`eligible`]), and only those `tcc tune` measured faster so
//! (the tuning database's choice), or else where the batched matmuls should pay (see
//! [`pays`]): enough channels, and enough tiles per image that the transformed
//! filters, (m + 2)^2 / 9 times the direct filters' size, are not read for a handful
//! of tiles each.

use std::sync::Arc;

use tcc_dialect_graph::canonical::constant_value;
use tcc_dialect_graph::config::ConvGeometry;
use tcc_dialect_graph::layout::Layout;
use tcc_dialect_graph::ops as g;
use tcc_ir::builtin::func_entry;
use tcc_ir::{
    AttrDict, Attribute, DenseElements, Diagnostics, Module, Op, Pass, PassInfo, ScalarType, TensorType, Value,
};

use crate::tuning::{TuningDb, winograd_key};
use crate::{Inserter, shape};

/// The Winograd policy of a compile: which stride-1 3x3 convolutions become Winograd
/// convolutions, and with which output tile.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Winograd {
    /// F(4x4, 3x3) where it pays when the convolutions compute in f32 (its error is
    /// within fp32's fidelity bar), direct under a reduced precision (whose rounding
    /// the transforms would amplify): the default.
    #[default]
    Auto,
    /// Every convolution direct (exact up to the order of its sums).
    Off,
    /// F(2x2, 3x3) where it pays: 2.25x fewer products, error within fp32's fidelity.
    F2,
    /// F(4x4, 3x3) where it pays: 4x fewer products, ~2x the rounding error of F(2x2).
    F4,
}

impl Winograd {
    pub const NAMES: &'static str = "auto, off, 2x2 or 4x4";

    pub fn name(self) -> &'static str {
        match self {
            Winograd::Auto => "auto",
            Winograd::Off => "off",
            Winograd::F2 => "2x2",
            Winograd::F4 => "4x4",
        }
    }

    /// The policy for convolutions that compute in f32 (`f32`) or in a reduced
    /// precision: [`Winograd::Auto`] made F(4x4) or off, the others as they are.
    pub fn resolve(self, f32: bool) -> Winograd {
        match self {
            Winograd::Auto if f32 => Winograd::F4,
            Winograd::Auto => Winograd::Off,
            policy => policy,
        }
    }

    /// Whether the user asked for Winograd by name (`2x2` or `4x4`): then only f32
    /// convolutions may take it, and its error is measured against direct ones.
    pub fn is_explicit(self) -> bool {
        matches!(self, Winograd::F2 | Winograd::F4)
    }

    /// The output tile's side m, `None` when off ([`Winograd::Auto`]: F(4x4)'s, as
    /// [`Winograd::resolve`] makes it in f32).
    pub fn tile(self) -> Option<usize> {
        match self {
            Winograd::Off => None,
            Winograd::Auto => Some(4),
            Winograd::F2 => Some(2),
            Winograd::F4 => Some(4),
        }
    }
}

impl std::str::FromStr for Winograd {
    type Err = String;
    fn from_str(text: &str) -> Result<Winograd, String> {
        match text {
            "auto" => Ok(Winograd::Auto),
            "off" => Ok(Winograd::Off),
            "2x2" | "2" | "f2" => Ok(Winograd::F2),
            "4x4" | "4" | "f4" => Ok(Winograd::F4),
            other => Err(format!("unknown Winograd tile '{other}' (expected {})", Winograd::NAMES)),
        }
    }
}

impl std::fmt::Display for Winograd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

pub static WINOGRAD_CONVOLUTIONS: PassInfo = PassInfo {
    name: "winograd-convolutions",
    summary: "Rewrite stride-1 3x3 convolutions as Winograd F(m x m, 3 x 3) transforms and batched matmuls",
    options: &[
        ("tile", "the output tile: 2x2 or 4x4 (default 4x4)"),
        ("all", "rewrite every eligible convolution, not only those where it pays (default false)"),
    ],
    create: |opts| {
        let policy = opts.parse_or("tile", Winograd::F4)?.resolve(true);
        if policy == Winograd::Off {
            return Err("winograd-convolutions: tile must be 2x2 or 4x4".into());
        }
        Ok(Box::new(WinogradConvolutions { policy, all: opts.parse_or("all", false)?, measured: None }))
    },
};

pub struct WinogradConvolutions {
    pub policy: Winograd,
    /// Every eligible convolution, not only those where [`pays`] (for tests).
    pub all: bool,
    /// The choices `tcc tune` measured ([`TuningDb::winograd`]), which come before
    /// [`pays`].
    pub measured: Option<Arc<TuningDb>>,
}

impl WinogradConvolutions {
    /// Whether eligible convolution `op` becomes a Winograd convolution.
    fn chosen(&self, m: &Module, op: Op, tile: usize) -> bool {
        let measured = || self.measured.as_ref()?.winograd(&winograd_key(m, op, self.policy.name()));
        self.all || measured().unwrap_or_else(|| pays(m, op, tile))
    }
}

impl Pass for WinogradConvolutions {
    fn name(&self) -> &'static str {
        "winograd-convolutions"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        let Some(tile) = self.policy.tile() else { return Ok(()) };
        let transforms = Transforms::new(tile);
        for func in m.funcs() {
            let Some(entry) = func_entry(m, func) else { continue };
            let convs: Vec<Op> = m.block_ops(entry).filter(|&op| m.is(op, &g::CONV2D)).collect();
            for op in convs {
                if let Some(filters) = eligible_filters(m, op)
                    && self.chosen(m, op, tile)
                {
                    rewrite(m, op, &filters, &transforms);
                }
            }
        }
        Ok(())
    }
}

/// Input and output channels below which a convolution stays direct: its batched
/// matmuls would be too small to run near peak (and a 3-channel stem's transforms cost
/// more than its products: 0.17x as F(4x4) in VGG-11).
pub const MIN_CHANNELS: i64 = 64;

/// Where Winograd pays, per output tile side m: at least `tiles` output tiles per image
/// (each transformed filter, (m + 2)^2 / 9 times the direct filter's size, is read for
/// every tile: too few tiles and the filters' traffic outweighs the products saved),
/// and at least `products` input x output channels (the transforms' memory traffic
/// grows with C + O, the products saved with C x O). Measured in the model, LLVM, one
/// thread, each layer's kernels summed (RESULTS.md, 2026-11-30): F(4x4) 1.29-1.78x on
/// VGG-11's and ResNet-18's layers of 28x28 and 56x56 maps of 64 x 128 channels or
/// more, 0.78-0.84x at 14x14 (16 tiles) and 256 channels, 0.85-0.98x at 64 x 64;
/// F(2x2) 1.13-1.34x only from 128 x 256 channels at 28x28 up, 0.64-0.98x below.
pub struct Threshold {
    pub tiles: i64,
    pub products: i64,
}

/// [`Threshold`] of F(m x m, 3 x 3).
pub fn threshold(tile: usize) -> Threshold {
    match tile {
        2 => Threshold { tiles: 64, products: 128 * 256 },
        _ => Threshold { tiles: 32, products: 64 * 128 },
    }
}

/// Whether convolution `op` is worth rewriting with output tiles of `tile` pixels
/// ([`MIN_CHANNELS`], [`threshold`]).
pub fn pays(m: &Module, op: Op, tile: usize) -> bool {
    let Some(geometry) = ConvGeometry::of(m, op) else { return false };
    let out = shape(m, m.result(op, 0));
    let threshold = threshold(tile);
    let tile = tile as i64;
    let tiles = ((out[2] + tile - 1) / tile) * ((out[3] + tile - 1) / tile);
    let (c, o) = (geometry.in_channels, geometry.out_channels);
    c.min(o) >= MIN_CHANNELS && tiles >= threshold.tiles && c * o >= threshold.products
}

/// The most elements the transformed filters of one convolution may have (1 GiB of
/// f32; 4x the direct filters' for F(4x4)): they are computed at compile time.
pub const MAX_FILTER_ELEMENTS: i64 = 1 << 28;

/// Whether `op` is a convolution Winograd computes: 3x3, stride 1, no dilation, one
/// group, f32, NCHW, with constant filters whose transform is at most
/// [`MAX_FILTER_ELEMENTS`] (for F(4x4)).
pub fn eligible(m: &Module, op: Op) -> bool {
    m.is(op, &g::CONV2D) && eligible_filters(m, op).is_some()
}

/// The filters `[O, C, 3, 3]` of `op` if it is [`eligible`].
fn eligible_filters(m: &Module, op: Op) -> Option<Vec<f32>> {
    let geometry = ConvGeometry::of(m, op)?;
    let f32_tensor = |v: Value| m.value_type(v).as_tensor().is_some_and(|t| t.elem() == ScalarType::F32);
    if geometry.kernel != [3, 3] || geometry.strides != [1, 1] || geometry.dilations != [1, 1] || geometry.groups != 1 {
        return None;
    }
    if !m.operands(op).iter().all(|&v| f32_tensor(v)) || !f32_tensor(m.result(op, 0)) {
        return None;
    }
    if 36 * geometry.in_channels * geometry.out_channels > MAX_FILTER_ELEMENTS {
        return None;
    }
    constant_value(m, m.operand(op, 1))?.to_f32s()
}

/// The transform matrices of F(m x m, 3 x 3), row-major: `bt` (a x a), `g` (a x 3) and
/// `at` (m x a), a = m + 2: Toom-Cook's, with interpolation points 0, 1, -1 and
/// infinity for m = 2 (Lavin and Gray's), and 0, 1, -1, 2, -1/2 and infinity for m = 4,
/// whose rounding error is about a third of that of Lavin and Gray's 0, +-1, +-2
/// (Barabasz et al., "Error analysis and improving the accuracy of Winograd
/// convolution for deep neural networks", 2020; measured here on random 256-channel
/// layers, simulated in f32: 3.8e-6 against 1.4e-5 of the output's scale).
struct Transforms {
    m: usize,
    a: usize,
    bt: Vec<f64>,
    g: Vec<f64>,
    at: Vec<f64>,
}

impl Transforms {
    fn new(m: usize) -> Transforms {
        let (bt, g, at): (Vec<f64>, Vec<f64>, Vec<f64>) = match m {
            2 => (
                vec![1., 0., -1., 0., 0., 1., 1., 0., 0., -1., 1., 0., 0., 1., 0., -1.],
                vec![1., 0., 0., 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0., 0., 1.],
                vec![1., 1., 1., 0., 0., 1., -1., -1.],
            ),
            4 => (
                vec![
                    1., 1.5, -2., -1.5, 1., 0., //
                    0., -1., -2.5, -0.5, 1., 0., //
                    0., 1., 0.5, -2.5, 1., 0., //
                    0., -0.5, -1., 0.5, 1., 0., //
                    0., 2., -1., -2., 1., 0., //
                    0., 1., 1.5, -2., -1.5, 1.,
                ],
                vec![
                    1.,
                    0.,
                    0.,
                    -1. / 3.,
                    -1. / 3.,
                    -1. / 3.,
                    1. / 3.,
                    -1. / 3.,
                    1. / 3.,
                    1. / 15.,
                    2. / 15.,
                    4. / 15.,
                    -16. / 15.,
                    8. / 15.,
                    -4. / 15.,
                    0.,
                    0.,
                    1.,
                ],
                vec![
                    1., 1., 1., 1., 1., 0., //
                    0., 1., -1., 2., -0.5, 0., //
                    0., 1., 1., 4., 0.25, 0., //
                    0., 1., -1., 8., -0.125, 1.,
                ],
            ),
            _ => unreachable!("Winograd tiles are 2x2 or 4x4"),
        };
        Transforms { m, a: m + 2, bt, g, at }
    }

    /// The input transform `[a^2, a^2]`: output `i a + j` of a tile `d` is
    /// `sum_uv BT[i][u] d[u][v] BT[j][v]`.
    fn input_matrix(&self) -> Vec<f32> {
        kron(&self.bt, self.a, self.a)
    }

    /// The transformed filters `[a^2, C, O]`: `G g G^T` of each filter `g` of
    /// `filters` (`[O, C, 3, 3]`), summed in f64 and rounded once.
    fn filters(&self, filters: &[f32], out_channels: usize, in_channels: usize) -> Vec<f32> {
        let a = self.a;
        let mut u = vec![0f32; a * a * out_channels * in_channels];
        for o in 0..out_channels {
            for c in 0..in_channels {
                let w = &filters[(o * in_channels + c) * 9..][..9];
                // G g: a x 3.
                let mut gw = [0f64; 18];
                for i in 0..a {
                    for v in 0..3 {
                        gw[i * 3 + v] = (0..3).map(|k| self.g[i * 3 + k] * w[k * 3 + v] as f64).sum();
                    }
                }
                for i in 0..a {
                    for j in 0..a {
                        let x: f64 = (0..3).map(|v| gw[i * 3 + v] * self.g[j * 3 + v]).sum();
                        u[((i * a + j) * in_channels + c) * out_channels + o] = x as f32;
                    }
                }
            }
        }
        u
    }

    /// The output transform `[m^2, a^2]`: output `k m + l` of a tile is
    /// `sum_ij AT[k][i] M[i][j] AT[l][j]`.
    fn output_matrix(&self) -> Vec<f32> {
        kron(&self.at, self.m, self.a)
    }
}

/// The Kronecker product of the `rows x cols` matrix `x` with itself, `[rows^2,
/// cols^2]`: entry `(k rows + l, i cols + j)` is `x[k][i] x[l][j]`.
fn kron(x: &[f64], rows: usize, cols: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(rows * rows * cols * cols);
    for k in 0..rows {
        for l in 0..rows {
            for i in 0..cols {
                for j in 0..cols {
                    out.push((x[k * cols + i] * x[l * cols + j]) as f32);
                }
            }
        }
    }
    out
}

/// Replaces convolution `op` (filters `filters`) by its Winograd form.
fn rewrite(m: &mut Module, op: Op, filters: &[f32], t: &Transforms) {
    let geometry = ConvGeometry::of(m, op).expect("an eligible convolution");
    let (x, bias) = (m.operand(op, 0), m.operands(op).get(2).copied());
    let input = shape(m, x);
    let out = shape(m, m.result(op, 0));
    let (n, c, o) = (input[0], geometry.in_channels, geometry.out_channels);
    let (tile, a) = (t.m as i64, t.a as i64);
    let (th, tw) = ((out[2] + tile - 1) / tile, (out[3] + tile - 1) / tile);
    let [top, left, _, _] = geometry.pads;
    // Padding grown at the bottom and right to whole tiles: their extra outputs are
    // sliced off.
    let (rows, cols) = (tile * th + 2, tile * tw + 2);
    let (bottom, right) = (rows - input[2] - top, cols - input[3] - left);
    let ints = |v: &[i64]| Attribute::i64_list(v);
    let constant = |ins: &mut Inserter, dims: Vec<i64>, values: Vec<f32>| {
        let ty = TensorType::new(dims, ScalarType::F32).expect("valid shape");
        ins.constant(DenseElements::from_f32_vec(ty, values).expect("as many values as elements"))
    };
    let mut ins = Inserter::before(m, op);
    // Channels last (`[N, H, W, C]`), so that each tile's pixel is a run of channels and
    // the transformed tiles come out by channels: the products' columns are then the
    // output channels (whole vector blocks in every real network, which the
    // microkernels compute; tiles as columns left a partial block that Cranelift's
    // generated code computed at a few GFLOP/s) and the filters their constant right
    // operand. Channels last is the layout `NCHW{C}c` (one block of every channel),
    // which the lowering transposes in vector registers where C is a multiple of the
    // vector width.
    let (h, w) = (input[2], input[3]);
    let nhwc = ins.layout(x, &Layout::nchw(), &Layout::nchwc(c), vec![n, 1, h, w, c]);
    let nhwc = ins.reshape(nhwc, vec![n, h, w, c]);
    let padded = if [top, left, bottom, right] == [0; 4] {
        nhwc
    } else {
        let pads = AttrDict::new().with("low", ints(&[0, top, left, 0])).with("high", ints(&[0, bottom, right, 0]));
        ins.inferred(&g::PAD, &[nhwc], pads)
    };
    // Each tile's pixel (u, v) of every tile and channel, `[a^2, N th tw C]`: one gather
    // of the padded input's pixels (runs of channels) by a constant table of their
    // positions, in the order (u, v), then image and tile.
    let pixels = ins.reshape(padded, vec![n * rows * cols, c]);
    let mut positions = Vec::with_capacity((a * a * n * th * tw) as usize);
    for u in 0..a {
        for v in 0..a {
            for image in 0..n {
                for i in 0..th {
                    for j in 0..tw {
                        positions.push((image * rows + tile * i + u) * cols + tile * j + v);
                    }
                }
            }
        }
    }
    // i32 positions where they fit (half the table of i64s).
    let narrow = n * rows * cols <= i64::from(i32::MAX);
    let bytes: Vec<u8> = if narrow {
        positions.iter().flat_map(|&p| (p as i32).to_le_bytes()).collect()
    } else {
        positions.iter().flat_map(|p| p.to_le_bytes()).collect()
    };
    let elem = if narrow { ScalarType::I32 } else { ScalarType::I64 };
    let table = TensorType::new(vec![a * a, n * th * tw], elem).expect("valid shape");
    let table = DenseElements::from_bytes(table, tcc_ir::AlignedBytes::from_slice(&bytes)).expect("a position each");
    let table = ins.constant(table);
    let gathered = ins.inferred(&g::GATHER, &[pixels, table], AttrDict::new().with("axis", Attribute::i64(0)));
    let tiles = ins.reshape(gathered, vec![a * a, n * th * tw * c]);
    let bt = constant(&mut ins, vec![a * a, a * a], t.input_matrix());
    let v = ins.inferred(&g::MATMUL, &[bt, tiles], AttrDict::new());
    let v = ins.reshape(v, vec![a * a, n * th * tw, c]);
    let u = constant(&mut ins, vec![a * a, c, o], t.filters(filters, o as usize, c as usize));
    let products = ins.inferred(&g::MATMUL, &[v, u], AttrDict::new());
    let products = ins.reshape(products, vec![a * a, n * th * tw * o]);
    let at = constant(&mut ins, vec![tile * tile, a * a], t.output_matrix());
    let y = ins.inferred(&g::MATMUL, &[at, products], AttrDict::new());
    // Back to channels last, each pixel a run of channels (a copy of runs), then to NCHW
    // as the layout transform from `NCHW{O}c`.
    let y = ins.reshape(y, vec![tile, tile, n, th, tw, o]);
    let y = ins.inferred(&g::TRANSPOSE, &[y], AttrDict::new().with("perm", ints(&[2, 3, 0, 4, 1, 5])));
    let (out_rows, out_cols) = (tile * th, tile * tw);
    let y = ins.reshape(y, vec![n, 1, out_rows, out_cols, o]);
    let mut y = ins.layout(y, &Layout::nchwc(o), &Layout::nchw(), vec![n, o, out_rows, out_cols]);
    if tile * th != out[2] || tile * tw != out[3] {
        let attrs = AttrDict::new().with("starts", ints(&[0, 0, 0, 0])).with("sizes", ints(&out));
        y = ins.inferred(&g::SLICE, &[y], attrs);
    }
    if let Some(bias) = bias {
        let bias = ins.reshape(bias, vec![1, o, 1, 1]);
        y = ins.inferred(&g::ADD, &[y, bias], AttrDict::new());
    }
    let result = m.result(op, 0);
    m.replace_all_uses(result, y);
    m.erase_op(op);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The transforms compute a 1-D correlation exactly: for every m, the output of
    /// `AT [(G g) . (BT d)]` is `sum_k d[i + k] g[k]` (in exact arithmetic; here in f64
    /// on small integers, where every step is exact).
    #[test]
    fn the_transforms_correlate() {
        for tile in [2, 4] {
            let t = Transforms::new(tile);
            let a = t.a;
            let d: Vec<f64> = (0..a).map(|i| (i * i) as f64 - 3.0).collect();
            let w = [2.0, -1.0, 3.0];
            let gw: Vec<f64> = (0..a).map(|i| (0..3).map(|k| t.g[i * 3 + k] * w[k]).sum()).collect();
            let bd: Vec<f64> = (0..a).map(|i| (0..a).map(|u| t.bt[i * a + u] * d[u]).sum()).collect();
            for k in 0..tile {
                let y: f64 = (0..a).map(|i| t.at[k * a + i] * gw[i] * bd[i]).sum();
                let direct: f64 = (0..3).map(|j| d[k + j] * w[j]).sum();
                assert!((y - direct).abs() < 1e-9, "F({tile}, 3) output {k}: {y} against {direct}");
            }
        }
    }

    #[test]
    fn policies_parse_and_print() {
        for p in [Winograd::Off, Winograd::F2, Winograd::F4] {
            assert_eq!(p.name().parse::<Winograd>(), Ok(p));
        }
        assert!("3x3".parse::<Winograd>().unwrap_err().contains("off, 2x2 or 4x4"));
    }
}
