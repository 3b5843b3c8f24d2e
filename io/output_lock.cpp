#include "io/output_lock.hpp"

#include "core/batch/slurm.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "io/detail/h5_fields.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

namespace cb::io {
namespace {

// "host node01, pid 1234, Slurm job 77, started 2026-12-01T10:00:00"
std::string holder_text() {
  const std::time_t now = std::time(nullptr);
  char started[32];
  std::strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%S", std::localtime(&now));
  const SlurmJob job = slurm_job_from_environment();
  return "host " + host_name() + ", pid " + std::to_string(getpid()) +
         (job.inside() ? ", Slurm job " + job.id : "") + ", started " + started;
}

std::string read_holder(int fd) {
  char text[256] = {};
  const ssize_t n = pread(fd, text, sizeof text - 1, 0);
  return n > 0 ? std::string(text, std::size_t(n)) : "another process";
}

}  // namespace

void OutputLock::acquire(const std::string& dir, MPI_Comm comm, bool only_if_present) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string error;
  std::error_code ec;
  if (rank == 0 && fd_ < 0 && (!only_if_present || std::filesystem::is_directory(dir, ec))) {
    const std::string path = dir + "/.cloudburst.lock";
    fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      error = path + ": cannot open the output lock: " + std::strerror(errno);
    } else if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      error = dir + ": another run is writing here (" + read_holder(fd_) +
              "); wait for it to end, or choose another --output-dir";
      close(fd_);
      fd_ = -1;
    } else {
      const std::string holder = holder_text();
      if (ftruncate(fd_, 0) != 0 || pwrite(fd_, holder.data(), holder.size(), 0) < 0)
        error = path + ": cannot write the output lock: " + std::strerror(errno);
    }
  }
  error = detail::first_error(comm, error);
  if (!error.empty()) throw InputError(error);
}

OutputLock::~OutputLock() {
  if (fd_ >= 0) close(fd_);  // releases the lock
}

}  // namespace cb::io
