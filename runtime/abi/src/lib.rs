//! What compiled models and the compiler agree on, and nothing else: the element types
//! and shapes of a model's inputs and outputs ([`DType`], [`F16`], [`BF16`], [`TensorSpec`],
//! [`Signature`]), the entry function compiled code exports ([`EntryFn`]), the names of
//! the runtime functions it calls ([`symbols`]), the ISA levels of the microkernels it
//! calls ([`Isa`]) and their arguments ([`TILE_ARGUMENTS`]), the constants of the f32
//! `exp` and `erf` that generated code and the array math share ([`approximations`]),
//! the thread-count limits
//! ([`threads`]) and the C API's error codes ([`AotError`]). The runtime implements this
//! interface and code generation targets it; neither needs the other. This crate
//! depends on nothing.

use std::fmt;

/// Element types a compiled model exchanges with its caller.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    F32,
    F64,
    /// IEEE half precision ([`F16`]).
    F16,
    /// bfloat16 ([`BF16`]).
    BF16,
    I8,
    I16,
    I32,
    I64,
    /// One byte per element, 0 or 1.
    Bool,
}

impl DType {
    pub const ALL: [DType; 9] =
        [DType::F32, DType::F64, DType::F16, DType::BF16, DType::I8, DType::I16, DType::I32, DType::I64, DType::Bool];

    pub fn size(self) -> usize {
        match self {
            DType::F32 | DType::I32 => 4,
            DType::F64 | DType::I64 => 8,
            DType::I16 | DType::F16 | DType::BF16 => 2,
            DType::I8 | DType::Bool => 1,
        }
    }

    /// The C type of an element (`<stdint.h>` and `<stdbool.h>`; a `bool` is one byte
    /// holding 0 or 1; `_Float16` is C23's and GCC's and Clang's on x86-64; a bf16 is
    /// its bits, the high half of an IEEE single, since C compilers disagree on
    /// `__bf16`).
    pub fn c_type(self) -> &'static str {
        match self {
            DType::F32 => "float",
            DType::F64 => "double",
            DType::F16 => "_Float16",
            DType::BF16 => "uint16_t",
            DType::I8 => "int8_t",
            DType::I16 => "int16_t",
            DType::I32 => "int32_t",
            DType::I64 => "int64_t",
            DType::Bool => "bool",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::I8 => "i8",
            DType::I16 => "i16",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::Bool => "i1",
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An IEEE half-precision number, as its bits (Rust's `f16` is not stable yet): the
/// element of [`DType::F16`] tensors. The compiler defines the conversions
/// (`tcc_ir::dense`); this widening, for display and comparison, is tested against it.
#[repr(transparent)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct F16(pub u16);

impl F16 {
    /// Exact.
    pub fn to_f32(self) -> f32 {
        let h = self.0;
        let sign = ((h >> 15) as u32) << 31;
        let (exp, mant) = (((h >> 10) & 0x1f) as u32, (h & 0x3ff) as u32);
        let magnitude = match exp {
            // Zeros and subnormals: the mantissa times 2^-24.
            0 => (mant as f32 * f32::from_bits(0x3380_0000)).to_bits(),
            0x1f => 0x7f80_0000 | (mant << 13),
            e => ((e + 112) << 23) | (mant << 13),
        };
        f32::from_bits(sign | magnitude)
    }
}

/// A bfloat16 number, as its bits (the high half of an IEEE single): the element of
/// [`DType::BF16`] tensors. The compiler defines the conversions (`tcc_ir::dense`).
#[repr(transparent)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BF16(pub u16);

impl BF16 {
    /// Exact.
    pub fn to_f32(self) -> f32 {
        f32::from_bits((self.0 as u32) << 16)
    }
}

/// A tensor's expected dtype and shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorSpec {
    pub dtype: DType,
    pub shape: Vec<usize>,
}

impl fmt::Display for TensorSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{:?}", self.dtype, self.shape)
    }
}

