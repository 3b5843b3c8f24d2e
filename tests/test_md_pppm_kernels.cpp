// The PPPM kernels (kernels/md/pppm.hpp, pppm_estimates.hpp):
//  - the parameters LAMMPS chooses (validation/reference/pppm_lmp.csv, from
//    Debian's lmp by validation/lammps/pppm_parameters.sh): g_ewald to all 8
//    printed digits, the mesh and order exactly, the estimated absolute and
//    relative accuracies to 5 digits (they agree in all 8 printed digits too); natoms, sum q^2 and
//    the box are read from the same data files (LAMMPS's examples are skipped where not installed);
//  - the assignment weights against the centred cardinal B-spline written out
//    (Hockney & Eastwood 1988): sum 1, mirror symmetry, values to 1e-13;
//  - the influence function against the optimal ik influence function summed
//    directly over aliases (Hockney & Eastwood 1988 eq. 8-22), its denominator
//    against the alias sum it stands for, G(0) = 0, its symmetries and its
//    limit 4 pi exp(-k^2 / 4 g^2) / k^2 at small k h;
//  - the device evaluation equal to the host one.
#include "kernels/md/ewald.hpp"
#include "kernels/md/pppm.hpp"
#include "tests/device_eval.hpp"

#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace kmd = cb::kernels::md;
using cb::test::on_device;

namespace {

constexpr double pi = cb::math::pi;

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string f; std::getline(in, f, sep);) fields.push_back(f);
  return fields;
}

// ---- LAMMPS data files: atom count, box, charges ----------------------------

struct DataSummary {
  std::int64_t natoms = 0;
  double prd[3] = {0, 0, 0};
  double qsqsum = 0.0;
};

// Reads "N atoms", the "lo hi" box lines and the charges (column q_column of
// the Atoms lines), summing q^2 in the file's order.
DataSummary read_data_file(const std::string& path, int q_column) {
  std::ifstream in(path);
  REQUIRE(in);
  DataSummary d;
  std::string line;
  std::getline(in, line);  // title
  const char* axes[3] = {"xlo", "ylo", "zlo"};
  bool in_atoms = false;
  std::int64_t read = 0;
  while (std::getline(in, line)) {
    const std::string body = line.substr(0, line.find('#'));
    std::stringstream words(body);
    std::vector<std::string> w;
    for (std::string s; words >> s;) w.push_back(s);
    if (w.empty()) continue;
    if (in_atoms) {
      if (read == d.natoms) break;
      d.qsqsum += std::stod(w.at(q_column)) * std::stod(w.at(q_column));
      ++read;
      continue;
    }
    if (w.size() == 2 && w[1] == "atoms") d.natoms = std::stoll(w[0]);
    for (int a = 0; a < 3; ++a)
      if (w.size() == 4 && w[2] == axes[a]) d.prd[a] = std::stod(w[1]) - std::stod(w[0]);
    if (w[0] == "Atoms") in_atoms = true;
  }
  REQUIRE(read == d.natoms);
  return d;
}

double qqr2e_of(const std::string& units) {
  if (units == "real") return 332.06371;
  if (units == "metal") return 14.399645;
  REQUIRE(units == "lj");
  return 1.0;
}

std::string printed(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.8g", v);
  return buf;
}

bool relative_close(double a, double b, double tol) {
  return std::fabs(a - b) <= tol * std::fabs(b);
}

// ---- the B-spline written out ----------------------------------------------

// Centred cardinal B-spline of order p by its recursion (de Boor):
// M_1 = 1 on |s| < 1/2, M_p(s) = [(p / 2 + s) M_{p-1}(s + 1/2) + (p / 2 - s)
// M_{p-1}(s - 1/2)] / (p - 1).
double bspline(int p, double s) {
  if (p == 1) return std::fabs(s) < 0.5 ? 1.0 : (std::fabs(s) == 0.5 ? 0.5 : 0.0);
  return ((0.5 * p + s) * bspline(p - 1, s + 0.5) + (0.5 * p - s) * bspline(p - 1, s - 0.5)) /
         (p - 1);
}

// ---- the influence function written out ------------------------------------

