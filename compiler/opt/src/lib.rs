//! Graph-level optimization for the target: blocked layouts, epilogue fusion and kernel
//! configuration (NeoCPU's schedule, USENIX ATC 2019; `docs/layouts.md`).
//!
//! The passes, in pipeline order, one per file:
//! - [`search`] (`rewrite-search`): the rules only worth applying where they pay
//!   (merging parallel matmuls or convolutions) are applied by a cost-based search over
//!   rewritten graphs, with the costs of [`cost`].
//! - [`winograd`] (`winograd-convolutions`, under `--winograd`): stride-1 3x3
//!   convolutions as Winograd input transforms, batched matmuls and output transforms.
//! - [`blocking`] (`block-layouts`): convolutions and pools to their `NCHW[x]c` kernel
//!   ops between layout transforms, filters packed `OIHW[x]i[y]o`, and matmuls with a
//!   constant right operand to `matmul_packed`; the packing is a `layout_transform` of a
//!   constant, which canonicalization folds (weights are packed at compile time).
//! - [`layout_propagation`] (`propagate-layouts`): moves the transforms back to plain
//!   layout past layout-oblivious ops (elementwise ops, spatial slices, channel concats,
//!   spatial reductions) and cancels them against the next kernel's transform, so
//!   transforms remain only at the graph's boundaries and before layout-dependent ops.
//! - [`epilogue_fusion`] (`fuse-epilogues`): elementwise ops consuming a kernel op's
//!   result join its epilogue region (bias, scale, activation, residual add).
//! - [`kernel_config`] (`configure-kernels`): each kernel op gets its register tile
//!   from a tuning database ([`tuning`]) or from the target description when it has no
//!   `config` yet; the tuner's candidates are pruned by MACO's I/O bound
//!   ([`io_bound`]).
//! - [`narrow_outputs`] (`narrow-outputs`): a bf16 dot kernel whose result is only
//!   rounded to bf16 stores it rounded (its epilogue ends with the cast), so the
//!   activation between two bf16 kernels is stored as bf16.
//! - [`padding`] (`materialize-padding`): the convolutions configured with a padded
//!   input get their padding as an explicit `graph.pad`.
//! - [`fusion`] (`fuse-memory-bound`): the memory-bound ops left between the kernels
//!   are stitched into fusion groups (`graph.fused`), each around a reduction or an
//!   elementwise root.
//!
//! Blocked activations keep an invariant these passes rely on: lanes past a tensor's
//! logical channel count (the padding of the last block) hold zeros. Transforms from a
//! plain layout write zeros there, packed filters are zero there, and an op is carried
//! into a padded blocked layout only if it maps zeros to zeros.

pub mod blocking;
pub mod candidates;
pub mod configure_kernels;
pub mod cost;
pub mod egraph;
pub mod epilogue_fusion;
pub mod eqsat;
pub mod fusion;
pub mod io_bound;
pub mod kernel_config;
pub mod layout_propagation;
mod machine_tables;
pub mod narrow_outputs;
pub mod padding;
pub mod search;
pub mod tuning;
pub mod winograd;

use tcc_dialect_graph::canonical::constant_value;
use tcc_dialect_graph::layout::{Layout, transform_attrs};
use tcc_dialect_graph::ops as g;
use tcc_ir::{AttrDict, Attribute, Location, Module, Op, OpDef, OperationState, PassRegistry, TensorType, Type, Value};

/// A pass's option list: its own options (a `static` slice), then the target's
/// ([`tcc_target::PASS_OPTIONS`]), as one array for its `PassInfo`.
macro_rules! with_target_options {
    ($own:expr) => {{
        const OWN: &[(&str, &str)] = $own;
        const ALL: usize = OWN.len() + tcc_target::PASS_OPTIONS.len();
        const OPTIONS: [(&str, &str); ALL] = {
            let mut all = [("", ""); ALL];
            let mut i = 0;
            while i < ALL {
                all[i] = if i < OWN.len() { OWN[i] } else { tcc_target::PASS_OPTIONS[i - OWN.len()] };
                i += 1;
            }
            all
        };
        &OPTIONS
    }};
}
pub(crate) use with_target_options;

/// Registers this crate's passes.
pub fn register_passes(r: &mut PassRegistry) {
    r.register(&search::REWRITE_SEARCH);
    r.register(&winograd::WINOGRAD_CONVOLUTIONS);
    r.register(&blocking::BLOCK_LAYOUTS);
    r.register(&layout_propagation::PROPAGATE_LAYOUTS);
    r.register(&epilogue_fusion::FUSE_EPILOGUES);
    r.register(&configure_kernels::CONFIGURE_KERNELS);
    r.register(&narrow_outputs::NARROW_OUTPUTS);
    r.register(&padding::MATERIALIZE_PADDING);
    r.register(&fusion::FUSE_MEMORY_BOUND);
}

/// The target a pass was created for, from its pipeline options.
pub fn target_from(opts: &tcc_ir::PassOptions) -> Result<tcc_target::Target, String> {
    tcc_target::Target::from_options(|k| opts.get(k))
}

/// An f32 tensor type (or any element type) of `shape`.
pub fn tensor_type(shape: Vec<i64>, elem: tcc_ir::ScalarType) -> Type {
    Type::from_tensor(TensorType::new(shape, elem).expect("valid shape"))
}

