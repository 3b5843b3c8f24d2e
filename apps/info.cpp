// `cloudburst info` and `cloudburst --version`.
#include "apps/commands.hpp"

#include "apps/build_info.hpp"

#include "core/environment.hpp"
#include "core/types.hpp"
#include "solvers/registry.hpp"

#include <hdf5.h>
#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <iostream>
#include <string>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#elif defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime.h>
#endif

namespace cb::app {
namespace {

std::string kokkos_version() {
  const int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

std::string enabled_backends() {
  std::string list;
  auto add = [&list](const char* name) { list += list.empty() ? name : std::string(", ") + name; };
#ifdef KOKKOS_ENABLE_SERIAL
  add("Serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  add("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_THREADS
  add("Threads");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  add("Cuda");
#endif
#ifdef KOKKOS_ENABLE_HIP
  add("HIP");
#endif
#ifdef KOKKOS_ENABLE_SYCL
  add("SYCL");
#endif
  return list;
}

std::string device_name() {
#if defined(KOKKOS_ENABLE_CUDA)
  int device = 0;
  cudaDeviceProp prop;
  if (cudaGetDevice(&device) == cudaSuccess &&
      cudaGetDeviceProperties(&prop, device) == cudaSuccess)
    return std::string(prop.name) + " (device " + std::to_string(device) + ")";
#elif defined(KOKKOS_ENABLE_HIP)
  int device = 0;
  hipDeviceProp_t prop;
  if (hipGetDevice(&device) == hipSuccess && hipGetDeviceProperties(&prop, device) == hipSuccess)
    return std::string(prop.name) + " (device " + std::to_string(device) + ")";
#endif
  return "host";
}

std::string mpi_library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string s(text, static_cast<size_t>(length));
  const auto end = s.find_first_of("\r\n,");
  return end == std::string::npos ? s : s.substr(0, end);
}

std::string hdf5_library() {
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  std::string s =
      std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
#ifdef H5_HAVE_PARALLEL
  return s + " (parallel)";
#else
  return s + " (serial)";
#endif
}

}  // namespace

std::string version_string() {
  return build::version;
}

int info_command() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return 0;
  std::cout << "cloudburst " << version_string() << '\n'
            << "  Kokkos            " << kokkos_version() << "; backends: " << enabled_backends()
            << '\n'
            << "  execution space   " << kokkos_backend_name() << ", concurrency "
            << ExecSpace().concurrency() << ", device: " << device_name() << '\n'
            << "  MPI               " << mpi_library() << '\n'
            << "  HDF5              " << hdf5_library() << '\n'
            << "  compiler          " << build::compiler << ", C++" << __cplusplus / 100 % 100
            << '\n'
            << "  real              " << (sizeof(real) == 8 ? "double" : "float") << '\n'
            << "  solvers\n";
  for (const SolverModule& m : solver_modules())
    std::cout << "    " << m.name << std::string(m.name.size() < 14 ? 14 - m.name.size() : 1, ' ')
              << m.summary << '\n';
  return 0;
}

}  // namespace cb::app
