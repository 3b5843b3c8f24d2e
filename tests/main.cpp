// One Catch2 main for every test executable: MPI first, then Kokkos, so that a
// test may use both; finalised in reverse order. The exit code is the worst over
// all ranks, so a failure on any rank fails the CTest entry.
#include "core/mpi_io_safety.hpp"

#include <catch2/catch_session.hpp>

#include <mpi.h>
#include <Kokkos_Core.hpp>

int main(int argc, char* argv[]) {
  cb::apply_mpi_io_safety();
  MPI_Init(&argc, &argv);
  int result = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    Catch::Session session;
    result = session.run(argc, argv);
    int worst = 0;
    MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    result = worst;
  }
  MPI_Finalize();
  return result;
}
