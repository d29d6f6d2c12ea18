//! The processes that generate a layer together: one process ([`Solo`]) or the ranks of an
//! MPI job (`super::mpi`, cargo feature `mpi`). Each owns the chunks of every layer
//! dealt round-robin (chunk `c` to rank `c mod P`: contiguous blocks would be badly
//! unbalanced under the mirror, whose canonical boards crowd the low ranks), scans and
//! sweeps only those, and after the scan and every sweep shares what it changed.
//!
//! Every rank holds all the entries of the layer (2 bytes a position): the edge streams,
//! the sowing and the sweeps are divided, the entries replicated. Values are exchanged as
//! (rank, entry) pairs; the fixpoint is detected by an all-reduce of "anything changed".

/// The collective operations the layer generator needs. Called from one thread only.
pub trait Cluster {
    /// This process's rank, `0..size()`.
    fn rank(&self) -> usize;
    /// The number of processes.
    fn size(&self) -> usize;
    /// Whether chunk `c` is this process's.
    fn owns(&self, c: usize) -> bool {
        c % self.size() == self.rank()
    }
    /// Replaces `block` with the bitwise OR of every process's `block` (same length on
    /// all; each entry is non-zero on its owner only).
    fn or_all(&self, block: &mut [u16]);
    /// Every process's `mine`, in rank order, handed to `apply` in one or more batches
    /// (an MPI job exchanges at most a bounded number of values a round, so the memory
    /// of an exchange does not grow with the layer). A collective call: every process
    /// calls it once per exchange.
    fn gather_all(&self, mine: &[u64], apply: &mut dyn FnMut(&[u64]));
    /// Whether `flag` is set on any process.
    fn any(&self, flag: bool) -> bool;
    /// Waits for every process.
    fn barrier(&self);
    /// Ends the whole job with exit `code` after an error on this process (the others
    /// would wait for it forever). [`Solo`] returns and lets the caller exit.
    fn abort(&self, code: i32) {
        let _ = code;
    }
}

/// One process: owns everything, exchanges nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Solo;

impl Cluster for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn owns(&self, _c: usize) -> bool {
        true
    }
    fn or_all(&self, _block: &mut [u16]) {}
    fn gather_all(&self, mine: &[u64], apply: &mut dyn FnMut(&[u64])) {
        apply(mine)
    }
    fn any(&self, flag: bool) -> bool {
        flag
    }
    fn barrier(&self) {}
}
