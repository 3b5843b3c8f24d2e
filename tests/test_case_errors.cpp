// Bad input: each case below must give exit code 2, one message naming the
// file, line and key (with a suggestion where one fits), and write nothing.
#include "cli_runner.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <filesystem>
#include <string>
#include <vector>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;

namespace {

// clang-format off
const std::string valid_case =
    "[run]\n"                 // line 1
    "solver = \"scalar\"\n"   // 2
    "case = \"sine\"\n"       // 3
    "end_time = 0.1\n"        // 4
    "[grid]\n"                // 5
    "cells = [16, 1, 1]\n"    // 6
    "[time]\n"                // 7
    "cfl = 0.5\n"             // 8
    "[scalar]\n"              // 9
    "limiter = \"minmod\"\n"; // 10
// clang-format on

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

struct BadInput {
  std::string what;
  std::string case_text;              // written to bad.toml ("" = do not write the file)
  std::string extra_args;             // appended to the command line
  std::vector<std::string> expected;  // substrings of the message
};

std::vector<BadInput> bad_inputs() {
  const std::string& v = valid_case;
  return {
      {"misspelt key",
       replace(v, "end_time", "end_tme"),
       "",
       {"bad.toml:4:", "unknown key 'end_tme' in [run]", "did you mean 'end_time'"}},
      {"misspelt section",
       replace(v, "[grid]", "[gird]"),
       "",
       {"bad.toml:5:", "unknown section [gird]", "did you mean [grid]"}},
      {"wrong type",
       replace(v, "end_time = 0.1", "end_time = \"soon\""),
       "",
       {"bad.toml:4:", "end_time", "number"}},
      {"negative size", replace(v, "[16, 1, 1]", "[-16, 1, 1]"), "", {"bad.toml:6:", "cells"}},
      {"cfl above 1", replace(v, "cfl = 0.5", "cfl = 1.5"), "", {"bad.toml:8:", "cfl", "(0, 1]"}},
      {"cfl zero", replace(v, "cfl = 0.5", "cfl = 0.0"), "", {"bad.toml:8:", "cfl"}},
      {"end time zero",
       replace(v, "end_time = 0.1", "end_time = 0.0"),
       "",
       {"bad.toml:4:", "end_time"}},
      {"end time negative",
       replace(v, "end_time = 0.1", "end_time = -2.0"),
       "",
       {"bad.toml:4:", "end_time"}},
      {"missing required key",
       replace(v, "cells = [16, 1, 1]\n", ""),
       "",
       {"bad.toml", "missing required key 'cells'", "[grid]"}},
      {"unknown solver",
       replace(v, "\"scalar\"", "\"scalr\""),
       "",
       {"bad.toml:2:", "solver", "did you mean \"scalar\""}},
      {"unknown case",
       replace(v, "\"sine\"", "\"sinus\""),
       "",
       {"bad.toml:3:", "case", "did you mean \"sine\""}},
      {"unknown limiter",
       replace(v, "\"minmod\"", "\"minmood\""),
       "",
       {"bad.toml:10:", "limiter", "did you mean \"minmod\""}},
      {"TOML syntax error", replace(v, "cfl = 0.5", "cfl = = 0.5"), "", {"bad.toml:8:", "syntax"}},
      {"no stop condition", replace(v, "end_time = 0.1\n", ""), "", {"bad.toml", "end_time"}},
      {"cells of length 2", replace(v, "[16, 1, 1]", "[16, 1]"), "", {"bad.toml:6:", "cells", "3"}},
      {"cfl and dt",
       replace(v, "cfl = 0.5\n", "cfl = 0.5\ndt = 0.01\n"),
       "",
       {"bad.toml:9:", "either cfl or dt"}},
      {"keep zero", v + "[checkpoint]\nkeep = 0\n", "", {"bad.toml:12:", "keep"}},
      {"velocity on an unused axis",
       v + "velocity = [1.0, 1.0, 0.0]\n",
       "",
       {"bad.toml:11:", "velocity", "one cell"}},
      {"unknown output field",
       v + "[output]\nfields = [\"qq\"]\n",
       "",
       {"bad.toml:12:", "'qq' is not a field", "did you mean 'q'"}},
      {"--set unknown key",
       v,
       "--set run.end_tme=1.0",
       {"--set run.end_tme=1.0", "unknown key 'end_tme'", "did you mean 'end_time'"}},
      {"--set wrong type", v, "--set grid.cells=5", {"--set grid.cells=5", "cells"}},
      {"--set malformed", v, "--set gridcells", {"--set", "gridcells"}},
      {"domain wider than a double",
       replace(v, "cells = [16, 1, 1]\n",
               "cells = [16, 1, 1]\nlo = [-1e308, 0.0, 0.0]\nhi = [1e308, 1.0, 1.0]\n"),
       "",
       {"bad.toml:8:", "hi - lo", "finite"}},
      {"dt of a denormal size",
       replace(v, "cfl = 0.5", "dt = 1e-320"),
       "",
       {"bad.toml:8:", "dt", "1e15 steps"}},
      {"unknown Kokkos option", v, "--kokkos-bogus", {"unknown option '--kokkos-bogus'"}},
      {"more cells than an int holds",
       replace(v, "[16, 1, 1]", "[2147483647, 1, 1]"),
       "",
       {"bad.toml:6:", "cells"}},
      {"missing case file", "", "", {"bad.toml", "cannot read"}},
      {"missing restart file",
       v,
       "--restart /nonexistent/chk_00000010.h5",
       {"/nonexistent/chk_00000010.h5"}},
  };
}

}  // namespace

TEST_CASE("bad input exits with code 2, a located message, and writes nothing", "[cli][input]") {
  const auto inputs = bad_inputs();
  REQUIRE(inputs.size() >= 15);
  for (const BadInput& bad : inputs) {
    DYNAMIC_SECTION(bad.what) {
      const std::string dir = make_temp_dir("cb_bad_");
      if (!bad.case_text.empty()) write_text(dir + "/bad.toml", bad.case_text);
      const std::string out = dir + "/out";
      const CliResult r =
          run_cloudburst("run " + dir + "/bad.toml --output-dir " + out + " " + bad.extra_args);
      INFO(bad.what << " ->\n" << r.output);
      CHECK(r.code == 2);
      for (const std::string& part : bad.expected) CHECK_THAT(r.output, ContainsSubstring(part));
      CHECK_FALSE(std::filesystem::exists(out));
      if (bad.extra_args.rfind("--restart", 0) != 0) {
        CHECK(run_cloudburst("check " + dir + "/bad.toml " + bad.extra_args).code == 2);
      }
      std::filesystem::remove_all(dir);
    }
  }
}

TEST_CASE("a case larger than the memory is refused at run start, and check shows it",
          "[cli][input]") {
  const std::string dir = make_temp_dir("cb_memory_");
  // 1e12 cells: terabytes of fields, on any machine that runs these tests.
  write_text(dir + "/big.toml", replace(valid_case, "[16, 1, 1]", "[1000000, 1000000, 1]"));
  const CliResult run = run_cloudburst("run " + dir + "/big.toml --output-dir " + dir + "/out");
  INFO(run.output);
  CHECK(run.code == 2);
  CHECK_THAT(run.output, ContainsSubstring("GiB per rank") && ContainsSubstring("available"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out"));
  // `check` is a function of the file alone: valid, with the estimate.
  const CliResult check = run_cloudburst("check " + dir + "/big.toml");
  CHECK(check.code == 0);
  CHECK_THAT(check.output, ContainsSubstring("# field memory:"));
  std::filesystem::remove_all(dir);
}
