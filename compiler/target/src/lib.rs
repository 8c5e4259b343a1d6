//! The target description: what the machine code will run on, as the optimizer, the
//! lowering and the backends see it.
//!
//! A [`Target`] holds the SIMD register width and count, whether fused multiply-add is
//! one instruction (and scaling by a power of two), the core count and the data cache
//! sizes. The backend chosen for a
//! compilation provides it (Cranelift: 128-bit vectors in 16 registers; LLVM: the host's
//! or `--cpu`'s full width); kernel configuration, layout blocking and vectorization
//! read it and never assume a width. Passes receive it as pipeline options
//! ([`Target::to_pass_options`] / [`Target::from_options`]), so `tcc-opt` can run any
//! stage for any target. This crate depends on nothing else of tcc.

use std::fmt;

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
}

/// Option names and documentation of [`Target::from_options`], for pass registries.
pub const PASS_OPTIONS: &[(&str, &str)] = &[
    ("vector-bits", "SIMD register width in bits (default 128)"),
    ("vector-registers", "number of SIMD registers (default 16)"),
    ("fma", "fused multiply-add is one instruction (default true)"),
    ("ldexp", "f32 vectors scale by a power of two in one instruction (default false)"),
    ("cores", "cores the code may use (default 1)"),
    ("l1", "level-1 data cache per core in bytes (default 32768)"),
    ("l2", "level-2 cache per core in bytes (default 1048576)"),
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

    /// A target for this machine's caches and cores with the given vector registers.
    pub fn host(vector_bits: u32, vector_registers: u32, fma: bool, cores: u32) -> Target {
        let (l1, l2) = host_caches();
        Target { vector_bits, vector_registers, fma, ldexp: false, cores, l1_bytes: l1, l2_bytes: l2 }
    }

    /// Whether this machine executes fused multiply-add.
    pub fn host_has_fma() -> bool {
        #[cfg(target_arch = "x86_64")]
        return std::arch::is_x86_feature_detected!("fma");
        #[cfg(not(target_arch = "x86_64"))]
        return false;
    }

    /// The target as pass options (`vector-bits=512 vector-registers=32 ...`), the
    /// inverse of [`Target::from_options`].
    pub fn to_pass_options(&self) -> String {
        format!(
            "vector-bits={} vector-registers={} fma={} ldexp={} cores={} l1={} l2={}",
            self.vector_bits, self.vector_registers, self.fma, self.ldexp, self.cores, self.l1_bytes, self.l2_bytes
        )
    }

    /// Reads a target from pass options (`get(name)` gives an option's text); missing
    /// options take [`Target::default`]'s values.
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
        write!(f, ", L1d {} KiB, L2 {} KiB", self.l1_bytes >> 10, self.l2_bytes >> 10)
    }
}

/// This machine's per-core L1 data and L2 cache sizes (Linux sysfs), or the defaults.
pub fn host_caches() -> (u32, u32) {
    let d = Target::default();
    let (mut l1, mut l2) = (d.l1_bytes, d.l2_bytes);
    for index in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{index}");
        let read = |f: &str| std::fs::read_to_string(format!("{dir}/{f}")).map(|s| s.trim().to_string());
        let (Ok(level), Ok(kind), Ok(size)) = (read("level"), read("type"), read("size")) else { continue };
        let Some(bytes) = parse_size(&size) else { continue };
        match (level.as_str(), kind.as_str()) {
            ("1", "Data") => l1 = bytes,
            ("2", "Unified") | ("2", "Data") => l2 = bytes,
            _ => {}
        }
    }
    (l1, l2)
}

/// `32K`, `1024K`, `2M` or a byte count.
fn parse_size(s: &str) -> Option<u32> {
    let (num, mult) = match s.as_bytes().last()? {
        b'K' => (&s[..s.len() - 1], 1 << 10),
        b'M' => (&s[..s.len() - 1], 1 << 20),
        _ => (s, 1),
    };
    num.parse::<u32>().ok()?.checked_mul(mult)
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
        };
        let text = t.to_pass_options();
        let map: std::collections::HashMap<&str, &str> =
            text.split(' ').map(|kv| kv.split_once('=').unwrap()).collect();
        assert_eq!(Target::from_options(|k| map.get(k).copied()).unwrap(), t);
        assert_eq!(Target::from_options(|_| None).unwrap(), Target::default());
        assert!(Target::from_options(|k| (k == "vector-bits").then_some("96")).is_err());
        assert!(Target::from_options(|k| (k == "cores").then_some("x")).is_err());
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("32K"), Some(32768));
        assert_eq!(parse_size("2M"), Some(2 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("K"), None);
        let (l1, l2) = host_caches();
        assert!(l1 >= 1024 && l2 >= l1);
    }
}
