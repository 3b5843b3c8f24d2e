// MD kernels and host-side setup: Lennard-Jones pair terms, tail
// corrections, random streams, lattice positions and LAMMPS loop-geom velocities.
// The device kernels (pair terms, random streams) run on the default execution
// space (tests/device_eval.hpp); the host-side functions run on the host.
#include "device_eval.hpp"
#include "kernels/md/integrate.hpp"
#include "kernels/md/lattice.hpp"
#include "kernels/md/lj.hpp"
#include "kernels/md/random.hpp"
#include "solvers/md/solver.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

using Catch::Approx;
using cb::test::on_device;
namespace kmd = cb::kernels::md;

namespace {

// Counter-based numbers drawn per device call in the statistics test.
constexpr int uniform_block = 100;

}  // namespace

TEST_CASE("LJ pair force and energy", "[md][kernels]") {
  const double rmin = std::pow(2.0, 1.0 / 6.0);  // minimum of 4 (r^-12 - r^-6)
  // Energy and force at rmin and at r = 1 (epsilon = sigma = 1).
  const auto unit = on_device(KOKKOS_LAMBDA() {
    const kmd::LjCoeff c = kmd::make_lj_coeff(1.0, 1.0, 2.5, false);
    return Kokkos::Array<double, 4>{kmd::lj_energy(rmin * rmin, c), kmd::lj_fpair(rmin * rmin, c),
                                    kmd::lj_energy(1.0, c), kmd::lj_fpair(1.0, c)};
  });
  CHECK(unit[0] == Approx(-1.0).epsilon(1e-14));
  CHECK(std::abs(unit[1]) < 1e-13);
  CHECK(unit[2] == 0.0);
  // -dE/dr / r at r = 1: (48 - 24) / 1
  CHECK(unit[3] == Approx(24.0).epsilon(1e-15));
  // epsilon 2, sigma 1.5 at r = 2: 4 eps [(s/r)^12 - (s/r)^6]
  const double energy = on_device(
      KOKKOS_LAMBDA() { return kmd::lj_energy(4.0, kmd::make_lj_coeff(2.0, 1.5, 4.0, false)); });
  const double s6 = std::pow(0.75, 6);
  CHECK(energy == Approx(8.0 * (s6 * s6 - s6)).epsilon(1e-14));
  // Shifted: zero at the cutoff.
  const kmd::LjCoeff shifted =
      on_device(KOKKOS_LAMBDA() { return kmd::make_lj_coeff(1.0, 1.0, 2.5, true); });
  const double at_cutoff =
      on_device(KOKKOS_LAMBDA() { return kmd::lj_energy(2.5 * 2.5, shifted); });
  CHECK(std::abs(at_cutoff) < 1e-16);
  CHECK(shifted.offset == Approx(4.0 * (std::pow(2.5, -12) - std::pow(2.5, -6))).epsilon(1e-14));
}

TEST_CASE("mixing rules as LAMMPS pair_modify mix", "[md][kernels]") {
  const kmd::LjParams a{1.0, 1.0, 2.5}, b{4.0, 2.0, 5.0};
  const kmd::LjParams g = kmd::mix(a, b, kmd::Mixing::geometric);
  CHECK(g.epsilon == 2.0);
  CHECK(g.sigma == Approx(std::sqrt(2.0)).epsilon(1e-15));
  CHECK(g.cutoff == Approx(std::sqrt(12.5)).epsilon(1e-15));
  const kmd::LjParams l = kmd::mix(a, b, kmd::Mixing::arithmetic);
  CHECK(l.epsilon == 2.0);
  CHECK(l.sigma == 1.5);
  CHECK(l.cutoff == 3.75);
}

TEST_CASE("tail corrections match the closed forms", "[md][kernels]") {
  // Allen & Tildesley (2017) eqs. 2.143-2.144 for one type, N atoms in V:
  // E/N = 8/3 pi rho eps s^3 [(s/rc)^9 / 3 - (s/rc)^3],
  // P = 16/3 pi rho^2 eps s^3 [2/3 (s/rc)^9 - (s/rc)^3].
  const double n = 4000, rho = 0.8, rc = 4.0;
  const double volume = n / rho;
  const kmd::TailTerms t = kmd::lj_tail(n, n, {1.0, 1.0, rc});
  const double x3 = std::pow(rc, -3), x9 = std::pow(rc, -9);
  const double pi = cb::math::pi;
  CHECK(t.etail / volume / n == Approx(8.0 / 3.0 * pi * rho * (x9 / 3.0 - x3)).epsilon(1e-13));
  CHECK(t.ptail / (volume * volume) ==
        Approx(16.0 / 3.0 * pi * rho * rho * (2.0 / 3.0 * x9 - x3)).epsilon(1e-13));
}

