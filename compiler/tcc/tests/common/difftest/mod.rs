//! Differential testing of the code generators against the reference interpreter, in
//! the style of Cranelift's interpreter-backed fuzzing. Shared, as source, by the
//! property test `compiler/tcc/tests/codegen_fuzz.rs` (fixed seeds) and the cargo-fuzz
//! target `fuzz/fuzz_targets/codegen.rs` (libFuzzer's bytes): both include this
//! directory with `#[path]`, and it depends on nothing but the `tcc` crate.
//!
//! # The generator ([`generator`])
//!
//! [`generator::generate`] draws every decision from a [`source::Source`]: a seed, or a
//! fuzzer input read a few bytes per decision (an exhausted input reads zeros, which
//! pick the smallest option, so generation always ends; the tensor data come from a
//! 4-byte seed so mutations go to structure). A case is one `func.func @main` with
//! one to a few inputs (f32 mostly; f64, i32, i64, i1), 1-9 random steps and one to
//! three results (sometimes an input, a constant, or the same value twice). A step is:
//!
//! - an elementwise op: neg, abs, relu, floor, ceil, sqrt, rsqrt, reciprocal, exp, log,
//!   tanh, sigmoid, erf, gelu (both forms); add, sub, mul, div, max, min, pow with
//!   numpy broadcasting (equal shapes, suffixes, 1s, scalars, per-channel constants,
//!   results larger than either operand); greater, less, equal; select; cast between
//!   f32, f64, i32, i64, i1; clamp with bounds including +-0, +-inf and lo > hi;
//! - a reduction (sum, mean, max, min) over random axes, in any order, some negative,
//!   with and without keepdims; softmax on a random axis;
//! - data movement: reshape (with -1 and 1s), transpose, broadcast_to, concat, split
//!   (several results), slice (with steps), pad (values including NaN, +-inf, -0),
//!   gather (constant in-range indices, negative ones, iota; or indices from an input),
//!   layout_transform to `NCHW{2,4,8}c`/`NHWC` and back;
//! - matmul (constant weights, which the optimizer packs; two activations with equal
//!   batch dimensions, which become `batch_matmul`; vectors; broadcast batches; i32 and
//!   i64), conv2d (random strides, pads, dilations, groups including depthwise, with
//!   and without bias, weights constant or an input), max and avg pools;
//! - patterns the optimizer turns into kernels and groups: conv + bias + batch-norm
//!   scale and shift + residual + relu/relu6/swish/gelu (epilogues), a linear layer
//!   (packed matmul + bias + activation), softmax written out over trailing axes (with
//!   a `select` of -inf as masked attention does), layer and RMS norms over trailing
//!   axes (variance by mean or sum, rsqrt or sqrt + div), group norm of a conv's output
//!   through a reshape to groups with per-channel scale and shift, attention
//!   (`softmax(q k^T * s) v`).
//!
//! Shapes have odd extents and 1s (vector tails, broadcasting) and at most
//! [`generator::MAX_NUMEL`] elements; convs and matmuls at most [`generator::MAX_MACS`]
//! multiply-adds, so a case compiles and runs in milliseconds. Tensor elements are
//! drawn in styles: small decimals, positive, small integers (ties, exact sums), random
//! exponents over 2^+-12, NaN/+-inf/-0 mixed in, few distinct values (ties, both
//! zeros), bounded away from zero; integers small, or the type's extremes. Constants
//! are splats or hex (bit-exact); float attributes decimals or f64 bits.
//!
//! # The standards of comparison
//!
//! Each value carries an [`generator::Info`]: bounds that hold for its finite elements in
//! the interpreter and in compiled code alike, whether it may hold NaN or infinities,
//! and `err`, a bound on |compiled - interpreter| (0: exact). A result is checked by its
//! value's info ([`generator::Expect`]):
//!
//! - **Bit for bit** (NaN matches any NaN, signed zeros must match) when `err = 0`:
//!   integer and i1 results; data movement (reshape, transpose, broadcast_to, concat,
//!   split, slice, pad, gather, layout_transform) of exact values; comparisons and
//!   select; casts (float to integer and to i1 only of exact values; f64 to f32 rounds
//!   once on both sides); and the float ops whose result is the correctly rounded value
//!   of exact operands, computed in the same order on both sides: add, sub, mul, div,
//!   reciprocal (as 1/x), sqrt, neg, abs, relu, floor, ceil, min, max, clamp, and the
//!   max/min reductions and max pool (order-independent with NaN propagating and
//!   -0 < +0). The interpreter computes f32 ops in f64 and rounds once, which for
//!   these ops gives the correctly rounded f32 (53 >= 2*24 + 2: double rounding is
//!   innocuous). Integer ops wrap on both sides; integer division never divides by 0.
//! - **Within a bound** otherwise, the bound derived from the operands' bounds and
//!   errors through the op (first-order, worst case, then doubled): sums and means
//!   reassociated (`n * err + (n + 1) n eps max|x|`), matmul and conv (`k` products:
//!   FMAs, any accumulation order, per-channel constants folded into weights), avg
//!   pool, softmax (`expm1(2 err) + (n + 64) eps`), the polynomial math functions (16
//!   eps relative, absolute below 1: exp, log, tanh, sigmoid, erf, gelu, rsqrt, pow),
//!   the norms (|y| <= sqrt(n); an error in the centred values amplified by
//!   1/sqrt(eps)), and anything computed from an approximate value. Non-finite
//!   elements must still match exactly. To keep bounds finite, operands of approximate
//!   ops are clamped into a range first when they could be unbounded, and ops whose
//!   error would be unbounded are never applied to approximate values: comparisons,
//!   floor/ceil, float-to-integer casts, and divisions, logs, square roots near zero
//!   (a positive shift `abs(x) + c` or a divisor bounded away from zero is used
//!   instead). The bound is relative to the largest magnitude the value can have (its
//!   bounds), so it is a tolerance relative to the output's scale.
//!
//! # The check ([`check`])
//!
//! Parse the text (`tcc::parse_model`), verify, and run the interpreter
//! (`tcc::graph::run_function`): a failure there is the generator's bug. Then for each
//! backend and thread count, `Runtime::builder().backend(b).threads(t).load_str(..)`
//! and `run`: a compile error must be a clean `Err` (counted: unsupported
//! combinations are acceptable), a panic is a finding (an abort ends the process,
//! which libFuzzer records), a run-time error where the interpreter succeeded is a
//! finding, and each result must meet its standard.

#![allow(dead_code, unused_imports)]

pub mod check;
pub mod generator;
pub mod source;

pub use check::{Kind, check, known_issue, optimized_forms};
pub use generator::generate;
pub use source::Source;
