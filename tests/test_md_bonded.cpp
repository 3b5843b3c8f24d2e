// Bonded kernels (kernels/md/bonded.hpp, dihedral.hpp): forces against central
// finite differences of the energy at random geometries (dihedrals near 0,
// +-90 and 180 deg, both signs), zero net force and torque, energies at
// hand-built geometries from the formulas of the LAMMPS doc pages, the
// data-file coefficient checks, and every style against LAMMPS's numbers
// (validation/reference/bonded_lmp.csv, from validation/lammps/bonded_terms.sh,
// with a nearly straight angle and a nearly planar improper where LAMMPS
// bounds 1 / sin; energies within 1e-10 relative, forces within 1e-9 of the
// largest force; evaluated on the default execution space).
#include "device_eval.hpp"
#include "kernels/md/bonded.hpp"

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace kmd = cb::kernels::md;
using cb::test::on_device;

namespace {

constexpr double pi = cb::math::pi;
double deg(double degrees) {
  return degrees * pi / 180.0;
}

// ---- geometries ------------------------------------------------------------

// Rotates by a random rotation and shifts by a random offset (up to 10 A).
template <int N>
void place_randomly(double (&x)[N][3], std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> shift(-10.0, 10.0);
  double q[4], norm = 0.0;
  for (double& v : q) {
    v = normal(rng);
    norm += v * v;
  }
  for (double& v : q) v /= std::sqrt(norm);
  const double w = q[0], a = q[1], b = q[2], c = q[3];
  const double rot[3][3] = {{1 - 2 * (b * b + c * c), 2 * (a * b - w * c), 2 * (a * c + w * b)},
                            {2 * (a * b + w * c), 1 - 2 * (a * a + c * c), 2 * (b * c - w * a)},
                            {2 * (a * c - w * b), 2 * (b * c + w * a), 1 - 2 * (a * a + b * b)}};
  const double offset[3] = {shift(rng), shift(rng), shift(rng)};
  for (auto& atom : x) {
    double r[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r[i] += rot[i][j] * atom[j];
    for (int i = 0; i < 3; ++i) atom[i] = r[i] + offset[i];
  }
}

// Four atoms with bond lengths b, angles theta1 (1-2-3), theta2 (2-3-4) and
// IUPAC dihedral phi: 2 at the origin, 3 on +z, 1 in the xz plane at x > 0, 4
// at azimuth phi about +z.
struct Quad {
  double x[4][3];
};

Quad quad(const double b[3], double theta1, double theta2, double phi) {
  return {{{b[0] * std::sin(theta1), 0.0, b[0] * std::cos(theta1)},
           {0.0, 0.0, 0.0},
           {0.0, 0.0, b[1]},
           {b[2] * std::sin(theta2) * std::cos(phi), b[2] * std::sin(theta2) * std::sin(phi),
            b[1] - b[2] * std::cos(theta2)}}};
}

// Three atoms with bond lengths r1 (1-2), r2 (3-2) and angle theta at 2.
struct Triple {
  double x[3][3];
};

Triple triple(double r1, double r2, double theta) {
  return {{{r1, 0.0, 0.0}, {0.0, 0.0, 0.0}, {r2 * std::cos(theta), r2 * std::sin(theta), 0.0}}};
}

// Dihedrals (degrees) tried at every random geometry: near 0, +-90 and 180.
const double test_phis[] = {-179.6, -150.0, -90.3, -89.5, -45.0, -0.6, 0.4,
                            30.0,   60.0,   89.8,  90.4,  135.0, 179.7};

// ---- checks ----------------------------------------------------------------

template <int N>
double max_abs(const double (&f)[N][3]) {
  double m = 0.0;
  for (const auto& row : f)
    for (double v : row) m = std::max(m, std::fabs(v));
  return m;
}

// Forces against -dE/dx by central differences (step 1e-6), within 1e-6 of
// the largest force plus the differences' round-off, 1e-8 (1 + |E|) (for
// geometries at a minimum); forces are written over garbage.
template <int N, class Term>
void check_forces_are_gradient(const Term& term, const double (&x0)[N][3]) {
  constexpr double h = 1e-6;
  double x[N][3], f[N][3], scratch[N][3];
  std::copy(&x0[0][0], &x0[0][0] + 3 * N, &x[0][0]);
  std::fill(&f[0][0], &f[0][0] + 3 * N, 1e300);
  const double energy = term(x, f);
  const double tol = 1e-6 * max_abs(f) + 1e-8 * (1.0 + std::fabs(energy));
  for (int i = 0; i < N; ++i)
    for (int d = 0; d < 3; ++d) {
      x[i][d] = x0[i][d] + h;
      const double e_plus = term(x, scratch);
      x[i][d] = x0[i][d] - h;
      const double e_minus = term(x, scratch);
      x[i][d] = x0[i][d];
      INFO("atom " << i << " axis " << d);
      CHECK(std::fabs(f[i][d] + (e_plus - e_minus) / (2 * h)) <= tol);
    }
}

// Zero net force and zero torque about the centroid, to round-off; the
// virial helper agrees with sum x . f.
template <int N, class Term>
void check_invariances(const Term& term, const double (&x)[N][3]) {
  double f[N][3];
  term(x, f);
  double center[3] = {0, 0, 0};
  for (const auto& atom : x)
    for (int d = 0; d < 3; ++d) center[d] += atom[d] / N;
  double net[3] = {0, 0, 0}, torque[3] = {0, 0, 0}, arm = 0.0, virial = 0.0;
  for (int i = 0; i < N; ++i) {
    double r[3];
    for (int d = 0; d < 3; ++d) {
      r[d] = x[i][d] - center[d];
      net[d] += f[i][d];
      virial += x[i][d] * f[i][d];
      arm = std::max(arm, std::fabs(r[d]));
    }
    torque[0] += r[1] * f[i][2] - r[2] * f[i][1];
    torque[1] += r[2] * f[i][0] - r[0] * f[i][2];
    torque[2] += r[0] * f[i][1] - r[1] * f[i][0];
  }
  const double fmax = max_abs(f);
  for (int d = 0; d < 3; ++d) {
    CHECK(std::fabs(net[d]) <= 1e-13 * fmax);
    CHECK(std::fabs(torque[d]) <= 1e-13 * fmax * arm);
  }
  const double bound = 1e-11 * fmax * (arm + 20.0);
  CHECK(std::fabs(kmd::term_virial(x, f) - virial) <= bound);
  // The tensor: each component is sum x_a f_b, symmetric (no torque).
  for (int c = 0; c < kmd::tensor_components; ++c) {
    const int a = kmd::tensor_row(c), b = kmd::tensor_col(c);
    double ab = 0.0, ba = 0.0;
    for (int i = 0; i < N; ++i) {
      ab += x[i][a] * f[i][b];
      ba += x[i][b] * f[i][a];
    }
    CHECK(std::fabs(kmd::term_virial_component(x, f, c) - ab) <= bound);
    CHECK(std::fabs(ab - ba) <= bound);
  }
}

template <int N, class Term>
void check_term(const Term& term, const double (&x)[N][3]) {
  check_forces_are_gradient(term, x);
  check_invariances(term, x);
}

// Callables (x, f) -> E for one coefficient of each kind, through the dispatcher.
auto bond(const kmd::BondCoeff& c) {
  return [c](const double x[2][3], double f[2][3]) {
    return kmd::bond_energy_forces(kmd::BondStyle::harmonic, c, x, f);
  };
}
auto angle(kmd::AngleStyle style, const kmd::AngleCoeff& c) {
  return [style, c](const double x[3][3], double f[3][3]) {
    return kmd::angle_energy_forces(style, c, x, f);
  };
}
auto dihedral(kmd::DihedralStyle style, const kmd::DihedralCoeff& c) {
  return [style, c](const double x[4][3], double f[4][3]) {
    return kmd::dihedral_energy_forces(style, c, x, f);
  };
}
auto improper(const kmd::ImproperCoeff& c) {
  return [c](const double x[4][3], double f[4][3]) {
    return kmd::improper_energy_forces(kmd::ImproperStyle::harmonic, c, x, f);
  };
}

kmd::DihedralCoeff dihedral_coeff(const char* style, std::vector<double> v) {
  return kmd::dihedral_coeff(kmd::dihedral_style(style), v);
}

// The energies of the doc pages, evaluated at a known phi.
double charmm_energy(double k, int n, double d_degrees, double phi) {
  return k * (1.0 + std::cos(n * phi - deg(d_degrees)));
}
double opls_energy(const double k[4], double phi) {
  return 0.5 * k[0] * (1 + std::cos(phi)) + 0.5 * k[1] * (1 - std::cos(2 * phi)) +
         0.5 * k[2] * (1 + std::cos(3 * phi)) + 0.5 * k[3] * (1 - std::cos(4 * phi));
}

}  // namespace

TEST_CASE("tensor components come in LAMMPS's order xx, yy, zz, xy, xz, yz", "[md][kernels]") {
  const int rows[6] = {0, 1, 2, 0, 0, 1}, cols[6] = {0, 1, 2, 1, 2, 2};
  for (int c = 0; c < kmd::tensor_components; ++c) {
    CHECK(kmd::tensor_row(c) == rows[c]);
    CHECK(kmd::tensor_col(c) == cols[c]);
  }
}

TEST_CASE("bond and angle forces are minus the energy gradient", "[md][kernels][bonded]") {
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> length(0.8, 2.2), theta(deg(20.0), deg(170.0));
  const auto harmonic_bond = bond(kmd::bond_coeff(kmd::BondStyle::harmonic, {340.0, 1.09}));
  const auto harmonic_angle =
      angle(kmd::AngleStyle::harmonic, kmd::angle_coeff(kmd::AngleStyle::harmonic, {55.0, 108.5}));
  const auto charmm_angle = angle(
      kmd::AngleStyle::charmm, kmd::angle_coeff(kmd::AngleStyle::charmm, {35.0, 118.0, 22.5, 2.1}));
  for (int sample = 0; sample < 20; ++sample) {
    double pair[2][3] = {{0, 0, 0}, {length(rng), 0, 0}};
    place_randomly(pair, rng);
    check_term(harmonic_bond, pair);
    Triple t = triple(length(rng), length(rng), theta(rng));
    place_randomly(t.x, rng);
    check_term(harmonic_angle, t.x);
    check_term(charmm_angle, t.x);
  }
}

TEST_CASE("dihedral and improper forces are minus the energy gradient", "[md][kernels][bonded]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> length(0.9, 2.0), theta(deg(25.0), deg(155.0));
  const auto charmm3 =
      dihedral(kmd::DihedralStyle::charmm, dihedral_coeff("charmm", {1.4, 3, 0, 0.5}));
  const auto charmm1 =
      dihedral(kmd::DihedralStyle::charmm, dihedral_coeff("charmm", {0.6, 1, 180, 0}));
  const auto charmm2 =
      dihedral(kmd::DihedralStyle::charmm, dihedral_coeff("charmm", {0.9, 2, 90, 0}));
  const auto harmonic =
      dihedral(kmd::DihedralStyle::harmonic, dihedral_coeff("harmonic", {2.0, -1, 2}));
  const auto opls =
      dihedral(kmd::DihedralStyle::opls, dihedral_coeff("opls", {1.3, -0.2, 0.6, 0.15}));
  const auto improper0 = improper(kmd::improper_harmonic_coeff(40.0, 0.0));
  const auto improper35 = improper(kmd::improper_harmonic_coeff(12.0, 35.0));
  for (int sample = 0; sample < 4; ++sample)
    for (double phi : test_phis) {
      const double b[3] = {length(rng), length(rng), length(rng)};
      Quad q = quad(b, theta(rng), theta(rng), deg(phi));
      place_randomly(q.x, rng);
      INFO("phi " << phi);
      for (const auto& term : {charmm3, charmm1, charmm2, harmonic, opls}) check_term(term, q.x);
      check_term(improper0, q.x);
      check_term(improper35, q.x);
    }
}

TEST_CASE("energies at hand-built geometries follow the doc-page formulas",
          "[md][kernels][bonded]") {
  double f2[2][3], f3[3][3], f4[4][3];
  SECTION("harmonic bond and angles") {
    const double pair[2][3] = {{1.0, 2.0, 3.0}, {1.0, 2.0 + 1.09, 3.0}};
    CHECK(kmd::bond_harmonic({340.0, 1.09}, pair, f2) < 1e-24);
    CHECK(max_abs(f2) < 1e-9);
    const double stretched[2][3] = {{0.0, 0.0, 0.0}, {0.0, 0.0, 1.25}};
    CHECK(std::fabs(kmd::bond_harmonic({340.0, 1.0}, stretched, f2) - 340.0 * 0.0625) < 1e-12);
    CHECK(std::fabs(f2[1][2] + 2 * 340.0 * 0.25) < 1e-12);  // pulled back towards atom 1
    CHECK(std::fabs(f2[0][2] - 2 * 340.0 * 0.25) < 1e-12);

    const Triple rest = triple(1.1, 1.4, deg(108.5));
    CHECK(kmd::angle_harmonic(kmd::angle_harmonic_coeff(55.0, 108.5), rest.x, f3) < 1e-24);
    CHECK(max_abs(f3) < 1e-10);
    // Right angle: theta = pi / 2, r13 = sqrt(1.1^2 + 1.4^2).
    const Triple right = triple(1.1, 1.4, pi / 2);
    const double e =
        kmd::angle_charmm(kmd::angle_charmm_coeff(35.0, 118.0, 22.5, 2.1), right.x, f3);
    const double r13 = std::sqrt(1.1 * 1.1 + 1.4 * 1.4);
    CHECK(std::fabs(e - (35.0 * std::pow(pi / 2 - deg(118.0), 2) + 22.5 * std::pow(r13 - 2.1, 2))) <
          1e-12);
  }
  SECTION("dihedrals and impropers at phi = +-60 deg and at random phi") {
    const double b[3] = {1.0, 1.5, 1.0};
    for (double phi_degrees : {60.0, -60.0}) {
      const Quad q = quad(b, deg(90.0), deg(90.0), deg(phi_degrees));
      const double phi = deg(phi_degrees);
      for (int n = 0; n <= 4; ++n)
        for (int d : {0, 90, 180, 270}) {
          const double e =
              kmd::dihedral_charmm(kmd::dihedral_charmm_coeff(1.7, n, d, 0.0), q.x, f4);
          INFO("n " << n << " d " << d << " phi " << phi_degrees);
          CHECK(std::fabs(e - charmm_energy(1.7, n, d, phi)) < 1e-13);
        }
      for (int sign : {1, -1}) {
        const double e =
            kmd::dihedral_harmonic(kmd::dihedral_harmonic_coeff(0.8, sign, 3), q.x, f4);
        CHECK(std::fabs(e - 0.8 * (1 + sign * std::cos(3 * phi))) < 1e-13);
      }
      const double k[4] = {1.3, -0.2, 0.6, 0.15};
      CHECK(std::fabs(kmd::dihedral_opls({{k[0], k[1], k[2], k[3]}}, q.x, f4) -
                      opls_energy(k, phi)) < 1e-13);
      // chi = |phi|: zero at chi0 = 60 deg whatever the sign.
      CHECK(kmd::improper_harmonic(kmd::improper_harmonic_coeff(40.0, 60.0), q.x, f4) < 1e-20);
      CHECK(max_abs(f4) < 1e-8);
    }
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> length(0.9, 2.0), theta(deg(25.0), deg(155.0));
    for (double phi_degrees : test_phis) {
      const double lengths[3] = {length(rng), length(rng), length(rng)};
      Quad q = quad(lengths, theta(rng), theta(rng), deg(phi_degrees));
      place_randomly(q.x, rng);
      const double phi = deg(phi_degrees);
      INFO("phi " << phi_degrees);
      CHECK(std::fabs(kmd::dihedral_charmm(kmd::dihedral_charmm_coeff(1.1, 1, 90, 0.0), q.x, f4) -
                      charmm_energy(1.1, 1, 90, phi)) < 1e-11);
      CHECK(std::fabs(kmd::improper_harmonic(kmd::improper_harmonic_coeff(9.0, 35.0), q.x, f4) -
                      9.0 * std::pow(std::fabs(phi) - deg(35.0), 2)) < 1e-9);
    }
  }
}

TEST_CASE("style none gives nothing; data-file numbers are checked", "[md][kernels][bonded]") {
  double f[4][3];
  const double x[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 1, 1}};
  std::fill(&f[0][0], &f[0][0] + 12, 1.0);
  CHECK(kmd::dihedral_energy_forces(kmd::DihedralStyle::none, {}, x, f) == 0.0);
  CHECK(max_abs(f) == 0.0);

