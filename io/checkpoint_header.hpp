// The root attributes of every checkpoint, grid or particle
// (docs/checkpoint-format.md).
#pragma once

#include "core/solver.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cb::io {

constexpr const char* checkpoint_format_name = "cloudburst-checkpoint";
constexpr int checkpoint_format_version = 1;

// Root attributes of a checkpoint.
struct CheckpointHeader {
  std::string format = checkpoint_format_name;
  int format_version = checkpoint_format_version;
  std::string solver;
  std::string case_name;
  long step = 0;
  double time = 0.0;
  double dt = 0.0;
  std::string case_text;  // the fully resolved case
  std::string code_version;
  int ranks = 1;
  std::string kokkos_backend;
  GridGeometry geometry;   // /fields (or /particles) attributes: cells, lo, hi, periodic
  std::int64_t atoms = 0;  // particle checkpoints: /particles attribute `atoms`; grids: 0
  std::vector<std::pair<std::string, double>> scalars;  // solver state for exact restart
};

}  // namespace cb::io
