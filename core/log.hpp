// Rank-0 console output, mirrored into <out>/run.log (docs/getting-started.md).
#pragma once

#include <fstream>
#include <string>

namespace cb {

class Log {
 public:
  explicit Log(int rank);
  // Starts mirroring lines into `path` (appending: a restarted run continues it).
  void open_file(const std::string& path);
  bool is_root() const { return rank_ == 0; }
  // A complete line (rank 0 only; other ranks ignore).
  void line(const std::string& text);
  // A line to stderr (and the log file), for errors.
  void error(const std::string& text);
  // A progress line: redrawn in place on a terminal, a plain line otherwise.
  // Not mirrored into the file (it would flood it); see line() for that.
  void progress(const std::string& text);
  bool interactive() const { return interactive_; }
  // False once a line did not reach <out>/run.log (a full disk).
  bool file_ok() const { return !file_.is_open() || file_.good(); }

 private:
  void end_progress();
  int rank_;
  bool interactive_;
  bool progress_open_ = false;
  std::ofstream file_;
};

}  // namespace cb