// Hockney & Eastwood's optimal ik influence function at signed wave numbers
// (kx, ky, kz) * 2 pi / L, aliases |m_d| <= 4 in the numerator, the
// denominator's alias sum to |m| <= 2000 per axis.
double greens_by_aliases(const int n[3], const double prd[3], double g, int p, const int per[3]) {
  double k[3], unitk[3], h[3];
  for (int d = 0; d < 3; ++d) {
    unitk[d] = 2.0 * pi / prd[d];
    k[d] = unitk[d] * per[d];
    h[d] = prd[d] / n[d];
  }
  const double k2 = k[0] * k[0] + k[1] * k[1] + k[2] * k[2];
  auto u2 = [&](double q, int d) {  // (sin(q h / 2) / (q h / 2))^{2p}
    const double x = 0.5 * q * h[d];
    return x == 0.0 ? 1.0 : std::pow(std::sin(x) / x, 2 * p);
  };
  double denominator = 1.0;
  for (int d = 0; d < 3; ++d) {
    double s = 0.0;
    for (int m = -2000; m <= 2000; ++m) s += u2(k[d] + 2.0 * pi * m / h[d], d);
    denominator *= s;
  }
  double sum = 0.0;
  for (int mx = -4; mx <= 4; ++mx)
    for (int my = -4; my <= 4; ++my)
      for (int mz = -4; mz <= 4; ++mz) {
        const double q[3] = {k[0] + 2.0 * pi * mx / h[0], k[1] + 2.0 * pi * my / h[1],
                             k[2] + 2.0 * pi * mz / h[2]};
        const double q2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2];
        const double kq = k[0] * q[0] + k[1] * q[1] + k[2] * q[2];
        sum += kq / q2 * std::exp(-q2 / (4.0 * g * g)) * u2(q[0], 0) * u2(q[1], 1) * u2(q[2], 2);
      }
  return 4.0 * pi / k2 * sum / (denominator * denominator);
}

// A few G values and one set of weights, evaluated on the device.
struct MeshIndices {
  int ijk[4][3];
};

struct DeviceValues {
  double greens[4];
  double weights[kmd::pppm_max_order];
  int n = 0;
  double dx = 0.0;
};

DeviceValues evaluate_on_device(const kmd::PppmGreensIk& gf, const kmd::PppmAssignmentCoeff& c,
                                const MeshIndices& m, double x, double boxlo, double delinv) {
  return on_device(KOKKOS_LAMBDA() {
    DeviceValues v{};
    for (int i = 0; i < 4; ++i)
      v.greens[i] = kmd::pppm_greens_ik(gf, m.ijk[i][0], m.ijk[i][1], m.ijk[i][2]);
    const kmd::PppmStencil stencil = kmd::pppm_stencil(c.order);
    const kmd::PppmGridPoint point = kmd::pppm_grid_point(x, boxlo, delinv, stencil);
    kmd::pppm_assignment_weights(c, point.dx, v.weights);
    v.n = point.n;
    v.dx = point.dx;
    return v;
  });
}

}  // namespace

TEST_CASE("PPPM parameters: LAMMPS's g_ewald, mesh and accuracy estimates", "[md][kernels][pppm]") {
  std::ifstream in(std::string(CLOUDBURST_SOURCE_DIR) + "/validation/reference/pppm_lmp.csv");
  REQUIRE(in);
  const std::string examples = "/usr/share/lammps/examples/";
  int compared = 0, skipped = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.rfind("case,", 0) == 0) continue;
    const std::vector<std::string> f = split(line, ',');
    REQUIRE(f.size() == 18);
    const std::string name = f[0], data = f[2];
    std::string path;
    if (data.rfind("repo:", 0) == 0)
      path = std::string(CLOUDBURST_SOURCE_DIR) + "/" + data.substr(5);
    if (data.rfind("examples:", 0) == 0) path = examples + data.substr(9);
    REQUIRE(!path.empty());
    if (!std::ifstream(path)) {
      WARN(name << ": " << path << " not installed, skipped");
      ++skipped;
      continue;
    }
    const DataSummary atoms = read_data_file(path, std::stoi(f[3]));
    const double qqr2e = qqr2e_of(f[5]);

    kmd::PppmSettings s;
    s.accuracy_relative = std::stod(f[6]);
    s.two_charge_force = qqr2e;  // qqr2e qelectron^2 / angstrom^2, both 1 in these units
    s.natoms = atoms.natoms;
    s.q2 = atoms.qsqsum * qqr2e;
    for (int d = 0; d < 3; ++d) s.prd[d] = atoms.prd[d];
    s.cutoff = std::stod(f[4]);
    s.order = std::stoi(f[7]);
    s.g_ewald = std::stod(f[8]);
    std::stringstream mesh(f[9]);
    mesh >> s.mesh[0] >> s.mesh[1] >> s.mesh[2];
    s.coul_table_bits = std::stoi(f[10]);

    const kmd::PppmParameters p = kmd::pppm_parameters(s);
    INFO(name << ": g " << printed(p.g_ewald) << " (lmp " << f[11] << "), mesh " << p.mesh[0] << " "
              << p.mesh[1] << " " << p.mesh[2] << ", accuracy " << printed(p.estimated_accuracy)
              << " (lmp " << f[16] << "), relative " << printed(p.estimated_relative_accuracy)
              << " (lmp " << f[17] << ")");
    CHECK(printed(p.g_ewald) == f[11]);
    CHECK(p.mesh[0] == std::stoi(f[12]));
    CHECK(p.mesh[1] == std::stoi(f[13]));
    CHECK(p.mesh[2] == std::stoi(f[14]));
    CHECK(p.order == std::stoi(f[15]));
    CHECK(relative_close(p.estimated_accuracy, std::stod(f[16]), 1e-5));
    CHECK(relative_close(p.estimated_relative_accuracy, std::stod(f[17]), 1e-5));
    ++compared;
  }
  CHECK(compared + skipped == 15);
  CHECK(compared >= 13);  // the salt cases need nothing installed
}