/// A model's inputs and outputs.
#[derive(Clone, Debug, Default)]
pub struct Signature {
    pub inputs: Vec<TensorSpec>,
    pub outputs: Vec<TensorSpec>,
}

/// A compiled model's entry: `args` holds one pointer per input then per output
/// buffer, `workspace` the scratch arena, `pool` the thread pool (or null), and
/// `status` receives the id of the first failed run-time check (0 when all passed).
pub type EntryFn =
    unsafe extern "C" fn(args: *const *mut u8, workspace: *mut u8, pool: *const PoolHandle, status: *mut u32);

/// The runtime's thread pool as compiled code sees it: an opaque pointer it hands back
/// to [`symbols::PARALLEL_FOR`].
#[repr(C)]
pub struct PoolHandle {
    _opaque: [u8; 0],
}

/// The runtime functions compiled code calls, by symbol name. (The f64 math routines
/// are named by their functions: `tcc_ir::scalar::MathFn::f64_symbol`.)
pub mod symbols {
    /// `void tcc_parallel_for_blocks(const PoolHandle *pool, void (*body)(void *ctx,
    /// size_t begin, size_t end), void *ctx, size_t n, size_t min_blocks)`: runs a
    /// parallel loop's chunks on the pool, in at least `min_blocks` blocks (0: the pool's
    /// default) claimed one at a time.
    pub const PARALLEL_FOR: &str = "tcc_parallel_for_blocks";
    /// `void tcc_profile_mark(int32_t kernel)`: a profiled run entering kernel `kernel`.
    pub const PROFILE_MARK: &str = "tcc_profile_mark";
    /// The entry point of ahead-of-time compiled models (see the runtime's `aot`).
    pub const AOT_RUN: &str = "tcc_aot_run";
}

/// How many threads a model run may use: the limits shared by the C API of compiled
/// objects, the CLI's `--threads` and the Rust builder's thread option. (The default,
/// one per physical core, is the runtime's: `tcc_runtime::threads::resolve_threads`.)
pub mod threads {
    /// The most threads a model run may use, and so the most workers the runtime's
    /// process-wide pool ever starts.
    ///
    /// 256 is above the physical cores of today's largest common servers (two 128-core
    /// sockets), so it never limits a sensible request, while it bounds what a mistaken one
    /// costs: every thread is an OS thread with its own stack, and beyond the core count
    /// more threads only split loops into smaller pieces and add wake-ups.
    pub const MAX_THREADS: usize = 256;

    /// The environment variable that sets the default thread count.
    pub const THREADS_ENV: &str = "TCC_NUM_THREADS";

    /// `n` if it is a valid thread count (1 to [`MAX_THREADS`]), else an error saying why.
    pub fn validate_threads(n: usize) -> Result<usize, String> {
        if n == 0 {
            Err(format!("invalid thread count 0: it must be from 1 to {MAX_THREADS}"))
        } else if n > MAX_THREADS {
            Err(format!("invalid thread count {n}: at most {MAX_THREADS} threads are supported"))
        } else {
            Ok(n)
        }
    }

    /// Parses a thread count written by a user (surrounding spaces allowed) and validates
    /// it like [`validate_threads`]; `what` names where it came from in the error (say
    /// `"--threads"` or `"TCC_NUM_THREADS"`).
    pub fn parse_threads(text: &str, what: &str) -> Result<usize, String> {
        let t = text.trim();
        let n = t.parse::<usize>().map_err(|_| {
            let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            let why = if digits(t) {
                "too large"
            } else if t.strip_prefix('-').is_some_and(digits) {
                "a thread count cannot be negative"
            } else {
                "not a whole number"
            };
            format!("invalid {what} '{text}': {why} (expected 1 to {MAX_THREADS})")
        })?;
        validate_threads(n).map_err(|e| format!("{what}: {e}"))
    }

