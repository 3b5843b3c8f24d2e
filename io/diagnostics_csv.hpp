// `<out>/diagnostics.csv` and the matching log line, one row per diagnostics
// step (docs/getting-started.md); shared by the grid and particle run outputs.
#pragma once

#include "core/log.hpp"
#include "core/run_output.hpp"

#include <fstream>
#include <string>
#include <vector>

namespace cb::io {

class DiagnosticsCsv {
 public:
  // Rank 0 opens `path`: truncated on a fresh start; on restart (`first_step`
  // > 0) the rows after first_step are dropped and new rows appended. Other
  // ranks hold nothing.
  DiagnosticsCsv(const std::string& path, long first_step, bool root);

  // Rank 0: one CSV row (header first) and a "diagnostics: step N ..." line.
  void append(const RunState& state, const std::vector<Diagnostic>& values, Log& log);

 private:
  bool root_;
  std::ofstream csv_;
  bool has_header_ = false;
};

// Keeps the header and the rows whose first column (step) is <= last_step.
void truncate_csv_after(const std::string& path, long last_step);

}  // namespace cb::io
