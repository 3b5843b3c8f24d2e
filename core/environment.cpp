#include "core/environment.hpp"

#include "core/mpi_io_safety.hpp"

#include <sys/resource.h>
#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#elif defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime.h>
#endif

namespace cb {
namespace {

// GPUs this process can see (CUDA_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES
// applied); 0 on host backends or when the runtime finds none.
int count_visible_devices() {
  int count = 0;
#if defined(KOKKOS_ENABLE_CUDA)
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
#elif defined(KOKKOS_ENABLE_HIP)
  if (hipGetDeviceCount(&count) != hipSuccess) count = 0;
#endif
  return count;
}

// The environment variable that restricts the visible GPUs, for the log.
std::string visibility_note() {
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES"}) {
    if (const char* value = std::getenv(name)) return std::string(", ") + name + "=" + value;
  }
  return "";
}

// Whether the user chose the device themselves (command line or environment).
bool device_chosen_by_user(const std::vector<char*>& kokkos_args) {
  for (size_t n = 1; n < kokkos_args.size(); ++n) {
    for (const char* option : {"--kokkos-device-id", "--kokkos-device=", "--kokkos-num-devices",
                               "--kokkos-map-device-id-by"}) {
      if (std::strncmp(kokkos_args[n], option, std::strlen(option)) == 0) return true;
    }
  }
  return std::getenv("KOKKOS_DEVICE_ID") || std::getenv("KOKKOS_MAP_DEVICE_ID_BY") ||
         std::getenv("KOKKOS_NUM_DEVICES");
}

// Whether `option` ("--kokkos-name" or "--kokkos-name=value") is one of the
// command-line options of Kokkos 3.x to 5.x.
bool is_kokkos_option(const char* option) {
  const std::string name = std::string(option).substr(0, std::string(option).find('='));
  for (const char* known :
       {"--kokkos-help", "--kokkos-threads", "--kokkos-num-threads", "--kokkos-numa",
        "--kokkos-device-id", "--kokkos-device", "--kokkos-num-devices", "--kokkos-skip-device",
        "--kokkos-map-device-id-by", "--kokkos-disable-warnings", "--kokkos-print-configuration",
        "--kokkos-tune-internals", "--kokkos-tools-libs", "--kokkos-tools-library",
        "--kokkos-tools-args", "--kokkos-tools-help"}) {
    if (name == known) return true;
  }
  return false;
}

// Rank within this node: from the launcher, else from MPI's shared-memory split.
int find_local_rank() {
  const int from_launcher = node_local_rank();
  if (from_launcher >= 0) return from_launcher;
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int rank = 0;
  MPI_Comm_rank(node, &rank);
  MPI_Comm_free(&node);
  return rank;
}

}  // namespace

