//! The wasm build's memory allocator: a free list per power-of-two size class, over memory the
//! module grows itself. It replaces Rust's default for `wasm32` (dlmalloc), which is about 8 KB
//! of code, several KB of every core's download, for bookkeeping the widgets never need.
//!
//! - Every block is a power of two of at least 16 bytes, and 16-byte aligned, so any block of a
//!   class can serve any request of that class (no type here asks for more than 16).
//! - A freed block goes to the front of its class's list and is the next one handed out for that
//!   class. Nothing is coalesced or returned to the host: wasm memory cannot shrink anyway, and
//!   the widgets' allocations repeat the same sizes, so the lists reach a steady state (the
//!   browser benchmark's 10,000 interactions, `make bench`, check that memory stops growing).
//! - Requests the memory cannot grow to serve return null, which Rust turns into a trap.
//!
//! The module is single-threaded (no wasm threads), so the state needs no locking. A build with
//! wasm threads (`+atomics`) would share it between threads, so it does not compile.
//!
//! The logic, [`Heap`], is generic over where its pages come from ([`Grow`]), so that the same
//! code the wasm build runs (`SizeClasses`, over `memory.grow`) is unit-tested natively, and
//! under Miri (`make test-miri`), over pages cut from one native buffer (the tests below). The
//! wasm build has the one instance, with a type of no size for `memory.grow`: nothing is added.

// A wasm build without `wasm-runtime` does not install it: a crate that depends on this one brings
// its own allocator. (Natively, where only the tests use it, `src/lib.rs` allows the same.)
#![cfg_attr(
    all(target_arch = "wasm32", not(feature = "wasm-runtime")),
    allow(dead_code)
)]

// Wasm threads share one memory, and so this allocator's state, between threads: its unlocked
// free lists would hand one block to two threads (`unsafe impl Sync` below says one thread).
#[cfg(all(
    target_arch = "wasm32",
    target_feature = "atomics",
    feature = "wasm-runtime"
))]
compile_error!(
    "src/allocator.rs is single-threaded: with wasm threads (`+atomics`) every thread would share \
     its unlocked free lists, and two threads could be handed the same block. Build without \
     `atomics`, or without the `wasm-runtime` feature and bring a thread-safe global allocator."
);

use core::{
    alloc::{GlobalAlloc, Layout},
    cell::UnsafeCell,
    ptr::null_mut,
};

/// Bytes in one wasm memory page: memory grows by whole pages.
const PAGE: usize = 64 * 1024;
/// The smallest block: 2^4 bytes, also every block's alignment.
const MIN_CLASS: u32 = 4;
/// One free list per class from 2^4 to 2^31 bytes.
const CLASSES: usize = 28;

/// Where a [`Heap`]'s memory comes from: whole pages, as wasm's `memory.grow` gives them.
///
/// # Safety
///
/// `grow(pages)` returns `None`, or the start and end of at least `pages * PAGE` new bytes,
/// 16-byte aligned, readable and writable, that nothing else uses while the `Grow` lives. Pages
/// that start where an earlier call's ended continue that memory: pointers from the earlier call
/// reach them too (wasm memory is one range; the tests' fake cuts its pages from one buffer).
/// `grow` does not call into the allocator.
pub unsafe trait Grow {
    /// Grows memory by `pages`: the new bytes' start and end, or `None` when it cannot.
    fn grow(&self, pages: usize) -> Option<(*mut u8, *mut u8)>;
}

struct State {
    /// The first free block of each class, or null; each free block's first word holds the next.
    // Invariant: every block on list `c` is 2^(c + MIN_CLASS) bytes that `alloc` handed out and
    // its owner gave back, and is on no other list and not between `next` and `end`.
    free: [*mut u8; CLASSES],
    /// Where fresh blocks come from: `next` up to `end`.
    // Invariant: `next <= end`, both 16-byte aligned (null before the first grow), and the bytes
    // between them are memory `grow` handed out that no block holds yet.
    next: *mut u8,
    end: *mut u8,
}

