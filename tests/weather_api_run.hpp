// Driving the weather solver through its C++ API in tests: parameters from case-file text,
// stepping to a time, and a state component on the host.
#pragma once

#include "core/timers.hpp"
#include "io/case_file.hpp"
#include "solvers/weather/solver.hpp"

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <string>

namespace cb::test {

using WeatherHostState = Field::HostMirror;

// [run] solver = "weather" followed by `text` (the rest of [run] and the other tables).
inline weather::Params weather_params(const std::string& text, const std::string& file_name) {
  io::CaseFile file = io::CaseFile::parse("[run]\nsolver = \"weather\"\n" + text, file_name);
  return weather::read_params(file);
}

// Steps to end_time at the solver's stable dt, the last step shortened.
inline void run_weather_to(weather::WeatherSolver& solver, double end_time) {
  PhaseTimer timer;
  double time = 0;
  while (time < end_time) {
    const double dt = std::min(solver.stable_dt(), end_time - time);
    solver.step(time, dt, timer);
    time = end_time - time <= dt ? end_time : time + dt;
  }
}

// The state component `name` of the solver on the host (all of the solver's view; the
// component's index in `component`).
inline WeatherHostState host_component(weather::WeatherSolver& solver, const std::string& name,
                                       int& component) {
  for (const FieldComponent& f : solver.checkpoint_fields()) {
    if (f.name != name) continue;
    component = f.component;
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
  }
  FAIL("no field " << name);
  return {};
}

}  // namespace cb::test
