// Every case file shipped in cases/ stays valid and runnable: `cloudburst
// check` accepts it, and two steps of it on 2 ranks finish with a checkpoint.
// New case files are picked up without registering them.
#include "cli_runner.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> case_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(CLOUDBURST_SOURCE_DIR "/cases"))
    if (entry.path().extension() == ".toml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("every case file checks and runs two steps on 2 ranks", "[cases][cli]") {
  const std::vector<fs::path> files = case_files();
  REQUIRE(files.size() >= 30);
  const std::string dir = make_temp_dir("cb_cases_");
  for (const fs::path& file : files) {
    const std::string name = file.parent_path().filename().string() + "_" + file.stem().string();
    const CliResult check = run_cloudburst("check " + file.string());
    INFO(file.string() << " check:\n" << check.output);
    CHECK(check.code == 0);
    CHECK_THAT(check.output, ContainsSubstring(": valid"));
    const std::string out = dir + "/" + name;
    const CliResult run = run_cloudburst_mpi(
        2, "run " + file.string() +
               " --set run.steps=2 --set checkpoint.at_end=true --output-dir " + out);
    INFO(file.string() << " run:\n" << run.output);
    CHECK(run.code == 0);
    CHECK(fs::exists(out + "/checkpoints/chk_00000002.h5"));
  }
  fs::remove_all(dir);
}
