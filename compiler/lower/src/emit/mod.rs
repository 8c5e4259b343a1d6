//! Loop nests for graph ops: one emitter per op family, chosen by the op's kind
//! ([`emitter`]).
//!
//! Every emitter writes its results into buffers it is given (inputs are read-only),
//! so the driver decides where each tensor lives. The nests are deliberately plain
//! (correct first; the kernel ops' templates in [`crate::kernels`] are the fast path),
//! with two
//! habits that matter already: the outermost loop runs on the thread pool when the op
//! has enough work, and the innermost loop walks the contiguous dimension with unit
//! step, so the vectorizer can take it.

pub mod column_sums;
pub mod elementwise;
pub mod fused;
pub mod nn;
pub mod resize;
pub mod shape;
pub mod stitched;

use tcc_dialect_graph::{GraphOp, Pool};
use tcc_ir::{Module, OpDef, ScalarType, Signature, Traits, Type, Value};

use crate::builder::Builder;
use crate::kernels;

/// Ops with fewer element-operations than this run on one thread (dispatching to the
/// pool costs microseconds).
pub const PARALLEL_MIN_WORK: i64 = 1 << 15;
/// Chunk of a long 1-D loop given to one parallel iteration.
const BLOCK: i64 = 2048;

/// One graph op being lowered: its attributes, input buffers and output buffers.
pub struct OpLowering<'a> {
    pub g: &'a Module,
    pub op: tcc_ir::Op,
    pub ins: Vec<Value>,
    pub outs: Vec<Value>,
    /// Lanes of the target's f32 vectors (the kernel templates' vector width).
    pub lanes: u32,
    /// Cores the code may use (the thread pool's default size).
    pub cores: u32,
    /// The target's vector registers (a register tile's budget).
    pub registers: u32,
    /// The ISA level of the microkernels that compute the interior register tiles of
    /// blocked convolutions and packed matmuls, if the target calls them.
    pub ukernels: Option<tcc_target::Isa>,
    /// Whether bf16 matmuls call the AVX-512 bf16 dot microkernel
    /// ([`tcc_target::Target::bf16_dot`]).
    pub bf16_dot: bool,
    /// Byte offset in the workspace of the scratch memory the kernel asked for
    /// ([`scratch_bytes`]), if any.
    pub scratch: Option<i64>,
    /// Set by the scalar reference nests of convolutions, pools and matmuls (no
    /// template took the op), for the profile.
    naive: std::cell::Cell<bool>,
    operand_types: Vec<Type>,
}

impl<'a> OpLowering<'a> {
    pub fn new(g: &'a Module, op: tcc_ir::Op, ins: Vec<Value>, outs: Vec<Value>) -> OpLowering<'a> {
        let operand_types = g.operands(op).iter().map(|&v| g.value_type(v).clone()).collect();
        OpLowering {
            g,
            op,
            ins,
            outs,
            lanes: 4,
            cores: 1,
            registers: 16,
            ukernels: None,
            bf16_dot: false,
            scratch: None,
            naive: std::cell::Cell::new(false),
            operand_types,
        }
    }

    pub fn with_lanes(mut self, lanes: u32) -> OpLowering<'a> {
        self.lanes = lanes;
        self
    }

    /// Records that the op was lowered to a scalar reference nest.
    pub fn mark_naive(&self) {
        self.naive.set(true);
    }

    /// Whether [`OpLowering::mark_naive`] was called.
    pub fn is_naive(&self) -> bool {
        self.naive.get()
    }

