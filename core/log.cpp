#include "core/log.hpp"

#include "core/environment.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace cb {

// In-place progress only on a terminal of our own: MPI launchers give each rank
// a pseudo-terminal even when their own output goes to a file.
Log::Log(int rank)
    : rank_(rank), interactive_(isatty(STDOUT_FILENO) != 0 && node_local_rank() < 0) {}

void Log::open_file(const std::string& path) {
  if (rank_ == 0) file_.open(path, std::ios::app);
}

void Log::end_progress() {
  if (progress_open_) {
    std::cout << '\n';
    progress_open_ = false;
  }
}

void Log::line(const std::string& text) {
  if (rank_ != 0) return;
  end_progress();
  std::cout << text << '\n' << std::flush;
  if (file_) file_ << text << '\n' << std::flush;
}

void Log::error(const std::string& text) {
  if (rank_ != 0) return;
  end_progress();
  std::cerr << text << '\n' << std::flush;
  if (file_) file_ << text << '\n' << std::flush;
}

void Log::progress(const std::string& text) {
  if (rank_ != 0) return;
  if (interactive_) {
    std::cout << "\r\033[K" << text << std::flush;
    progress_open_ = true;
  } else {
    std::cout << text << '\n' << std::flush;
  }
}

}  // namespace cb
