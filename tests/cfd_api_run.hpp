// A CFD solver driven through its API on one rank from a case text, for the
// cut-cell tests (test_cfd_cut_cells).
#pragma once

#include "core/decomposition.hpp"
#include "io/case_file.hpp"
#include "solvers/cfd/solver.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

namespace cb::test {

// A solver on this rank from a case text.
struct ApiRun {
  explicit ApiRun(const std::string& text)
      : file(io::CaseFile::parse(text, "api.toml")),
        params(cfd::read_params(file)),
        decomposition(MPI_COMM_SELF, params.geometry.cells, params.geometry.periodic),
        solver(std::make_unique<cfd::CfdSolver>(params, decomposition)) {}

  // Steps to `end` (or `steps` steps); returns the time reached.
  double advance(int steps, double end = 1e300) {
    PhaseTimer timer;
    for (int s = 0; s < steps && time < end; ++s) {
      const double dt = std::min(solver->stable_dt(), end - time);
      solver->step(time, dt, timer);
      time += dt;
    }
    return time;
  }

  std::map<std::string, double> diagnostics() {
    std::map<std::string, double> m;
    for (const auto& d : solver->diagnostics(time)) m[d.name] = d.value;
    return m;
  }

  io::CaseFile file;
  cfd::Params params;
  Decomposition decomposition;
  std::unique_ptr<cfd::CfdSolver> solver;
  double time = 0.0;
};

// x with all the digits a double needs.
inline std::string exact(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

// A gas of rho 1.4, p 1 and `velocity` on [0, hi] around the [[geometry]] `body`,
// with `extra` lines after [initial].
inline std::string uniform_case(const std::string& cells, const std::string& hi,
                                const std::string& velocity, const std::string& body,
                                const std::string& extra = "") {
  return "[run]\ncase = \"uniform\"\n[grid]\ncells = " + cells + "\nhi = " + hi +
         "\n[initial]\ndensity = 1.4\npressure = 1.0\nvelocity = " + velocity + "\n" + extra +
         "\n[[geometry]]\nname = \"body\"\n" + body;
}

}  // namespace cb::test
