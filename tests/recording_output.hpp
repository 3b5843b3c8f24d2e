// A RunOutput for tests that drive a solver through the run driver: keeps each
// diagnostics row in memory (with the time), writes nothing.
#pragma once

#include "core/run_output.hpp"

#include <map>
#include <string>
#include <vector>

namespace cb::test {

class RecordingOutput : public RunOutput {
 public:
  std::string write_checkpoint(const RunState&) override { return "(none)"; }
  void write_fields(const RunState&) override {}
  void append_diagnostics(const RunState& state, const std::vector<Diagnostic>& values) override {
    rows.emplace_back();
    rows.back()["time"] = state.time;
    for (const auto& d : values) rows.back()[d.name] = d.value;
  }
  std::vector<std::map<std::string, double>> rows;
};

}  // namespace cb::test