    /// The thread count `TCC_NUM_THREADS` asks for: `Ok(None)` when it is unset or empty,
    /// `Ok(Some(n))` for a valid count, an error when it is set to anything else (text, 0,
    /// a negative number, more than [`MAX_THREADS`]).
    pub fn threads_from_env() -> Result<Option<usize>, String> {
        match std::env::var(THREADS_ENV) {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(v)) => Err(format!("invalid {THREADS_ENV} {v:?}: not a whole number")),
            Ok(v) if v.trim().is_empty() => Ok(None),
            Ok(v) => parse_threads(&v, THREADS_ENV).map(Some),
        }
    }
}

/// Why `tcc_aot_run` refused to run a model; C sees [`AotError::code`] (negative;
/// positive results are the 1-based ids of failed run-time checks, 0 is success).
/// Generated headers define a `TCC_ERROR_*` macro per code ([`AotError::macro_name`])
/// and return [`AotError::message`] from `NAME_error_message`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AotError {
    /// `inputs` is NULL (and the model has inputs).
    NullInputs,
    /// An element of `inputs` is NULL.
    NullInput,
    /// `outputs` is NULL (and the model has outputs).
    NullOutputs,
    /// An element of `outputs` is NULL.
    NullOutput,
    /// `threads` is negative or above [`threads::MAX_THREADS`].
    InvalidThreads,
    /// `threads` is 0 (the default) and `TCC_NUM_THREADS` is set to an invalid count.
    InvalidThreadsEnv,
    /// The model's workspace cannot be allocated.
    OutOfMemory,
    /// The runtime panicked (a bug in tcc); the outputs are not valid.
    Internal,
    /// The model calls microkernels of an ISA level this CPU does not run, or that
    /// `TCC_ISA` rules out.
    UnsupportedIsa,
}

impl AotError {
    /// Every error, in code order (-1 first).
    pub const ALL: [AotError; 9] = [
        AotError::NullInputs,
        AotError::NullInput,
        AotError::NullOutputs,
        AotError::NullOutput,
        AotError::InvalidThreads,
        AotError::InvalidThreadsEnv,
        AotError::OutOfMemory,
        AotError::Internal,
        AotError::UnsupportedIsa,
    ];

    /// The code `tcc_aot_run` returns: -1 to -9.
    pub fn code(self) -> i32 {
        -1 - AotError::ALL.iter().position(|&e| e == self).expect("listed") as i32
    }

    /// The error with this code, if any.
    pub fn from_code(code: i32) -> Option<AotError> {
        AotError::ALL.into_iter().find(|e| e.code() == code)
    }

    /// The name of the code's macro in generated headers.
    pub fn macro_name(self) -> &'static str {
        match self {
            AotError::NullInputs => "TCC_ERROR_NULL_INPUTS",
            AotError::NullInput => "TCC_ERROR_NULL_INPUT",
            AotError::NullOutputs => "TCC_ERROR_NULL_OUTPUTS",
            AotError::NullOutput => "TCC_ERROR_NULL_OUTPUT",
            AotError::InvalidThreads => "TCC_ERROR_INVALID_THREADS",
            AotError::InvalidThreadsEnv => "TCC_ERROR_INVALID_THREADS_ENV",
            AotError::OutOfMemory => "TCC_ERROR_OUT_OF_MEMORY",
            AotError::Internal => "TCC_ERROR_INTERNAL",
            AotError::UnsupportedIsa => "TCC_ERROR_UNSUPPORTED_ISA",
        }
    }

    /// What went wrong, for the user.
    pub fn message(self) -> String {
        match self {
            AotError::NullInputs => "the inputs array is NULL".into(),
            AotError::NullInput => "an element of the inputs array is NULL".into(),
            AotError::NullOutputs => "the outputs array is NULL".into(),
            AotError::NullOutput => "an element of the outputs array is NULL".into(),
            AotError::InvalidThreads => {
                format!("invalid thread count: it must be 0 (the default) or from 1 to {}", threads::MAX_THREADS)
            }
            AotError::InvalidThreadsEnv => {
                format!("invalid TCC_NUM_THREADS: it must be a whole number from 1 to {}", threads::MAX_THREADS)
            }
            AotError::OutOfMemory => "cannot allocate the model's workspace".into(),
            AotError::Internal => "internal error in the tcc runtime (a bug in tcc; please report it)".into(),
            AotError::UnsupportedIsa => "the model was compiled to call microkernels of an ISA level this CPU does \
                                         not run (or that TCC_ISA rules out); compile it again for this machine"
                .into(),
        }
    }
}

