//! The ordered set a [`LiveStore`](super::LiveStore) ranks each kind's active facts in.

use crate::prelude::*;
use core::cmp::Ordering;

use crate::units::FactId;

/// An active fact's place in the ranking: ascending is eviction order (lowest score first, then
/// the oldest last touch, then the lowest id), so the strongest fact is last.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rank {
    pub(super) key: f64,
    pub(super) last_touch: f64,
    pub(super) id: FactId,
}

impl Rank {
    /// Eviction order: by key, then last touch, then id.
    pub(super) fn cmp(&self, other: &Rank) -> Ordering {
        self.key
            .total_cmp(&other.key)
            .then(self.last_touch.total_cmp(&other.last_touch))
            .then(self.id.cmp(&other.id))
    }
}

/// Ranks in ascending order, as sorted chunks of at most [`Ranking::MAX_CHUNK`] ranks each.
///
/// Insert and remove find their chunk by binary search and shift at most one chunk, so each costs
/// O(log n) comparisons plus a bounded move, whatever the size; a chunk that grows past the
/// maximum splits in two. It does what a `BTreeSet<Rank>` did here, with the operations the
/// store needs (the lowest rank, every rank from the highest), for a fraction of the wasm
/// (ARCHITECTURE.md, "How we keep the wasm small").
///
/// Invariants: no chunk is empty; the ranks, chunk after chunk, are strictly ascending;
/// `len` is their number.
#[derive(Clone, Debug, Default)]
pub(super) struct Ranking {
    chunks: Vec<Vec<Rank>>,
    len: usize,
}

impl Ranking {
    /// The most ranks in one chunk: a split leaves two of half this.
    const MAX_CHUNK: usize = 512;

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The lowest rank.
    pub(super) fn first(&self) -> Option<&Rank> {
        self.chunks.first()?.first()
    }

    /// Every rank, highest first.
    pub(super) fn iter_rev(&self) -> impl Iterator<Item = &Rank> {
        self.chunks
            .iter()
            .rev()
            .flat_map(|chunk| chunk.iter().rev())
    }

    /// Adds `rank`, unless an equal one is already there.
    pub(super) fn insert(&mut self, rank: Rank) {
        let at = self
            .chunk_of(&rank)
            .min(self.chunks.len().saturating_sub(1));
        let Some(chunk) = self.chunks.get_mut(at) else {
            self.chunks.push(vec![rank]);
            self.len += 1;
            return;
        };
        let Err(place) = chunk.binary_search_by(|r| r.cmp(&rank)) else {
            return;
        };
        chunk.insert(place, rank);
        self.len += 1;
        if chunk.len() > Self::MAX_CHUNK {
            let upper = chunk.split_off(chunk.len() / 2);
            self.chunks.insert(at + 1, upper);
        }
    }

    /// Takes out the rank equal to `rank`; `false` if there was none.
    pub(super) fn remove(&mut self, rank: &Rank) -> bool {
        let at = self.chunk_of(rank);
        let Some(chunk) = self.chunks.get_mut(at) else {
            return false;
        };
        let Ok(place) = chunk.binary_search_by(|r| r.cmp(rank)) else {
            return false;
        };
        chunk.remove(place);
        self.len -= 1;
        if chunk.is_empty() {
            self.chunks.remove(at);
        }
        true
    }

    /// The first chunk whose highest rank is not below `rank` (the number of chunks if none is):
    /// where `rank` is, or belongs.
    fn chunk_of(&self, rank: &Rank) -> usize {
        self.chunks.partition_point(|chunk| {
            chunk
                .last()
                .is_some_and(|last| last.cmp(rank) == Ordering::Less)
        })
    }
}

impl PartialEq for Ranking {
    /// The same ranks, however they are chunked.
    fn eq(&self, other: &Ranking) -> bool {
        self.len == other.len
            && self
                .iter_rev()
                .zip(other.iter_rev())
                .all(|(a, b)| a.cmp(b) == Ordering::Equal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(key: f64, id: u32) -> Rank {
        Rank {
            key,
            last_touch: 0.0,
            id: FactId(id),
        }
    }

    fn ids(ranking: &Ranking) -> Vec<u32> {
        let mut ids: Vec<u32> = ranking.iter_rev().map(|r| r.id.0).collect();
        ids.reverse();
        ids
    }

    /// Against a sorted `Vec` as the model, over enough ranks to split and empty many chunks.
    #[test]
    fn matches_a_sorted_vec_across_splits_and_removals() {
        let mut ranking = Ranking::default();
        let mut model: Vec<u32> = Vec::new();
        // A deterministic shuffle of 0..3000 (3001 is prime and 7 a generator's power).
        let order: Vec<u32> = (1..=3000u32).map(|i| (i * 7 % 3001) - 1).collect();
        for &id in &order {
            ranking.insert(rank(f64::from(id % 1000), id));
            model.push(id);
            ranking.insert(rank(f64::from(id % 1000), id)); // a repeat changes nothing
        }
        model.sort_by_key(|&id| (id % 1000, id));
        assert_eq!(ids(&ranking), model);
        assert_eq!(ranking.len(), 3000);
        assert!(ranking.chunks.len() > 3);
        assert!(ranking
            .chunks
            .iter()
            .all(|c| !c.is_empty() && c.len() <= Ranking::MAX_CHUNK));
        assert_eq!(ranking.first().map(|r| r.id.0), Some(0));

        for &id in order.iter().step_by(3) {
            assert!(ranking.remove(&rank(f64::from(id % 1000), id)));
            assert!(!ranking.remove(&rank(f64::from(id % 1000), id)));
            model.retain(|&m| m != id);
        }
        assert_eq!(ids(&ranking), model);
        assert_eq!(ranking.len(), model.len());
        assert_eq!(ranking.first().map(|r| r.id.0), model.first().copied());

        for &id in &model {
            assert!(ranking.remove(&rank(f64::from(id % 1000), id)));
        }
        assert_eq!(ranking.len(), 0);
        assert!(ranking.chunks.is_empty());
        assert!(ranking.first().is_none());
    }

    #[test]
    fn a_chunk_splits_in_halves_only_past_the_maximum() {
        let mut ranking = Ranking::default();
        let sizes = |r: &Ranking| r.chunks.iter().map(Vec::len).collect::<Vec<_>>();
        for id in 0..Ranking::MAX_CHUNK as u32 {
            ranking.insert(rank(f64::from(id), id));
        }
        assert_eq!(sizes(&ranking), [Ranking::MAX_CHUNK]);
        ranking.insert(rank(1e9, 9999));
        assert_eq!(sizes(&ranking), [256, 257]);
    }

    #[test]
    fn equal_whatever_the_chunking() {
        let mut one = Ranking::default();
        let mut other = Ranking::default();
        for id in 0..600 {
            one.insert(rank(f64::from(id), id));
        }
        for id in (0..600).rev() {
            other.insert(rank(f64::from(id), id));
        }
        let sizes = |r: &Ranking| r.chunks.iter().map(Vec::len).collect::<Vec<_>>();
        assert_ne!(sizes(&one), sizes(&other));
        assert_eq!(one, other);
        other.remove(&rank(5.0, 5));
        assert_ne!(one, other);
        other.insert(rank(5.5, 5));
        assert_ne!(one, other);
    }
}
