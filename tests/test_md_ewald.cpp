// The Ewald kernels (kernels/md/ewald.hpp) and the LJ kernels against the NIST
// SPC/E reference calculations, configuration 1 (validation/reference/
// nist_spce_config1.csv has the sites, the parameters and the table): every
// energy term within 1e-5 of NIST's six-digit values, at NIST's parameters;
// then the same configuration through `cloudburst run` with PPPM; the
// real-space and slab-correction forces against their energies.
#include "cli_runner.hpp"
#include "kernels/md/ewald.hpp"
#include "kernels/md/lj.hpp"

#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace kmd = cb::kernels::md;

namespace {

struct Site {
  double x[3];
  double q;
  bool oxygen;
};

constexpr double box = 20.0;  // A
constexpr double q_h = 0.42380;

// e^2 / (4 pi eps0 k_B) in K A, from the exact SI constants (CODATA 2018):
// the Coulomb constant when energies are E / k_B in K.
double coulomb_kelvin_angstrom() {
  const double e = 1.602176634e-19, eps0 = 8.8541878128e-12, kb = 1.380649e-23;
  return e * e / (4.0 * cb::math::pi * eps0 * kb) * 1e10;
}

std::vector<Site> nist_configuration() {
  std::ifstream in(std::string(CLOUDBURST_SOURCE_DIR) +
                   "/validation/reference/nist_spce_config1.csv");
  REQUIRE(in);
  std::vector<Site> sites;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.rfind("element", 0) == 0) continue;
    std::stringstream row(line);
    std::string element, value;
    std::getline(row, element, ',');
    Site s{};
    for (double& x : s.x) {
      std::getline(row, value, ',');
      x = std::stod(value);
    }
    s.oxygen = element == "O";
    s.q = s.oxygen ? -2.0 * q_h : q_h;
    sites.push_back(s);
  }
  return sites;
}

// Minimum-image distance.
double distance(const Site& a, const Site& b) {
  double r2 = 0.0;
  for (int d = 0; d < 3; ++d) {
    double dx = a.x[d] - b.x[d];
    dx -= box * std::round(dx / box);
    r2 += dx * dx;
  }
  return std::sqrt(r2);
}

struct Terms {
  double disp = 0, lrc = 0, real = 0, fourier = 0, self = 0, intra = 0;
  double total() const { return disp + lrc + real + fourier + self + intra; }
};

Terms nist_terms(const std::vector<Site>& sites) {
  const double cutoff = 10.0, alpha = 5.6 / box, volume = box * box * box;
  const double qqr2e = coulomb_kelvin_angstrom();
  const kmd::LjParams oo{78.19743111, 3.16555789, cutoff};
  const kmd::LjCoeff lj = kmd::make_lj_coeff(oo.epsilon, oo.sigma, oo.cutoff, false);
  Terms t;
  double n_oxygen = 0;
  for (std::size_t i = 0; i < sites.size(); ++i) {
    n_oxygen += sites[i].oxygen ? 1 : 0;
    t.self += qqr2e * kmd::ewald_self_per_q2(alpha) * sites[i].q * sites[i].q;
    for (std::size_t j = i + 1; j < sites.size(); ++j) {
      const double r = distance(sites[i], sites[j]);
      const double qiqj = sites[i].q * sites[j].q;
      if (i / 3 == j / 3) {  // the same molecule: excluded
        t.intra -= qqr2e * kmd::ewald_excluded_energy(qiqj, r, alpha);
        continue;
      }
      if (r >= cutoff) continue;
      t.real += qqr2e * kmd::ewald_real_energy(qiqj, r, alpha);
      if (sites[i].oxygen && sites[j].oxygen) t.disp += kmd::lj_energy(r * r, lj);
    }
  }
  t.lrc = kmd::lj_tail(n_oxygen, n_oxygen, oo).etail / volume;
  const double k0 = 2.0 * cb::math::pi / box;
  for (int nx = -5; nx <= 5; ++nx) {
    for (int ny = -5; ny <= 5; ++ny) {
      for (int nz = -5; nz <= 5; ++nz) {
        const int n2 = nx * nx + ny * ny + nz * nz;
        if (n2 == 0 || n2 >= 27) continue;
        double re = 0.0, im = 0.0;
        for (const Site& s : sites) {
          const double phase = k0 * (nx * s.x[0] + ny * s.x[1] + nz * s.x[2]);
          re += s.q * std::cos(phase);
          im += s.q * std::sin(phase);
        }
        t.fourier +=
            qqr2e * kmd::ewald_kspace_weight(k0 * k0 * n2, alpha, volume) * (re * re + im * im);
      }
    }
  }
  return t;
}

}  // namespace

