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
  // Collective. `dir` exists. Throws InputError naming the holder when another
  // process holds the lock.
  OutputLock(const std::string& dir, MPI_Comm comm);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace cb::io
