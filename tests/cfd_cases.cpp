#include "cfd_cases.hpp"

#include "cli_runner.hpp"

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace cb::test {

namespace fs = std::filesystem;

std::string case_path(const std::string& stem) {
  if (stem.front() == '/') return stem + ".toml";  // a derived copy (without_limiter)
  return std::string(CLOUDBURST_SOURCE_DIR) + "/cases/cfd/" + stem + ".toml";
}

std::string without_limiter(const std::string& dir, const std::string& stem) {
  std::istringstream in(read_text(case_path(stem)));
  std::string text;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("limiter", 0) != 0) text += line + "\n";
  }
  write_text(dir + "/" + stem + "_weno5.toml", text);
  return dir + "/" + stem + "_weno5";
}

std::string run_case(const std::string& dir, const std::string& label, const std::string& stem,
                     const std::vector<std::string>& sets, int ranks) {
  std::string args = "run '" + case_path(stem) + "' --output-dir '" + dir + "/" + label + "'";
  for (const auto& s : sets) args += " --set '" + s + "'";
  const CliResult r = ranks == 1 ? run_cloudburst(args) : run_cloudburst_mpi(ranks, args);
  INFO(label << ": cloudburst " << args << "\n" << r.output);
  REQUIRE(r.code == 0);
  return dir + "/" + label;
}

std::vector<std::string> files_in(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(folder)) {
    if (e.path().extension() == ".h5") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  REQUIRE_FALSE(files.empty());
  return files;
}

std::string last_checkpoint(const std::string& out) {
  return files_in(out + "/checkpoints").back();
}

}  // namespace cb::test
