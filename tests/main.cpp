// One Catch2 main for every test executable: MPI first, then Kokkos, so that a
// test may use both; finalised in reverse order. The exit code is the worst over
// all ranks, so a failure on any rank fails the CTest entry; when it is 0 each
// rank removes the scratch directories it made (tests/scratch_dirs.hpp).
#include "scratch_dirs.hpp"

#include "core/mpi_io_safety.hpp"

#include <catch2/catch_session.hpp>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

namespace cb::test {
namespace {
std::mutex scratch_mutex;
std::vector<std::string>& scratch_dirs() {
  static std::vector<std::string> dirs;
  return dirs;
}
}  // namespace

void register_scratch_dir(const std::string& path) {
  const std::lock_guard<std::mutex> lock(scratch_mutex);
  scratch_dirs().push_back(path);
}

void remove_scratch_dirs() {
  const std::lock_guard<std::mutex> lock(scratch_mutex);
  for (const std::string& dir : scratch_dirs()) {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  scratch_dirs().clear();
}
}  // namespace cb::test

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
  if (result == 0 && !std::getenv("CLOUDBURST_KEEP_TEST_DIRS")) cb::test::remove_scratch_dirs();
  MPI_Finalize();
  return result;
}
