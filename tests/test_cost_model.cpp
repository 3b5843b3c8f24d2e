// The checkpoint/restart cost model of `cloudburst estimate` (core/cost_model.hpp)
// and its strong-scaling model (core/scaling_model.hpp) on values worked by hand.
#include "core/cost_model.hpp"
#include "core/scaling_model.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>

#include <cmath>
#include <limits>
#include <vector>

using Catch::Matchers::WithinRel;
namespace cost = cb::cost;

TEST_CASE("Young's interval: sqrt(2 delta M)", "[cost]") {
  // delta = 10 s, M = 2 h: sqrt(2 * 10 * 7200) = sqrt(144000) = 379.473 s
  CHECK_THAT(cost::young_interval(10.0, 7200.0), WithinRel(379.4733192, 1e-9));
  // delta = 30 s, M = 6 h: sqrt(1296000) = 1138.42 s (19 min, docs/clusters.md's table)
  CHECK_THAT(cost::young_interval(30.0, 21600.0), WithinRel(1138.4199576, 1e-9));
}

TEST_CASE("Daly's higher-order interval", "[cost]") {
  // delta = 10, M = 7200: delta/(2M) = 1/1440, sqrt = 0.0263523, /3 = 0.0087841;
  // delta/(18M) = 7.716e-5; 379.4733 * 1.0088613 - 10 = 372.8359
  CHECK_THAT(cost::daly_interval(10.0, 7200.0), WithinRel(372.8359329, 1e-8));
  // delta = 30, M = 3600: 464.758 * (1 + 0.0645497/3 + 30/64800) - 30 = 444.9732
  CHECK_THAT(cost::daly_interval(30.0, 3600.0), WithinRel(444.9731673, 1e-8));
  // a checkpoint as long as 2M or longer: checkpoint every M
  CHECK(cost::daly_interval(100.0, 50.0) == 50.0);
  CHECK(cost::daly_interval(100.0, 40.0) == 40.0);
  // Daly's interval is shorter than Young's by about delta for delta << M
  CHECK(cost::daly_interval(1.0, 1e6) < cost::young_interval(1.0, 1e6));
}

TEST_CASE("expected wall time with interruptions (Daly 2006 eq. 20)", "[cost]") {
  const double inf = std::numeric_limits<double>::infinity();
  // no interruptions: T_s (1 + delta/tau) = 7200 * (1 + 10/600) = 7320
  CHECK_THAT(cost::expected_wall_time(7200.0, 600.0, 10.0, 60.0, inf), WithinRel(7320.0, 1e-12));
  // neither interruptions nor checkpoints: the compute time
  CHECK(cost::expected_wall_time(7200.0, inf, 10.0, 60.0, inf) == 7200.0);
  // interruptions but no checkpoints: never finishes
  CHECK(std::isinf(cost::expected_wall_time(7200.0, inf, 10.0, 60.0, 3600.0)));
  // T_s = 3600, tau = 600, delta = R = 0, M = 3600:
  // 3600 * (e^(1/6) - 1) * 3600/600 = 3600 * 0.1813604 * 6 = 3917.385
  CHECK_THAT(cost::expected_wall_time(3600.0, 600.0, 0.0, 0.0, 3600.0),
             WithinRel(3917.3849179, 1e-9));
  // with delta = 10, R = 60, T_s = 7200: 3600 e^(1/60) (e^(610/3600) - 1) * 12 = 8110.79
  CHECK_THAT(cost::expected_wall_time(7200.0, 600.0, 10.0, 60.0, 3600.0),
             WithinRel(8110.7897237, 1e-9));
  // to first order the lost fraction is delta/tau + tau/(2M): 1/60 + 1/12 = 0.1
  const double wall = cost::expected_wall_time(1e6, 600.0, 10.0, 0.0, 3600.0);
  CHECK_THAT(cost::lost_fraction(1e6, wall), WithinRel(0.1, 0.1));
  CHECK(cost::lost_fraction(1.0, 0.0) == 0.0);
}

