// The run driver with a small test solver (du/dt = -u, exact per step): the last
// step lands on end_time, step counts, cadences, and a planted NaN stops the run
// with exit code 3 and a message naming the step and the field.
#include "core/driver.hpp"
#include "core/error.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <iostream>
#include <limits>
#include <sstream>

using namespace cb;

namespace {

// du/dt = -u integrated exactly: u *= exp(-dt). Plants a NaN at `nan_step`.
class DecaySolver : public Solver {
 public:
  explicit DecaySolver(long nan_step = -1) : nan_step_(nan_step) {}
  std::string name() const override { return "decay"; }
  std::string case_name() const override { return "test"; }
  double stable_dt() override { return 0.3; }
  void step(double, double dt, PhaseTimer&) override {
    ++steps_;
    u_ = steps_ == nan_step_ ? std::numeric_limits<double>::quiet_NaN() : u_ * std::exp(-dt);
  }
  std::vector<Diagnostic> diagnostics(double) override { return {{"u", u_}}; }
  std::string locate_non_finite() override {
    return std::isfinite(u_) ? "" : "u at cell (0, 0, 0)";
  }
  double work_per_step() const override { return 1.0; }
  double u() const { return u_; }

 private:
  long nan_step_;
  long steps_ = 0;
  double u_ = 1.0;
};

class CountingOutput : public RunOutput {
 public:
  std::string write_checkpoint(const RunState& s) override {
    checkpoints.push_back(s.step);
    return "chk";
  }
  void write_fields(const RunState& s) override { fields.push_back(s.step); }
  void append_diagnostics(const RunState& s, const std::vector<Diagnostic>&) override {
    diagnostics.push_back(s.step);
  }
  std::vector<long> checkpoints, fields, diagnostics;
};

RunControl quiet_control() {
  RunControl c;
  c.progress_seconds = 1e9;
  return c;
}

}  // namespace

TEST_CASE("the last step is shortened to land exactly on end_time", "[driver]") {
  DecaySolver solver;
  CountingOutput output;
  RunControl control = quiet_control();
  control.end_time = 1.0;  // 0.3, 0.6, 0.9, then 0.1
  Log log(1);
  Driver driver(solver, output, control, MPI_COMM_SELF, log);
  RunState state;
  REQUIRE(driver.run(state) == exit_ok);
  CHECK(state.time == 1.0);
  CHECK(state.step == 4);
  CHECK(std::abs(state.dt - 0.1) < 1e-15);
  CHECK(std::abs(solver.u() - std::exp(-1.0)) < 1e-14);
}

TEST_CASE("step count, diagnostics, output and checkpoint cadences", "[driver]") {
  DecaySolver solver;
  CountingOutput output;
  RunControl control = quiet_control();
  control.steps = 10;
  control.diagnostics_every = 4;
  control.output_every_steps = 5;
  control.checkpoint_every_steps = 3;
  Log log(1);
  Driver driver(solver, output, control, MPI_COMM_SELF, log);
  RunState state;
  REQUIRE(driver.run(state) == exit_ok);
  CHECK(state.step == 10);
  CHECK(output.diagnostics == std::vector<long>{0, 4, 8, 10});
  CHECK(output.fields == std::vector<long>{0, 5, 10});
  CHECK(output.checkpoints == std::vector<long>{3, 6, 9, 10});
}

TEST_CASE("output by simulated time fires once per period", "[driver]") {
  DecaySolver solver;
  CountingOutput output;
  RunControl control = quiet_control();
  control.end_time = 3.0;  // dt 0.3: 10 steps
  control.output_every_time = 1.0;
  control.checkpoint_at_end = false;
  Log log(1);
  Driver driver(solver, output, control, MPI_COMM_SELF, log);
  RunState state;
  REQUIRE(driver.run(state) == exit_ok);
  CHECK(output.fields == std::vector<long>{0, 4, 7, 10});  // t = 0, 1.2, 2.1, 3.0
  CHECK(output.checkpoints.empty());
}

TEST_CASE("a planted NaN stops the run with exit 3 and names step and field", "[driver]") {
  DecaySolver solver(/*nan_step=*/6);
  CountingOutput output;
  RunControl control = quiet_control();
  control.steps = 20;
  control.diagnostics_every = 1;
  control.checkpoint_every_steps = 5;
  Log log(0);
  std::ostringstream captured;
  auto* previous = std::cerr.rdbuf(captured.rdbuf());
  Driver driver(solver, output, control, MPI_COMM_SELF, log);
  RunState state;
  const int code = driver.run(state);
  std::cerr.rdbuf(previous);
  CHECK(code == exit_run_failed);
  CHECK(state.step == 6);
  CHECK(output.checkpoints == std::vector<long>{5});  // the good checkpoint stays the last
  CHECK_THAT(captured.str(), Catch::Matchers::ContainsSubstring("step 6") &&
                                 Catch::Matchers::ContainsSubstring("'u' is NaN") &&
                                 Catch::Matchers::ContainsSubstring("u at cell (0, 0, 0)"));
}