/// The shape of a tensor value.
pub fn shape(m: &Module, v: Value) -> Vec<i64> {
    m.value_type(v).as_tensor().map(|t| t.shape().to_vec()).unwrap_or_default()
}

/// Moves a convolution's spatial padding into an explicit `graph.pad` of its input
/// (plain NCHW or blocked NCHW[x]c: the spatial dimensions are 2 and 3 in both), so
/// that every output column reads the same kernel taps. Only for constant, finite
/// filters: the padding's zeros are then multiplied where the convolution skips the
/// taps, which an infinite weight would make NaN.
pub fn pad_input(m: &mut Module, op: Op) {
    pad_input_dims(m, op, true);
}

/// [`pad_input`], of the columns only without `rows`: the rows' padding stays the
/// convolution's (its edge rows then skip the kernel rows outside the input).
pub fn pad_input_dims(m: &mut Module, op: Op, rows: bool) {
    let pads = conv_pads(m, op);
    let moved = if rows { pads.clone() } else { vec![0, pads[1], 0, pads[3]] };
    if moved.iter().all(|&p| p == 0) || !paddable(m, op) {
        return;
    }
    let x = m.operand(op, 0);
    let rank = shape(m, x).len();
    let (mut low, mut high) = (vec![0; rank], vec![0; rank]);
    (low[2], low[3], high[2], high[3]) = (moved[0], moved[1], moved[2], moved[3]);
    let attrs = AttrDict::new().with("low", Attribute::i64_list(&low)).with("high", Attribute::i64_list(&high));
    let padded = Inserter::before(m, op).inferred(&g::PAD, &[x], attrs);
    m.set_operand(op, 0, padded);
    let kept: Vec<i64> = pads.iter().zip(&moved).map(|(p, q)| p - q).collect();
    m.set_attr(op, "pads", Attribute::i64_list(&kept));
}

/// A convolution's `pads` (top, left, bottom, right).
pub fn conv_pads(m: &Module, op: Op) -> Vec<i64> {
    m.attr_or_default(op, "pads").and_then(|a| a.as_i64_list()).expect("verified attribute")
}

/// Whether [`pad_input`] can move `op`'s padding: its filter is constant and finite.
pub fn paddable(m: &Module, op: Op) -> bool {
    constant_value(m, m.operand(op, 1)).is_some_and(|w| match w.to_f32s() {
        Some(f32s) => f32s.iter().all(|x| x.is_finite()),
        // (bf16 pair filters)
        None => w.to_f64s().iter().all(|x| x.is_finite()),
    })
}

/// Creates ops just before an anchor op, at its location.
pub struct Inserter<'m> {
    pub m: &'m mut Module,
    anchor: Op,
    loc: Location,
}

impl<'m> Inserter<'m> {
    pub fn before(m: &'m mut Module, anchor: Op) -> Inserter<'m> {
        let loc = m.loc(anchor).clone();
        Inserter { m, anchor, loc }
    }

    /// An op with the given result types; returns it.
    pub fn op(&mut self, def: &'static OpDef, operands: &[Value], attrs: AttrDict, results: Vec<Type>) -> Op {
        self.op_with_regions(def, operands, attrs, results, Vec::new())
    }

    pub fn op_with_regions(
        &mut self,
        def: &'static OpDef,
        operands: &[Value],
        attrs: AttrDict,
        results: Vec<Type>,
        regions: Vec<tcc_ir::Region>,
    ) -> Op {
        let mut st = OperationState::new(def, self.loc.clone());
        st.operands = operands.to_vec();
        st.attrs = attrs;
        st.result_types = results;
        st.regions = regions;
        let op = self.m.create_op(st);
        self.m.insert_op_before(self.anchor, op);
        op
    }

    /// An op with an inferred result type; returns its result.
    pub fn inferred(&mut self, def: &'static OpDef, operands: &[Value], attrs: AttrDict) -> Value {
        let types: Vec<Type> = operands.iter().map(|&v| self.m.value_type(v).clone()).collect();
        let results =
            def.infer_types(&types, &attrs).unwrap_or_else(|e| panic!("a pass built an invalid '{}': {e}", def.name));
        let op = self.op(def, operands, attrs, results);
        self.m.result(op, 0)
    }

    /// `x` moved from layout `src` to `dst`, with result shape `shape`.
    pub fn layout(&mut self, x: Value, src: &Layout, dst: &Layout, shape: Vec<i64>) -> Value {
        let elem = self.m.value_type(x).as_tensor().expect("a tensor").elem();
        let attrs = transform_attrs(src, dst);
        let op = self.op(&g::LAYOUT_TRANSFORM, &[x], attrs, vec![tensor_type(shape, elem)]);
        self.m.result(op, 0)
    }

    /// A `graph.constant` of `value`.
    pub fn constant(&mut self, value: tcc_ir::DenseElements) -> Value {
        let ty = Type::from_tensor(value.ty().clone());
        let op = self.op(&g::CONSTANT, &[], AttrDict::new().with("value", Attribute::Dense(value)), vec![ty]);
        self.m.result(op, 0)
    }

    /// `x` reshaped to `shape` (no op when it has that shape).
    pub fn reshape(&mut self, x: Value, shape: Vec<i64>) -> Value {
        if self.m.value_type(x).as_tensor().is_some_and(|t| t.shape() == shape.as_slice()) {
            return x;
        }
        self.inferred(&g::RESHAPE, &[x], AttrDict::new().with("shape", Attribute::i64_list(&shape)))
    }
}
