// SETTLE kernels (kernels/md/settle.hpp) on random rigid waters in real units
// (SPC/E geometry, dt = 2 fs, thermal velocities, forces of tens of
// kcal/mol/A): the positions meet the constraints to round-off, keep the
// momentum, and equal SHAKE's (kernels/md/shake.hpp, iterated to a relative
// length error of 1e-14) -- positions and multipliers -- also from old
// positions off the constraints (the setup's correction); a prediction no
// rigid triangle can reach is reported.
#include "device_eval.hpp"
#include "kernels/md/settle.hpp"

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <random>

namespace kmd = cb::kernels::md;

namespace {

constexpr double dt = 2.0;                                 // fs
constexpr double ftm2v = 1.0 / 48.88821291 / 48.88821291;  // LAMMPS real units
constexpr double dtfsq = dt * dt * ftm2v;
constexpr double pi = 3.14159265358979323846;

double norm(const double a[3]) {
  return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

double distance(const double x[][3], int i, int j) {
  const double r[3] = {x[i][0] - x[j][0], x[i][1] - x[j][1], x[i][2] - x[j][2]};
  return norm(r);
}

// A water (O, H1, H2) of SPC/E's geometry, randomly turned and placed, with
// old positions displaced by up to `off` A per axis and the prediction
// x + dt v + dt^2 f / m.
struct Water {
  double mass[3] = {15.9994, 1.008, 1.008};
  double inv_mass[3] = {1.0 / 15.9994, 1.0 / 1.008, 1.0 / 1.008};
  double length[3] = {1.0, 1.0, 0.0};  // O-H1, O-H2, H1-H2
  double x[3][3]{}, pred[3][3]{};
};

Water make_water(std::mt19937_64& rng, double off) {
  Water w;
  const double half = 0.5 * 109.47 * pi / 180.0;
  w.length[2] = 2.0 * std::sin(half);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> place(-10.0, 10.0), jitter(-off, off);
  // An orthonormal frame from two random vectors (Gram-Schmidt).
  double e[2][3];
  for (auto& v : e)
    for (double& c : v) c = normal(rng);
  const double n0 = norm(e[0]);
  for (double& c : e[0]) c /= n0;
  const double along = e[0][0] * e[1][0] + e[0][1] * e[1][1] + e[0][2] * e[1][2];
  for (int d = 0; d < 3; ++d) e[1][d] -= along * e[0][d];
  const double n1 = norm(e[1]);
  for (double& c : e[1]) c /= n1;
  for (int d = 0; d < 3; ++d) {
    w.x[0][d] = place(rng);
    w.x[1][d] = w.x[0][d] + std::cos(half) * e[0][d] + std::sin(half) * e[1][d];
    w.x[2][d] = w.x[0][d] + std::cos(half) * e[0][d] - std::sin(half) * e[1][d];
  }
  for (int a = 0; a < 3; ++a) {
    const double sigma_v = std::sqrt(0.6 * w.inv_mass[a] * 4.184e-4);  // ~300 K, A/fs
    for (int d = 0; d < 3; ++d) {
      w.x[a][d] += jitter(rng);
      w.pred[a][d] =
          w.x[a][d] + dt * sigma_v * normal(rng) + dtfsq * w.inv_mass[a] * 30.0 * normal(rng);
    }
  }
  return w;
}

// SETTLE's positions against the constraints, the momentum and SHAKE's.
void check_settle(const Water& w) {
  double settled[3][3];
  REQUIRE(kmd::settle_positions(w.x, w.pred, w.mass, w.length[0], w.length[2], settled));
  for (int k = 0; k < 3; ++k) {
    const int i = k < 2 ? 0 : 1, j = k < 2 ? k + 1 : 2;
    INFO("constraint " << k);
    CHECK(std::abs(distance(settled, i, j) - w.length[k]) <= 1e-12 * w.length[k]);
  }
  // Momentum kept to the round-off of the positions (up to 10 A from the
  // origin here; the run takes them relative to the oxygen).
  double momentum[3] = {0, 0, 0}, round_off = 0.0;
  for (int a = 0; a < 3; ++a) {
    for (int d = 0; d < 3; ++d) momentum[d] += w.mass[a] * (settled[a][d] - w.pred[a][d]);
    round_off += 1e-14 * w.mass[a] * norm(w.pred[a]);
  }
  CHECK(norm(momentum) <= round_off);

  kmd::ShakeControl control;
  control.tolerance = 1e-14;
  control.max_iterations = 1000;
  double g_shake[3], g_settle[3], dx_shake[3][3], dx_settle[3][3];
  REQUIRE(kmd::shake_multipliers(kmd::ClusterShape::angle3, w.x, w.pred, w.inv_mass, w.length,
                                 control, g_shake)
              .converged);
  REQUIRE(kmd::settle_multipliers(w.x, w.pred, w.inv_mass, w.length, g_settle).converged);
  kmd::constraint_corrections(kmd::ClusterShape::angle3, w.x, w.inv_mass, g_shake, dx_shake);
  kmd::constraint_corrections(kmd::ClusterShape::angle3, w.x, w.inv_mass, g_settle, dx_settle);
  for (int k = 0; k < 3; ++k)
    CHECK(std::abs(g_settle[k] - g_shake[k]) <= 1e-9 * std::abs(g_shake[k]) + 1e-15);
  double moved[3][3];
  for (int a = 0; a < 3; ++a)
    for (int d = 0; d < 3; ++d) {
      INFO("atom " << a << ", axis " << d);
      CHECK(std::abs(settled[a][d] - (w.pred[a][d] + dx_shake[a][d])) <= 1e-10);
      CHECK(std::abs(w.pred[a][d] + dx_settle[a][d] - settled[a][d]) <= 1e-12);
      moved[a][d] = w.pred[a][d] + dx_settle[a][d];
    }
  // The multipliers' positions meet the constraints too (the run uses them).
  for (int k = 0; k < 3; ++k) {
    const int i = k < 2 ? 0 : 1, j = k < 2 ? k + 1 : 2;
    CHECK(std::abs(distance(moved, i, j) - w.length[k]) <= 1e-12 * w.length[k]);
  }
}

// The device result (nvcc refuses a function-local type in an extended lambda).
struct SettleOnDevice {
  double g[3];
  bool converged;
};

}  // namespace

TEST_CASE("SETTLE: constraints met, momentum kept, SHAKE's positions and multipliers") {
  std::mt19937_64 rng(19920952);
  for (double off : {0.0, 0.02}) {
    INFO("old positions off the constraints by up to " << off << " A");
    for (int trial = 0; trial < 500; ++trial) check_settle(make_water(rng, off));
  }
}

TEST_CASE("SETTLE corrects a distorted water in place (the setup, v = f = 0)") {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 200; ++trial) {
    Water w = make_water(rng, 0.05);
    for (int a = 0; a < 3; ++a)
      for (int d = 0; d < 3; ++d) w.pred[a][d] = w.x[a][d];
    check_settle(w);
  }
}

