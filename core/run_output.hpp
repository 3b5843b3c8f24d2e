// What the run driver needs from the I/O layer, as an interface so that core
// does not depend on io (apps wire the two together).
#pragma once

#include "core/solver.hpp"

#include <vector>

namespace cb {

// Position of a run in time.
struct RunState {
  long step = 0;
  double time = 0.0;
  double dt = 0.0;
};

class RunOutput {
 public:
  virtual ~RunOutput() = default;
  // Collective. Atomic: a crash at any moment leaves earlier checkpoints intact.
  // Returns the path written.
  virtual std::string write_checkpoint(const RunState& state) = 0;
  // Collective: field output at the output cadence (HDF5 + XDMF series).
  virtual void write_fields(const RunState& state) = 0;
  // Rank 0 prints/appends; other ranks ignore. One row per call.
  virtual void append_diagnostics(const RunState& state, const std::vector<Diagnostic>& values) = 0;
};

}  // namespace cb
