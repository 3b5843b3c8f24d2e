// Run-wide options and services that reach every solver through one object
// (docs/architecture.md, "The run context"): how exchanges hand buffers to
// MPI and where they count their messages, the device this rank uses, and the
// run's log. The time loop, its stop policy and its phase timer stay with the
// driver; solvers get the timer through Solver::step.
#pragma once

#include <mpi.h>

#include <string>

namespace cb {

class Log;

// What halo and ghost exchanges sent, by path. Owned by the run; printed in
// its summary so that a run shows which path its messages took.
struct ExchangeCounters {
  long long device_messages = 0;  // device buffers handed to MPI (GPU-aware)
  long long staged_messages = 0;  // staged through host mirrors
  long long device_bytes = 0;
  long long staged_bytes = 0;
  void count(bool device, long long bytes);
  // Collective: the counts of all ranks added up.
  ExchangeCounters summed(MPI_Comm comm) const;
  // "exchanges: 120 messages, 1.92 MB, device buffers handed to MPI", or
  // "exchanges: none" when nothing was sent.
  std::string summary() const;
};

// How exchanges hand their buffers to MPI.
struct CommOptions {
  bool gpu_aware_mpi = false;            // [parallel] gpu_aware_mpi
  ExchangeCounters* counters = nullptr;  // null: not counted (unit tests)
};

struct RunContext {
  CommOptions comm;
  int device_id = -1;  // the device this rank selected, -1 on host backends
  Log* log = nullptr;  // rank-0 console and <out>/run.log; null in unit tests
};

// Why `gpu_aware_mpi = true` cannot be honoured by this build and MPI library,
// or "" when it can: on a backend whose memory is host memory every MPI takes
// the buffers; on CUDA or HIP the MPI library must say it handles device memory
// (Open MPI's MPIX_Query_cuda_support / MPIX_Query_rocm_support), or the user
// must assert it with CLOUDBURST_MPI_GPU_AWARE=1 where the library cannot tell.
std::string gpu_aware_mpi_refusal();

}  // namespace cb
