// `<out>/diagnostics.csv` and the matching log line, one row per diagnostics
// step (docs/getting-started.md); shared by the grid and particle run outputs.
#pragma once

#include "core/log.hpp"
#include "core/run_output.hpp"

#include <fstream>
#include <string>
#include <vector>

#include <mpi.h>

namespace cb::io {

class DiagnosticsCsv {
 public:
  // Rank 0 opens `path`: truncated on a fresh start; on restart (`first_step`
  // > 0) the rows after first_step are dropped and new rows appended. Other
  // ranks hold nothing. `comm`: the ranks that call append().
  DiagnosticsCsv(const std::string& path, long first_step, MPI_Comm comm);

  // Collective. Rank 0 writes one CSV row (header first) and a "diagnostics:
  // step N ..." line; when either does not reach its file (a full disk) every
  // rank throws RunError naming the file.
  void append(const RunState& state, const std::vector<Diagnostic>& values, Log& log);

 private:
  void write_row(const RunState& state, const std::vector<Diagnostic>& values, Log& log);

  std::string path_;
  MPI_Comm comm_;
  bool root_;
  std::ofstream csv_;
  bool has_header_ = false;
};

// Keeps the header and the rows whose first column (step) is <= last_step.
void truncate_csv_after(const std::string& path, long last_step);

}  // namespace cb::io
