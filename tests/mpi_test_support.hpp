// Helpers for tests that run under mpiexec: rank/size of MPI_COMM_WORLD and a
// temporary directory shared by all ranks.
#pragma once

#include <mpi.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace cb::test {

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// A fresh directory per test: made by rank 0 as <tmp>/<prefix>XXXXXX, shared
// by name, removed at the end.
class SharedTempDir {
 public:
  explicit SharedTempDir(const std::string& prefix) {
    namespace fs = std::filesystem;
    std::string name;
    if (world_rank() == 0) {
      std::string pattern = (fs::temp_directory_path() / (prefix + "XXXXXX")).string();
      name = mkdtemp(&pattern[0]) != nullptr ? pattern : "";
    }
    unsigned long length = name.size();
    MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
    name.resize(length);
    MPI_Bcast(&name[0], static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD);
    path_ = name;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  ~SharedTempDir() {
    MPI_Barrier(MPI_COMM_WORLD);
    std::error_code ec;
    if (world_rank() == 0) std::filesystem::remove_all(path_, ec);
  }
  SharedTempDir(const SharedTempDir&) = delete;
  SharedTempDir& operator=(const SharedTempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace cb::test