/// The size classes over memory that `G` grows: a [`GlobalAlloc`]. The wasm build's is
/// `SizeClasses`; the tests' grows a native buffer.
pub struct Heap<G> {
    state: UnsafeCell<State>,
    grow: G,
}

impl<G> Heap<G> {
    /// An allocator with no memory yet: `grow` gives it pages as requests need them.
    pub const fn with(grow: G) -> Heap<G> {
        Heap {
            state: UnsafeCell::new(State {
                free: [null_mut(); CLASSES],
                next: null_mut(),
                end: null_mut(),
            }),
            grow,
        }
    }
}

/// The allocator `src/lib.rs` installs for `wasm32`: the size classes over `memory.grow`.
#[cfg(target_arch = "wasm32")]
pub type SizeClasses = Heap<MemoryGrow>;

/// The module's memory (memory 0), grown with `memory.grow`.
#[cfg(target_arch = "wasm32")]
pub struct MemoryGrow;

#[cfg(target_arch = "wasm32")]
impl SizeClasses {
    /// The allocator before its first request: it grows memory as requests need it.
    pub const fn new() -> SizeClasses {
        Heap::with(MemoryGrow)
    }
}

#[cfg(target_arch = "wasm32")]
impl Default for SizeClasses {
    fn default() -> SizeClasses {
        SizeClasses::new()
    }
}

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
// SAFETY: without `atomics` (this impl's cfg) a wasm module has no threads: it runs on one
// thread only.
unsafe impl Sync for SizeClasses {}

#[cfg(target_arch = "wasm32")]
// SAFETY: `memory.grow` adds `pages` zeroed pages at the end of memory and gives them to its
// caller alone; pages are 64 KiB aligned; and wasm memory is one range of addresses, where a
// pointer is its address, so pages that continue earlier ones are reached from those.
unsafe impl Grow for MemoryGrow {
    /// `None` also when the new bytes would end past the 4 GiB a wasm32 address can reach.
    ///
    /// Grows by a quarter of the memory more than asked: each `memory.grow` costs the host a new
    /// view of the whole memory (and V8 a garbage collection now and then), so a large session's
    /// import, which grows memory by tens of MB, asks a few dozen times, not thousands. (So
    /// memory stops growing up to a quarter short of the host's limit, gigabytes past what a
    /// page uses.)
    fn grow(&self, pages: usize) -> Option<(*mut u8, *mut u8)> {
        let grown = pages + core::arch::wasm32::memory_size(0) / 4;
        let old = core::arch::wasm32::memory_grow(0, grown);
        if old == usize::MAX {
            return None;
        }
        // The end's page number is at most 65,536 (4 GiB): when its address fits, so does the
        // start's.
        let end = old.checked_add(grown)?.checked_mul(PAGE)?;
        Some(((old * PAGE) as *mut u8, end as *mut u8))
    }
}

/// The class of a request: the smallest power of two of at least 16 that holds it.
fn class_of(layout: Layout) -> Option<usize> {
    if layout.align() > 1 << MIN_CLASS {
        return None;
    }
    let bits = usize::BITS - (layout.size().max(1) - 1).leading_zeros();
    let class = bits.max(MIN_CLASS) - MIN_CLASS;
    (class < CLASSES as u32).then_some(class as usize)
}

