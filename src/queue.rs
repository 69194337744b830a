//! A first-in, first-out queue that is a `Vec` and the index of its front.
//!
//! The window's tiers grow at the back and shrink at the front. `VecDeque` does that too, but
//! brings its ring-buffer code (growth, wrapped slices, iterators) for each element type: about
//! 1 KB of gzipped wasm in each compaction core. Here the items stay contiguous, so every read is
//! a slice, and a pop moves the front index on: O(1), with the spent front dropped in one go by a
//! later push once it is half the queue (amortised O(1)).

use crate::prelude::*;
/// A FIFO queue of `T` whose live items are one slice: push 1 and 2, pop 1, and `as_slice()`
/// is `[2]` (the tests below).
#[derive(Clone, Debug)]
pub(crate) struct Queue<T> {
    items: Vec<T>,
    // Invariant: head <= items.len(); items[..head] are spent (popped, left as `T::default()`).
    head: usize,
}

impl<T> Default for Queue<T> {
    fn default() -> Queue<T> {
        Queue {
            items: Vec::new(),
            head: 0,
        }
    }
}

impl<T> Queue<T> {
    /// The live items, front first. (`get`: `head` never passes the end, but indexing would
    /// bring a panic path.)
    pub(crate) fn as_slice(&self) -> &[T] {
        self.items.get(self.head..).unwrap_or_default()
    }

    /// The live items, front first, to change in place.
    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        self.items.get_mut(self.head..).unwrap_or_default()
    }

    /// Adds `item` at the back.
    pub(crate) fn push_back(&mut self, item: T) {
        self.drop_spent();
        self.items.push(item);
    }

    /// Inserts `item` before the live item at `at` (`at == len` adds it at the back). O(n).
    pub(crate) fn insert(&mut self, at: usize, item: T) {
        self.drop_spent();
        self.items.insert(self.head + at, item);
    }

    /// Removes the front item without returning it.
    pub(crate) fn skip_front(&mut self) {
        if self.head < self.items.len() {
            self.head += 1;
        }
    }

    /// Once the spent front is half the queue, drops it (so that pushes stay amortised O(1)).
    fn drop_spent(&mut self) {
        if 2 * self.head >= self.items.len() {
            let spent = self.head;
            drop_front(&mut self.items, spent);
            self.head = 0;
        }
    }
}

/// Drops the first `n` of `items` (all of them if there are fewer). `retain`, not
/// `drain(..n)`: a range's checks bring core's slice panic and its messages into every core
/// (ARCHITECTURE.md, "No panic paths of our own").
pub(crate) fn drop_front<T>(items: &mut Vec<T>, n: usize) {
    let mut at = 0;
    items.retain(|_| {
        at += 1;
        at > n
    });
}

impl<T: Default> Queue<T> {
    /// Removes and returns the front item.
    pub(crate) fn pop_front(&mut self) -> Option<T> {
        let item = core::mem::take(self.items.get_mut(self.head)?);
        self.head += 1;
        Some(item)
    }
}

impl<T: PartialEq> PartialEq for Queue<T> {
    /// The same live items; what was popped does not count.
    fn eq(&self, other: &Queue<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Eq> Eq for Queue<T> {}

#[cfg(test)]
mod tests {
    use super::Queue;

    #[test]
    fn pops_in_the_order_pushed_and_reads_as_one_slice() {
        let mut queue = Queue::default();
        for item in 1..=5 {
            queue.push_back(item);
        }
        assert_eq!(queue.pop_front(), Some(1));
        assert_eq!(queue.pop_front(), Some(2));
        queue.skip_front();
        assert_eq!(queue.as_slice(), [4, 5]);
        queue.push_back(6); // the spent three are dropped here
        assert_eq!((queue.as_slice(), queue.head), (&[4, 5, 6][..], 0));
        queue.insert(1, 9);
        queue.as_mut_slice()[0] = 7;
        assert_eq!(queue.as_slice(), [7, 9, 5, 6]);
        while queue.pop_front().is_some() {}
        queue.skip_front();
        assert_eq!((queue.pop_front(), queue.as_slice()), (None, &[][..]));
    }

    #[test]
    fn equal_when_the_live_items_are() {
        let mut popped = Queue::default();
        popped.push_back(0);
        popped.push_back(1);
        popped.pop_front();
        let mut fresh = Queue::default();
        fresh.push_back(1);
        assert_eq!(popped, fresh);
        fresh.push_back(2);
        assert_ne!(popped, fresh);
    }

    #[test]
    fn a_long_run_of_pushes_and_pops_keeps_the_vec_small() {
        let mut queue = Queue::default();
        for item in 0..10_000 {
            queue.push_back(item);
            if item % 2 == 1 {
                assert_eq!(queue.pop_front(), Some(item / 2));
            }
        }
        assert_eq!(queue.as_slice().len(), 5_000);
        assert!(queue.items.len() <= 10_000 && queue.head <= queue.items.len());
        // Steady state, one in and one out: the spent front never passes half.
        for item in 10_000..20_000 {
            queue.push_back(item);
            queue.pop_front();
        }
        assert!(queue.items.len() <= 2 * 5_001, "{}", queue.items.len());
    }
}