TEST_CASE("PPPM parameters: bad settings are refused", "[md][kernels][pppm]") {
  kmd::PppmSettings s;
  s.natoms = 8;
  s.q2 = 8.0;
  s.prd[0] = s.prd[1] = s.prd[2] = 10.0;
  s.cutoff = 4.0;
  s.order = 8;
  CHECK_THROWS_AS(kmd::pppm_parameters(s), std::invalid_argument);
  s.order = 5;
  s.mesh[0] = 10;
  CHECK_THROWS_AS(kmd::pppm_parameters(s), std::invalid_argument);
  s.mesh[0] = 0;
  s.q2 = 0.0;
  CHECK_THROWS_AS(kmd::pppm_parameters(s), std::invalid_argument);
  s.g_ewald = 0.3;  // a given g needs no charges
  CHECK_NOTHROW(kmd::pppm_parameters(s));
  CHECK(kmd::pppm_factorable(1));
  CHECK(kmd::pppm_factorable(2 * 3 * 5 * 5 * 8));
  CHECK_FALSE(kmd::pppm_factorable(14));
  CHECK_FALSE(kmd::pppm_factorable(49));
}

TEST_CASE("PPPM assignment weights are LAMMPS's B-spline pieces", "[md][kernels][pppm]") {
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> offset(-0.5, 0.5);
  for (int p = kmd::pppm_min_order; p <= kmd::pppm_max_order; ++p) {
    INFO("order " << p);
    const kmd::PppmStencil st = kmd::pppm_stencil(p);
    CHECK(st.nupper - st.nlower + 1 == p);
    const kmd::PppmAssignmentCoeff c = kmd::pppm_assignment_coeff(p);
    for (int trial = 0; trial < 200; ++trial) {
      const double dx = trial == 0 ? 0.5 : trial == 1 ? 0.0 : offset(rng);
      double w[kmd::pppm_max_order], mirrored[kmd::pppm_max_order];
      kmd::pppm_assignment_weights(c, dx, w);
      kmd::pppm_assignment_weights(c, -dx, mirrored);
      double sum = 0.0;
      for (int k = st.nlower; k <= st.nupper; ++k) {
        const int i = k - st.nlower;
        sum += w[i];
        // w_k = W_p(k + dx - shiftone), the B-spline at the point's offset
        CHECK(std::fabs(w[i] - bspline(p, k + dx - st.shiftone)) <= 1e-13);
        // mirror: odd orders about k = 0, even orders about k = 1/2
        const int mirror = (p % 2 ? -k : 1 - k) - st.nlower;
        CHECK(std::fabs(w[i] - mirrored[mirror]) <= 1e-14);
        CHECK(w[i] >= -1e-15);
      }
      CHECK(std::fabs(sum - 1.0) <= 1e-14);
    }
  }
  // order 2 is cloud-in-cell: weights 1/2 - dx and 1/2 + dx
  double w[kmd::pppm_max_order];
  kmd::pppm_assignment_weights(kmd::pppm_assignment_coeff(2), 0.2, w);
  CHECK(std::fabs(w[0] - 0.7) <= 1e-15);
  CHECK(std::fabs(w[1] - 0.3) <= 1e-15);
}

