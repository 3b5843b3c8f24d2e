#include "solvers/cfd/shedding.hpp"

#include <algorithm>
#include <cstdio>

namespace cb::cfd {
namespace {

// Time averages of drag (and its viscous part), lift and dp over [a, b] by the trapezoidal rule on
// the samples inside it.
void average_over(const std::vector<ForceSample>& h, double a, double b, Shedding& s) {
  double weight = 0, drag = 0, lift = 0, dp = 0, shear = 0;
  for (std::size_t i = 1; i < h.size(); ++i) {
    if (h[i - 1].time < a || h[i].time > b) continue;
    const double dt = h[i].time - h[i - 1].time;
    weight += dt;
    drag += 0.5 * dt * (h[i - 1].drag + h[i].drag);
    shear += 0.5 * dt * (h[i - 1].viscous_drag + h[i].viscous_drag);
    lift += 0.5 * dt * (h[i - 1].lift + h[i].lift);
    dp += 0.5 * dt * (h[i - 1].pressure_difference + h[i].pressure_difference);
  }
  if (weight == 0) return;
  s.mean_drag = drag / weight, s.mean_lift = lift / weight, s.mean_dp = dp / weight;
  s.mean_viscous_drag = shear / weight;
}

}  // namespace

Shedding analyse_shedding(const std::vector<ForceSample>& history, double length, double speed) {
  Shedding s;
  if (history.size() < 4) return s;
  const double middle = 0.5 * (history.front().time + history.back().time);
  std::vector<ForceSample> late;
  for (const ForceSample& f : history)
    if (f.time >= middle) late.push_back(f);
  double mean = 0, low = late.front().lift, high = low;
  for (const ForceSample& f : late) {
    mean += f.lift / late.size();
    low = std::min(low, f.lift), high = std::max(high, f.lift);
  }
  if (high - low < lift_noise) return s;
  std::vector<double> crossings;
  for (std::size_t i = 1; i < late.size(); ++i) {
    const ForceSample &a = late[i - 1], &b = late[i];
    if (a.lift < mean && b.lift >= mean)
      crossings.push_back(a.time + (mean - a.lift) / (b.lift - a.lift) * (b.time - a.time));
  }
  if (crossings.size() < 3) return s;
  s.cycles = static_cast<int>(crossings.size()) - 1;
  s.start = crossings.front();
  s.end = crossings.back();
  s.strouhal = length * s.cycles / ((s.end - s.start) * speed);
  low = high = late.front().lift;
  s.min_dp = s.max_dp = late.front().pressure_difference;
  for (const ForceSample& f : late) {
    if (f.time < s.start || f.time > s.end) continue;
    low = std::min(low, f.lift), high = std::max(high, f.lift);
    s.min_dp = std::min(s.min_dp, f.pressure_difference);
    s.max_dp = std::max(s.max_dp, f.pressure_difference);
  }
  s.lift_amplitude = 0.5 * (high - low);
  average_over(late, s.start, s.end, s);
  return s;
}

std::string describe(const Shedding& s, const std::vector<ForceSample>& history) {
  char line[256], dp[96] = "";
  const bool probed = !history.empty() && history.back().probed;
  if (s.cycles == 0) {
    const double from = history.empty() ? 0.0 : history.front().time;
    const double to = history.empty() ? 0.0 : history.back().time;
    std::snprintf(line, sizeof line,
                  "shedding: no periodic lift (fewer than two lift periods in the second half "
                  "of t = %.6g .. %.6g)",
                  from, to);
    if (probed)
      std::snprintf(dp, sizeof dp, "; dp %.6g at t = %.6g", history.back().pressure_difference, to);
  } else {
    std::snprintf(line, sizeof line,
                  "shedding: St = %.4f from %d lift periods over t = %.6g .. %.6g; C_L "
                  "amplitude %.4f, mean C_D %.4f (viscous %.4f), mean C_L %.4f",
                  s.strouhal, s.cycles, s.start, s.end, s.lift_amplitude, s.mean_drag,
                  s.mean_viscous_drag, s.mean_lift);
    if (probed)
      std::snprintf(dp, sizeof dp, "; dp mean %.4f (min %.4f, max %.4f)", s.mean_dp, s.min_dp,
                    s.max_dp);
  }
  return std::string(line) + dp;
}

}  // namespace cb::cfd