TEST_CASE("Park-Miller minimal standard generator", "[md][random]") {
  // Park & Miller (1988): from seed 1, the 10000th value is 1043618065.
  const double first = on_device(KOKKOS_LAMBDA() {
    kmd::ParkMiller rng;
    rng.state = 1;
    return rng.uniform();
  });
  CHECK(first == 16807.0 / 2147483647.0);
  const kmd::ParkMiller rng = on_device(KOKKOS_LAMBDA() {
    kmd::ParkMiller from_one;
    from_one.state = 1;
    for (int n = 0; n < 10000; ++n) from_one.uniform();
    return from_one;
  });
  CHECK(rng.state == 1043618065);
}

TEST_CASE("counter-based Langevin stream", "[md][random]") {
  // The counter (5, 42, 100, 1) twice, then with the id, step and component changed.
  const auto u = on_device(KOKKOS_LAMBDA() {
    return Kokkos::Array<double, 5>{
        kmd::counter_uniform(5, 42, 100, 1), kmd::counter_uniform(5, 42, 100, 1),
        kmd::counter_uniform(5, 43, 100, 1), kmd::counter_uniform(5, 42, 101, 1),
        kmd::counter_uniform(5, 42, 100, 2)};
  });
  CHECK(u[0] == u[1]);
  CHECK(u[0] != u[2]);
  CHECK(u[0] != u[3]);
  CHECK(u[0] != u[4]);
  double sum = 0.0, sum2 = 0.0;
  const int samples = 100000;
  static_assert(samples % uniform_block == 0, "whole blocks of samples");
  for (int first = 0; first < samples; first += uniform_block) {
    const auto block = on_device(KOKKOS_LAMBDA() {
      Kokkos::Array<double, uniform_block> x;
      for (int m = 0; m < uniform_block; ++m) x[m] = kmd::counter_uniform(7, first + m, 3, 0);
      return x;
    });
    for (int m = 0; m < uniform_block; ++m) {
      const double x = block[m];
      REQUIRE(x >= 0.0);
      REQUIRE(x < 1.0);
      sum += x;
      sum2 += x * x;
    }
  }
  // Mean 1/2 and variance 1/12 within 5 standard errors.
  CHECK(std::abs(sum / samples - 0.5) < 5.0 * std::sqrt(1.0 / 12.0 / samples));
  CHECK(std::abs(sum2 / samples - 1.0 / 3.0) < 5.0 * 0.3 / std::sqrt(samples));
}

TEST_CASE("Nose-Hoover chains and Berendsen leave an equilibrated system alone",
          "[md][kernels][thermostat]") {
  for (int length : {1, 3}) {
    kmd::NoseHooverChain nh;
    nh.length = length;
    CHECK(nh.half_step(1.5, 1.5, 2997.0, 0.5, 0.005) == 1.0);
    CHECK(nh.eta_dot[0] == 0.0);
    // Too hot: it cools.
    CHECK(nh.half_step(3.0, 1.5, 2997.0, 0.5, 0.005) < 1.0);
  }
  CHECK(kmd::berendsen_scale(1.5, 1.5, 0.005, 0.5) == 1.0);
  CHECK(kmd::berendsen_scale(3.0, 1.5, 0.005, 0.5) < 1.0);
}

TEST_CASE("a Nose-Hoover chain of length 1 is the single thermostat, bit for bit",
          "[md][kernels][thermostat]") {
  // The half step of the single Nose-Hoover variable as the solver had it
  // before chains (and LAMMPS fix nvt tchain 1), on a varying temperature.
  double eta = 0.0, eta_dot = 0.0;
  const auto single = [&](double t, double t0, double dof, double damp, double dt) {
    const double q = dof * t0 * damp * damp, ke_target = dof * t0;
    double ke = dof * t;
    eta_dot += (ke - ke_target) / q * (0.25 * dt);
    const double factor = std::exp(-(0.5 * dt) * eta_dot);
    ke *= factor * factor;
    eta += (0.5 * dt) * eta_dot;
    eta_dot += (ke - ke_target) / q * (0.25 * dt);
    return factor;
  };
  kmd::NoseHooverChain chain;
  chain.length = 1;
  for (int n = 0; n < 200; ++n) {
    const double t = 1.5 + 0.7 * std::sin(0.1 * n);
    REQUIRE(chain.half_step(t, 1.2, 2997.0, 0.5, 0.005) == single(t, 1.2, 2997.0, 0.5, 0.005));
  }
  CHECK(chain.eta[0] == eta);
  CHECK(chain.eta_dot[0] == eta_dot);
  CHECK(chain.eta_dot[1] == 0.0);
}