TEST_CASE("PPPM grid points and wave numbers follow LAMMPS's conventions", "[md][kernels][pppm]") {
  const double boxlo = -3.0, delinv = 10.0 / 28.2;
  for (int p = kmd::pppm_min_order; p <= kmd::pppm_max_order; ++p) {
    const kmd::PppmStencil st = kmd::pppm_stencil(p);
    for (double x : {-3.5, -3.0, -2.9, 0.0, 1.41, 5.0 + 1e-12, 24.9, 25.2, 26.0}) {
      const kmd::PppmGridPoint g = kmd::pppm_grid_point(x, boxlo, delinv, st);
      const double u = (x - boxlo) * delinv;
      INFO("order " << p << ", x " << x);
      CHECK(g.dx > -0.5 - 1e-12);
      CHECK(g.dx <= 0.5 + 1e-12);
      CHECK(std::fabs(g.n + st.shiftone - g.dx - u) <= 1e-12);
      // odd orders: the nearest point; even orders: the point below
      CHECK(g.n ==
            (p % 2 ? static_cast<int>(std::floor(u + 0.5)) : static_cast<int>(std::floor(u))));
    }
  }
  const int five[5] = {0, 1, 2, -2, -1}, six[6] = {0, 1, 2, -3, -2, -1};
  for (int i = 0; i < 5; ++i) CHECK(kmd::pppm_signed_index(i, 5) == five[i]);
  for (int i = 0; i < 6; ++i) CHECK(kmd::pppm_signed_index(i, 6) == six[i]);
  CHECK(kmd::pppm_wave_number(4, 5, 0.5) == -0.5);
}

TEST_CASE("PPPM influence function: the optimal ik influence function of the salt case",
          "[md][kernels][pppm]") {
  // salt_1e-5 of pppm_lmp.csv: 27^3 mesh over a 28.2 A cube, order 5
  const int n[3] = {27, 27, 27};
  const double prd[3] = {28.2, 28.2, 28.2}, g = 0.31200925;
  const int order = 5;
  const kmd::PppmGreensIk gf = kmd::pppm_greens_ik_setup(n, prd, g, order);
  CHECK(gf.nb[0] == static_cast<int>(g * 28.2 / (pi * 27) * std::pow(-std::log(1e-7), 0.25)));
  CHECK(kmd::pppm_greens_ik(gf, 0, 0, 0) == 0.0);

  // the closed-form denominator is the alias sum it stands for
  for (int p = kmd::pppm_min_order; p <= kmd::pppm_max_order; ++p) {
    const kmd::PppmGreensIk gp = kmd::pppm_greens_ik_setup(n, prd, g, p);
    for (double x : {0.1, 0.7, 1.3, 1.5}) {
      double alias = 0.0;
      for (int j = -3000; j <= 3000; ++j) alias += std::pow(std::sin(x) / (x + pi * j), 2 * p);
      const double z = std::sin(x) * std::sin(x);
      // pppm_gf_denom(z, 0, 0) = (S_p(z) S_p(0) S_p(0))^2, S_p(0) = 1
      INFO("order " << p << ", x " << x);
      CHECK(relative_close(std::sqrt(kmd::pppm_gf_denom(gp, z, 0.0, 0.0)), alias, 1e-10));
    }
  }

  // against the direct alias sum, at signed wave numbers (kx, ky, kz); LAMMPS's
  // 4 pi is 12.5663706 (relative 1.2e-9) and its numerator drops the aliases
  // whose Gaussian is below 1e-7 of the largest (here all but m = 0), which
  // matters only where G itself is negligible (the corner (13, 13, 13))
  const double largest = kmd::pppm_greens_ik(gf, 1, 0, 0);
  const int waves[6][3] = {{1, 0, 0},     {0, 3, 0},   {2, -1, 4},
                           {13, 13, -13}, {-7, 5, 11}, {6, 0, -9}};
  for (const auto& per : waves) {
    const int index[3] = {(per[0] + n[0]) % n[0], (per[1] + n[1]) % n[1], (per[2] + n[2]) % n[2]};
    const double mine = kmd::pppm_greens_ik(gf, index[0], index[1], index[2]);
    const double direct = greens_by_aliases(n, prd, g, order, per);
    INFO("k = " << per[0] << " " << per[1] << " " << per[2] << ": " << mine << " vs " << direct);
    CHECK(std::fabs(mine - direct) <= 1e-7 * std::fabs(direct) + 1e-12 * largest);
    // even in k, and symmetric under axis permutations of the cube
    CHECK(kmd::pppm_greens_ik(gf, (n[0] - index[0]) % n[0], index[1], index[2]) == mine);
    CHECK(relative_close(kmd::pppm_greens_ik(gf, index[2], index[0], index[1]), mine, 1e-14));
  }

  // By hand: with only the m = 0 alias in the numerator and the others' share
  // of the denominator below (x / pi)^{2p}, G(k, 0, 0) = 4 pi exp(-k^2 / 4 g^2)
  // / k^2 (x / sin x)^{2p}, x = k h / 2: the Ewald kernel over the squared
  // transform of the assignment function.
  for (int i = 1; i <= 3; ++i) {
    const double k = 2.0 * pi * i / prd[0], x = 0.5 * k * prd[0] / n[0];
    const double ewald = 4.0 * pi * std::exp(-k * k / (4.0 * g * g)) / (k * k);
    INFO("i = " << i);
    CHECK(relative_close(kmd::pppm_greens_ik(gf, i, 0, 0),
                         ewald * std::pow(x / std::sin(x), 2 * order), 1e-8));
  }
}