    /// The target's vector width and cores.
    pub fn with_target(mut self, target: &tcc_target::Target) -> OpLowering<'a> {
        self.lanes = target.lanes(4);
        self.cores = target.cores;
        self.registers = target.vector_registers;
        self.ukernels = target.ukernels;
        self.bf16_dot = target.bf16_dot;
        self
    }

    /// Lanes of the vectors the blocked layouts and register tiles were planned for:
    /// the microkernels' when there are any, else [`OpLowering::lanes`].
    pub fn kernel_lanes(&self) -> u32 {
        self.ukernels.map_or(self.lanes, |isa| isa.lanes())
    }

    pub fn with_scratch(mut self, offset: Option<i64>) -> OpLowering<'a> {
        self.scratch = offset;
        self
    }

    /// Attributes with their defaults, as shape inference sees them.
    pub fn sig(&self) -> Signature<'_> {
        Signature { def: self.g.def(self.op), operands: &self.operand_types, attrs: self.g.attrs(self.op) }
    }

    pub fn ints(&self, name: &str) -> Vec<i64> {
        self.sig().ints(name).expect("verified attribute")
    }
    pub fn int(&self, name: &str) -> i64 {
        self.sig().int(name).expect("verified attribute")
    }
    pub fn float(&self, name: &str) -> f64 {
        self.sig().float(name).expect("verified attribute")
    }
    pub fn string(&self, name: &str) -> String {
        self.sig().string(name).expect("verified attribute")
    }
    pub fn flag(&self, name: &str) -> bool {
        self.sig().bool(name).expect("verified attribute")
    }

    /// Shape of graph operand `i`.
    pub fn in_shape(&self, i: usize) -> Vec<i64> {
        self.operand_types[i].as_tensor().expect("tensor operand").shape().to_vec()
    }
    pub fn in_elem(&self, i: usize) -> ScalarType {
        self.operand_types[i].as_tensor().expect("tensor operand").elem()
    }
    /// Shape of graph result `i`.
    pub fn out_shape(&self, i: usize) -> Vec<i64> {
        self.g.value_type(self.g.result(self.op, i)).as_tensor().expect("tensor result").shape().to_vec()
    }
    pub fn out_elem(&self, i: usize) -> ScalarType {
        self.g.value_type(self.g.result(self.op, i)).as_tensor().expect("tensor result").elem()
    }
    pub fn name(&self) -> &'static str {
        self.g.name(self.op)
    }
    /// `'graph.x' at file:line:col`, for run-time error messages.
    pub fn where_(&self) -> String {
        format!("'{}' at {}", self.name(), self.g.loc(self.op))
    }
}

pub type EmitFn = fn(&mut Builder, &OpLowering);

/// `graph.conv2d`: the row template, or the scalar nest for what it does not take.
fn conv2d(b: &mut Builder, c: &OpLowering) {
    if !kernels::conv_rows::emit(b, c) {
        nn::conv2d(b, c);
    }
}

/// The emitter of a graph op's kind (constants need none: they become constant
/// buffers).
pub fn emitter(def: &OpDef) -> Option<EmitFn> {
    Some(match tcc_dialect_graph::kind(def)? {
        GraphOp::Constant => return None,
        GraphOp::Elementwise(_) => elementwise::emit,
        GraphOp::Matmul => nn::matmul,
        GraphOp::Conv2d => conv2d,
        GraphOp::Pool2d(_) => nn::pool2d,
        GraphOp::Resize => resize::resize_bilinear,
        GraphOp::Reduce(_) => nn::reduce,
        GraphOp::ArgMax => nn::argmax,
        GraphOp::Softmax => nn::softmax,
        GraphOp::Reshape => shape::reshape,
        GraphOp::Transpose => shape::transpose,
        GraphOp::BroadcastTo => shape::broadcast_to,
        GraphOp::Concat => shape::concat,
        GraphOp::Split => shape::split,
        GraphOp::Slice => shape::slice,
        GraphOp::Pad => shape::pad,
        GraphOp::Gather => shape::gather,
        GraphOp::Scatter => shape::scatter,
        GraphOp::LayoutTransform => kernels::layout::emit,
        GraphOp::Conv2dNchwc => kernels::conv::emit,
        GraphOp::Pool2dNchwc(Pool::Max) => kernels::pool::emit_max,
        GraphOp::Pool2dNchwc(Pool::Avg) => kernels::pool::emit_avg,
        GraphOp::MatmulPacked | GraphOp::BatchMatmul => kernels::matmul::emit,
        GraphOp::Fused => fused::emit,
    })
}

/// Bytes of workspace an op's kernel needs while it runs, besides its operands and
/// results, on `target`: a reduction or stitched group with few long rows splits them
/// across the thread pool and keeps the chunks' partial results there; an upsampling
/// keeps its input rows blended along W there.
pub fn scratch_bytes(g: &Module, op: tcc_ir::Op, target: &tcc_target::Target) -> usize {
    if matches!(tcc_dialect_graph::kind_of(g, op), Some(GraphOp::Fused)) {
        let block = g.region_blocks(g.regions(op)[0])[0];
        let ops: Vec<tcc_ir::Op> = g.block_ops(block).filter(|&o| !g.def(o).has(Traits::TERMINATOR)).collect();
        return stitched::split_scratch_bytes(g, &ops, g.block_args(block), target.cores);
    }
    if tcc_dialect_graph::ops::fused::is_group_reduction(g, op) {
        return stitched::split_scratch_bytes(g, &[op], g.operands(op), target.cores);
    }
    if matches!(tcc_dialect_graph::kind_of(g, op), Some(GraphOp::Resize)) {
        return resize::scratch_bytes(&OpLowering::new(g, op, Vec::new(), Vec::new()));
    }
    0
}

