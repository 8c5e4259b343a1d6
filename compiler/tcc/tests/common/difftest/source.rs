//! Where the generator's choices come from: a libFuzzer input read a few bytes per
//! decision (an exhausted input reads zeros, so every draw then takes its smallest
//! option and generation ends), or a seed expanded by xorshift64*.

pub struct Source<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Seeded mode: the xorshift state (the bytes are unused).
    state: Option<u64>,
}

impl<'a> Source<'a> {
    /// Decisions read from `bytes` (libFuzzer's input).
    pub fn from_bytes(bytes: &'a [u8]) -> Source<'a> {
        Source { bytes, pos: 0, state: None }
    }

    /// Decisions drawn from `seed` (the deterministic test).
    pub fn from_seed(seed: u64) -> Source<'static> {
        Source { bytes: &[], pos: 0, state: Some(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1) }
    }

    fn raw(&mut self, nbytes: usize) -> u64 {
        if let Some(s) = &mut self.state {
            return xorshift(s);
        }
        let mut v = 0u64;
        for i in 0..nbytes {
            v |= u64::from(self.bytes.get(self.pos).copied().unwrap_or(0)) << (8 * i);
            self.pos += 1;
        }
        v
    }

    /// An integer in `lo..=hi` (`lo` once a byte input is exhausted).
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let span = (hi - lo) as u64 + 1;
        let n = if span <= 1 << 8 {
            1
        } else if span <= 1 << 16 {
            2
        } else {
            4
        };
        lo + (self.raw(n) % span) as i64
    }

    /// True with probability `percent`/100 (false once a byte input is exhausted).
    pub fn chance(&mut self, percent: i64) -> bool {
        self.int(0, 99) >= 100 - percent
    }

    pub fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.int(0, v.len() as i64 - 1) as usize]
    }

    /// An index drawn with the given weights (the first once a byte input is exhausted).
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut x = self.int(0, total as i64 - 1) as u32;
        for (i, &w) in weights.iter().enumerate() {
            if x < w {
                return i;
            }
            x -= w;
        }
        weights.len() - 1
    }

    /// A 32-bit seed for the tensor data (so that data costs the fuzzer 4 bytes).
    pub fn seed(&mut self) -> u64 {
        self.raw(4)
    }
}

pub fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    s.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// The draws of tensor elements: many per case, so not taken from the fuzzer's bytes.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5DEE_CE66_D1CE_4E5B | 1)
    }
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo.wrapping_add((xorshift(&mut self.0) % ((hi.wrapping_sub(lo)) as u64).wrapping_add(1).max(1)) as i64)
    }
    pub fn chance(&mut self, percent: i64) -> bool {
        self.int(0, 99) < percent
    }
}
