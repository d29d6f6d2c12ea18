//! The ranks of an MPI job as a [`Cluster`] (cargo feature `mpi`: the `mpi` crate, rsmpi,
//! over the system's MPI library, e.g. Debian's OpenMPI). Run as
//! `mpirun -np P giuthi tb gen --mpi ...` or `srun giuthi tb gen --mpi ...`.
//!
//! MPI is initialised with `MPI_THREAD_FUNNELED`: only the thread that calls
//! [`MpiCluster::init`] makes MPI calls (the layer generator's worker threads never do).

use super::cluster::Cluster;
use mpi::collective::SystemOperation;
use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

/// The values (8 bytes each) one round of an exchange gathers on every rank, over all
/// ranks together: 2^26, 512 MB. Each rank sends at most `EXCHANGE_ROUND / P` of them a
/// round; a sweep that changed more exchanges in several rounds.
pub const EXCHANGE_ROUND: usize = 1 << 26;

/// The world communicator of an MPI job; MPI is finalised when it is dropped.
pub struct MpiCluster {
    world: SimpleCommunicator,
    /// The most values one rank sends in one round of [`Cluster::gather_all`].
    batch: usize,
    _universe: mpi::environment::Universe,
}

impl std::fmt::Debug for MpiCluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MpiCluster(rank {} of {})", self.rank(), self.size())
    }
}

impl MpiCluster {
    /// Initialises MPI (once per process).
    ///
    /// # Errors
    ///
    /// A message when MPI was already initialised or cannot give the threading level.
    pub fn init() -> Result<MpiCluster, String> {
        let (universe, level) = mpi::initialize_with_threading(mpi::Threading::Funneled)
            .ok_or_else(|| "MPI was already initialised".to_string())?;
        if level < mpi::Threading::Funneled {
            return Err(format!(
                "the MPI library gives threading level {level:?}, funneled is needed"
            ));
        }
        let world = universe.world();
        let batch = (EXCHANGE_ROUND / world.size().max(1) as usize).max(1);
        Ok(MpiCluster {
            world,
            batch,
            _universe: universe,
        })
    }
}

impl MpiCluster {
    /// Sets the most values one rank sends in one round of an exchange (at least 1;
    /// default `EXCHANGE_ROUND / P`). Small batches serve the tests: the layers are
    /// the same whatever the batch.
    pub fn with_batch(mut self, values: usize) -> MpiCluster {
        self.batch = values.max(1);
        self
    }
}

impl Cluster for MpiCluster {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }
    fn size(&self) -> usize {
        self.world.size() as usize
    }
    fn or_all(&self, block: &mut [u16]) {
        let send = block.to_vec();
        self.world
            .all_reduce_into(&send[..], block, SystemOperation::bitwise_or());
    }
    fn gather_all(&self, mine: &[u64], apply: &mut dyn FnMut(&[u64])) {
        let p = self.size();
        let b = self.batch;
        // Every rank's count first: all then agree on the number of rounds.
        let n = mine.len() as u64;
        let mut lens = vec![0u64; p];
        self.world.all_gather_into(&n, &mut lens[..]);
        let rounds = lens
            .iter()
            .map(|&l| l.div_ceil(b as u64))
            .max()
            .unwrap_or(0);
        let mut all = Vec::new();
        for round in 0..rounds as usize {
            // Round `round` sends values `round * b ..` of each rank's list (at most `b`).
            let part = |l: u64| (l as usize).saturating_sub(round * b).min(b);
            let counts: Vec<Count> = lens.iter().map(|&l| part(l) as Count).collect();
            let displs: Vec<Count> = counts
                .iter()
                .scan(0, |acc, &x| {
                    let d = *acc;
                    *acc += x;
                    Some(d)
                })
                .collect();
            let total: usize = counts.iter().map(|&c| c as usize).sum();
            all.clear();
            all.resize(total, 0u64);
            let start = (round * b).min(mine.len());
            let send = &mine[start..start + part(n)];
            {
                let mut recv = PartitionMut::new(&mut all[..], counts, &displs[..]);
                self.world.all_gather_varcount_into(send, &mut recv);
            }
            apply(&all);
        }
    }
    fn any(&self, flag: bool) -> bool {
        let mut out = 0u8;
        self.world
            .all_reduce_into(&(flag as u8), &mut out, SystemOperation::logical_or());
        out != 0
    }
    fn barrier(&self) {
        self.world.barrier();
    }
    fn abort(&self, code: i32) {
        self.world.abort(code)
    }
}