impl std::fmt::Display for AotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

/// Vector registers a broadcast tile's sub-tile leaves free beside its accumulators, weight
/// vectors and broadcast: with none, 14 x 1 accumulators in AVX2's 16 registers left the
/// compiler of the microkernels one short over a reduction of several levels, and it kept
/// an accumulator on the stack, a store and a reload on its FMA chain at every step (29
/// GFLOP/s where 13 x 1 ran at 86, Zen 3). The kernel configuration plans tiles with it.
pub const TILE_SPARE_REGISTERS: usize = 1;

/// An x86 ISA level with its own compiled microkernels.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Isa {
    /// SSE2 (every x86-64 CPU): 4 f32 lanes, 16 registers, multiply then add.
    Sse,
    /// AVX2 with FMA: 8 lanes, 16 registers.
    Avx2,
    /// AVX-512F and DQ (every AVX-512 server CPU: Skylake-SP and later, Zen 4 and
    /// later): 16 lanes, 32 registers.
    Avx512,
}

impl Isa {
    pub const ALL: [Isa; 3] = [Isa::Sse, Isa::Avx2, Isa::Avx512];

    /// The name `TCC_ISA` and `--print-target` use.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Sse => "sse",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    pub fn from_name(name: &str) -> Option<Isa> {
        Isa::ALL.into_iter().find(|i| i.name() == name)
    }

    /// f32 lanes of the level's vectors.
    pub fn lanes(self) -> u32 {
        match self {
            Isa::Sse => 4,
            Isa::Avx2 => 8,
            Isa::Avx512 => 16,
        }
    }

    /// Vector registers a microkernel of this level allocates.
    pub fn registers(self) -> u32 {
        match self {
            Isa::Sse | Isa::Avx2 => 16,
            Isa::Avx512 => 32,
        }
    }

    /// Whether this CPU runs the level's code.
    pub fn is_supported(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match self {
                Isa::Sse => true,
                Isa::Avx2 => is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma"),
                Isa::Avx512 => is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512dq"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// The best level this CPU runs (`None` off x86-64).
    pub fn host_best() -> Option<Isa> {
        Isa::ALL.into_iter().rev().find(|i| i.is_supported())
    }

    /// The level a compilation uses, from a request (`TCC_ISA`, a builder option):
    /// absent, the best this CPU runs; `none`, no microkernels; a level's name, that
    /// level if this CPU runs it. Anything else is an error that says what is allowed.
    pub fn resolve(request: Option<&str>) -> Result<Option<Isa>, String> {
        let Some(name) = request.map(str::trim) else { return Ok(Isa::host_best()) };
        if name == "none" {
            return Ok(None);
        }
        let isa = Isa::from_name(name)
            .ok_or_else(|| format!("unknown ISA level '{name}' (expected avx512, avx2, sse or none)"))?;
        if !isa.is_supported() {
            let best = Isa::host_best().map_or("none".to_string(), |b| b.name().to_string());
            return Err(format!("this CPU does not run the {isa} microkernels (the best level it runs is {best})"));
        }
        Ok(Some(isa))
    }

    /// The number an object file records for the level its code calls (0: none).
    pub fn code(isa: Option<Isa>) -> i32 {
        isa.map_or(0, |i| 1 + Isa::ALL.iter().position(|&l| l == i).expect("listed") as i32)
    }

    /// The level of [`Isa::code`]'s number; an error for a number no level has.
    pub fn from_code(code: i32) -> Result<Option<Isa>, String> {
        match code {
            0 => Ok(None),
            c if c > 0 && (c as usize) <= Isa::ALL.len() => Ok(Some(Isa::ALL[c as usize - 1])),
            _ => Err(format!("no microkernel ISA level has the number {code}")),
        }
    }

    /// Whether code calling level `isa`'s microkernels may run here: this CPU runs it
    /// and `TCC_ISA`, if it names a level (or `none`), allows it.
    pub fn may_run(isa: Isa) -> bool {
        let allowed = match std::env::var("TCC_ISA").ok().as_deref().map(str::trim) {
            Some("none") => None,
            Some(name) => Isa::from_name(name).or_else(Isa::host_best),
            None => Isa::host_best(),
        };
        isa.is_supported() && allowed.is_some_and(|a| isa <= a)
    }

    /// The C symbol of the level's broadcast-tile microkernel.
    pub fn tile_symbol(self) -> &'static str {
        match self {
            Isa::Sse => "tcc_uk_tile_sse",
            Isa::Avx2 => "tcc_uk_tile_avx2",
            Isa::Avx512 => "tcc_uk_tile_avx512",
        }
    }

    /// The C symbol of the level's in-place array math (`tcc_uk_math_<isa>(function,
    /// x, n)`, the function one of the `MATH_*` numbers), or `None` where the level has
    /// none (SSE: no wider than the generated code's vectors, and no FMA).
    pub fn math_symbol(self) -> Option<&'static str> {
        match self {
            Isa::Sse => None,
            Isa::Avx2 => Some("tcc_uk_math_avx2"),
            Isa::Avx512 => Some("tcc_uk_math_avx512"),
        }
    }

    /// The C symbol of the level's column sums (`tcc_uk_column_sums_<isa>(flags, x, rows,
    /// row_stride, columns, bias, center, out)`, the flags [`COLUMN_SUMS_WIDEN`] and
    /// [`COLUMN_SUMS_SQUARE`]), or `None` where the level has none (SSE: no wider than
    /// the generated code's vectors).
    pub fn column_sums_symbol(self) -> Option<&'static str> {
        match self {
            Isa::Sse => None,
            Isa::Avx2 => Some("tcc_uk_column_sums_avx2"),
            Isa::Avx512 => Some("tcc_uk_column_sums_avx512"),
        }
    }

    /// The C symbol of the level's bf16 dot-tile microkernel (the same arguments as
    /// the broadcast tile's, over bf16 inputs and weights).
    pub fn dot_symbol(self) -> &'static str {
        match self {
            Isa::Sse => "tcc_uk_dot_sse",
            Isa::Avx2 => "tcc_uk_dot_avx2",
            Isa::Avx512 => "tcc_uk_dot_avx512",
        }
    }
}