  // LAMMPS's shift conversion: cos(pi d / 180), sin(pi d / 180).
  const auto shifted = kmd::dihedral_coeff(kmd::DihedralStyle::charmm, {1.0, 2, 180, 0.5});
  CHECK(shifted.periodic.cos_shift == std::cos(pi * 180 / 180.0));
  CHECK(shifted.periodic.sin_shift == std::sin(pi * 180 / 180.0));
  CHECK(shifted.periodic.n == 2);
  CHECK(shifted.periodic.weight == 0.5);
  CHECK(kmd::angle_coeff(kmd::AngleStyle::harmonic, {50.0, 120.0}).theta0 == 120.0 / 180.0 * pi);

  using kmd::DihedralStyle;
  CHECK_THROWS_AS(kmd::bond_coeff(kmd::BondStyle::harmonic, {1.0}), std::invalid_argument);
  CHECK_THROWS_AS(kmd::angle_coeff(kmd::AngleStyle::charmm, {1.0, 2.0}), std::invalid_argument);
  CHECK_THROWS_AS(kmd::dihedral_coeff(DihedralStyle::charmm, {1.0, -1, 0, 0}),
                  std::invalid_argument);
  CHECK_THROWS_AS(kmd::dihedral_coeff(DihedralStyle::charmm, {1.0, 2, 45.5, 0}),
                  std::invalid_argument);
  CHECK_THROWS_AS(kmd::dihedral_coeff(DihedralStyle::charmm, {1.0, 2.5, 0, 0}),
                  std::invalid_argument);
  CHECK_THROWS_AS(kmd::dihedral_coeff(DihedralStyle::charmm, {1.0, 2, 0, 1.5}),
                  std::invalid_argument);
  CHECK_THROWS_AS(kmd::dihedral_coeff(DihedralStyle::harmonic, {1.0, 2, 3}), std::invalid_argument);
  CHECK_THROWS_AS(kmd::dihedral_coeff(DihedralStyle::harmonic, {1.0, 1, -3}),
                  std::invalid_argument);
  CHECK_THROWS_AS(kmd::dihedral_coeff(DihedralStyle::opls, {1.0, 2.0, 3.0}), std::invalid_argument);
  CHECK_THROWS_AS(kmd::improper_coeff(kmd::ImproperStyle::harmonic, {1.0, 2.0, 3.0}),
                  std::invalid_argument);
  CHECK_THROWS_AS(kmd::dihedral_style("fourier"), std::invalid_argument);
  CHECK(kmd::dihedral_style("opls") == DihedralStyle::opls);
  CHECK(kmd::angle_style("charmm") == kmd::AngleStyle::charmm);
}

