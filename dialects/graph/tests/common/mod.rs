//! Helpers the graph dialect's property tests share: a small deterministic generator
//! and random permutations.

#![allow(dead_code)]

use tcc_ir::{Module, Value};

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// A value in [-4, 4] on a grid of 1/250.
    pub fn f32(&mut self) -> f32 {
        (self.below(2001) as f32 - 1000.0) / 250.0
    }
    /// Mostly ordinary values; one in eight a signed zero, an infinity or a NaN.
    pub fn input(&mut self) -> f32 {
        if self.below(8) == 0 {
            [0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN][self.below(5)]
        } else {
            self.f32()
        }
    }
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

pub fn shape_of(m: &Module, v: Value) -> Vec<i64> {
    m.value_type(v).as_tensor().unwrap().shape().to_vec()
}

/// A random permutation of `0..rank` (the identity a third of the time).
pub fn random_perm(rng: &mut Rng, rank: usize) -> Vec<i64> {
    let mut p: Vec<i64> = (0..rank as i64).collect();
    if rng.below(3) > 0 {
        for i in (1..rank).rev() {
            p.swap(i, rng.below(i + 1));
        }
    }
    p
}