// SAFETY: a block is handed out only from its class's free list or from fresh memory, which
// never overlap (the invariants of `State`), and only once until it is given back; it is its
// class's size, at least the request's, and 16-byte aligned, at least the request's alignment.
// A request it cannot serve gets null.
unsafe impl<G: Grow> GlobalAlloc for Heap<G> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(class) = class_of(layout) else {
            return null_mut();
        };
        // SAFETY: one thread (`Heap` is `Sync` only as the wasm build's `SizeClasses`), and
        // nothing else borrows the state while this borrow lives (`grow` does not allocate).
        let state = unsafe { &mut *self.state.get() };
        let Some(free) = state.free.get_mut(class) else {
            return null_mut(); // class_of gives a class below CLASSES: `get_mut` has no panic
        };
        let head = *free;
        if !head.is_null() {
            // SAFETY: a free block's first word holds the next free block of its class.
            *free = unsafe { head.cast::<*mut u8>().read() };
            return head;
        }
        let size = 1usize << (class as u32 + MIN_CLASS);
        let room = state.end as usize - state.next as usize;
        if room < size {
            // Memory grows in one piece, so new pages usually continue the current region and
            // need only cover what it lacks.
            let Some((start, mut end)) = self.grow.grow((size - room).div_ceil(PAGE)) else {
                return null_mut();
            };
            if start != state.end {
                // Something else grew memory in between: the new pages start a region of their
                // own, which must hold the whole block.
                let got = end as usize - start as usize;
                if got < size {
                    let Some((_, more)) = self.grow.grow((size - got).div_ceil(PAGE)) else {
                        return null_mut();
                    };
                    end = more;
                }
                state.next = start;
            }
            state.end = end;
        }
        let block = state.next;
        state.next = block.wrapping_add(size);
        block
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let Some(class) = class_of(layout) else {
            return;
        };
        // SAFETY: as in `alloc`.
        let state = unsafe { &mut *self.state.get() };
        let Some(free) = state.free.get_mut(class) else {
            return;
        };
        // SAFETY: `ptr` is a block of this class that its owner gave back: 16-byte aligned, at
        // least 16 bytes, and the allocator's again.
        unsafe { ptr.cast::<*mut u8>().write(*free) };
        *free = ptr;
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `new_size` with this alignment is a valid layout.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if class_of(layout).is_some() && class_of(layout) == class_of(new_layout) {
            return ptr; // the block already has room
        }
        // SAFETY: `new_layout` is valid (above).
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            // SAFETY: the blocks are distinct, the old one holds `layout.size()` bytes and the
            // new one `new_size`; the caller gives the old one back, with its layout.
            unsafe {
                core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cell::{Cell, RefCell};

    /// A wasm page, written out rather than `PAGE`, so that a wrong `PAGE` shows.
    const WASM_PAGE: usize = 65536;

    fn class(size: usize, align: usize) -> Option<usize> {
        class_of(Layout::from_size_align(size, align).unwrap())
    }

    /// Memory that grows as wasm's does, by pages cut in order from one page-aligned native
    /// buffer of `limit` pages; past those, `grow` fails. It records every call.
    struct Pages {
        /// The buffer, from the system allocator; freed when `Pages` drops.
        base: *mut u8,
        limit: usize,
        /// Pages handed out so far, to the allocator or by `take`.
        // Invariant: `used <= limit`.
        used: Cell<usize>,
        /// The pages asked for by each call to `grow`, failed ones too.
        calls: RefCell<Vec<usize>>,
    }

    impl Pages {
        fn new(limit: usize) -> Pages {
            // SAFETY: the layout's size is not zero.
            let base = unsafe { std::alloc::alloc(Pages::layout(limit)) };
            assert!(!base.is_null());
            Pages {
                base,
                limit,
                used: Cell::new(0),
                calls: RefCell::new(Vec::new()),
            }
        }

        fn layout(limit: usize) -> Layout {
            Layout::from_size_align(limit.max(1) * WASM_PAGE, WASM_PAGE).unwrap()
        }

        /// The address `offset` bytes into the buffer.
        fn at(&self, offset: usize) -> *mut u8 {
            self.base.wrapping_add(offset)
        }

        /// Grows memory by one page behind the allocator's back, as other code in a wasm module
        /// may; returns the page.
        fn take(&self) -> *mut u8 {
            let used = self.used.get();
            assert!(used < self.limit);
            self.used.set(used + 1);
            self.at(used * WASM_PAGE)
        }

        fn calls(&self) -> Vec<usize> {
            self.calls.borrow().clone()
        }
    }

    impl Drop for Pages {
        fn drop(&mut self) {
            // SAFETY: `base` came from `alloc` with this layout, and is freed only here.
            unsafe { std::alloc::dealloc(self.base, Pages::layout(self.limit)) };
        }
    }

    // SAFETY: the pages handed out are the buffer's next ones, page-aligned, in bounds (`used`
    // stays within `limit`), each handed out once, and all from the one buffer, so later pages
    // continue earlier ones.
    unsafe impl Grow for Pages {
        fn grow(&self, pages: usize) -> Option<(*mut u8, *mut u8)> {
            self.calls.borrow_mut().push(pages);
            let used = self.used.get();
            if pages > self.limit - used {
                return None;
            }
            self.used.set(used + pages);
            Some((
                self.at(used * WASM_PAGE),
                self.at((used + pages) * WASM_PAGE),
            ))
        }
    }

    fn heap_of(pages: usize) -> Heap<Pages> {
        Heap::with(Pages::new(pages))
    }

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    /// `heap.alloc`, which may give null.
    fn try_alloc(heap: &Heap<Pages>, size: usize, align: usize) -> *mut u8 {
        // SAFETY: a valid layout. (`GlobalAlloc` leaves a size of 0 to the allocator: this one
        // serves it from the smallest class.)
        unsafe { heap.alloc(layout(size, align)) }
    }

    /// `heap.alloc`, checked: not null, and 16-byte aligned.
    fn alloc(heap: &Heap<Pages>, size: usize, align: usize) -> *mut u8 {
        let block = try_alloc(heap, size, align);
        assert!(!block.is_null(), "{size} bytes, aligned to {align}: null");
        assert_eq!(
            block as usize % 16,
            0,
            "{size} bytes: {block:?} is not 16-aligned"
        );
        block
    }

    fn dealloc(heap: &Heap<Pages>, block: *mut u8, size: usize, align: usize) {
        // SAFETY: every caller passes a block `heap` gave for this layout, and does not use it
        // again.
        unsafe { heap.dealloc(block, layout(size, align)) }
    }

    fn realloc(heap: &Heap<Pages>, block: *mut u8, size: usize, new_size: usize) -> *mut u8 {
        // SAFETY: every caller passes a block `heap` gave for `size` bytes aligned to 8, and
        // uses only the block returned if it is not null, or else the old one.
        unsafe { heap.realloc(block, layout(size, 8), new_size) }
    }

    /// How many bytes `to` is past `from`.
    fn distance(from: *mut u8, to: *mut u8) -> isize {
        to as isize - from as isize
    }

    /// Fills `len` bytes at `block` with `byte`.
    fn fill(block: *mut u8, len: usize, byte: u8) {
        // SAFETY: every caller passes `len` bytes of a block it holds.
        unsafe { block.write_bytes(byte, len) }
    }

    /// The `len` bytes at `block`.
    fn bytes(block: *mut u8, len: usize) -> Vec<u8> {
        // SAFETY: every caller passes `len` bytes of a block it holds, all written.
        unsafe { core::slice::from_raw_parts(block, len) }.to_vec()
    }

    /// A pattern of `len` bytes that differs from itself shifted by any offset up to 250.
    fn pattern(len: usize, seed: u8) -> Vec<u8> {
        // Repeated whole, not byte by byte: Miri runs a copy as one step.
        let period: Vec<u8> = (0..251).map(|i| i ^ seed).collect();
        let mut bytes = period.repeat(len / 251 + 1);
        bytes.truncate(len);
        bytes
    }

    /// Writes `data` at the start of `block`.
    fn write(block: *mut u8, data: &[u8]) {
        // SAFETY: every caller passes a block it holds of at least `data.len()` bytes.
        unsafe { block.copy_from_nonoverlapping(data.as_ptr(), data.len()) }
    }

    #[test]
    fn a_request_gets_the_smallest_power_of_two_of_at_least_16_that_holds_it() {
        for size in [0, 1, 15, 16] {
            assert_eq!(class(size, 1), Some(0), "{size} bytes");
        }
        assert_eq!(class(17, 8), Some(1));
        assert_eq!(class(32, 8), Some(1));
        assert_eq!(class(33, 4), Some(2));
        assert_eq!(class(1 << 20, 8), Some(16));
        assert_eq!(class((1 << 20) + 1, 8), Some(17));
        assert_eq!(class(1 << 31, 8), Some(CLASSES - 1));
        // Every block is 16-aligned, so an alignment of exactly 16 is served.
        assert_eq!(class(16, 16), Some(0));
        assert_eq!(class(48, 16), Some(2));
    }

    #[test]
    fn what_no_class_can_serve_is_refused() {
        assert_eq!(class(8, 32), None, "alignment above 16");
        assert_eq!(class((1 << 31) + 1, 8), None, "above the largest class");
    }

    #[test]
    fn blocks_are_16_aligned_and_larger_alignments_are_refused_with_null() {
        let heap = heap_of(2);
        for align in [1, 2, 4, 8, 16] {
            for size in [0, 1, 3, 8, 16, 24, 100, 5000] {
                alloc(&heap, size, align); // checks the alignment
            }
        }
        let calls = heap.grow.calls();
        for (size, align) in [(8, 32), (64, 64), (WASM_PAGE, 4096)] {
            assert!(
                try_alloc(&heap, size, align).is_null(),
                "{size} aligned to {align}"
            );
        }
        assert_eq!(heap.grow.calls(), calls, "a refused request grows nothing");
    }

    #[test]
    fn fresh_blocks_are_their_class_size_apart() {
        let classes = [
            (0, 16),
            (1, 16),
            (16, 16),
            (17, 32),
            (32, 32),
            (33, 64),
            (1000, 1024),
            (4096, 4096),
            (40_000, WASM_PAGE),
            (WASM_PAGE, WASM_PAGE),
            (WASM_PAGE + 1, 2 * WASM_PAGE),
            (3 * WASM_PAGE, 4 * WASM_PAGE),
        ];
        for (size, block) in classes {
            let heap = heap_of(8);
            let first = alloc(&heap, size, 8);
            let second = alloc(&heap, size, 8);
            assert_eq!(distance(first, second), block as isize, "{size} bytes");
        }
    }

    #[test]
    fn memory_grows_by_whole_pages_only_when_a_block_needs_it() {
        let heap = heap_of(10);
        let pages = &heap.grow;
        // 4096 blocks of 16 bytes fill the first page; the next one needs another.
        let first = alloc(&heap, 16, 16);
        assert_eq!(first, pages.at(0));
        for _ in 1..WASM_PAGE / 16 {
            alloc(&heap, 16, 16);
        }
        assert_eq!(pages.calls(), [1]);
        assert_eq!(alloc(&heap, 16, 16), pages.at(WASM_PAGE));
        assert_eq!(pages.calls(), [1, 1]);
        // 16 bytes of the second page are used: a page-sized block needs one more page, and
        // starts where the 16 bytes end.
        assert_eq!(alloc(&heap, WASM_PAGE, 8), pages.at(WASM_PAGE + 16));
        assert_eq!(pages.calls(), [1, 1, 1]);
        // A block of 2 pages (65,537 bytes) with 65,520 bytes left: 2 more pages.
        assert_eq!(alloc(&heap, WASM_PAGE + 1, 8), pages.at(2 * WASM_PAGE + 16));
        assert_eq!(pages.calls(), [1, 1, 1, 2]);
        // A block of 4 pages with the same left: 4 more pages, 9 in all.
        assert_eq!(alloc(&heap, 3 * WASM_PAGE, 8), pages.at(4 * WASM_PAGE + 16));
        assert_eq!(pages.calls(), [1, 1, 1, 2, 4]);
        assert_eq!(pages.used.get(), 9);
        // Again 65,520 bytes left: one more page for a block of 65,000, and what that page has
        // left serves a block that fits without growing.
        assert_eq!(alloc(&heap, 65_000, 8), pages.at(8 * WASM_PAGE + 16));
        assert_eq!(pages.calls(), [1, 1, 1, 2, 4, 1]);
        assert_eq!(alloc(&heap, 1000, 8), pages.at(9 * WASM_PAGE + 16));
        assert_eq!(pages.calls(), [1, 1, 1, 2, 4, 1]);
        assert_eq!(pages.used.get(), 10);
    }

    #[test]
    fn pages_that_other_code_grew_are_left_alone() {
        let heap = heap_of(4);
        let pages = &heap.grow;
        assert_eq!(alloc(&heap, 16, 8), pages.at(0));
        let theirs = pages.take();
        assert_eq!(theirs, pages.at(WASM_PAGE));
        fill(theirs, WASM_PAGE, 0xAB);
        // 65,520 bytes are left, 16 short of a page: the page grown for it does not continue
        // them, so the block starts the new page, past the one taken.
        let block = alloc(&heap, WASM_PAGE, 8);
        assert_eq!(block, pages.at(2 * WASM_PAGE));
        assert_eq!(pages.calls(), [1, 1]);
        fill(block, WASM_PAGE, 0xCD);
        assert_eq!(bytes(theirs, WASM_PAGE), vec![0xAB; WASM_PAGE]);
        // And the next fresh block follows it.
        assert_eq!(alloc(&heap, 16, 8), pages.at(3 * WASM_PAGE));
    }

    #[test]
    fn a_freed_block_is_the_next_one_handed_out_for_its_class() {
        let heap = heap_of(3);
        let a = alloc(&heap, 24, 8);
        let b = alloc(&heap, 24, 8);
        let calls = heap.grow.calls();
        dealloc(&heap, a, 24, 8);
        // Another class does not take it.
        let small = alloc(&heap, 16, 8);
        assert_ne!(small, a);
        let large = alloc(&heap, 33, 8);
        assert_ne!(large, a);
        // Any size of its class does, with any alignment up to 16.
        assert_eq!(alloc(&heap, 17, 16), a);
        assert_ne!(alloc(&heap, 32, 1), a, "handed out once");
        // Last freed, first reused.
        dealloc(&heap, a, 17, 16);
        dealloc(&heap, b, 24, 8);
        assert_eq!(alloc(&heap, 20, 4), b);
        assert_eq!(alloc(&heap, 20, 4), a);
        assert_eq!(heap.grow.calls(), calls, "reuse grows nothing");
        // Multi-page blocks too.
        let big = alloc(&heap, WASM_PAGE + 1, 8);
        dealloc(&heap, big, WASM_PAGE + 1, 8);
        let calls = heap.grow.calls();
        assert_eq!(alloc(&heap, 2 * WASM_PAGE, 8), big);
        assert_eq!(heap.grow.calls(), calls);
    }

    #[test]
    fn a_request_memory_cannot_grow_for_gets_null() {
        let heap = heap_of(1);
        let pages = &heap.grow;
        assert!(try_alloc(&heap, WASM_PAGE + 1, 8).is_null(), "2 pages of 1");
        assert_eq!(pages.calls(), [2]);
        let small = alloc(&heap, 16, 8);
        assert_eq!(small, pages.at(0));
        assert!(try_alloc(&heap, WASM_PAGE, 8).is_null(), "16 bytes short");
        assert!(try_alloc(&heap, 1 << 31, 8).is_null(), "the largest class");
        assert_eq!(pages.calls(), [2, 1, 1, 1 << 15]);
        // The failures cost nothing: what is left still serves blocks that fit, and freed
        // blocks are reused.
        assert_eq!(alloc(&heap, 32, 8), pages.at(16));
        dealloc(&heap, small, 16, 8);
        assert_eq!(alloc(&heap, 1, 1), small);
        // Beyond the largest class, nothing is asked of memory.
        assert!(try_alloc(&heap, (1 << 31) + 1, 8).is_null());
        assert_eq!(pages.calls(), [2, 1, 1, 1 << 15]);
        // And memory that cannot grow at all serves nothing.
        let none = heap_of(0);
        assert!(try_alloc(&none, 0, 1).is_null());
        assert_eq!(none.grow.calls(), [1]);
    }

    #[test]
    fn realloc_within_a_class_keeps_the_block() {
        let heap = heap_of(1);
        let block = alloc(&heap, 20, 8);
        let data = pattern(20, 1);
        write(block, &data);
        let calls = heap.grow.calls();
        assert_eq!(realloc(&heap, block, 20, 32), block, "growing");
        assert_eq!(realloc(&heap, block, 32, 17), block, "shrinking");
        assert_eq!(bytes(block, 17), data[..17]);
        assert_eq!(heap.grow.calls(), calls);
    }

    #[test]
    fn realloc_across_classes_moves_the_contents_and_frees_the_old_block() {
        let heap = heap_of(8);
        // (from, to) sizes: growing and shrinking, within a page and across pages.
        for (from, to) in [
            (20, 100),
            (1000, 10),
            (16, 17),
            (17, 16),
            (60_000, 70_000),
            (3 * WASM_PAGE, 100),
        ] {
            let block = alloc(&heap, from, 8);
            let data = pattern(from, from as u8);
            write(block, &data);
            let moved = realloc(&heap, block, from, to);
            assert!(!moved.is_null(), "{from} to {to}");
            assert_ne!(moved, block, "{from} to {to}");
            assert_eq!(moved as usize % 16, 0);
            assert_eq!(
                bytes(moved, from.min(to)),
                data[..from.min(to)],
                "{from} to {to}"
            );
            // The old block is free: the next request of its class gets it.
            assert_eq!(alloc(&heap, from, 8), block, "{from} to {to}");
            dealloc(&heap, block, from, 8);
            dealloc(&heap, moved, to, 8);
        }
    }

    #[test]
    fn a_realloc_that_memory_cannot_grow_for_gets_null_and_keeps_the_block() {
        let heap = heap_of(1);
        let block = alloc(&heap, 100, 8);
        let data = pattern(100, 7);
        write(block, &data);
        assert!(realloc(&heap, block, 100, 2 * WASM_PAGE).is_null());
        assert_eq!(bytes(block, 100), data);
        // Not freed: its class hands out a fresh block.
        let other = alloc(&heap, 100, 8);
        assert_ne!(other, block);
        // And it can still be reallocated.
        let moved = realloc(&heap, block, 100, 1000);
        assert!(!moved.is_null());
        assert_eq!(bytes(moved, 100), data);
    }

    #[test]
    fn writing_a_whole_block_leaves_the_others_alone() {
        let heap = heap_of(16);
        let sizes = [
            0,
            1,
            15,
            16,
            17,
            31,
            32,
            33,
            100,
            128,
            4096,
            WASM_PAGE,
            5,
            2 * WASM_PAGE,
            WASM_PAGE + 1,
            64,
            1,
            3 * WASM_PAGE,
            48,
        ];
        // Each block filled with its own byte, through the last byte of the request: for the
        // sizes that are a class's, the whole block.
        let mut blocks: Vec<(*mut u8, usize, u8)> = Vec::new();
        let check = |blocks: &[(*mut u8, usize, u8)]| {
            for &(block, size, byte) in blocks {
                assert_eq!(
                    bytes(block, size),
                    vec![byte; size],
                    "{size} bytes of {byte}"
                );
            }
        };
        for (i, &size) in sizes.iter().enumerate() {
            let block = alloc(&heap, size, 8);
            let byte = i as u8 + 1;
            fill(block, size, byte);
            blocks.push((block, size, byte));
        }
        check(&blocks);
        // Freeing every other block writes its free-list link into it and nowhere else; the
        // blocks handed out again in their place, and fresh ones, are filled in turn.
        let mut kept = Vec::new();
        let mut freed = Vec::new();
        for (i, entry) in blocks.into_iter().enumerate() {
            if i % 2 == 0 {
                dealloc(&heap, entry.0, entry.1, 8);
                freed.push(entry);
            } else {
                kept.push(entry);
            }
        }
        check(&kept);
        for (i, &(old, size, _)) in freed.iter().rev().enumerate() {
            let block = alloc(&heap, size, 8);
            assert_eq!(block, old, "{size} bytes: the freed block");
            let byte = 0x80 | i as u8;
            fill(block, size, byte);
            kept.push((block, size, byte));
        }
        for (i, size) in [16, 32, 2 * WASM_PAGE, 7].into_iter().enumerate() {
            let block = alloc(&heap, size, 8);
            let byte = 0x40 | i as u8;
            fill(block, size, byte);
            kept.push((block, size, byte));
        }
        check(&kept);
    }
}
