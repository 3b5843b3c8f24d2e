// Running the case files of cases/cfd through the `cloudburst` program in the
// CFD validation tests (test_cfd_validation, test_cfd_vortex).
#pragma once

#include <string>
#include <vector>

namespace cb::test {

// cases/cfd/<stem>.toml, or <stem>.toml for an absolute stem (a derived copy).
std::string case_path(const std::string& stem);

// A copy of cases/cfd/<stem>.toml in dir without its `limiter = ...` line, so
// that --set cfd.reconstruction="weno5" is accepted ([cfd] limiter is refused
// unless the reconstruction is MUSCL); returns the stem to pass to run_case.
std::string without_limiter(const std::string& dir, const std::string& stem);

// Runs the case file of `stem` with `sets` (each "section.key=value") into
// dir/label on `ranks` ranks; REQUIREs exit 0 and returns the output dir.
std::string run_case(const std::string& dir, const std::string& label, const std::string& stem,
                     const std::vector<std::string>& sets, int ranks = 1);

// The .h5 files of a folder, sorted (at least one).
std::vector<std::string> files_in(const std::string& folder);

std::string last_checkpoint(const std::string& out);

}  // namespace cb::test
