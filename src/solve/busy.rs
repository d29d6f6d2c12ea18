//! The busy table of the threaded search: which nodes some thread is searching right now
//! (simplified ABDADA, after Kerrigan).
//!
//! With more than one thread, a worker marks a child here while it searches it, and at a
//! node its first pass over the children *defers* (skips for now) a child that another
//! thread has marked; a second pass searches the deferred children, by when the
//! transposition table often holds their answer. The table is a hint only: it changes the
//! order in which a node's children are searched, never which children may decide the
//! node, so every answer stays exact whatever it says (a lost mark or a stale one costs
//! work, not correctness).
//!
//! # Format
//!
//! `2^16` slots of one `AtomicU64` each (512 KB): `0` is empty, otherwise the tagged key of
//! the node being searched ([`BusyTable::tag`]). A slot holds one node at a time; a mark
//! that finds its slot taken by another node is not made (the node is then not seen as
//! busy: only work is lost).

use std::sync::atomic::{AtomicU64, Ordering};

/// log2 of the slots of a [`BusyTable`].
pub const BUSY_SLOT_BITS: u32 = 16;

/// Which nodes are being searched by some thread (see the module docs).
///
/// # Examples
///
/// ```
/// use giuthi::solve::busy::BusyTable;
/// let busy = BusyTable::new();
/// let t = BusyTable::tag(0x1234_5678_9abc_def0, false);
/// assert!(!busy.is_busy(t));
/// assert!(busy.enter(t));
/// assert!(busy.is_busy(t));
/// busy.leave(t);
/// assert!(!busy.is_busy(t));
/// ```
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyTable {
    fn default() -> Self {
        BusyTable::new()
    }
}

impl std::fmt::Debug for BusyTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BusyTable")
            .field("slots", &self.slots.len())
            .finish()
    }
}

impl BusyTable {
    /// An empty table of `2^BUSY_SLOT_BITS` slots.
    pub fn new() -> BusyTable {
        BusyTable {
            slots: (0..1usize << BUSY_SLOT_BITS)
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    /// The tag of a node: its state key (as for the transposition table) and its
    /// repetition game (`bad`: the mover is the game's bad side), never 0.
    #[inline]
    pub fn tag(key: u64, bad: bool) -> u64 {
        (key ^ ((bad as u64) * 0x9e37_79b9_7f4a_7c15)) | 1
    }

    #[inline]
    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.slots[(tag.wrapping_mul(0xff51_afd7_ed55_8ccd) >> (64 - BUSY_SLOT_BITS)) as usize]
    }

    /// Whether some thread has marked the node `tag` as being searched.
    #[inline]
    pub fn is_busy(&self, tag: u64) -> bool {
        self.slot(tag).load(Ordering::Relaxed) == tag
    }

    /// Marks the node `tag` as being searched; `false` when its slot holds another node
    /// or this node already (then the caller must not [`BusyTable::leave`] it).
    #[inline]
    pub fn enter(&self, tag: u64) -> bool {
        self.slot(tag)
            .compare_exchange(0, tag, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    /// Removes the mark of a node this caller's [`BusyTable::enter`] made.
    #[inline]
    pub fn leave(&self, tag: u64) {
        let _ = self
            .slot(tag)
            .compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Removes every mark (between two searches; marks are always left by their makers,
    /// so this only guards against a search that stopped half-way).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mark is seen until it is removed, only its maker removes it, and a node whose
    /// slot is taken is not marked (and not seen as busy).
    #[test]
    fn marks_are_seen_until_removed_and_collisions_are_not_marked() {
        let busy = BusyTable::new();
        let a = BusyTable::tag(42, false);
        let b = BusyTable::tag(42, true);
        assert_ne!(a, b, "the two repetition games are different nodes");
        assert!(busy.enter(a));
        assert!(!busy.enter(a), "a second mark of the same node is refused");
        assert!(busy.is_busy(a));
        assert!(!busy.is_busy(b));
        // Find another tag in a's slot: its mark is refused while a holds the slot.
        let c = (1u64..)
            .map(|k| BusyTable::tag(k.wrapping_mul(0x2545_f491_4f6c_dd1d), false))
            .find(|&t| t != a && std::ptr::eq(busy.slot(t), busy.slot(a)))
            .expect("a colliding tag");
        assert!(!busy.enter(c));
        assert!(!busy.is_busy(c));
        busy.leave(c); // not its slot's holder: no effect
        assert!(busy.is_busy(a));
        busy.leave(a);
        assert!(!busy.is_busy(a));
        assert!(busy.enter(c));
        busy.clear();
        assert!(!busy.is_busy(c));
    }
}
