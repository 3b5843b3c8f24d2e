// Process lifetime of MPI and Kokkos: MPI first, then Kokkos; finalised in
// reverse order. One per process, created at the top of main().
#pragma once

#include <mpi.h>

#include <string>

namespace cb {

class Environment {
 public:
  Environment(int& argc, char**& argv);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0;
  int size_ = 1;
};

// Node-local rank from the launcher (SLURM_LOCALID, OMPI_COMM_WORLD_LOCAL_RANK,
// MV2_COMM_WORLD_LOCAL_RANK, PMI_LOCAL_RANK), or -1 when none is set.
int node_local_rank();

// Name of Kokkos' default execution space ("Serial", "OpenMP", "Cuda", ...).
std::string kokkos_backend_name();

}  // namespace cb
