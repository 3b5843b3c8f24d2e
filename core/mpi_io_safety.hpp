// Settings that make MPI-IO safe before MPI_Init reads its parameters.
#pragma once

namespace cb {

// Open MPI before 4.1.7 and 5.0.6 writes collective MPI-IO to local and NFS
// file systems without file locking, so ranks writing neighbouring parts of one
// HDF5 file can overwrite each other's data (open-mpi/ompi issue #12718; seen
// here with 4.1.4 as zeroed blocks in 4-rank checkpoints). Range locking
// (fs_ufs_lock_algorithm = 3) avoids it. Sets the variable only where the
// user has not chosen a value. Call before MPI_Init.
void apply_mpi_io_safety();

}  // namespace cb
