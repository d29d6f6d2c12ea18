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

/// The world communicator of an MPI job; MPI is finalised when it is dropped.
pub struct MpiCluster {
    world: SimpleCommunicator,
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
        Ok(MpiCluster {
            world: universe.world(),
            _universe: universe,
        })
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
    fn gather_all(&self, mine: &[u64]) -> Vec<u64> {
        let p = self.size();
        let n = mine.len() as Count;
        let mut counts = vec![0 as Count; p];
        self.world.all_gather_into(&n, &mut counts[..]);
        let displs: Vec<Count> = counts
            .iter()
            .scan(0, |acc, &x| {
                let d = *acc;
                *acc += x;
                Some(d)
            })
            .collect();
        let total: Count = counts.iter().sum();
        let mut all = vec![0u64; total as usize];
        {
            let mut part = PartitionMut::new(&mut all[..], counts, &displs[..]);
            self.world.all_gather_varcount_into(mine, &mut part);
        }
        all
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