TEST_CASE("NIST SPC/E configuration 1: LJ and Ewald energies", "[md][kernels][ewald]") {
  const std::vector<Site> sites = nist_configuration();
  REQUIRE(sites.size() == 300);
  const Terms t = nist_terms(sites);
  // NIST's table (E / k_B in K, six digits): each term within 1e-5 relative.
  const auto agrees = [](double value, double nist) {
    return std::abs(value - nist) <= 1e-5 * std::abs(nist);
  };
  INFO("E_disp " << t.disp << " E_LRC " << t.lrc << " E_real " << t.real << " E_Fourier "
                 << t.fourier << " E_self " << t.self << " E_intra " << t.intra << " E_total "
                 << t.total());
  CHECK(agrees(t.disp, 9.95387e4));
  CHECK(agrees(t.lrc, -8.23715e2));
  CHECK(agrees(t.real, -5.58889e5));
  CHECK(agrees(t.fourier, 6.27009e3));
  CHECK(agrees(t.self, -2.84469e6));
  CHECK(agrees(t.intra, 2.80999e6));
  CHECK(agrees(t.total(), -4.88604e5));
}

TEST_CASE("the Ewald real-space force is minus the derivative of its energy",
          "[md][kernels][ewald]") {
  const double alpha = 0.28, qiqj = -0.36;
  for (double r : {0.9, 2.5, 6.0, 9.5}) {
    const double h = 1e-6 * r;
    const double derivative =
        (kmd::ewald_real_energy(qiqj, r + h, alpha) - kmd::ewald_real_energy(qiqj, r - h, alpha)) /
        (2 * h);
    INFO("r = " << r);
    CHECK(std::abs(kmd::ewald_real_fpair(qiqj, r, alpha) * r + derivative) <=
          1e-8 * std::abs(derivative));
  }
}

namespace {

// Configuration 1 repeated `copies` times along each axis as a LAMMPS data
// file (atom_style full, real units): O type 1, H type 2, two O-H bonds and an
// H-O-H angle per molecule so that special_bonds 0 0 0 excludes the
// intramolecular pairs as NIST does.
std::string nist_data_file(const std::vector<Site>& cell, int copies) {
  std::vector<Site> sites;
  for (int cx = 0; cx < copies; ++cx)
    for (int cy = 0; cy < copies; ++cy)
      for (int cz = 0; cz < copies; ++cz)
        for (Site s : cell) {
          s.x[0] += cx * box, s.x[1] += cy * box, s.x[2] += cz * box;
          sites.push_back(s);
        }
  const double lo = -box / 2, hi = lo + copies * box;
  std::ostringstream data;
  data.precision(17);
  const std::size_t molecules = sites.size() / 3;
  data << "NIST SPC/E configuration 1\n\n"
       << sites.size() << " atoms\n2 atom types\n"
       << 2 * molecules << " bonds\n1 bond types\n"
       << molecules << " angles\n1 angle types\n\n"
       << lo << ' ' << hi << " xlo xhi\n"
       << lo << ' ' << hi << " ylo yhi\n"
       << lo << ' ' << hi << " zlo zhi\n\nMasses\n\n1 15.9994\n2 1.008\n\nAtoms\n\n";
  for (std::size_t i = 0; i < sites.size(); ++i) {
    data << i + 1 << ' ' << i / 3 + 1 << ' ' << (sites[i].oxygen ? 1 : 2) << ' ' << sites[i].q;
    for (double x : sites[i].x) data << ' ' << x;
    data << '\n';
  }
  data << "\nBonds\n\n";
  for (std::size_t m = 0; m < molecules; ++m) {
    data << 2 * m + 1 << " 1 " << 3 * m + 1 << ' ' << 3 * m + 2 << '\n'
         << 2 * m + 2 << " 1 " << 3 * m + 1 << ' ' << 3 * m + 3 << '\n';
  }
  data << "\nAngles\n\n";
  for (std::size_t m = 0; m < molecules; ++m)
    data << m + 1 << " 1 " << 3 * m + 2 << ' ' << 3 * m + 1 << ' ' << 3 * m + 3 << '\n';
  return data.str();
}

}  // namespace

