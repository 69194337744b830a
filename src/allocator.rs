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
//! The module is single-threaded (no wasm threads), so the state needs no locking.

use core::alloc::Layout;
#[cfg(target_arch = "wasm32")]
use core::{alloc::GlobalAlloc, cell::UnsafeCell, ptr::null_mut};

/// Bytes in one wasm memory page.
#[cfg(target_arch = "wasm32")]
const PAGE: usize = 64 * 1024;
/// The smallest block: 2^4 bytes, also every block's alignment.
const MIN_CLASS: u32 = 4;
/// One free list per class from 2^4 to 2^31 bytes.
const CLASSES: usize = 28;

#[cfg(target_arch = "wasm32")]
struct State {
    /// The first free block of each class; each free block holds the address of the next.
    free: [usize; CLASSES],
    /// Where fresh blocks come from: `next` up to `end`, both 16-byte aligned.
    next: usize,
    end: usize,
}

#[cfg(target_arch = "wasm32")]
/// The allocator `src/lib.rs` installs for `wasm32`.
pub struct SizeClasses(UnsafeCell<State>);

#[cfg(target_arch = "wasm32")]
// SAFETY: a wasm module without threads runs on one thread only.
unsafe impl Sync for SizeClasses {}

#[cfg(target_arch = "wasm32")]
impl SizeClasses {
    pub const fn new() -> SizeClasses {
        SizeClasses(UnsafeCell::new(State {
            free: [0; CLASSES],
            next: 0,
            end: 0,
        }))
    }
}

#[cfg(target_arch = "wasm32")]
impl Default for SizeClasses {
    fn default() -> SizeClasses {
        SizeClasses::new()
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

/// Grows memory by `pages`: the new bytes' start and end, or `None` when memory cannot grow or
/// would end past the 4 GiB a wasm32 address can reach.
#[cfg(target_arch = "wasm32")]
fn grow(pages: usize) -> Option<(usize, usize)> {
    let old = core::arch::wasm32::memory_grow(0, pages);
    if old == usize::MAX {
        return None;
    }
    let start = old.checked_mul(PAGE)?;
    Some((start, start.checked_add(pages.checked_mul(PAGE)?)?))
}

#[cfg(target_arch = "wasm32")]
unsafe impl GlobalAlloc for SizeClasses {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(class) = class_of(layout) else {
            return null_mut();
        };
        // SAFETY: single-threaded (see above), and no allocation happens while this borrow lives.
        let state = unsafe { &mut *self.0.get() };
        let Some(free) = state.free.get_mut(class) else {
            return null_mut(); // class_of gives a class below CLASSES: `get_mut` has no panic
        };
        let head = *free;
        if head != 0 {
            // SAFETY: a free block's first word holds the next free block of its class.
            *free = unsafe { *(head as *const usize) };
            return head as *mut u8;
        }
        let size = 1usize << (class as u32 + MIN_CLASS);
        if state.end - state.next < size {
            // Memory grows in one piece, so new pages usually continue the current region and
            // need only cover what it lacks.
            let Some((start, mut end)) = grow((size - (state.end - state.next)).div_ceil(PAGE))
            else {
                return null_mut();
            };
            if start != state.end {
                // Something else grew memory in between: the new pages start a region of their
                // own, which must hold the whole block.
                if end - start < size {
                    let Some((_, more)) = grow((size - (end - start)).div_ceil(PAGE)) else {
                        return null_mut();
                    };
                    end = more;
                }
                state.next = start;
            }
            state.end = end;
        }
        let block = state.next;
        state.next += size;
        block as *mut u8
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let Some(class) = class_of(layout) else {
            return;
        };
        // SAFETY: as in `alloc`; `ptr` is a block of this class that its owner gave back.
        let state = unsafe { &mut *self.0.get() };
        let Some(free) = state.free.get_mut(class) else {
            return;
        };
        unsafe { *(ptr as *mut usize) = *free };
        *free = ptr as usize;
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `new_size` with this alignment is a valid layout.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if class_of(layout).is_some() && class_of(layout) == class_of(new_layout) {
            return ptr; // the block already has room
        }
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
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

    fn class(size: usize, align: usize) -> Option<usize> {
        class_of(Layout::from_size_align(size, align).unwrap())
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
}
