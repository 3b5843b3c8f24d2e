// Whole runs of grid solvers through the `cloudburst` program, and the two
// properties every grid solver holds: bitwise-identical fields on any rank
// grid, and a restart that matches an uninterrupted run bit for bit. Written
// once for all solvers (tests/test_grid_solvers.cpp has the table).
#pragma once

#include "cli_runner.hpp"

#include <string>
#include <utility>
#include <vector>

namespace cb::test {

// Writes `case_text` to dir/name.toml and runs it on `ranks` ranks into
// dir/name, with `args` appended.
CliResult run_case(const std::string& dir, const std::string& name, const std::string& case_text,
                   int ranks, const std::string& args = "");

// The newest checkpoint in `<out>/checkpoints` (REQUIREs one).
std::string last_checkpoint(const std::string& out);

// Names of the datasets under /fields of a checkpoint.
std::vector<std::string> checkpoint_field_names(const std::string& file);

// The /fields datasets of `file` that are not bitwise equal to those of
// `reference` (or missing there), space-separated; "" when all agree.
std::string differing_fields(const std::string& file, const std::string& reference);

// "[2,1,2]" -> 4
int rank_count(const std::string& rank_grid);

// Runs `case_text` on one rank, then on each of `rank_grids`
// (--set parallel.ranks=...): every checkpoint field bitwise identical, and
// so are the `exact_columns` of diagnostics.csv (extrema, values of one cell).
void check_decomposition_invariance(const std::string& dir, const std::string& label,
                                    const std::string& case_text,
                                    const std::vector<std::string>& rank_grids,
                                    const std::vector<std::string>& exact_columns = {});

// Runs `case_text` straight on 2 ranks; then, for each (first, second) rank
// pair, `first_steps` steps on `first` ranks and --restart auto on `second`:
// the last checkpoints bitwise identical and of the same step.
void check_restart(const std::string& dir, const std::string& label, const std::string& case_text,
                   long first_steps, const std::vector<std::pair<int, int>>& rank_pairs);

}  // namespace cb::test