int node_local_rank() {
  for (const char* name : {"SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK",
                           "MV2_COMM_WORLD_LOCAL_RANK", "PMI_LOCAL_RANK"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return -1;
}

Environment::Environment(int& argc, char**& argv, bool start_kokkos) {
  apply_mpi_io_safety();
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  local_rank_ = find_local_rank();
  // Kokkos sees only its own --kokkos-* options (Kokkos 3.x would also act on
  // a plain --help); they are removed from argv for the program.
  std::vector<char*> kokkos_args{argv[0]};
  int kept = 1;
  for (int n = 1; n < argc; ++n) {
    if (std::strncmp(argv[n], "--kokkos-", 9) == 0) {
      if (is_kokkos_option(argv[n])) {
        kokkos_args.push_back(argv[n]);
      } else if (unknown_kokkos_option_.empty()) {
        unknown_kokkos_option_ = argv[n];
      }
    } else {
      argv[kept++] = argv[n];
    }
  }
  argc = kept;
  if (!start_kokkos) return;
  kokkos_started_ = true;
  visible_devices_ = count_visible_devices();
  if (visible_devices_ > 0 && !device_chosen_by_user(kokkos_args)) {
    device_id_ = local_rank_ % visible_devices_;
  }
#if KOKKOS_VERSION >= 40000
  if (device_id_ >= 0 && kokkos_args.size() == 1) {
    Kokkos::initialize(Kokkos::InitializationSettings().set_device_id(device_id_));
    return;
  }
#endif
  std::string device_option = "--kokkos-device-id=" + std::to_string(device_id_);
  if (device_id_ >= 0) kokkos_args.push_back(device_option.data());
  int kokkos_argc = static_cast<int>(kokkos_args.size());
  kokkos_args.push_back(nullptr);
  char** kokkos_argv = kokkos_args.data();
  Kokkos::initialize(kokkos_argc, kokkos_argv);
}

Environment::~Environment() {
  if (kokkos_started_) Kokkos::finalize();
  MPI_Finalize();
}

std::vector<std::string> Environment::device_map(MPI_Comm comm) const {
  constexpr int width = 256;
  std::string device;
  if (visible_devices_ == 0) {
    device = "host (" + kokkos_backend_name() + ")";
  } else if (device_id_ >= 0) {
    device = kokkos_backend_name() + " device " + std::to_string(device_id_);
  } else {
    device = kokkos_backend_name() + " device chosen by the Kokkos options";
  }
  std::string line = "rank " + std::to_string(rank_) + " -> " + host_name() + " -> " + device +
                     " (local rank " + std::to_string(local_rank_) + ", " +
                     std::to_string(visible_devices_) + " visible" + visibility_note() + ")";
  line.resize(width - 1, '\0');
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  std::vector<char> all(rank == 0 ? static_cast<size_t>(width) * ranks : 0);
  std::vector<char> mine(width, '\0');
  std::copy(line.begin(), line.end(), mine.begin());
  MPI_Gather(mine.data(), width, MPI_CHAR, all.data(), width, MPI_CHAR, 0, comm);
  std::vector<std::string> lines;
  for (int r = 0; rank == 0 && r < ranks; ++r) lines.emplace_back(all.data() + r * width);
  return lines;
}

#if !defined(KOKKOS_ENABLE_CUDA) && !defined(KOKKOS_ENABLE_HIP)
namespace {

// MemAvailable of /proc/meminfo in bytes, or nullopt (host backends only).
std::optional<double> host_available_bytes() {
  FILE* file = std::fopen("/proc/meminfo", "r");
  if (!file) return std::nullopt;
  char line[256];
  std::optional<double> bytes;
  while (std::fgets(line, sizeof line, file)) {
    double kib = 0;
    if (std::sscanf(line, "MemAvailable: %lf kB", &kib) == 1) bytes = kib * 1024.0;
  }
  std::fclose(file);
  return bytes;
}

}  // namespace
#endif

#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
namespace {
// The device's free and total memory in bytes; false when the runtime fails.
bool device_memory(std::size_t& free, std::size_t& total) {
#if defined(KOKKOS_ENABLE_CUDA)
  return cudaMemGetInfo(&free, &total) == cudaSuccess;
#else
  return hipMemGetInfo(&free, &total) == hipSuccess;
#endif
}
}  // namespace
#endif

std::optional<double> allocatable_bytes_per_rank(MPI_Comm comm) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  (void)comm;
  std::size_t free = 0, total = 0;
  if (!device_memory(free, total)) return std::nullopt;
  return static_cast<double>(free);
#else
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int ranks_on_node = 1;
  MPI_Comm_size(node, &ranks_on_node);
  MPI_Comm_free(&node);
  const std::optional<double> available = host_available_bytes();
  if (!available) return std::nullopt;
  return *available / ranks_on_node;
#endif
}

std::optional<double> device_bytes_in_use() {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  std::size_t free = 0, total = 0;
  if (!device_memory(free, total)) return std::nullopt;
  return static_cast<double>(total - free);
#else
  return std::nullopt;
#endif
}

double host_high_water_bytes() {
  double bytes = 0.0;
  if (std::FILE* file = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, file)) {
      double kib = 0;
      if (std::sscanf(line, "VmHWM: %lf kB", &kib) == 1) bytes = kib * 1024.0;
    }
    std::fclose(file);
  }
  if (bytes > 0.0) return bytes;
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss * 1024.0;  // kilobytes on Linux
}

std::string kokkos_backend_name() {
  return Kokkos::DefaultExecutionSpace::name();
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown-host";
  return name;
}

}  // namespace cb
