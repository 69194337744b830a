//! A hash index: where an entry of a table is, found by its hash in O(1) on average.
//!
//! The fact store finds facts by id and active facts by text. Two `HashMap`s did that, at about
//! 1 KB of gzipped wasm for the hash table code of each key type. This index holds only positions
//! in the caller's table and asks the caller whether the entry at a position is the one sought,
//! so one small table serves every key: only its lookup loop is generic.

use crate::prelude::*;
/// A slot no entry has used.
const EMPTY: usize = usize::MAX;
/// A slot whose entry was removed: lookups probe past it, inserts reuse it.
const GONE: usize = usize::MAX - 1;

/// Positions in a table, by hash: open addressing with linear probing, at most half full.
///
/// The caller keeps the hashes: `insert` takes the entry's hash, and asks for the hash of every
/// other entry when it grows.
#[derive(Clone, Debug, Default)]
pub(crate) struct HashIndex {
    // Invariant: empty, or a power of two long, with `filled` slots not EMPTY and
    // 2 * filled <= slots.len() (so every probe reaches an EMPTY slot).
    slots: Vec<usize>,
    filled: usize,
}

// Slots are read with `get`, not indexing, here and through the crate: every probe stays in
// the table, but an index would bring core's bounds panic and its messages into the wasm
// (ARCHITECTURE.md, "No panic paths of our own").
impl HashIndex {
    /// The position of the entry with `hash` for which `is` holds, if any. Generic, unlike the
    /// rest: a lookup is on every hot path of the store, and the loop is small.
    #[inline]
    pub(crate) fn find(&self, hash: u64, is: impl Fn(usize) -> bool) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let mut at = hash as usize & mask;
        loop {
            match *self.slots.get(at)? {
                EMPTY => return None,
                GONE => {}
                position if is(position) => return Some(position),
                _ => {}
            }
            at = (at + 1) & mask;
        }
    }

    /// Adds the entry at `position`, whose hash is `hash`; the index must not hold it yet.
    /// `hash_of` gives the hash of the entry at any position the index holds.
    pub(crate) fn insert(&mut self, hash: u64, position: usize, hash_of: &dyn Fn(usize) -> u64) {
        if 2 * (self.filled + 1) > self.slots.len() {
            self.rebuild(hash_of);
        }
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        while let Some(slot) = self.slots.get_mut(at) {
            if *slot == EMPTY || *slot == GONE {
                self.filled += usize::from(*slot == EMPTY);
                *slot = position;
                return;
            }
            at = (at + 1) & mask;
        }
    }

    /// Removes the entry at `position`, whose hash is `hash`, if the index holds it.
    pub(crate) fn remove(&mut self, hash: u64, position: usize) {
        if let Some(slot) = self
            .slot_of(hash, position)
            .and_then(|at| self.slots.get_mut(at))
        {
            *slot = GONE;
        }
    }

    fn slot_of(&self, hash: u64, position: usize) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let mut at = hash as usize & mask;
        loop {
            match *self.slots.get(at)? {
                EMPTY => return None,
                held if held == position => return Some(at),
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Re-inserts every entry into a table with room for as many again, and drops the GONE
    /// slots. Amortised O(1) per insert: it runs once the table is half full.
    fn rebuild(&mut self, hash_of: &dyn Fn(usize) -> u64) {
        let old = core::mem::take(&mut self.slots);
        let mut live = 0;
        for &position in &old {
            live += usize::from(position != EMPTY && position != GONE);
        }
        self.slots = vec![EMPTY; (4 * (live + 1)).next_power_of_two().max(8)];
        self.filled = 0;
        for position in old {
            if position != EMPTY && position != GONE {
                self.insert(hash_of(position), position, hash_of);
            }
        }
    }
}

/// FNV-1a, 64-bit: a small, deterministic hash. It has no secret key, so a caller who picks
/// thousands of colliding texts could slow their own store down; the data is the caller's own,
/// and a page's scenario holds at most 1,000 facts.
#[inline]
pub(crate) fn fnv(bytes: impl IntoIterator<Item = u8>) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for byte in bytes {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::{fnv, HashIndex};

    /// FNV-1a's published 64-bit test vectors: the hash is the one named, not merely a hash.
    #[test]
    fn fnv_is_fnv_1a() {
        assert_eq!(fnv(*b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv(*b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv(*b"foobar"), 0x8594_4171_f739_67e8);
    }

    /// A table of keys and its index, with every key's hash made to collide when `collide`.
    fn table(keys: &[u32], collide: bool) -> (Vec<u32>, HashIndex, impl Fn(u32) -> u64) {
        let hash = move |key: u32| if collide { 7 } else { fnv(key.to_le_bytes()) };
        let mut index = HashIndex::default();
        for (position, &key) in keys.iter().enumerate() {
            index.insert(hash(key), position, &|at| hash(keys[at]));
        }
        (keys.to_vec(), index, hash)
    }

    #[test]
    fn finds_every_key_and_nothing_else_even_when_all_hashes_collide() {
        for collide in [false, true] {
            let keys: Vec<u32> = (0..300).map(|k| k * 7919).collect();
            let (keys, index, hash) = table(&keys, collide);
            for (position, &key) in keys.iter().enumerate() {
                assert_eq!(index.find(hash(key), |at| keys[at] == key), Some(position));
            }
            assert_eq!(index.find(hash(5), |at| keys[at] == 5), None);
            assert!(2 * index.filled <= index.slots.len());
            assert!(index.slots.len().is_power_of_two());
        }
    }

    #[test]
    fn a_removed_key_is_gone_and_the_keys_past_it_are_still_found() {
        for collide in [false, true] {
            let (keys, mut index, hash) = table(&[10, 20, 30, 40], collide);
            index.remove(hash(20), 1);
            index.remove(hash(99), 9); // not held: nothing changes
            assert_eq!(index.find(hash(20), |at| keys[at] == 20), None);
            for (position, key) in [(0, 10), (2, 30), (3, 40)] {
                assert_eq!(index.find(hash(key), |at| keys[at] == key), Some(position));
            }
            // Removed and added again, many times: tombstones are reused or dropped on a rebuild.
            for _ in 0..1_000 {
                index.remove(hash(30), 2);
                index.insert(hash(30), 2, &|at| hash(keys[at]));
            }
            assert_eq!(index.find(hash(30), |at| keys[at] == 30), Some(2));
            assert!(index.slots.len() <= 16, "{}", index.slots.len());
        }
    }

    #[test]
    fn the_table_fills_to_half_before_it_grows() {
        let keys: Vec<u32> = (1..=5).collect();
        let hash = |key: u32| fnv(key.to_le_bytes());
        let mut index = HashIndex::default();
        let mut sizes = Vec::new();
        for (position, &key) in keys.iter().enumerate() {
            index.insert(hash(key), position, &|at| hash(keys[at]));
            sizes.push(index.slots.len());
        }
        // Eight slots hold four keys; the fifth doubles the table (room for the four again).
        assert_eq!(sizes, [8, 8, 8, 8, 32]);
    }

    #[test]
    fn an_empty_index_finds_nothing() {
        let index = HashIndex::default();
        assert_eq!(index.find(1, |_| true), None);
        let mut index = index;
        index.remove(1, 0);
        assert!(index.slots.is_empty());
    }
}
