#include "core/environment.hpp"

#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace cb {

int node_local_rank() {
  for (const char* name : {"SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK",
                           "MV2_COMM_WORLD_LOCAL_RANK", "PMI_LOCAL_RANK"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return -1;
}

Environment::Environment(int& argc, char**& argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  // Kokkos sees only its own --kokkos-* options (Kokkos 3.x would also act on
  // a plain --help); they are removed from argv for the program.
  std::vector<char*> kokkos_args{argv[0]};
  int kept = 1;
  for (int n = 1; n < argc; ++n) {
    if (std::strncmp(argv[n], "--kokkos-", 9) == 0) {
      kokkos_args.push_back(argv[n]);
    } else {
      argv[kept++] = argv[n];
    }
  }
  argc = kept;
  int kokkos_argc = static_cast<int>(kokkos_args.size());
  kokkos_args.push_back(nullptr);
  char** kokkos_argv = kokkos_args.data();
  Kokkos::initialize(kokkos_argc, kokkos_argv);
}

Environment::~Environment() {
  Kokkos::finalize();
  MPI_Finalize();
}

std::string kokkos_backend_name() { return Kokkos::DefaultExecutionSpace::name(); }

}  // namespace cb
