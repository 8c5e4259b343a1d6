//! The target description: what the machine code will run on, as the optimizer, the
//! lowering and the backends see it.
//!
//! A [`Target`] holds the SIMD register width and count, whether fused multiply-add is
//! one instruction (and scaling by a power of two), the core count, the data cache
//! sizes and the ISA level of the ahead-of-time microkernels the code may call. The
//! backend chosen for a compilation provides it (Cranelift: 128-bit vectors in 16
//! registers, and the host's best microkernels; LLVM: the host's or `--cpu`'s full
//! width); kernel configuration, layout blocking and vectorization read it and never
//! assume a width. The blocked kernels (layouts, register tiles) see
//! [`Target::kernel_target`]: the microkernels' vectors and registers when there are
//! microkernels. The compiler resolves it once per compile and hands
//! it to the passes that need it; textual pipelines (`tcc-opt`) spell it as pass options
//! ([`Target::from_options`]), so any stage can run for any target. [`host`] is every
//! probe of the machine the compiler makes. This crate depends on nothing else of tcc
//! but the agreements of `tcc-runtime-abi` (the microkernels' [`Isa`] levels).

use std::fmt;

pub use tcc_runtime_abi::{
    COLUMN_SUMS_SQUARE, COLUMN_SUMS_WIDEN, Isa, MATH_ERF, MATH_EXP, OUTPUT_ACCUMULATE, OUTPUT_BF16,
    OUTPUT_BF16_RESIDUAL, OUTPUT_SIGMOID, OUTPUT_SILU, TILE_ARGUMENTS, TILE_SPARE_REGISTERS,
};

pub mod host;

/// What code is generated for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// Width of the SIMD registers the backend generates code for, in bits.
    pub vector_bits: u32,
    /// How many SIMD registers the backend allocates (16 xmm/ymm, 32 zmm).
    pub vector_registers: u32,
    /// Whether fused multiply-add is a single instruction.
    pub fma: bool,
    /// Whether vectors of f32 are scaled by a power of two (`x * 2^n`, one rounding) in
    /// a single instruction (AVX-512's `vscalefps`).
    pub ldexp: bool,
    /// Physical cores the generated code may use (the thread pool's default size).
    pub cores: u32,
    /// Per-core level-1 data cache, in bytes.
    pub l1_bytes: u32,
    /// Per-core level-2 cache, in bytes.
    pub l2_bytes: u32,
    /// Whether the backend emits prefetch hints (LLVM; Cranelift has no prefetch
    /// instruction and drops them, so kernels there only pay for their addresses).
    pub prefetch: bool,
    /// The ISA level of the runtime's microkernels the generated code calls for the
    /// interior tiles of blocked convolutions and packed matmuls (`None`: the backend
    /// generates every tile itself).
    pub ukernels: Option<Isa>,
    /// Whether matmuls of bf16 operands (the bf16 precision policy) call the runtime's
    /// AVX-512 bf16 dot microkernel (`vdpbf16ps` where the CPU has AVX512_BF16,
    /// widening FMAs elsewhere); without it they widen to f32 kernels. Set for AVX-512
    /// targets.
    pub bf16_dot: bool,
    /// Whether the bf16 dot microkernel runs on AMX tiles (`tdpbf16ps`, 16 x 16
    /// accumulators): bf16 kernels are then planned in tiles of up to 32 rows.
    pub amx_bf16: bool,
}

/// Lanes of the bf16 dot microkernel's vectors (its level is AVX-512's, 16 f32 lanes):
/// bf16 kernels pack their weights in blocks of whole vectors of them.
pub const BF16_DOT_LANES: i64 = 16;

/// Input channels up to which an ungrouped convolution is a first layer (an image's
/// colours), which the bf16 dot kernels read padded to this many: two pairs.
pub const BF16_STEM_CHANNELS: i64 = 4;

