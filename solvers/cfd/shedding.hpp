// Vortex shedding from the force-coefficient history of a run: the Strouhal
// number St = f L / U from the period of the lift, its amplitude and the mean
// drag over whole periods (docs/solvers/cfd.md §7.1, run summary).
#pragma once

#include <string>
#include <vector>

namespace cb::cfd {

struct ForceSample {
  double time, drag, lift;           // coefficients
  bool probed = false;               // with [probes]:
  double pressure_difference = 0.0;  // p(from) - p(to)
  double viscous_drag = 0.0;         // the shear stress's part of the drag coefficient
};

struct Shedding {
  int cycles = 0;                       // whole lift periods found (0: no periodic lift)
  double start = 0, end = 0;            // the span of those periods
  double strouhal = 0;                  // L / (U T), T the mean period
  double lift_amplitude = 0;            // (max - min) / 2 over the periods
  double mean_drag = 0, mean_lift = 0;  // time averages over the periods
  double mean_viscous_drag = 0;
  // [probes]' pressure difference: its time average, least and largest over the periods.
  double mean_dp = 0, min_dp = 0, max_dp = 0;
};

// A lift coefficient that varies by less than this has no period: round-off
// (1e-16 on a symmetric body) is far below, any shedding far above.
constexpr double lift_noise = 1e-9;

// The periods are those between the upward crossings of the lift's mean in
// the second half of the history (the first half is taken as the start-up);
// at least two are needed, and a lift that varies by lift_noise or more. The averages are
// trapezoidal over the samples in the span, the crossings linear interpolations between samples.
Shedding analyse_shedding(const std::vector<ForceSample>& history, double length, double speed);

// The run-summary line of an analysis ("shedding: St = ..."); with probes,
// the pressure difference over the periods, or without periods its last value.
std::string describe(const Shedding& s, const std::vector<ForceSample>& history);

}  // namespace cb::cfd