/// Floating-point operations of an op (see `tcc_dialect_graph::cost::flops`).
pub fn flops(c: &OpLowering) -> u64 {
    tcc_dialect_graph::cost::flops(c.g, c.op)
}

/// Visits every index of `shape`: all dimensions but the last flattened into one loop
/// (on the thread pool when `work` is large, each iteration then also looping over
/// trailing dimensions until it has [`NEST_MIN_ITERATION`] elements), the last as an
/// inner unit-step loop. A long 1-D shape is cut into blocks so it can run in parallel
/// too.
pub fn nest(b: &mut Builder, shape: &[i64], work: i64, body: impl FnOnce(&mut Builder, &[Value])) {
    let Some((&inner, outer_dims)) = shape.split_last() else {
        return body(b, &[]);
    };
    let outer: i64 = outer_dims.iter().product();
    if outer == 0 || inner == 0 {
        return;
    }
    let parallel = work >= PARALLEL_MIN_WORK;
    if outer == 1 && parallel && inner >= 2 * BLOCK {
        let blocks = (inner + BLOCK - 1) / BLOCK;
        b.parallel(blocks, |b, blk| {
            let block = b.index(BLOCK);
            let lo = b.mul(blk, block);
            let hi_unclamped = b.add(lo, block);
            let n = b.index(inner);
            let hi = b.min(hi_unclamped, n);
            let zeros: Vec<Value> = outer_dims.iter().map(|_| b.index(0)).collect();
            b.range(lo, hi, |b, j| {
                let mut idx = zeros;
                idx.push(j);
                body(b, &idx);
            });
        });
        return;
    }
    let inner_loop = move |b: &mut Builder, outer_idx: Vec<Value>| {
        b.range_n(inner, |b, j| {
            let mut idx = outer_idx;
            idx.push(j);
            body(b, &idx);
        });
    };
    if outer == 1 {
        let zeros = outer_dims.iter().map(|_| b.index(0)).collect();
        inner_loop(b, zeros);
    } else if parallel {
        // Trailing outer dimensions join each parallel iteration while its work is short
        // and enough iterations stay for the threads: per pixel of a blocked tensor (16
        // elements), the iteration's index arithmetic cost more than its work (a group
        // norm's scale and shift on Cranelift, 0.11 ms against LLVM's 0.06).
        let mut split = outer_dims.len();
        let mut per_iteration = inner;
        while split > 1 && per_iteration < NEST_MIN_ITERATION && outer_dims[..split - 1].iter().product::<i64>() >= 64 {
            split -= 1;
            per_iteration *= outer_dims[split];
        }
        let (parallel_dims, serial_dims) = outer_dims.split_at(split);
        let iterations: i64 = parallel_dims.iter().product();
        b.parallel(iterations, |b, flat| {
            let idx = b.unflatten(flat, parallel_dims);
            serial_nest(b, serial_dims, idx, inner_loop);
        });
    } else {
        b.range_n(outer, |b, flat| {
            let idx = b.unflatten(flat, outer_dims);
            inner_loop(b, idx);
        });
    }
}

/// The fewest elements [`nest`] gives each parallel iteration when its shape has
/// dimensions to spare.
const NEST_MIN_ITERATION: i64 = 256;

/// Loops over `dims` inside index prefix `idx`, calling `body` with the full index.
fn serial_nest(b: &mut Builder, dims: &[i64], idx: Vec<Value>, body: impl FnOnce(&mut Builder, Vec<Value>)) {
    let Some((&n, rest)) = dims.split_first() else {
        return body(b, idx);
    };
    b.range_n(n, |b, i| {
        let mut idx = idx;
        idx.push(i);
        serial_nest(b, rest, idx, body);
    });
}

/// The index into an operand of shape `in_shape` that numpy broadcasting reads for the
/// output index `idx` (dimensions aligned right; extent-1 dimensions read index 0).
pub fn broadcast_index(b: &mut Builder, idx: &[Value], in_shape: &[i64]) -> Vec<Value> {
    let offset = idx.len() - in_shape.len();
    in_shape.iter().enumerate().map(|(d, &n)| if n == 1 { b.index(0) } else { idx[d + offset] }).collect()
}

/// Element count of a shape.
pub fn numel(shape: &[i64]) -> i64 {
    shape.iter().product()
}