/// Option names and documentation of [`Target::from_options`], for pass registries.
pub const PASS_OPTIONS: &[(&str, &str)] = &[
    ("vector-bits", "SIMD register width in bits (default 128)"),
    ("vector-registers", "number of SIMD registers (default 16)"),
    ("fma", "fused multiply-add is one instruction (default true)"),
    ("ldexp", "f32 vectors scale by a power of two in one instruction (default false)"),
    ("cores", "cores the code may use (default 1)"),
    ("l1", "level-1 data cache per core in bytes (default 32768)"),
    ("l2", "level-2 cache per core in bytes (default 1048576)"),
    ("prefetch", "the backend emits prefetch hints (default false)"),
    ("ukernels", "ISA level of the microkernels the code calls: avx512, avx2, sse or none (default none)"),
    ("bf16-dot", "bf16 matmuls call the AVX-512 bf16 dot microkernel (default false)"),
    ("amx-bf16", "the bf16 dot microkernel runs on AMX tiles (default false)"),
];

impl Default for Target {
    /// A baseline x86-64 core with 128-bit vectors (what Cranelift generates).
    fn default() -> Self {
        Target {
            vector_bits: 128,
            vector_registers: 16,
            fma: true,
            ldexp: false,
            cores: 1,
            l1_bytes: 32 << 10,
            l2_bytes: 1 << 20,
            prefetch: false,
            ukernels: None,
            bf16_dot: false,
            amx_bf16: false,
        }
    }
}

impl Target {
    /// Lanes of a vector of elements of `elem_bytes` bytes.
    pub fn lanes(&self, elem_bytes: usize) -> u32 {
        self.vector_bits / (elem_bytes as u32 * 8)
    }

    /// Lanes of an f32 vector.
    pub fn f32_lanes(&self) -> i64 {
        self.lanes(4) as i64
    }

    /// The target as the blocked kernels see it: with microkernels, their vector width
    /// and registers (which set the channel blocks of the layouts and the register
    /// tiles) and their weight prefetches, else this target.
    pub fn kernel_target(&self) -> Target {
        match self.ukernels {
            Some(isa) => Target {
                vector_bits: isa.lanes() * 32,
                vector_registers: isa.registers(),
                fma: true,
                prefetch: true,
                ..*self
            },
            None => *self,
        }
    }

    /// A target for this machine's caches, cores and FMA with the given vector
    /// registers.
    pub fn host(vector_bits: u32, vector_registers: u32) -> Target {
        let d = Target::default();
        let caches = host::caches();
        Target {
            vector_bits,
            vector_registers,
            fma: host::has_fma(),
            ldexp: false,
            cores: host::cores(),
            l1_bytes: caches.l1.unwrap_or(d.l1_bytes),
            l2_bytes: caches.l2.unwrap_or(d.l2_bytes),
            prefetch: d.prefetch,
            ukernels: None,
            bf16_dot: false,
            amx_bf16: host::has_amx_bf16(),
        }
    }

