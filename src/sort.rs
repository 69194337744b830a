//! One small sort for the whole crate, in place of core's two (`sort` and `sort_unstable` each
//! bring a few KB of wasm: sorting networks, a merge sort, a quicksort). Heapsort: O(n log n)
//! in the worst case, no allocation, a few dozen instructions. Not stable: every caller sorts by
//! a key that ties only between equal items, or says why ties do not matter.

use core::cmp::Ordering;

/// Sorts `items` in place by `compare`, ascending.
///
/// ```ignore
/// let mut turns = vec![6, 1, 4];
/// sort_by(&mut turns, |a, b| a.cmp(b));
/// assert_eq!(turns, [1, 4, 6]);
/// ```
pub(crate) fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    let len = items.len();
    // Build a max-heap, then move its top to the end, one item at a time.
    for start in (0..len / 2).rev() {
        sift_down(items, start, len, &mut compare);
    }
    for end in (1..len).rev() {
        swap(items, 0, end);
        sift_down(items, 0, end, &mut compare);
    }
}

/// Swaps `items[low]` and `items[high]` (`low < high < items.len()`, which the callers keep).
/// Out of bounds it does nothing in release builds and fails a debug assertion in tests: the
/// checks of `[T]::swap` and of indexing would bring core's panic and its messages into every
/// core.
fn swap<T>(items: &mut [T], low: usize, high: usize) {
    debug_assert!(
        low < high && high < items.len(),
        "swap({low}, {high}) of {} items",
        items.len()
    );
    if let Some((left, right)) = items.split_at_mut_checked(high) {
        if let (Some(a), Some(b)) = (left.get_mut(low), right.first_mut()) {
            core::mem::swap(a, b);
        }
    }
}

/// Restores the heap below `root` in `items[..end]`.
fn sift_down<T>(
    items: &mut [T],
    mut root: usize,
    end: usize,
    compare: &mut impl FnMut(&T, &T) -> Ordering,
) {
    // So every `get` below finds its item; the `else` branches only keep panics out of the wasm.
    debug_assert!(
        end <= items.len(),
        "sift_down to {end} of {} items",
        items.len()
    );
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        let (Some(left), Some(parent)) = (items.get(child), items.get(root)) else {
            return;
        };
        if let Some(right) = items.get(child + 1).filter(|_| child + 1 < end) {
            if compare(left, right) == Ordering::Less {
                child += 1;
            }
        }
        let Some(larger) = items.get(child) else {
            return;
        };
        if compare(parent, larger) != Ordering::Less {
            return;
        }
        swap(items, root, child);
        root = child;
    }
}

#[cfg(test)]
mod tests {
    use super::sort_by;
    use proptest::prelude::*;

    #[test]
    fn sorts_small_cases() {
        let mut empty: [u32; 0] = [];
        sort_by(&mut empty, u32::cmp);
        let mut one = [7];
        sort_by(&mut one, u32::cmp);
        assert_eq!(one, [7]);
        let mut turns = [6, 1, 4, 1, 9, 2];
        sort_by(&mut turns, u32::cmp);
        assert_eq!(turns, [1, 1, 2, 4, 6, 9]);
        let mut backwards = [3.5, -1.0, 2.0];
        sort_by(&mut backwards, |a: &f64, b| b.total_cmp(a));
        assert_eq!(backwards, [3.5, 2.0, -1.0]);
    }

    proptest! {
        #[test]
        fn agrees_with_std(mut items in proptest::collection::vec(any::<i16>(), 0..200)) {
            let mut expected = items.clone();
            expected.sort();
            sort_by(&mut items, i16::cmp);
            prop_assert_eq!(items, expected);
        }
    }
}
