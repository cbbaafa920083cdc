//! A hasher for Zobrist keys: they are random already, so hashing them again
//! (as the standard SipHash does) only costs time. Mixes with one multiply
//! (the FxHash step) so that tuples of keys and moves spread well too.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher; see the module documentation.
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn write_u16(&mut self, x: u16) {
        self.write_u64(u64::from(x));
    }
}

/// A hash map keyed by Zobrist keys (or tuples holding them).
pub type KeyMap<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;