impl fmt::Display for Isa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The tile adds its result to the output's values (f32 outputs only).
pub const OUTPUT_ACCUMULATE: i64 = 1;

/// The output holds bf16 values: the result, after the epilogue, is rounded to nearest
/// even (the bf16 dot tile only, without [`OUTPUT_ACCUMULATE`]).
pub const OUTPUT_BF16: i64 = 2;

/// The epilogue takes the sigmoid of the value after bias, mask and residual, before
/// the clamp.
pub const OUTPUT_SIGMOID: i64 = 4;

/// The epilogue multiplies the value after bias, mask and residual by its sigmoid
/// (SiLU), before the clamp.
pub const OUTPUT_SILU: i64 = 8;

/// `tcc_uk_math_<isa>`'s functions: `exp` and `erf`, exactly as `expand-math` expands
/// them.
pub const MATH_EXP: i64 = 0;
pub const MATH_ERF: i64 = 1;

/// `tcc_uk_column_sums_<isa>`'s flags. Column `c`'s sum is that over the rows `r` of
/// `x[r][c] + bias[c]` (f32; no bias: `x[r][c]`), widened to f64 with
/// [`COLUMN_SUMS_WIDEN`] (the sums are then f64, as is the center), minus `center[c]`
/// (if any), squared with [`COLUMN_SUMS_SQUARE`]; the rows are added in order.
pub const COLUMN_SUMS_WIDEN: i64 = 1;
pub const COLUMN_SUMS_SQUARE: i64 = 2;