// ---- against LAMMPS --------------------------------------------------------

namespace {

struct LammpsTerm {
  std::vector<int> ids;
  std::vector<double> coeffs;
};

struct LammpsRun {
  std::string kind, style;
  std::vector<LammpsTerm> terms;
  double energy = 0.0;
  std::map<int, std::array<double, 3>> forces;
};

struct LammpsReference {
  std::map<int, std::array<double, 3>> atoms;
  std::map<std::string, LammpsRun> runs;
};

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, sep);) parts.push_back(part);
  return parts;
}

template <class T>
std::vector<T> numbers(const std::string& text) {
  std::vector<T> v;
  std::stringstream in(text);
  for (T value; in >> value;) v.push_back(value);
  return v;
}

LammpsReference lammps_reference() {
  std::ifstream in(std::string(CLOUDBURST_SOURCE_DIR) + "/validation/reference/bonded_lmp.csv");
  REQUIRE(in);
  LammpsReference ref;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> c = split(line, ',');
    if (c[0] == "atom") {
      ref.atoms[std::stoi(c[1])] = {std::stod(c[2]), std::stod(c[3]), std::stod(c[4])};
    } else if (c[0] == "term") {
      LammpsRun& run = ref.runs[c[1]];
      run.kind = c[2];
      run.style = c[3];
      run.terms.push_back({numbers<int>(c[4]), numbers<double>(c[5])});
    } else if (c[0] == "energy") {
      ref.runs[c[1]].energy = std::stod(c[2]);
    } else if (c[0] == "force") {
      ref.runs[c[1]].forces[std::stoi(c[2])] = {std::stod(c[3]), std::stod(c[4]), std::stod(c[5])};
    }
  }
  return ref;
}

