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

TEST_CASE("Nose-Hoover and Berendsen leave an equilibrated system alone", "[md][kernels]") {
  kmd::NoseHoover nh;
  CHECK(nh.half_step(1.5, 1.5, 2997.0, 0.5, 0.005) == 1.0);
  CHECK(nh.eta_dot == 0.0);
  CHECK(kmd::berendsen_scale(1.5, 1.5, 0.005, 0.5) == 1.0);
  // Too hot: both cool.
  CHECK(nh.half_step(3.0, 1.5, 2997.0, 0.5, 0.005) < 1.0);
  CHECK(kmd::berendsen_scale(3.0, 1.5, 0.005, 0.5) < 1.0);
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
