//! Fixed-width signed integers of `64 * K` bits (two's complement), the
//! edge weights of the Dutch pairing: each criterion takes its own field of
//! bits, so a weight needs hundreds of bits. Only what the matching and the
//! weight builder need: add, subtract, halve, compare, shift, or.

use std::cmp::Ordering;
use std::ops::{Add, BitOr, Shl, Sub};

/// A number the maximum-weight matching can work with.
pub trait Weight: Copy + Ord + Add<Output = Self> + Sub<Output = Self> + std::fmt::Debug {
    /// Zero.
    const ZERO: Self;
    /// Half the value, rounded towards minus infinity.
    fn half(self) -> Self;
}

impl Weight for i64 {
    const ZERO: i64 = 0;
    fn half(self) -> i64 {
        self >> 1
    }
}

impl Weight for i128 {
    const ZERO: i128 = 0;
    fn half(self) -> i128 {
        self >> 1
    }
}

/// A signed integer of `64 * K` bits; limb 0 is the least significant.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wide<const K: usize>(pub [u64; K]);

impl<const K: usize> Wide<K> {
    /// The value of a small unsigned number.
    pub fn from_u64(v: u64) -> Self {
        let mut limbs = [0; K];
        limbs[0] = v;
        Wide(limbs)
    }

    /// True when the value is zero.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    fn is_negative(&self) -> bool {
        self.0[K - 1] >> 63 == 1
    }
}

impl<const K: usize> Add for Wide<K> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        let mut out = [0; K];
        let mut carry = false;
        for (i, o) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(rhs.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *o = s2;
            carry = c1 || c2;
        }
        Wide(out)
    }
}

impl<const K: usize> Sub for Wide<K> {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        let mut out = [0; K];
        let mut borrow = false;
        for (i, o) in out.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(rhs.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            *o = d2;
            borrow = b1 || b2;
        }
        Wide(out)
    }
}

impl<const K: usize> Shl<u32> for Wide<K> {
    type Output = Self;
    fn shl(self, bits: u32) -> Self {
        let limbs = (bits / 64) as usize;
        let rest = bits % 64;
        let mut out = [0u64; K];
        for i in (limbs..K).rev() {
            let src = i - limbs;
            let mut v = self.0[src] << rest;
            if rest > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - rest);
            }
            out[i] = v;
        }
        Wide(out)
    }
}

impl<const K: usize> BitOr for Wide<K> {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        let mut out = self.0;
        for (o, r) in out.iter_mut().zip(rhs.0) {
            *o |= r;
        }
        Wide(out)
    }
}

impl<const K: usize> Ord for Wide<K> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..K).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl<const K: usize> PartialOrd for Wide<K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A weight built field by field: shifted, or-ed, compared with zero.
pub trait Packed: Weight + Shl<u32, Output = Self> + BitOr<Output = Self> {
    /// The value of a small unsigned number.
    fn small(v: u64) -> Self;
    /// True when zero.
    fn zero(&self) -> bool;
}

impl<const K: usize> Packed for Wide<K> {
    fn small(v: u64) -> Self {
        Wide::from_u64(v)
    }
    fn zero(&self) -> bool {
        self.is_zero()
    }
}

impl<const K: usize> Weight for Wide<K> {
    const ZERO: Self = Wide([0; K]);
    fn half(self) -> Self {
        let neg = self.is_negative();
        let mut out = [0u64; K];
        for (i, o) in out.iter_mut().enumerate() {
            let hi = if i + 1 < K {
                self.0[i + 1] << 63
            } else if neg {
                1 << 63
            } else {
                0
            };
            *o = (self.0[i] >> 1) | hi;
        }
        Wide(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_across_limbs() {
        let a = Wide::<4>::from_u64(1) << 130;
        let b = Wide::<4>::from_u64(3);
        let d = a - b;
        assert!(d < a && d > b);
        assert_eq!(d + b, a);
        assert_eq!((a + a).half(), a);
        let neg = b - a;
        assert!(neg < Wide::ZERO);
        assert_eq!((neg + neg).half(), neg);
        assert_eq!(Wide::<4>::from_u64(7).half(), Wide::from_u64(3));
        assert_eq!(
            (Wide::<4>::from_u64(5) | Wide::from_u64(2)),
            Wide::from_u64(7)
        );
    }
}