    /// Reads a target from pass options (`vector-bits=512 vector-registers=32 ...`;
    /// `get(name)` gives an option's text); missing options take [`Target::default`]'s
    /// values.
    pub fn from_options<'a>(get: impl Fn(&str) -> Option<&'a str>) -> Result<Target, String> {
        fn parse<T: std::str::FromStr>(text: Option<&str>, key: &str, default: T) -> Result<T, String> {
            match text {
                None => Ok(default),
                Some(v) => v.parse().map_err(|_| format!("invalid value '{v}' for option '{key}'")),
            }
        }
        let d = Target::default();
        let t = Target {
            vector_bits: parse(get("vector-bits"), "vector-bits", d.vector_bits)?,
            vector_registers: parse(get("vector-registers"), "vector-registers", d.vector_registers)?,
            fma: parse(get("fma"), "fma", d.fma)?,
            ldexp: parse(get("ldexp"), "ldexp", d.ldexp)?,
            cores: parse(get("cores"), "cores", d.cores)?,
            l1_bytes: parse(get("l1"), "l1", d.l1_bytes)?,
            l2_bytes: parse(get("l2"), "l2", d.l2_bytes)?,
            prefetch: parse(get("prefetch"), "prefetch", d.prefetch)?,
            ukernels: match get("ukernels") {
                None | Some("none") => None,
                Some(name) => Some(Isa::from_name(name).ok_or_else(|| {
                    format!("invalid value '{name}' for option 'ukernels' (expected avx512, avx2, sse or none)")
                })?),
            },
            bf16_dot: parse(get("bf16-dot"), "bf16-dot", d.bf16_dot)?,
            amx_bf16: parse(get("amx-bf16"), "amx-bf16", d.amx_bf16)?,
        };
        if !matches!(t.vector_bits, 128 | 256 | 512) {
            return Err(format!("vector-bits must be 128, 256 or 512, got {}", t.vector_bits));
        }
        if !(8..=64).contains(&t.vector_registers) {
            return Err(format!("vector-registers must be between 8 and 64, got {}", t.vector_registers));
        }
        if t.cores == 0 || t.l1_bytes < 1024 || t.l2_bytes < t.l1_bytes {
            return Err("cores must be positive and the caches at least 1 KiB, L2 no smaller than L1".into());
        }
        Ok(t)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fma = if self.fma { "FMA" } else { "no FMA" };
        let cores = self.cores;
        write!(f, "{}-bit vectors x {} registers, {fma}, {cores} core", self.vector_bits, self.vector_registers)?;
        if cores != 1 {
            write!(f, "s")?;
        }
        write!(f, ", L1d {} KiB, L2 {} KiB", self.l1_bytes >> 10, self.l2_bytes >> 10)?;
        if let Some(isa) = self.ukernels {
            write!(f, ", {isa} microkernels")?;
        }
        if self.bf16_dot {
            write!(f, ", bf16 dot microkernel")?;
            if self.amx_bf16 {
                write!(f, " on AMX tiles")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_round_trip() {
        let t = Target {
            vector_bits: 512,
            vector_registers: 32,
            fma: true,
            ldexp: true,
            cores: 2,
            l1_bytes: 49152,
            l2_bytes: 2 << 20,
            prefetch: true,
            ukernels: Some(Isa::Avx2),
            bf16_dot: true,
            amx_bf16: true,
        };
        let map: std::collections::HashMap<&str, &str> = [
            ("vector-bits", "512"),
            ("vector-registers", "32"),
            ("fma", "true"),
            ("ldexp", "true"),
            ("cores", "2"),
            ("l1", "49152"),
            ("l2", "2097152"),
            ("prefetch", "true"),
            ("ukernels", "avx2"),
            ("bf16-dot", "true"),
            ("amx-bf16", "true"),
        ]
        .into_iter()
        .collect();
        assert_eq!(Target::from_options(|k| map.get(k).copied()).unwrap(), t);
        assert_eq!(Target::from_options(|_| None).unwrap(), Target::default());
        assert!(Target::from_options(|k| (k == "vector-bits").then_some("96")).is_err());
        assert!(Target::from_options(|k| (k == "cores").then_some("x")).is_err());
        assert!(Target::from_options(|k| (k == "ukernels").then_some("avx")).is_err());
        // The blocked kernels see the microkernels' vectors and registers.
        let k = Target { ukernels: Some(Isa::Avx512), ..Target::default() }.kernel_target();
        assert_eq!((k.f32_lanes(), k.vector_registers), (16, 32));
        assert_eq!(Target::default().kernel_target(), Target::default());
    }

    #[test]
    fn the_dot_lanes_are_the_avx512_levels() {
        assert_eq!(BF16_DOT_LANES, Isa::Avx512.lanes() as i64);
    }

    #[test]
    fn the_host_target_has_sane_caches() {
        let t = Target::host(128, 16);
        assert!(t.l1_bytes >= 1024 && t.l2_bytes >= t.l1_bytes && t.cores >= 1);
    }
}
