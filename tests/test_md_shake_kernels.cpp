// SHAKE/RATTLE cluster kernels (kernels/md/shake.hpp) on random clusters in
// real units (dt = 2 fs, thermal velocities, forces of tens of kcal/mol/A):
// after the correction every constrained distance is at its target within
// the tolerance, the constraint forces sum to zero and have no torque (pair
// forces along the old bond vectors), the 2-atom root matches a hand-solved
// case, failures are reported (no real root, singular matrix, unreachable
// target, iterations run out), and RATTLE's velocity multipliers leave every
// relative velocity orthogonal to its bond with the momentum unchanged.
#include "device_eval.hpp"
#include "kernels/md/shake.hpp"

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

namespace kmd = cb::kernels::md;
using kmd::ClusterShape;

namespace {

constexpr double dt = 2.0;                                 // fs
constexpr double ftm2v = 1.0 / 48.88821291 / 48.88821291;  // LAMMPS real units
constexpr double dtfsq = dt * dt * ftm2v;

using Coords = double[kmd::max_cluster_atoms][3];

double norm(const double a[3]) {
  return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

void cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

// A cluster at its constrained geometry, with velocities, forces and the
// unconstrained prediction x + dt v + dt^2 f / m (LAMMPS fix shake).
struct Cluster {
  ClusterShape shape;
  kmd::ClusterConstraints c;
  double inv_mass[4] = {0, 0, 0, 0};
  double length[3] = {0, 0, 0};
  Coords x{}, v{}, f{}, pred{};
};

void random_unit(std::mt19937_64& rng, double u[3]) {
  std::normal_distribution<double> normal;
  for (int d = 0; d < 3; ++d) u[d] = normal(rng);
  const double n = norm(u);
  for (int d = 0; d < 3; ++d) u[d] /= n;
}

Cluster make_cluster(ClusterShape shape, std::mt19937_64& rng) {
  Cluster cl{shape, kmd::cluster_constraints(shape)};
  std::uniform_real_distribution<double> offset(-10.0, 10.0), bond(0.95, 1.15);
  std::normal_distribution<double> normal;
  const double masses[4] = {12.011, 1.008, 1.008, 15.9994};
  for (int a = 0; a < cl.c.atoms; ++a) cl.inv_mass[a] = 1.0 / masses[a];
  for (int d = 0; d < 3; ++d) cl.x[0][d] = offset(rng);
  // Bonds from the central atom at 90 to 135 degrees from each other, as in
  // molecules (a nearly straight angle cluster is degenerate).
  double u[4][3];
  for (int a = 1; a < cl.c.atoms; ++a) {
    bool apart = false;
    while (!apart) {
      random_unit(rng, u[a]);
      apart = true;
      for (int b = 1; b < a; ++b) {
        const double cosine = u[a][0] * u[b][0] + u[a][1] * u[b][1] + u[a][2] * u[b][2];
        apart = apart && cosine < 0.0 && cosine > -0.71;
      }
    }
    const double r = bond(rng);
    for (int d = 0; d < 3; ++d) cl.x[a][d] = cl.x[0][d] + r * u[a][d];
  }
  for (int k = 0; k < cl.c.count; ++k) {
    double r[3];
    for (int d = 0; d < 3; ++d) r[d] = cl.x[cl.c.pair[k][0]][d] - cl.x[cl.c.pair[k][1]][d];
    cl.length[k] = norm(r);
  }
  for (int a = 0; a < cl.c.atoms; ++a) {
    const double sigma_v = std::sqrt(0.6 * cl.inv_mass[a] * 4.184e-4);  // ~300 K, A/fs
    for (int d = 0; d < 3; ++d) {
      cl.v[a][d] = sigma_v * normal(rng);
      cl.f[a][d] = 30.0 * normal(rng);
      cl.pred[a][d] = cl.x[a][d] + dt * cl.v[a][d] + dtfsq * cl.inv_mass[a] * cl.f[a][d];
    }
  }
  return cl;
}

double distance(const Coords& x, int i, int j) {
  double r[3];
  for (int d = 0; d < 3; ++d) r[d] = x[i][d] - x[j][d];
  return norm(r);
}

const std::array<ClusterShape, 4> shapes = {ClusterShape::pair, ClusterShape::star3,
                                            ClusterShape::star4, ClusterShape::angle3};

// Applies SHAKE to `cl` and checks the constraints, momentum and torque.
void check_shake(const Cluster& cl, const kmd::ShakeControl& control, double length_tolerance) {
  double g[3];
  const kmd::ShakeResult result =
      kmd::shake_multipliers(cl.shape, cl.x, cl.pred, cl.inv_mass, cl.length, control, g);
  REQUIRE(result.converged);
  CHECK(result.iterations <= control.max_iterations);

  Coords f{}, dx{}, moved{};
  kmd::constraint_forces(cl.shape, cl.x, g, 1.0 / dtfsq, f);
  kmd::constraint_corrections(cl.shape, cl.x, cl.inv_mass, g, dx);
  double largest = 0.0, torque[3] = {0, 0, 0}, lever = 0.0, sum[3] = {0, 0, 0};
  for (int a = 0; a < cl.c.atoms; ++a) {
    double t[3];
    cross(cl.x[a], f[a], t);
    for (int d = 0; d < 3; ++d) {
      // The displacement is exactly what dt^2 f / m gives.
      CHECK(std::abs(dx[a][d] - dtfsq * cl.inv_mass[a] * f[a][d]) <= 1e-12 * norm(dx[a]) + 1e-300);
      moved[a][d] = cl.pred[a][d] + dx[a][d];
      sum[d] += f[a][d];
      torque[d] += t[d];
    }
    largest = std::max(largest, norm(f[a]));
    lever += norm(cl.x[a]) * norm(f[a]);
  }
  for (int k = 0; k < cl.c.count; ++k) {
    const double r = distance(moved, cl.c.pair[k][0], cl.c.pair[k][1]);
    INFO("constraint " << k << ": " << r << " vs " << cl.length[k]);
    CHECK(std::abs(r - cl.length[k]) <= length_tolerance * cl.length[k]);
  }
  CHECK(norm(sum) <= 1e-14 * largest);   // momentum: forces sum to zero
  CHECK(norm(torque) <= 1e-13 * lever);  // and are central: no torque
  // Each atom's force lies in the span of its old bond vectors (three of
  // them span space: nothing to check).
  for (int a = 0; a < cl.c.atoms; ++a) {
    double span[3][3];
    int n = 0;
    for (int k = 0; k < cl.c.count; ++k)
      if (cl.c.pair[k][0] == a || cl.c.pair[k][1] == a) {
        for (int d = 0; d < 3; ++d)
          span[n][d] = cl.x[cl.c.pair[k][0]][d] - cl.x[cl.c.pair[k][1]][d];
        ++n;
      }
    if (n == 1) {
      double c[3];
      cross(f[a], span[0], c);
      CHECK(norm(c) <= 1e-12 * norm(f[a]) * norm(span[0]));
    } else if (n == 2) {
      double normal[3];
      cross(span[0], span[1], normal);
      const double out = f[a][0] * normal[0] + f[a][1] * normal[1] + f[a][2] * normal[2];
      CHECK(std::abs(out) <= 1e-12 * norm(f[a]) * norm(normal));
    }
  }
}

// The device result (nvcc refuses a function-local type in an extended lambda).
struct ShakeOnDevice {
  double g[3];
  int iterations;
  bool converged;
};

}  // namespace

TEST_CASE("SHAKE 2-atom multiplier: the hand-solved root of smaller magnitude") {
  // Unit masses, old bond (1,0,0), predicted 1.1 along it: 1.1 + 2 g = 1.
  const double x[2][3] = {{1, 0, 0}, {0, 0, 0}}, pred[2][3] = {{1.1, 0, 0}, {0, 0, 0}};
  const double w[2] = {1, 1}, length[1] = {1.0};
  double g[3];
  const auto result = kmd::shake_multipliers(ClusterShape::pair, x, pred, w, length, {}, g);
  CHECK(result.converged);
  CHECK(std::abs(g[0] + 0.05) <= 1e-15);
}

TEST_CASE("constraint_deviation: the largest relative error of a cluster's distances") {
  // A water-like angle3 cluster: O-H1 1.01 (+1 %), O-H2 0.998 (-0.2 %), H1-H2
  // 1.420 against 1.633 (-13 %): the H-H error is the largest.
  const double x[3][3] = {{0, 0, 0}, {1.01, 0, 0}, {1.01 - 1.6, 0, 0}};
  const double moved[3][3] = {{0, 0, 0}, {1.01, 0, 0}, {0.0, 0.998, 0}};
  const double target[3] = {1.0, 1.0, 1.633};
  const double h_h = std::sqrt(1.01 * 1.01 + 0.998 * 0.998);
  CHECK(std::abs(kmd::constraint_deviation(ClusterShape::angle3, moved, target) -
                 std::abs(h_h - 1.633) / 1.633) <= 1e-15);
  // Stars look only at the bonds to atom 0: here 1 % (O-H1).
  CHECK(std::abs(kmd::constraint_deviation(ClusterShape::star3, moved, target) - 0.01) <= 1e-15);
  CHECK(std::abs(kmd::constraint_deviation(ClusterShape::pair, x, target) - 0.01) <= 1e-15);
  const double exact[2][3] = {{0.3, -0.4, 0.5}, {0.3, 0.6, 0.5}};
  CHECK(kmd::constraint_deviation(ClusterShape::pair, exact, target) == 0.0);
}

TEST_CASE("SHAKE kernels: constraints met, forces central and summing to zero") {
  std::mt19937_64 rng(20261201);
  for (ClusterShape shape : shapes)
    for (double tolerance : {1e-4, 1e-10}) {
      INFO("shape " << static_cast<int>(shape) << ", tolerance " << tolerance);
      kmd::ShakeControl control;
      control.tolerance = tolerance;
      control.max_iterations = 100;
      // The 2-atom root is exact: round-off only.
      const double allowed = shape == ClusterShape::pair ? 1e-13 : tolerance;
      for (int trial = 0; trial < 200; ++trial)
        check_shake(make_cluster(shape, rng), control, allowed);
    }
}

TEST_CASE("SHAKE kernels: LAMMPS's multiplier-change test converges too") {
  std::mt19937_64 rng(7);
  kmd::ShakeControl control;
  control.test = kmd::ShakeTest::multiplier_change;
  control.tolerance = 1e-10;  // amu
  control.max_iterations = 100;
  for (ClusterShape shape : shapes)
    for (int trial = 0; trial < 50; ++trial) check_shake(make_cluster(shape, rng), control, 1e-8);
}

TEST_CASE("SHAKE kernels report failure") {
  const double w[4] = {1.0 / 16, 1.0, 1.0, 1.0};
  const double length[3] = {1.0, 1.0, 1.0};
  double g[3];
  SECTION("2 atoms: no real root (moved 3 A across the bond)") {
    const double old[2][3] = {{0, 0, 0}, {1, 0, 0}}, pred[2][3] = {{0, 0, 0}, {0, 3, 0}};
    CHECK_FALSE(kmd::shake_multipliers(ClusterShape::pair, old, pred, w, length, {}, g).converged);
  }
  const double x[3][3] = {{0, 0, 0}, {-1, 0, 0}, {0, -1, 0}};
  SECTION("singular: every predicted bond orthogonal to every old bond") {
    const double pred[3][3] = {{0, 0, 0}, {0, 0, -3}, {0, 0, 3}};
    const auto result = kmd::shake_multipliers(ClusterShape::star3, x, pred, w, length, {}, g);
    CHECK_FALSE(result.converged);
    CHECK(result.iterations == 0);
  }
  SECTION("unreachable: a predicted bond 3 A out of the plane the old bonds span") {
    const double pred[3][3] = {{0, 0, 0}, {-0.1, 0, -3}, {0, -0.1, -0.5}};
    for (ClusterShape shape : {ClusterShape::star3, ClusterShape::angle3}) {
      kmd::ShakeControl control;
      control.max_iterations = 500;
      const auto result = kmd::shake_multipliers(shape, x, pred, w, length, control, g);
      CHECK_FALSE(result.converged);
      CHECK(result.iterations <= 500);
    }
  }
  SECTION("iterations run out") {
    std::mt19937_64 rng(3);
    const Cluster cl = make_cluster(ClusterShape::star4, rng);
    kmd::ShakeControl control;
    control.tolerance = 1e-15;
    control.max_iterations = 1;
    const auto result =
        kmd::shake_multipliers(cl.shape, cl.x, cl.pred, cl.inv_mass, cl.length, control, g);
    CHECK_FALSE(result.converged);
    CHECK(result.iterations == 1);
  }
}

TEST_CASE("RATTLE velocity multipliers: relative velocities orthogonal to the bonds") {
  std::mt19937_64 rng(11);
  for (ClusterShape shape : shapes)
    for (int trial = 0; trial < 200; ++trial) {
      const Cluster cl = make_cluster(shape, rng);
      double mu[3];
      REQUIRE(kmd::rattle_multipliers(shape, cl.x, cl.v, cl.inv_mass, mu));
      Coords dv{};
      kmd::constraint_corrections(shape, cl.x, cl.inv_mass, mu, dv);
      double momentum[3] = {0, 0, 0}, scale = 0.0;
      for (int a = 0; a < cl.c.atoms; ++a)
        for (int d = 0; d < 3; ++d) {
          momentum[d] += dv[a][d] / cl.inv_mass[a];
          scale = std::max(scale, std::abs(cl.v[a][d] / cl.inv_mass[a]));
        }
      CHECK(norm(momentum) <= 1e-14 * scale);
      for (int k = 0; k < cl.c.count; ++k) {
        const int i = cl.c.pair[k][0], j = cl.c.pair[k][1];
        double r[3], u[3];
        for (int d = 0; d < 3; ++d) {
          r[d] = cl.x[i][d] - cl.x[j][d];
          u[d] = cl.v[i][d] + dv[i][d] - cl.v[j][d] - dv[j][d];
        }
        const double along = (r[0] * u[0] + r[1] * u[1] + r[2] * u[2]) / norm(r);
        CHECK(std::abs(along) <= 1e-13 * (norm(cl.v[i]) + norm(cl.v[j])));
      }
    }
}

TEST_CASE("SHAKE kernels run on the default execution space") {
  std::mt19937_64 rng(5);
  const Cluster cl = make_cluster(ClusterShape::angle3, rng);
  double host_g[3];
  const auto host = kmd::shake_multipliers(cl.shape, cl.x, cl.pred, cl.inv_mass, cl.length,
                                           kmd::ShakeControl{}, host_g);
  const ShakeOnDevice device = cb::test::on_device(KOKKOS_LAMBDA() {
    ShakeOnDevice out{};
    const auto r = kmd::shake_multipliers(cl.shape, cl.x, cl.pred, cl.inv_mass, cl.length,
                                          kmd::ShakeControl{}, out.g);
    out.iterations = r.iterations;
    out.converged = r.converged;
    return out;
  });
  CHECK(device.converged == host.converged);
  CHECK(device.iterations == host.iterations);
  for (int k = 0; k < 3; ++k)
    CHECK(std::abs(device.g[k] - host_g[k]) <= 1e-12 * std::abs(host_g[k]));
}
