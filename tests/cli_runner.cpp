#include "cli_runner.hpp"
#include "scratch_dirs.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace cb::test {
namespace {

// The test process is itself an MPI singleton; the variables OpenMPI set for it
// would make a child mpiexec (or cloudburst) believe it is part of this job. The
// user's root, oversubscription and launcher settings (scripts/mpi-env) stay.
const char* scrub_mpi_environment =
    "unset $(env | sed -n 's/^\\(\\(OMPI\\|PMIX\\|OPAL\\|ORTE\\)_[A-Za-z0-9_]*\\)=.*/\\1/p' | "
    "grep -v -e ALLOW_RUN_AS_ROOT -e rmaps_base_oversubscribe -e plm_rsh_agent); ";

}  // namespace

CliResult run_shell(const std::string& command) {
  CliResult result;
  FILE* pipe =
      popen((scrub_mpi_environment + std::string("{ ") + command + "\n} 2>&1").c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed: " + command);
  std::array<char, 4096> buffer;
  size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

CliResult run_cloudburst(const std::string& arguments) {
  return run_shell(std::string("'") + CLOUDBURST_EXE + "' " + arguments);
}

CliResult run_cloudburst_mpi(int ranks, const std::string& arguments) {
  return run_shell(std::string("'") + CLOUDBURST_MPIEXEC + "' -n " + std::to_string(ranks) +
                   " --oversubscribe '" + CLOUDBURST_EXE + "' " + arguments);
}

std::string make_temp_dir(const std::string& prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  register_scratch_dir(pattern);
  return pattern;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<double> csv_column(const std::string& path, const std::string& name) {
  std::ifstream in(path);
  std::string header, line;
  std::getline(in, header);
  std::vector<std::string> names;
  std::stringstream hs(header);
  for (std::string cell; std::getline(hs, cell, ',');) names.push_back(cell);
  const auto found = std::find(names.begin(), names.end(), name);
  if (found == names.end()) throw std::runtime_error(path + " has no column '" + name + "'");
  const auto column = found - names.begin();
  std::vector<double> values;
  while (std::getline(in, line)) {
    std::stringstream ls(line);
    std::string cell;
    for (long c = 0; c <= column; ++c) std::getline(ls, cell, ',');
    values.push_back(std::stod(cell));
  }
  return values;
}

}  // namespace cb::test
