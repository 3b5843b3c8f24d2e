#include "io/diagnostics_csv.hpp"

#include "core/error.hpp"
#include "io/detail/h5_fields.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace cb::io {

namespace {

bool is_root(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank == 0;
}

// The step a row starts with ("120,0.5,..."), or -1 for a row that is not one
// of ours (garbage from a full disk or another program is dropped).
long row_step(const std::string& line) {
  char* end = nullptr;
  const long step = std::strtol(line.c_str(), &end, 10);
  const bool ours = end != line.c_str() && *end == ',' && step >= 0 &&
                    std::isdigit(static_cast<unsigned char>(line[0]));
  return ours ? step : -1;
}

}  // namespace

void truncate_csv_after(const std::string& path, long last_step) {
  std::ifstream in(path);
  if (!in) return;
  std::ostringstream kept;
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    const long step = first ? 0 : row_step(line);
    if (first || (step >= 0 && step <= last_step)) kept << line << '\n';
    first = false;
  }
  in.close();
  std::ofstream(path, std::ios::trunc) << kept.str();
}

DiagnosticsCsv::DiagnosticsCsv(const std::string& path, long first_step, MPI_Comm comm)
    : path_(path), comm_(comm), root_(is_root(comm)) {
  if (!root_) return;
  if (first_step > 0) {
    truncate_csv_after(path, first_step);
    has_header_ = std::filesystem::exists(path);
    csv_.open(path, std::ios::app);
  } else {
    csv_.open(path, std::ios::trunc);
  }
}

void DiagnosticsCsv::append(const RunState& state, const std::vector<Diagnostic>& values,
                            Log& log) {
  if (root_) write_row(state, values, log);
  std::string error;
  if (root_ && !csv_) error = path_ + ": cannot write (no space left?)";
  if (root_ && error.empty() && !log.file_ok()) error = "run.log: cannot write (no space left?)";
  error = detail::first_error(comm_, error);
  if (!error.empty()) throw RunError(error + "; the run stops, earlier checkpoints are kept");
}

void DiagnosticsCsv::write_row(const RunState& state, const std::vector<Diagnostic>& values,
                               Log& log) {
  char number[64];
  if (!has_header_) {
    csv_ << "step,time,dt";
    for (const Diagnostic& d : values) csv_ << ',' << d.name;
    csv_ << '\n';
    has_header_ = true;
  }
  std::snprintf(number, sizeof number, "%ld,%.17g,%.17g", state.step, state.time, state.dt);
  csv_ << number;
  std::string line = "diagnostics: step " + std::to_string(state.step);
  for (const Diagnostic& d : values) {
    std::snprintf(number, sizeof number, "%.17g", d.value);
    csv_ << ',' << number;
    std::snprintf(number, sizeof number, "  %s = %.10g", d.name.c_str(), d.value);
    line += number;
  }
  csv_ << '\n' << std::flush;
  log.line(line);
}

}  // namespace cb::io
