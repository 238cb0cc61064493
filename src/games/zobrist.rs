//! Zobrist keys: one random 64-bit number per (feature, value) of a position, drawn from a
//! ChaCha generator with a fixed seed per game, so keys are the same on every machine and run.
//! A position's key is the XOR of the numbers of its features; make/unmake update it with one
//! or two XORs.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `n` random numbers from ChaCha8 seeded with `seed`.
pub fn numbers(seed: u64, n: usize) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| rng.next_u64()).collect()
}
