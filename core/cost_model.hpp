// The checkpoint/restart cost model of `cloudburst estimate`: the checkpoint
// interval that minimises the expected wall time of a run that is interrupted
// at random (exponentially distributed interruptions, mean time M between
// them), and that expected wall time. Pure functions of seconds; no MPI, no
// Kokkos (unit-tested in tests/test_cost_model.cpp on values worked by hand).
//
//   delta  time to write one checkpoint
//   M      mean time between interruptions of the job (1 / job interruption rate)
//   R      time to restart: start-up plus reading the checkpoint
//   tau    compute time between two checkpoints
//   T_s    compute time of the whole run without checkpoints or interruptions
#pragma once

#include <cmath>
#include <limits>

namespace cb::cost {

// First-order optimum, Young (1974), "A first order approximation to the
// optimum checkpoint interval", CACM 17(9): tau = sqrt(2 delta M).
inline double young_interval(double delta, double mtbi) {
  return std::sqrt(2.0 * delta * mtbi);
}

// Higher-order optimum, Daly (2006), "A higher order estimate of the optimum
// checkpoint interval for restart dumps", FGCS 22(3), eq. (37):
//   tau = sqrt(2 delta M) [1 + (1/3) sqrt(delta / (2M)) + delta / (18 M)] - delta
// for delta < 2M, and tau = M otherwise.
inline double daly_interval(double delta, double mtbi) {
  if (!(delta < 2.0 * mtbi)) return mtbi;
  const double ratio = delta / (2.0 * mtbi);
  return young_interval(delta, mtbi) * (1.0 + std::sqrt(ratio) / 3.0 + delta / (18.0 * mtbi)) -
         delta;
}

// Expected wall time of a run of compute time `solve` checkpointed every `tau`
// of compute, Daly (2006) eq. (20) for exponential interruptions:
//   T_w = M exp(R/M) (exp((tau + delta)/M) - 1) T_s / tau.
// Without interruptions (M infinite) this is T_s (1 + delta/tau); with tau
// infinite (no periodic checkpoints) and M infinite it is T_s.
inline double expected_wall_time(double solve, double tau, double delta, double restart,
                                 double mtbi) {
  if (!std::isfinite(mtbi)) return std::isfinite(tau) ? solve * (1.0 + delta / tau) : solve;
  if (!std::isfinite(tau)) return std::numeric_limits<double>::infinity();
  return mtbi * std::exp(restart / mtbi) * std::expm1((tau + delta) / mtbi) * solve / tau;
}

// The fraction of the expected wall time that is not useful computation
// (checkpoint writes, lost work, restarts): 1 - T_s / T_w.
inline double lost_fraction(double solve, double wall) {
  return wall > 0.0 ? 1.0 - solve / wall : 0.0;
}

// Mean time between interruptions of a job on `nodes` nodes that are each
// interrupted `per_node_per_hour` times an hour (independently): seconds.
inline double job_mtbi_seconds(double per_node_per_hour, int nodes) {
  const double rate = per_node_per_hour * nodes;
  return rate > 0.0 ? 3600.0 / rate : std::numeric_limits<double>::infinity();
}

// What a run costs: wall seconds on `nodes` nodes at `price_per_node_hour`.
inline double cost(double wall_seconds, int nodes, double price_per_node_hour) {
  return wall_seconds / 3600.0 * nodes * price_per_node_hour;
}

}  // namespace cb::cost
