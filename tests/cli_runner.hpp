// Runs the built `cloudburst` program (serially or under mpiexec) in a shell
// and captures its exit code and combined output, for the CLI tests.
#pragma once

#include <string>
#include <vector>

namespace cb::test {

struct CliResult {
  int code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `command` with /bin/sh, without the MPI variables of this (singleton)
// test process, so that programs it starts do not think they are part of it.
CliResult run_shell(const std::string& command);

// `arguments` is appended to the program path as shell text.
CliResult run_cloudburst(const std::string& arguments);
// The same under `mpiexec -n ranks`.
CliResult run_cloudburst_mpi(int ranks, const std::string& arguments);

// A fresh empty directory under the system temp dir, removed when the process's
// tests all pass (tests/scratch_dirs.hpp).
std::string make_temp_dir(const std::string& prefix);
// Writes `text` to `path`.
void write_text(const std::string& path, const std::string& text);
std::string read_text(const std::string& path);
// Column `name` of a CSV file with a header line (diagnostics.csv).
std::vector<double> csv_column(const std::string& path, const std::string& name);

}  // namespace cb::test
