// Process lifetime of MPI and Kokkos: MPI first, then Kokkos; finalised in
// reverse order. One per process, created at the top of main(). On a GPU
// backend each rank takes device (node-local rank mod visible devices), unless
// the command line (--kokkos-device-id, --kokkos-map-device-id-by) or
// KOKKOS_DEVICE_ID chose one: every GPU of a node stays visible to every rank,
// as CUDA IPC between ranks (GPU-aware MPI) needs.
#pragma once

#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

namespace cb {

class Environment {
 public:
  // `start_kokkos` false: MPI only (for commands that use no device, such as
  // `submit` on a login node without GPUs).
  Environment(int& argc, char**& argv, bool start_kokkos = true);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }
  // The device this rank selected, or -1 (host backend, or chosen by Kokkos).
  int device_id() const { return device_id_; }
  int visible_devices() const { return visible_devices_; }

  // The first --kokkos-* option that Kokkos does not know ("" when none); it
  // was not passed on, and the program refuses it (exit 2).
  const std::string& unknown_kokkos_option() const { return unknown_kokkos_option_; }

  // Collective. On rank 0, one line per rank: "rank R -> HOST -> DEVICE
  // (local rank L, N visible)"; empty elsewhere.
  std::vector<std::string> device_map(MPI_Comm comm) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  int device_id_ = -1;
  int visible_devices_ = 0;
  bool kokkos_started_ = false;
  std::string unknown_kokkos_option_;
};

// Node-local rank from the launcher (SLURM_LOCALID, OMPI_COMM_WORLD_LOCAL_RANK,
// MV2_COMM_WORLD_LOCAL_RANK, PMI_LOCAL_RANK), or -1 when none is set.
int node_local_rank();

// Bytes this rank may allocate in Kokkos' default memory space: on a GPU the
// device's free memory; on the host MemAvailable of /proc/meminfo shared by the
// ranks of this node. nullopt when it cannot be told. Collective.
std::optional<double> allocatable_bytes_per_rank(MPI_Comm comm);

// Bytes in use on this rank's GPU (the whole device: every process on it), or
// nullopt on host backends, where device memory is host memory.
std::optional<double> device_bytes_in_use();

// This process's resident-memory high-water mark (VmHWM of /proc/self/status,
// else getrusage's ru_maxrss), bytes.
double host_high_water_bytes();

// Name of Kokkos' default execution space ("Serial", "OpenMP", "Cuda", ...).
std::string kokkos_backend_name();

// This host's name.
std::string host_name();

}  // namespace cb