namespace {

// Largest relative change of K + the chain's energy over 10 damping times
// for particles that only feel the thermostat (K = dof T / 2, scaled by
// factor^2 each half step), from T = 3 towards T0 = 1.5.
double extended_energy_change(int length, double dt) {
  kmd::NoseHooverChain chain;
  chain.length = length;
  const double dof = 300.0, t0 = 1.5, damp = 0.5;
  double t = 3.0, worst = 0.0;
  const double h0 = 0.5 * dof * t + chain.energy(t0, dof, damp);
  for (long n = 0; n < std::lround(5.0 / dt); ++n) {
    for (int half = 0; half < 2; ++half) {
      const double factor = chain.half_step(t, t0, dof, damp, dt);
      t *= factor * factor;
    }
    const double h = 0.5 * dof * t + chain.energy(t0, dof, damp);
    worst = std::max(worst, std::abs(h - h0) / h0);
  }
  return worst;
}

}  // namespace

TEST_CASE("a Nose-Hoover chain conserves its extended energy", "[md][kernels][thermostat]") {
  // K + the chain's energy is the conserved quantity of Martyna, Klein &
  // Tuckerman (1992) eq. 2.7 (LAMMPS's fix nvt energy), up to the O(dt^2)
  // error of the Trotter splitting. Measured at dt = damp / 100: 2.4e-6,
  // 5.1e-6, 8.2e-6 for chains of 1, 3, 5, and 4.0 times less at dt / 2.
  for (int length : {1, 3, 5}) {
    const double coarse = extended_energy_change(length, 0.005);
    const double fine = extended_energy_change(length, 0.0025);
    INFO("chain " << length << ": largest relative change " << coarse << ", at dt/2 " << fine);
    CHECK(coarse < 2e-5);
    CHECK(coarse / fine > 3.8);
    CHECK(coarse / fine < 4.2);
  }
}

TEST_CASE("Gaussian and chi-squared variates of the CSVR stream", "[md][random][thermostat]") {
  // Moments of 40000 draws within 5 standard errors: a standard Gaussian
  // (mean 0, variance 1), chi-squared with n = 0.6, 3 and 764 (mean n,
  // variance 2n, both branches of the gamma sampler).
  const int samples = 40000;
  kmd::CounterStream stream{11, 0, 5, 0};
  double s = 0.0, s2 = 0.0;
  for (int k = 0; k < samples; ++k) {
    const double x = kmd::gaussian(stream);
    s += x;
    s2 += x * x;
  }
  CHECK(std::abs(s / samples) < 5.0 / std::sqrt(samples));
  CHECK(std::abs(s2 / samples - 1.0) < 5.0 * std::sqrt(2.0 / samples));
  for (double n : {0.6, 3.0, 764.0}) {
    double m = 0.0, m2 = 0.0;
    for (int k = 0; k < samples; ++k) {
      const double x = kmd::chi_squared(n, stream);
      REQUIRE(x >= 0.0);
      m += x;
      m2 += x * x;
    }
    m /= samples;
    const double var = m2 / samples - m * m;
    INFO("chi-squared(" << n << "): mean " << m << ", variance " << var);
    CHECK(std::abs(m - n) < 5.0 * std::sqrt(2.0 * n / samples));
    CHECK(std::abs(var / (2.0 * n) - 1.0) < 5.0 * std::sqrt((2.0 + 12.0 / n) / samples));
  }
  CHECK(kmd::chi_squared(0.0, stream) == 0.0);
  kmd::CounterStream again{11, 0, 5, 0};
  kmd::CounterStream same{11, 0, 5, 0};
  CHECK(kmd::gaussian(again) == kmd::gaussian(same));
}

TEST_CASE("CSVR draws the kinetic energy of its stochastic equation", "[md][kernels][thermostat]") {
  // Bussi et al. (2007) eq. A7: given K, the new K' has mean c K + (1 - c) K0
  // and variance 2 (1 - c)^2 K0^2 / dof + 4 c (1 - c) K K0 / dof, c = exp(-dt/tau).
  // 40000 draws from K = 1.3 K0, dof = 100: both within 5 standard errors.
  const double dof = 100.0, t0 = 1.5, t = 1.3 * t0, dt = 0.005, tau = 0.02;
  const double c = std::exp(-dt / tau), k0 = 0.5 * dof * t0, k = 0.5 * dof * t;
  const int samples = 40000;
  double m = 0.0, m2 = 0.0;
  for (int n = 0; n < samples; ++n) {
    kmd::CounterStream stream{3, 0, n, 0};
    const double r1 = kmd::gaussian(stream), chi2 = kmd::chi_squared(dof - 1.0, stream);
    const double factor = kmd::csvr_scale(t, t0, dof, dt, tau, r1, chi2);
    const double k_new = k * factor * factor;
    m += k_new;
    m2 += k_new * k_new;
  }
  m /= samples;
  const double var = m2 / samples - m * m;
  const double mean_expected = c * k + (1.0 - c) * k0;
  const double var_expected =
      2.0 * (1.0 - c) * (1.0 - c) * k0 * k0 / dof + 4.0 * c * (1.0 - c) * k * k0 / dof;
  INFO("K' mean " << m << " (" << mean_expected << "), variance " << var << " (" << var_expected
                  << ")");
  CHECK(std::abs(m - mean_expected) < 5.0 * std::sqrt(var_expected / samples));
  CHECK(std::abs(var / var_expected - 1.0) < 5.0 * std::sqrt(3.0 / samples));
  // No coupling (tau -> infinity): nothing changes.
  CHECK(kmd::csvr_scale(t, t0, dof, dt, 1e300, 0.7, 98.0) == 1.0);
}

