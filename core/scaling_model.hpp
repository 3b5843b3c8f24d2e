// The strong-scaling model of `cloudburst estimate --scale-to N`
// (docs/clusters.md, "Scaling to more ranks"): from the time per step t(P) and
// the halo (ghost-exchange) time per step h(P) measured on P = 1, 2, 4 ranks,
// the time per step on N ranks. Pure functions of seconds and counts; no MPI
// (unit-tested in tests/test_cost_model.cpp on values worked by hand).
//
//   compute   c(N) = c(Pm) Pm / N,  c(P) = t(P) - h(P) (c(1) = t(1)),
//             Pm the largest measured P
//   halo      h(N) = alpha + beta s(N),  s(P) = (cells / P)^((d - 1) / d)
//   step      t(N) = c(N) + h(N)       (h = 0 on one rank: no neighbours)
//
// s is the face of a cube-shaped sub-domain (a square's edge in 2-D) in cells,
// what one rank sends per neighbour; alpha (a per-step latency) and beta (a
// time per face cell) are fitted to the measured P >= 2.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace cb::cost {

struct ScalingPoint {
  int ranks = 1;
  double step_seconds = 0.0;  // wall time per step, slowest rank
  double halo_seconds = 0.0;  // halo exchange time per step, slowest rank
};

struct HaloModel {
  double latency = 0.0;        // alpha, seconds per step
  double per_face_cell = 0.0;  // beta, seconds per step per face cell
};

// s(P): the face of one rank's sub-domain in cells, for `cells` cells in
// `dimensions` (1, 2 or 3) decomposed directions.
inline double face_cells(double cells, int dimensions, double ranks) {
  if (dimensions <= 1) return 1.0;
  return std::pow(cells / ranks, double(dimensions - 1) / dimensions);
}

// Least squares of h = alpha + beta s over the points with P >= 2; with one
// such point (or all s equal) the line through the origin (or the mean);
// alpha and beta are kept >= 0. No point with P >= 2: no halo cost.
inline HaloModel fit_halo(const std::vector<ScalingPoint>& points, double cells, int dimensions) {
  double n = 0, sum_s = 0, sum_h = 0, sum_ss = 0, sum_sh = 0;
  for (const ScalingPoint& p : points) {
    if (p.ranks < 2) continue;
    const double s = face_cells(cells, dimensions, p.ranks);
    n += 1;
    sum_s += s;
    sum_h += p.halo_seconds;
    sum_ss += s * s;
    sum_sh += s * p.halo_seconds;
  }
  HaloModel model;
  if (n == 0) return model;
  const double spread = n * sum_ss - sum_s * sum_s;
  if (n >= 2 && spread > 1e-12 * n * sum_ss) {
    model.per_face_cell = (n * sum_sh - sum_s * sum_h) / spread;
    model.latency = (sum_h - model.per_face_cell * sum_s) / n;
  } else if (dimensions <= 1) {
    model.latency = sum_h / n;
  } else {
    model.per_face_cell = sum_sh / sum_ss;
  }
  if (model.per_face_cell < 0.0) model = {sum_h / n, 0.0};
  if (model.latency < 0.0) model = {0.0, sum_sh / sum_ss};
  return model;
}

// h(N) from the model; 0 on one rank.
inline double halo_seconds(const HaloModel& model, double cells, int dimensions, double ranks) {
  return ranks < 2 ? 0.0
                   : model.latency + model.per_face_cell * face_cells(cells, dimensions, ranks);
}

// t(N): the compute of the largest measured rank count divided ideally over N
// ranks, plus h(N). `points` must not be empty.
inline double scaled_step_seconds(const std::vector<ScalingPoint>& points, const HaloModel& model,
                                  double cells, int dimensions, double ranks) {
  const ScalingPoint& largest = *std::max_element(
      points.begin(), points.end(),
      [](const ScalingPoint& a, const ScalingPoint& b) { return a.ranks < b.ranks; });
  // one rank has no neighbours: what its halo timer saw (periodic copies) is compute
  const double halo = largest.ranks > 1 ? largest.halo_seconds : 0.0;
  const double compute = std::max(largest.step_seconds - halo, 0.0);
  return compute * largest.ranks / ranks + halo_seconds(model, cells, dimensions, ranks);
}

}  // namespace cb::cost