// One term of any kind, evaluated on the device through the dispatcher.
struct DeviceTerm {
  int kind = 0;  // atoms in the term: 2 bond, 3 angle, 4 dihedral, 5 improper
  kmd::BondStyle bond_style = kmd::BondStyle::none;
  kmd::AngleStyle angle_style = kmd::AngleStyle::none;
  kmd::DihedralStyle dihedral_style = kmd::DihedralStyle::none;
  kmd::ImproperStyle improper_style = kmd::ImproperStyle::none;
  kmd::BondCoeff bond;
  kmd::AngleCoeff angle;
  kmd::DihedralCoeff dihedral;
  kmd::ImproperCoeff improper;
  double x[4][3] = {};
};

struct TermResult {
  double energy = 0.0;
  double f[4][3] = {};
};

TermResult evaluate_on_device(const DeviceTerm& t) {
  return on_device(KOKKOS_LAMBDA() {
    TermResult r;
    double x2[2][3], f2[2][3], x3[3][3], f3[3][3];
    for (int i = 0; i < 3; ++i)
      for (int d = 0; d < 3; ++d) x3[i][d] = t.x[i][d];
    for (int i = 0; i < 2; ++i)
      for (int d = 0; d < 3; ++d) x2[i][d] = t.x[i][d];
    if (t.kind == 2) {
      r.energy = kmd::bond_energy_forces(t.bond_style, t.bond, x2, f2);
      for (int i = 0; i < 2; ++i)
        for (int d = 0; d < 3; ++d) r.f[i][d] = f2[i][d];
    } else if (t.kind == 3) {
      r.energy = kmd::angle_energy_forces(t.angle_style, t.angle, x3, f3);
      for (int i = 0; i < 3; ++i)
        for (int d = 0; d < 3; ++d) r.f[i][d] = f3[i][d];
    } else if (t.kind == 4) {
      r.energy = kmd::dihedral_energy_forces(t.dihedral_style, t.dihedral, t.x, r.f);
    } else {
      r.energy = kmd::improper_energy_forces(t.improper_style, t.improper, t.x, r.f);
    }
    return r;
  });
}