namespace {

cb::md::Params bench_params() {
  cb::md::Params p;
  p.lattice = kmd::LatticeStyle::fcc;
  p.density = 0.8442;
  p.lattice_constant = kmd::lattice_constant(p.lattice, p.density);
  p.lattice_cells = {20, 20, 20};
  p.temperature = 1.44;
  p.seed = 87287;
  p.masses = {1.0};
  return p;
}

}  // namespace

TEST_CASE("lattice and loop-geom velocities reproduce LAMMPS bit for bit", "[md][setup]") {
  // Reference: Debian's LAMMPS 20220106 running bench/in.lj up to `velocity`,
  // then `write_dump all custom ... id type x y z vx vy vz modify format float
  // %.17g` (17 significant digits: the decimal text round-trips every bit).
  const cb::md::Params p = bench_params();
  const double a = kmd::lattice_constant(p.lattice, p.density);
  CHECK(20 * a == 33.591923827650149);  // LAMMPS box bound (ITEM: BOX BOUNDS)
  cb::md::LocalBox everything;
  for (int d = 0; d < 3; ++d) {
    everything.sublo[d] = everything.lo[d] = 0.0;
    everything.subhi[d] = everything.hi[d] = 20 * a;
  }
  cb::HostParticles atoms = cb::md::lattice_atoms(p, everything);
  REQUIRE(atoms.size() == 32000);
  cb::md::zero_momentum_and_scale(atoms, p.masses, p.temperature, 32000, p.units, MPI_COMM_SELF);
  struct Row {
    std::int64_t id;
    double x[3], v[3];
  };
  const Row lammps[] = {
      {1, {0, 0, 0}, {-0.14582831540066438, -0.66994617068169771, -2.0172221659688598}},
      {2,
       {0.83979809569125363, 0.83979809569125363, 0},
       {-1.2586979664129121, 1.4643991570442725, 1.5879138528088048}},
      {3,
       {0.83979809569125363, 0, 0.83979809569125363},
       {-1.2642718154406352, -0.66134139904187517, 1.1107219755678195}},
  };
  for (const Row& row : lammps) {
    const std::size_t k = row.id - 1;
    REQUIRE(atoms.id[k] == row.id);
    for (int d = 0; d < 3; ++d) {
      CHECK(atoms.x[3 * k + d] == row.x[d]);
      CHECK(atoms.v[3 * k + d] == row.v[d]);
    }
  }
}

TEST_CASE("bcc and sc lattices fill the box with the LAMMPS numbering", "[md][setup]") {
  cb::md::Params p = bench_params();
  p.lattice_cells = {3, 4, 5};
  for (auto style : {kmd::LatticeStyle::bcc, kmd::LatticeStyle::sc}) {
    p.lattice = style;
    const double a = kmd::lattice_constant(style, p.density);
    CHECK(a == Approx(std::cbrt(kmd::basis_count(style) / p.density)).epsilon(1e-15));
    p.lattice_constant = a;
    cb::md::LocalBox box;
    for (int d = 0; d < 3; ++d) box.subhi[d] = box.hi[d] = p.lattice_cells[d] * a;
    const cb::HostParticles atoms = cb::md::lattice_atoms(p, box);
    REQUIRE(atoms.size() == std::size_t(60 * kmd::basis_count(style)));
    for (std::size_t k = 0; k < atoms.size(); ++k) CHECK(atoms.id[k] == std::int64_t(k + 1));
    // The last atom: basis m of cell (2, 3, 4).
    const std::size_t last = atoms.size() - 1;
    const double b = style == kmd::LatticeStyle::bcc ? 0.5 : 0.0;
    CHECK(atoms.x[3 * last] == (2 + b) * a);
    CHECK(atoms.x[3 * last + 2] == (4 + b) * a);
  }
}
