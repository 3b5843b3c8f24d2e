// One run per output directory: rank 0 holds an advisory lock (flock) on
// <out>/.cloudburst.lock for the whole run. A second run into the directory is
// refused (exit 2) with the holder's host, pid and start time; the kernel drops
// the lock when the holder exits or is killed, so a crashed run leaves nothing
// to clean up.
#pragma once

#include <mpi.h>

#include <string>

namespace cb::io {

class OutputLock {
 public:
  OutputLock() = default;
  ~OutputLock();
  // Collective. Takes the lock of `dir` unless this process holds it already,
  // or `dir` does not exist and `only_if_present`. Throws InputError naming
  // the holder when another process holds it. A run takes it before it reads
  // the directory's checkpoints (which the holder may be pruning), and again
  // after creating a new directory.
  void acquire(const std::string& dir, MPI_Comm comm, bool only_if_present = false);
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace cb::io
