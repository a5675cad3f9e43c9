//! The transposition table: a fixed-size, lock-free hash table shared by all
//! search threads.
//!
//! Each slot is two atomic words: the packed data and the key XOR the data.
//! A torn write (two threads storing into one slot at once) makes the check
//! fail on probe, so a reader never trusts a mixed entry.

use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score relates to the true value of the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// One probed entry.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// Encoded best move (see [`crate::search::encode_move`]), 0 for none.
    pub mv: u16,
    /// Search score, mate scores relative to the stored node.
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Remaining depth of the search that produced the entry.
    pub depth: i32,
    /// Kind of bound.
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The shared transposition table.
pub struct Table {
    slots: Box<[Slot]>,
    generation: AtomicU64,
}

const SLOT_BYTES: usize = 16;

impl Table {
    /// Allocates a table of about `mb` mebibytes (at least one slot).
    pub fn new(mb: usize) -> Table {
        let n = (mb.max(1) * 1024 * 1024 / SLOT_BYTES).max(1);
        let slots = (0..n)
            .map(|_| Slot {
                check: AtomicU64::new(0),
                data: AtomicU64::new(0),
            })
            .collect::<Vec<_>>()
            .into_boxed_slice();
        Table {
            slots,
            generation: AtomicU64::new(0),
        }
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn current_generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed) & 0x3f
    }

    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// Asks the processor to start loading `key`'s slot, so that the probe
    /// a little later does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot: *const Slot = &self.slots[self.index(key)];
            // SAFETY: a prefetch is only a hint; it reads nothing and cannot
            // fault, and the pointer is to a live slot anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up `key`.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[self.index(key)];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        let bound = match (data >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            mv: data as u16,
            score: i32::from((data >> 16) as i16),
            eval: i32::from((data >> 32) as i16),
            depth: i32::from((data >> 48) as u8),
            bound,
        })
    }

    /// Stores an entry, keeping the existing one if it is deeper, of this
    /// search, for another position and still valuable.
    pub fn store(&self, key: u64, mv: u16, score: i32, eval: i32, depth: i32, bound: Bound) {
        let slot = &self.slots[self.index(key)];
        let old_data = slot.data.load(Ordering::Relaxed);
        let old_key = slot.check.load(Ordering::Relaxed) ^ old_data;
        let generation_now = self.current_generation();
        let same = old_key == key;
        let mut mv = mv;
        if old_data != 0 {
            let old_depth = ((old_data >> 48) & 0xff) as i32;
            let old_gen = (old_data >> 58) & 0x3f;
            if same && mv == 0 {
                mv = old_data as u16;
            }
            if old_gen == generation_now
                && bound != Bound::Exact
                && old_depth > depth + if same { 3 } else { 1 }
            {
                return;
            }
        }
        let data = u64::from(mv)
            | (u64::from(score.clamp(-32767, 32767) as i16 as u16) << 16)
            | (u64::from(eval.clamp(-32767, 32767) as i16 as u16) << 32)
            | (u64::from(depth.clamp(0, 255) as u8) << 48)
            | ((bound as u64) << 56)
            | (generation_now << 58);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled slots filled during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation_now = self.current_generation();
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 58) & 0x3f == generation_now
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let t = Table::new(1);
        t.new_search();
        t.store(0xdead_beef, 1234, -500, 37, 9, Bound::Lower);
        let e = t.probe(0xdead_beef).expect("stored");
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (1234, -500, 37, 9, Bound::Lower)
        );
        assert!(t.probe(0xdead_bee0).is_none());
        t.clear();
        assert!(t.probe(0xdead_beef).is_none());
    }

    #[test]
    fn deeper_entry_survives_shallow_store() {
        let t = Table::new(1);
        t.store(42, 7, 10, 0, 12, Bound::Lower);
        t.store(42, 8, 20, 0, 2, Bound::Upper);
        assert_eq!(t.probe(42).expect("kept").depth, 12);
        t.store(42, 9, 30, 0, 2, Bound::Exact);
        assert_eq!(t.probe(42).expect("exact").mv, 9);
    }
}