TEST_CASE("Daly's interval minimises the expected wall time", "[cost]") {
  const double delta = 20.0, mtbi = 5400.0, restart = 30.0, solve = 36000.0;
  const double best = cost::daly_interval(delta, mtbi);
  const double at_best = cost::expected_wall_time(solve, best, delta, restart, mtbi);
  for (double factor : {0.5, 0.8, 0.95, 1.05, 1.25, 2.0}) {
    CHECK(cost::expected_wall_time(solve, best * factor, delta, restart, mtbi) > at_best);
  }
}

TEST_CASE("job interruption rate and price", "[cost]") {
  // 0.5 interruptions per node-hour on 4 nodes: 2 per hour, M = 1800 s
  CHECK_THAT(cost::job_mtbi_seconds(0.5, 4), WithinRel(1800.0, 1e-12));
  CHECK(std::isinf(cost::job_mtbi_seconds(0.0, 4)));
  // 90 min on 4 nodes at 2.50 per node-hour: 1.5 * 4 * 2.5 = 15
  CHECK_THAT(cost::cost(5400.0, 4, 2.5), WithinRel(15.0, 1e-12));
}

TEST_CASE("strong scaling: halo fit and time per step on N ranks", "[cost][scaling]") {
  // 10^6 cells in 3-D: s(P) = (10^6 / P)^(2/3); s(64) = 25^2 = 625.
  CHECK_THAT(cost::face_cells(1e6, 3, 64), WithinRel(625.0, 1e-12));
  CHECK_THAT(cost::face_cells(1e4, 2, 4), WithinRel(50.0, 1e-12));
  CHECK(cost::face_cells(1e4, 1, 4) == 1.0);
  // Halo times made with alpha = 1 ms and beta = 1 us per face cell, compute
  // 1 s per step on one rank divided ideally.
  const double s2 = std::pow(5e5, 2.0 / 3.0), s4 = std::pow(2.5e5, 2.0 / 3.0);
  const std::vector<cost::ScalingPoint> points = {{1, 1.0002, 0.0002},
                                                  {2, 0.5 + 1e-3 + 1e-6 * s2, 1e-3 + 1e-6 * s2},
                                                  {4, 0.25 + 1e-3 + 1e-6 * s4, 1e-3 + 1e-6 * s4}};
  const cost::HaloModel model = cost::fit_halo(points, 1e6, 3);
  CHECK_THAT(model.latency, WithinRel(1e-3, 1e-9));
  CHECK_THAT(model.per_face_cell, WithinRel(1e-6, 1e-9));
  // t(64) = 0.25 * 4 / 64 + 0.001 + 1e-6 * 625 = 0.015625 + 0.001625
  CHECK_THAT(cost::scaled_step_seconds(points, model, 1e6, 3, 64), WithinRel(0.01725, 1e-9));
  // on one rank: the compute alone, no halo
  CHECK_THAT(cost::scaled_step_seconds(points, model, 1e6, 3, 1), WithinRel(1.0, 1e-12));
  // one point with P >= 2: the line through the origin
  const cost::HaloModel one = cost::fit_halo({points[0], points[1]}, 1e6, 3);
  CHECK(one.latency == 0.0);
  CHECK_THAT(one.per_face_cell, WithinRel((1e-3 + 1e-6 * s2) / s2, 1e-12));
  // no point with P >= 2: no halo cost, and one rank's step is all compute
  const cost::HaloModel none = cost::fit_halo({points[0]}, 1e6, 3);
  CHECK(none.latency == 0.0);
  CHECK(none.per_face_cell == 0.0);
  CHECK_THAT(cost::scaled_step_seconds({points[0]}, none, 1e6, 3, 4), WithinRel(0.25005, 1e-12));
  // a halo that grows with P (faster per face cell is not physical): the mean
  const cost::HaloModel flat = cost::fit_halo({{2, 1.0, 0.01}, {4, 1.0, 0.02}}, 1e6, 3);
  CHECK_THAT(flat.latency, WithinRel(0.015, 1e-12));
  CHECK(flat.per_face_cell == 0.0);
}