/// The constants of the f32 approximations of `exp` and `erf`, said once for the two
/// places that compute them: `expand-math`'s expansion (`tcc_ir::scalar::MathFn`) and
/// the runtime's array math (`tcc_ukernels::math`). Each is rounded to f32 where used.
pub mod approximations {
    /// `exp`'s clamp: `ln(f32::MAX)` and the log of the smallest normal f32.
    pub const EXP_HI: f64 = 88.722_831_726_074_22;
    pub const EXP_LO: f64 = -87.336_544_750_553_1;
    /// `ln 2` in two parts, the first negated: `r = n * LN2_HI_NEG + x`, then
    /// `r = n * LN2_LO + r`.
    pub const LN2_HI_NEG: f64 = -0.693_359_375;
    pub const LN2_LO: f64 = 2.121_944_4e-4;
    /// Cephes' coefficients of `exp(r)` on `[-ln 2 / 2, ln 2 / 2]`, highest degree first
    /// (then `r^2 * p + (r + 1)`).
    pub const EXP_POLY: [f64; 6] = [
        1.987_569_150_0e-4,
        1.398_199_950_7e-3,
        8.333_451_907_3e-3,
        4.166_579_589_4e-2,
        1.666_666_545_9e-1,
        5.000_000_120_1e-1,
    ];
    /// `1.5 * 2^23` and its bits: an integral float below 2^22 plus this holds the
    /// integer in its low mantissa bits.
    pub const SMALL_INT_MAGIC: f64 = 12_582_912.0;
    pub const SMALL_INT_MAGIC_BITS: i64 = 0x4B40_0000;
    /// Eigen's `erf`: the clamp, then the odd numerator and the even denominator in
    /// `x^2`, highest degree first.
    pub const ERF_BOUND: f64 = 4.0;
    pub const ERF_P: [f64; 7] = [
        -2.726_142_258_013_06e-10,
        2.770_681_424_959_02e-08,
        -2.101_024_020_825_08e-06,
        -5.692_506_394_623_46e-05,
        -7.349_906_303_268_55e-04,
        -2.954_599_808_540_25e-03,
        -1.609_603_332_624_15e-02,
    ];
    pub const ERF_Q: [f64; 5] = [
        -1.456_607_184_649_96e-05,
        -2.133_740_552_789_05e-04,
        -1.682_826_974_382_03e-03,
        -7.373_329_167_204_68e-03,
        -1.426_473_905_141_89e-02,
    ];
}

/// The residual holds bf16 values, widened to f32 where the epilogue adds them (the bf16
/// dot tile only).
pub const OUTPUT_BF16_RESIDUAL: i64 = 16;

/// The arguments of the microkernels' C entry points `tcc_uk_tile_<isa>`, in order (the
/// operands of the compiler's `loop.microkernel`): all 64-bit, pointers and integers,
/// the clamp's bounds as f32 bits. `output` says how the tile meets its output: a sum
/// of the [`OUTPUT_ACCUMULATE`] and [`OUTPUT_BF16`] bits (none: the tile overwrites f32
/// values), of [`OUTPUT_SIGMOID`] or [`OUTPUT_SILU`] for an activation, and of
/// [`OUTPUT_BF16_RESIDUAL`] for a bf16 residual.
/// `out_rows` repeats the tile over that many output rows, `x_out_row` and `o_out_row`
/// elements apart in the input and output (1: one; 0: none).
pub const TILE_ARGUMENTS: [&str; 38] = [
    "x",
    "w",
    "o",
    "rows",
    "vectors",
    "output",
    "x_row",
    "o_row",
    "group_vectors",
    "w_group",
    "o_group",
    "inner",
    "w_step",
    "n2",
    "x2",
    "w2",
    "n1",
    "x1",
    "w1",
    "n0",
    "x0",
    "w0",
    "prefetch",
    "bias",
    "bias_group",
    "bias_row",
    "mask",
    "residual",
    "lo",
    "hi",
    "x_vector",
    "x_step",
    "x_group",
    "reduce",
    "divisor",
    "out_rows",
    "x_out_row",
    "o_out_row",
];