TEST_CASE("NIST SPC/E configuration 1 through the solver with PPPM at 1e-5",
          "[md][validation][pppm]") {
  // `cloudburst run` with lj/cut/coul/long (10 A, tail), in real units
  // (qqr2e = 332.06371 kcal/mol A, the exact constant to 1e-8; energies in K
  // through the exact k_B N_A = 0.0019872043 kcal/mol/K). First Ewald at
  // accuracy 1e-8 against NIST's E_total: within 1e-5 (measured 6.4e-6, most
  // of it LAMMPS's polynomial erfc, 1.5e-7 absolute, in the excluded O-H
  // pairs at 1 A, where the Ewald kernels of the test above use the exact
  // one; Debian lmp on the same data file gives the same pe to 1e-12). Then
  // PPPM at accuracy 1e-5 against that Ewald total, the 20 A box (also the
  // Ewald sum on 2 and 4 ranks, to 1e-12 of the single rank's: sub-boxes
  // 10 A thick, thinner than cutoff + skin, take their ghosts in two hops) and
  // its 2 x 2 x 2 replica, whose energy is 8 times the cell's, on 1, 2 and 4
  // ranks: within 1e-5 relative, the requested accuracy (measured 2.2e-6 for
  // the cell and 7.2e-6 for the replica; lmp's PPPM is off its Ewald by the
  // same 7.2e-6 there).
  const std::vector<Site> sites = nist_configuration();
  const double boltz = 0.0019872042586408316;
  const std::string dir = cb::test::make_temp_dir("cb_md_nist_pppm_");
  std::ostringstream eps;
  eps.precision(17);
  eps << 78.19743111 * boltz;
  cb::test::write_text(dir + "/nist.toml", R"([run]
solver = "md"
case = "data_file"
steps = 0

[md]
units = "real"
atom_style = "full"
data_file = "set on the command line"

[pair]
style = "lj/cut/coul/long"
cutoff = 10.0
tail = true
coeff_1_1 = [)" + eps.str() + R"(, 3.16555789]
coeff_1_2 = [0.0, 1.0]
coeff_2_2 = [0.0, 1.0]

[bonded]
bond_style = "harmonic"
angle_style = "harmonic"
bond_coeff_1 = [0.0, 1.0]
angle_coeff_1 = [0.0, 109.47]

[kspace]
style = "pppm"
accuracy = 1.0e-5
)");
  // Runs `copies`^3 cells on `ranks` with `settings`; the energy in K.
  const auto energy = [&](int copies, int ranks, const std::string& settings) {
    const std::string data = dir + "/nist" + std::to_string(copies) + ".data";
    if (!std::filesystem::exists(data)) cb::test::write_text(data, nist_data_file(sites, copies));
    const std::string out = dir + "/out";
    std::filesystem::remove_all(out);
    const std::string args = "run " + dir + "/nist.toml --set md.data_file=" + data + " " +
                             settings + " --output-dir " + out;
    const cb::test::CliResult r =
        ranks == 1 ? cb::test::run_cloudburst(args) : cb::test::run_cloudburst_mpi(ranks, args);
    INFO(r.output);
    REQUIRE(r.code == 0);
    return cb::test::csv_column(out + "/diagnostics.csv", "pe").at(0) / boltz;
  };
  const std::string exact = "--set kspace.style=ewald --set kspace.accuracy=1e-8";
  const double ewald = energy(1, 1, exact);
  INFO("Ewald " << ewald << " K, NIST -4.88604e5 K");
  CHECK(std::abs(ewald + 4.88604e5) <= 1e-5 * 4.88604e5);
  for (int ranks : {2, 4}) {
    const double split = energy(1, ranks, exact);
    INFO("Ewald on " << ranks << " ranks: " << split << " K");
    CHECK(std::abs(split - ewald) <= 1e-12 * std::abs(ewald));
  }
  for (int copies : {1, 2}) {
    const double reference = ewald * copies * copies * copies;
    for (int ranks : {1, 2, 4}) {
      const double pppm = energy(copies, ranks, "");
      INFO(copies << "^3 cell(s), " << ranks << " rank(s): PPPM " << pppm << " K, Ewald "
                  << reference << " K, relative difference "
                  << (pppm - reference) / std::abs(reference));
      CHECK(std::abs(pppm - reference) <= 1e-5 * std::abs(reference));
    }
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("the slab correction's force is minus the derivative of its energy",
          "[md][kernels][ewald][slab]") {
  // Three charges (net charge 0.5), V and Lz of a 10 x 12 x 8 box extended
  // three times along z: F_z,i = -dE/dz_i by central differences, and the
  // neutral formula 2 pi M^2 / V.
  const double q[3] = {1.0, -0.7, 0.2};
  const double z0[3] = {0.3, 2.1, 5.7};
  const double zprd = 8.0, volume = 10.0 * 12.0 * 8.0 * 3.0;
  auto energy = [&](const double z[3]) {
    double dipole = 0.0, dipole_r2 = 0.0, qsum = 0.0;
    for (int i = 0; i < 3; ++i) {
      dipole += q[i] * z[i];
      dipole_r2 += q[i] * z[i] * z[i];
      qsum += q[i];
    }
    return kmd::slab_energy(dipole, dipole_r2, qsum, zprd, volume);
  };
  double dipole = 0.0, qsum = 0.0;
  for (int i = 0; i < 3; ++i) {
    dipole += q[i] * z0[i];
    qsum += q[i];
  }
  const double h = 1e-5;
  for (int i = 0; i < 3; ++i) {
    double up[3] = {z0[0], z0[1], z0[2]}, down[3] = {z0[0], z0[1], z0[2]};
    up[i] += h;
    down[i] -= h;
    const double numeric = -(energy(up) - energy(down)) / (2.0 * h);
    const double force = kmd::slab_force_factor(volume) * q[i] * (dipole - qsum * z0[i]);
    INFO("atom " << i << ": " << force << " vs " << numeric);
    CHECK(std::abs(force - numeric) <= 1e-8 * std::abs(force));
  }
  CHECK(kmd::slab_energy(1.5, 0.0, 0.0, zprd, volume) == 2.0 * cb::math::pi * 1.5 * 1.5 / volume);
}