TEST_CASE("PPPM energy and virial conventions", "[md][kernels][pppm]") {
  const double g = 0.3, volume = 1000.0, qscale = 332.06371;
  CHECK(relative_close(kmd::pppm_self_per_q2(g), kmd::ewald_self_per_q2(g), 1e-15));
  CHECK(relative_close(kmd::pppm_neutralization_energy(2.0, g, volume),
                       -pi * 4.0 / (2.0 * g * g * volume), 1e-15));
  // E = qscale (V sum / 2 - g qsqsum / sqrt(pi) - pi qsum^2 / (2 g^2 V))
  const double e = kmd::pppm_energy(0.25, volume, g, 10.0, 2.0, qscale);
  const double expected =
      qscale * (0.5 * volume * 0.25 - g * 10.0 / std::sqrt(pi) - pi * 4.0 / (2.0 * g * g * volume));
  CHECK(relative_close(e, expected, 1e-14));
  const int n[3] = {2, 3, 5};
  CHECK(kmd::pppm_scaleinv(n) == 1.0 / 30.0);
  CHECK(kmd::pppm_energy_term(2.0, 3.0, 4.0, 0.5) == 25.0);
  CHECK(kmd::pppm_virial(3.0, volume, qscale) == 0.5 * qscale * volume * 3.0);
  // vg = delta_ab - 2 (1 / k^2 + 1 / (4 g^2)) k_a k_b
  double vg[6];
  kmd::pppm_virial_coeff(0.0, 0.0, 0.0, g, vg);
  for (double v : vg) CHECK(v == 0.0);
  kmd::pppm_virial_coeff(0.5, 0.0, 0.0, g, vg);
  const double vterm = -2.0 * (1.0 / 0.25 + 0.25 / (g * g));
  CHECK(relative_close(vg[0], 1.0 + vterm * 0.25, 1e-15));
  CHECK(vg[1] == 1.0);
  CHECK(vg[2] == 1.0);
  CHECK(vg[3] == 0.0);
}

TEST_CASE("PPPM kernels on the device equal the host ones", "[md][kernels][pppm]") {
  const int n[3] = {18, 20, 27};
  const double prd[3] = {28.2, 30.1, 33.3};
  const kmd::PppmGreensIk gf = kmd::pppm_greens_ik_setup(n, prd, 0.28, 5);
  const kmd::PppmAssignmentCoeff c = kmd::pppm_assignment_coeff(5);
  const MeshIndices m{{{0, 0, 0}, {1, 0, 0}, {17, 3, 26}, {9, 10, 13}}};
  const double x = 13.37, boxlo = -0.5, delinv = n[0] / prd[0];
  const DeviceValues v = evaluate_on_device(gf, c, m, x, boxlo, delinv);
  for (int i = 0; i < 4; ++i) {
    const double host = kmd::pppm_greens_ik(gf, m.ijk[i][0], m.ijk[i][1], m.ijk[i][2]);
    CHECK(std::fabs(v.greens[i] - host) <= 1e-13 * std::fabs(host));
  }
  const kmd::PppmGridPoint point = kmd::pppm_grid_point(x, boxlo, delinv, kmd::pppm_stencil(5));
  CHECK(v.n == point.n);
  CHECK(v.dx == point.dx);
  double w[kmd::pppm_max_order];
  kmd::pppm_assignment_weights(c, point.dx, w);
  for (int i = 0; i < 5; ++i) CHECK(std::fabs(v.weights[i] - w[i]) <= 1e-15);
}