DeviceTerm device_term(const LammpsRun& run, const LammpsTerm& term) {
  DeviceTerm t;
  if (run.kind == "bond") {
    t.kind = 2;
    t.bond_style = kmd::bond_style(run.style);
    t.bond = kmd::bond_coeff(t.bond_style, term.coeffs);
  } else if (run.kind == "angle") {
    t.kind = 3;
    t.angle_style = kmd::angle_style(run.style);
    t.angle = kmd::angle_coeff(t.angle_style, term.coeffs);
  } else if (run.kind == "dihedral") {
    t.kind = 4;
    t.dihedral_style = kmd::dihedral_style(run.style);
    t.dihedral = kmd::dihedral_coeff(t.dihedral_style, term.coeffs);
  } else {
    REQUIRE(run.kind == "improper");
    t.kind = 5;
    t.improper_style = kmd::improper_style(run.style);
    t.improper = kmd::improper_coeff(t.improper_style, term.coeffs);
  }
  return t;
}

}  // namespace

TEST_CASE("every style matches LAMMPS's energies and forces", "[md][kernels][bonded][lammps]") {
  const LammpsReference ref = lammps_reference();
  REQUIRE(ref.atoms.size() == 11);
  REQUIRE(ref.runs.size() == 7);
  for (const auto& [name, run] : ref.runs) {
    INFO("run " << name);
    REQUIRE(run.forces.size() == ref.atoms.size());
    double energy = 0.0;
    std::map<int, std::array<double, 3>> forces;
    for (const auto& [id, x] : ref.atoms) forces[id] = {0, 0, 0};
    for (const LammpsTerm& term : run.terms) {
      DeviceTerm t = device_term(run, term);
      REQUIRE(term.ids.size() == std::size_t(std::min(t.kind, 4)));
      for (std::size_t i = 0; i < term.ids.size(); ++i)
        for (int d = 0; d < 3; ++d) t.x[i][d] = ref.atoms.at(term.ids[i])[d];
      const TermResult r = evaluate_on_device(t);
      energy += r.energy;
      for (std::size_t i = 0; i < term.ids.size(); ++i)
        for (int d = 0; d < 3; ++d) forces[term.ids[i]][d] += r.f[i][d];
    }
    CHECK(std::fabs(energy - run.energy) <= 1e-10 * std::fabs(run.energy));
    double fmax = 0.0;
    for (const auto& [id, f] : run.forces)
      for (double v : f) fmax = std::max(fmax, std::fabs(v));
    REQUIRE(fmax > 0.0);
    for (const auto& [id, f] : run.forces)
      for (int d = 0; d < 3; ++d) {
        INFO("atom " << id << " axis " << d);
        CHECK(std::fabs(forces[id][d] - f[d]) <= 1e-9 * fmax);
      }
  }
}