TEST_CASE("SETTLE reports a prediction no rigid triangle reaches") {
  const double mass[3] = {16.0, 1.0, 1.0}, inv_mass[3] = {1.0 / 16, 1.0, 1.0};
  const double length[3] = {1.0, 1.0, 1.6};
  const double x[3][3] = {{0, 0, 0}, {0.8, 0.6, 0}, {-0.8, 0.6, 0}};
  double out[3][3], g[3] = {1, 1, 1};
  SECTION("oxygen 3 A out of the old plane") {
    const double pred[3][3] = {{0, 0, 3}, {0.8, 0.6, 0}, {-0.8, 0.6, 0}};
    CHECK_FALSE(kmd::settle_positions(x, pred, mass, length[0], length[2], out));
    CHECK_FALSE(kmd::settle_multipliers(x, pred, inv_mass, length, g).converged);
    CHECK((g[0] == 0.0 && g[1] == 0.0 && g[2] == 0.0));
  }
  SECTION("a degenerate old triangle") {
    const double line[3][3] = {{0, 0, 0}, {1, 0, 0}, {-1, 0, 0}};
    CHECK_FALSE(kmd::settle_positions(line, x, mass, length[0], length[2], out));
  }
}

TEST_CASE("SETTLE kernels run on the default execution space") {
  std::mt19937_64 rng(5);
  const Water w = make_water(rng, 0.0);
  double host_g[3];
  REQUIRE(kmd::settle_multipliers(w.x, w.pred, w.inv_mass, w.length, host_g).converged);
  const SettleOnDevice device = cb::test::on_device(KOKKOS_LAMBDA() {
    SettleOnDevice out{};
    out.converged = kmd::settle_multipliers(w.x, w.pred, w.inv_mass, w.length, out.g).converged;
    return out;
  });
  CHECK(device.converged);
  for (int k = 0; k < 3; ++k)
    CHECK(std::abs(device.g[k] - host_g[k]) <= 1e-12 * std::abs(host_g[k]));
}
