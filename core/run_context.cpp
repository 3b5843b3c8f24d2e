#include "core/run_context.hpp"

#include "core/types.hpp"

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cb {
namespace {

bool user_asserts_gpu_aware_mpi() {
  const char* value = std::getenv("CLOUDBURST_MPI_GPU_AWARE");
  return value && std::strcmp(value, "1") == 0;
}

// 1: the MPI library handles this backend's device memory; 0: it says it does
// not; -1: it cannot tell.
int mpi_device_memory_support() {
#if defined(KOKKOS_ENABLE_CUDA) && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support();
#elif defined(KOKKOS_ENABLE_CUDA) && defined(MPIX_CUDA_AWARE_SUPPORT)
  return 0;
#elif defined(KOKKOS_ENABLE_HIP) && defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
  return MPIX_Query_rocm_support();
#else
  return -1;
#endif
}

}  // namespace

void ExchangeCounters::count(bool device, long long bytes) {
  (device ? device_messages : staged_messages) += 1;
  (device ? device_bytes : staged_bytes) += bytes;
}

ExchangeCounters ExchangeCounters::summed(MPI_Comm comm) const {
  long long mine[4] = {device_messages, staged_messages, device_bytes, staged_bytes};
  long long all[4] = {};
  MPI_Allreduce(mine, all, 4, MPI_LONG_LONG, MPI_SUM, comm);
  return {all[0], all[1], all[2], all[3]};
}

std::string ExchangeCounters::summary() const {
  if (device_messages == 0 && staged_messages == 0) return "exchanges: none";
  char text[200];
  std::string line = "exchanges:";
  if (device_messages > 0) {
    std::snprintf(text, sizeof text, " %lld messages, %.3g MB, device buffers handed to MPI",
                  device_messages, device_bytes / 1e6);
    line += text;
  }
  if (staged_messages > 0) {
    std::snprintf(text, sizeof text, "%s %lld messages, %.3g MB, staged through host buffers",
                  device_messages > 0 ? ";" : "", staged_messages, staged_bytes / 1e6);
    line += text;
  }
  return line;
}

std::string gpu_aware_mpi_refusal() {
  constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemSpace>::accessible;
  if (host_memory || user_asserts_gpu_aware_mpi()) return "";
  const int support = mpi_device_memory_support();
  if (support == 1) return "";
  const std::string backend = ExecSpace::name();
  if (support == 0) {
    return "gpu_aware_mpi = true, but this MPI library reports that it cannot take " + backend +
           " device memory; set it to false (buffers are then staged through the host)";
  }
  return "gpu_aware_mpi = true, but this MPI library cannot say whether it takes " + backend +
         " device memory; set it to false, or export CLOUDBURST_MPI_GPU_AWARE=1 if you know "
         "it does (e.g. Cray MPICH with MPICH_GPU_SUPPORT_ENABLED=1)";
}

}  // namespace cb
