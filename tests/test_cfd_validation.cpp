// Fast validation of the CFD solver (docs/solvers/cfd.md §6) through the `cloudburst` program:
// the case files of cases/cfd run on small grids and compared with exact
// solutions and exact symmetries. The long versions (TGV at 64^3 and 128^3,
// the cavity against Ghia et al.) are validation/cfd/run_validation.py's.
//
// The vortex's orders of accuracy are test_cfd_vortex.cpp's.
//
// Cost: about 30 s of user CPU in all (Release, measured on the shared 2-core
// development machine: Riemann problems 2 s, TGV 22 s, riemann2d + double
// Mach 3 s); each TEST_CASE says why its grid is the one it needs.
#include "cfd_cases.hpp"
#include "cli_runner.hpp"
#include "h5_read.hpp"
#include "precision.hpp"
#include "validation/cfd/exact_riemann.hpp"

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace cb::test;
using cb::validation::ExactRiemann;
using cb::validation::Primitive;
namespace fs = std::filesystem;

namespace {

constexpr double kGamma = 1.4;

// Columns of <out>/diagnostics.csv by header name.
std::map<std::string, std::vector<double>> read_diagnostics(const std::string& out) {
  std::ifstream in(out + "/diagnostics.csv");
  REQUIRE(in.good());
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  std::stringstream header(line);
  for (std::string name; std::getline(header, name, ',');) names.push_back(name);
  std::map<std::string, std::vector<double>> columns;
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string cell;
    for (size_t c = 0; c < names.size() && std::getline(row, cell, ','); ++c) {
      columns[names[c]].push_back(std::stod(cell));
    }
  }
  return columns;
}

// Primitive variables of a checkpoint, flattened [nz][ny][nx].
struct Primitives {
  std::vector<double> rho, u, v, w, p;
};

Primitives read_primitives(const std::string& checkpoint) {
  Primitives q;
  q.rho = read_field(checkpoint, "/fields/rho");
  const auto mx = read_field(checkpoint, "/fields/mom_x");
  const auto my = read_field(checkpoint, "/fields/mom_y");
  const auto mz = read_field(checkpoint, "/fields/mom_z");
  const auto E = read_field(checkpoint, "/fields/energy");
  const size_t n = q.rho.size();
  q.u.resize(n), q.v.resize(n), q.w.resize(n), q.p.resize(n);
  for (size_t i = 0; i < n; ++i) {
    q.u[i] = mx[i] / q.rho[i], q.v[i] = my[i] / q.rho[i], q.w[i] = mz[i] / q.rho[i];
    const double kinetic = 0.5 * (mx[i] * mx[i] + my[i] * my[i] + mz[i] * mz[i]) / q.rho[i];
    q.p[i] = (kGamma - 1.0) * (E[i] - kinetic);
  }
  return q;
}

// ---- 1-D Riemann problems on [0, 1], interface at 0.5 (Toro's conventions) ----

struct RiemannProblem {
  const char* stem;  // case file
  Primitive left, right;
  double end_time;
  // Scale for the 1% test of u* where it is zero: toro123 has u* = 0 (scale
  // |u_L| = 2).
  double velocity_scale;
  // toro123's p* = 0.0019 is 0.5% of its data's pressure: every shock-capturing
  // scheme smears the near-vacuum over the plateau (Einfeldt et al. 1991), and
  // at 400 cells the plateau pressure is 76% above p* (report). Not within 1%:
  // for it the test holds only that the plateau pressure error falls from 200
  // to 400 cells.
  bool star_pressure_within_1_percent;
};

// Toro (2009) Table 4.1 tests 1-3 and Lax (1954), with their usual end times.
const RiemannProblem sod{"sod_x", {1, 0, 1}, {0.125, 0, 0.1}, 0.2, 0, true};
const RiemannProblem lax{"lax", {0.445, 0.698, 3.528}, {0.5, 0, 0.571}, 0.14, 0, true};
const RiemannProblem toro123{"toro123", {1, -2, 0.4}, {1, 2, 0.4}, 0.15, 2.0, false};
const RiemannProblem blast{"blast", {1, 0, 1000}, {1, 0, 0.01}, 0.012, 0, true};

struct Profile {  // cell-centre values along the problem's axis
  std::vector<double> x, rho, u, p;
  double dx = 0;
};

// Runs `problem` with `cells` cells along `axis` (MUSCL + HLLC + SSP-RK3, the
// case defaults; `stem` overrides the case file, e.g. sod_y) and returns the
// final profile; every step's min rho and min p must be positive (required:
// "no negative density or pressure ever").
Profile run_riemann(const std::string& dir, const RiemannProblem& problem, int cells,
                    char axis = 'x', const std::string& stem = "") {
  const std::string n = std::to_string(cells);
  const std::string grid = axis == 'x'   ? "[" + n + ",1,1]"
                           : axis == 'y' ? "[1," + n + ",1]"
                                         : "[1,1," + n + "]";
  const std::string file = stem.empty() ? std::string(problem.stem) : stem;
  const std::string label = file + "_" + n + axis;
  const std::string out =
      run_case(dir, label, file,
               {"grid.cells=" + grid, "run.end_time=" + std::to_string(problem.end_time),
                "diagnostics.every_steps=1"});
  const auto diagnostics = read_diagnostics(out);
  INFO(label);
  REQUIRE(diagnostics.count("min_rho") == 1);
  CHECK(*std::min_element(diagnostics.at("min_rho").begin(), diagnostics.at("min_rho").end()) > 0);
  CHECK(*std::min_element(diagnostics.at("min_p").begin(), diagnostics.at("min_p").end()) > 0);
  const Primitives q = read_primitives(last_checkpoint(out));
  REQUIRE(q.rho.size() == static_cast<size_t>(cells));
  const auto& along = axis == 'x' ? q.u : axis == 'y' ? q.v : q.w;
  Profile profile{{}, q.rho, along, q.p, 1.0 / cells};
  for (int i = 0; i < cells; ++i) profile.x.push_back((i + 0.5) * profile.dx);
  return profile;
}

double l1_density_error(const Profile& f, const ExactRiemann& exact, double t) {
  double sum = 0;
  for (size_t i = 0; i < f.x.size(); ++i) sum += std::abs(f.rho[i] - exact.at(f.x[i], t).rho);
  return sum * f.dx;
}

// Mean p and u over the cells whose exact state, and that of their `margin`
// neighbours on either side, is the star state: the plateau between the left
// wave and the right wave, away from the smeared wave fronts.
struct Plateau {
  double p = 0, u = 0;
  int cells = 0;
};

Plateau plateau(const Profile& f, const ExactRiemann& exact, double t, int margin) {
  const auto in_star = [&](long i) {
    if (i < 0 || i >= static_cast<long>(f.x.size())) return false;
    const Primitive w = exact.at(f.x[i], t);
    return w.p == exact.star().p && w.u == exact.star().u;
  };
  Plateau m;
  for (long i = 0; i < static_cast<long>(f.x.size()); ++i) {
    bool inside = true;
    for (long k = -margin; k <= margin && inside; ++k) inside = in_star(i + k);
    if (!inside) continue;
    m.p += f.p[i], m.u += f.u[i], ++m.cells;
  }
  if (m.cells > 0) m.p /= m.cells, m.u /= m.cells;
  return m;
}

// The right-most place where rho crosses halfway between the shocked and the
// unshocked density, interpolated between cell centres.
double shock_position(const Profile& f, double rho_behind, double rho_ahead) {
  const double half = 0.5 * (rho_behind + rho_ahead);
  for (size_t i = f.x.size() - 1; i > 0; --i) {
    if ((f.rho[i - 1] - half) * (f.rho[i] - half) <= 0 && f.rho[i - 1] != f.rho[i]) {
      return f.x[i - 1] + f.dx * (f.rho[i - 1] - half) / (f.rho[i - 1] - f.rho[i]);
    }
  }
  return -1;
}

// Required: at 400 cells with MUSCL + HLLC the plateau p and u within 1% of the
// exact star values, the shock within 2 cells; L1(rho) falls from 100 to 200
// to 400 cells; min rho and min p positive at every step.
void check_riemann_problem(const std::string& dir, const RiemannProblem& problem) {
  const ExactRiemann exact(problem.left, problem.right, kGamma, 0.5);
  const double t = problem.end_time;
  const auto star = exact.star();
  std::vector<double> l1, plateau_p_error;
  Profile fine;
  Plateau m;
  for (int cells : {100, 200, 400}) {
    fine = run_riemann(dir, problem, cells);
    l1.push_back(l1_density_error(fine, exact, t));
    m = plateau(fine, exact, t, 4);
    plateau_p_error.push_back(std::abs(m.p - star.p));
  }
  INFO(problem.stem << ": L1(rho) at 100, 200, 400 cells: " << l1[0] << " " << l1[1] << " "
                    << l1[2]);
  CHECK(l1[1] < l1[0]);
  CHECK(l1[2] < l1[1]);
  INFO("plateau of " << m.cells << " cells: p " << m.p << " (exact " << star.p << "), u " << m.u
                     << " (exact " << star.u << ")");
  REQUIRE(m.cells >= 8);
  if (problem.star_pressure_within_1_percent) {
    CHECK(std::abs(m.p - star.p) <= 0.01 * star.p);
  } else {
    CHECK(plateau_p_error[2] < plateau_p_error[1]);
  }
  CHECK(std::abs(m.u - star.u) <= 0.01 * std::max(std::abs(star.u), problem.velocity_scale));
  if (star.p > problem.right.p) {
    const double exact_shock = exact.right_shock_position(t);
    const double shock = shock_position(fine, star.rho_right, problem.right.rho);
    INFO("shock at " << shock << ", exact " << exact_shock << ", dx " << fine.dx);
    CHECK(std::abs(shock - exact_shock) <= 2 * fine.dx);
  }
}

}  // namespace

TEST_CASE("Sod's shock tube matches the exact solution", "[cfd][validation][riemann]") {
  // 3 runs of 100-400 cells, about 1 s in all.
  const std::string dir = make_temp_dir("cb_cfd_sod_");
  check_riemann_problem(dir, sod);
  fs::remove_all(dir);
}

TEST_CASE("Lax's shock tube matches the exact solution", "[cfd][validation][riemann]") {
  const std::string dir = make_temp_dir("cb_cfd_lax_");
  check_riemann_problem(dir, lax);
  fs::remove_all(dir);
}

TEST_CASE("Toro's 123 problem matches the exact solution with positive rho and p",
          "[cfd][validation][riemann]") {
  const std::string dir = make_temp_dir("cb_cfd_123_");
  check_riemann_problem(dir, toro123);
  fs::remove_all(dir);
}

TEST_CASE("Toro's blast wave (test 3) matches the exact solution with positive rho and p",
          "[cfd][validation][riemann]") {
  const std::string dir = make_temp_dir("cb_cfd_blast_");
  check_riemann_problem(dir, blast);
  fs::remove_all(dir);
}

TEST_CASE("Sod along y and along z gives the profile it gives along x",
          "[cfd][validation][riemann]") {
  // The scheme is the same in every direction, so the profiles agree to
  // round-off (no accumulation: 1-D, 200 cells).
  const std::string dir = make_temp_dir("cb_cfd_sod_axes_");
  const Profile x = run_riemann(dir, sod, 200, 'x');
  for (char axis : {'y', 'z'}) {
    const Profile other = run_riemann(dir, sod, 200, axis, std::string("sod_") + axis);
    double worst = 0;
    for (size_t i = 0; i < x.x.size(); ++i) {
      worst = std::max({worst, std::abs(other.rho[i] - x.rho[i]), std::abs(other.u[i] - x.u[i]),
                        std::abs(other.p[i] - x.p[i])});
    }
    INFO("sod along " << axis << ": largest difference from x " << worst);
    CHECK(worst <= 1e-13);
  }
  fs::remove_all(dir);
}

TEST_CASE("riemann2d is symmetric under x <-> y with u <-> v", "[cfd][validation][riemann2d]") {
  // Lax-Liu configuration 3 is symmetric about the diagonal; a scheme that
  // treats x and y alike keeps it to round-off. 64^2 to t = 0.3 (about 1 s).
  const std::string dir = make_temp_dir("cb_cfd_riemann2d_");
  const std::string out = run_case(dir, "r2d", "riemann2d", {"grid.cells=[64,64,1]"});
  const std::string file = last_checkpoint(out);
  const auto rho = read_field(file, "/fields/rho"), E = read_field(file, "/fields/energy");
  const auto mx = read_field(file, "/fields/mom_x"), my = read_field(file, "/fields/mom_y");
  const int n = 64;
  double worst = 0, scale = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const int a = j * n + i, b = i * n + j;
      worst = std::max(
          {worst, std::abs(rho[a] - rho[b]), std::abs(E[a] - E[b]), std::abs(mx[a] - my[b])});
      scale = std::max({scale, std::abs(rho[a]), std::abs(E[a]), std::abs(mx[a])});
    }
  }
  INFO("largest asymmetry " << worst << " of fields up to " << scale);
  CHECK(worst <= 1e-12 * scale);
  fs::remove_all(dir);
}

namespace {

// x where the top cell row's density crosses halfway between the pre-shock
// (1.4) and post-shock (8) values, scanning from the right.
double top_row_shock(const std::string& checkpoint, int nx, int ny, double dx) {
  const auto rho = read_field(checkpoint, "/fields/rho");
  const double half = 0.5 * (1.4 + 8.0);
  const double* row = rho.data() + static_cast<size_t>(ny - 1) * nx;
  for (int i = nx - 1; i > 0; --i) {
    if ((row[i - 1] - half) * (row[i] - half) <= 0 && row[i - 1] != row[i]) {
      return (i - 0.5) * dx + dx * (row[i - 1] - half) / (row[i - 1] - row[i]);
    }
  }
  return -1;
}

}  // namespace

TEST_CASE("double Mach reflection stays positive and its shock follows the exact path",
          "[cfd][validation][double_mach]") {
  // Woodward & Colella (1984) on [0, 4] x [0, 1] at 120 x 30 cells (dx = 1/30)
  // to t = 0.2 on 1 and 4 ranks (about 2 + 4 s): min rho and min p positive
  // at every diagnostics step; on the top cell row (centre y = 1 - dy/2) the
  // incident shock within 3 cells of x_s = 1/6 + (y + 20 t)/sqrt(3).
  const std::string dir = make_temp_dir("cb_cfd_dmr_");
  const int nx = 120, ny = 30;
  const double dx = 4.0 / nx, t = 0.2;
  const double exact = 1.0 / 6.0 + (1.0 - 0.5 / ny + 20.0 * t) / std::sqrt(3.0);
  for (int ranks : {1, 4}) {
    const std::string out =
        run_case(dir, "dmr_np" + std::to_string(ranks), "double_mach",
                 {"grid.cells=[120,30,1]", "run.end_time=0.2", "diagnostics.every_steps=5"}, ranks);
    const auto d = read_diagnostics(out);
    CHECK(*std::min_element(d.at("min_rho").begin(), d.at("min_rho").end()) > 0);
    CHECK(*std::min_element(d.at("min_p").begin(), d.at("min_p").end()) > 0);
    const double shock = top_row_shock(last_checkpoint(out), nx, ny, dx);
    INFO(ranks << " ranks: shock on the top row at " << shock << ", exact " << exact);
    CHECK(std::abs(shock - exact) <= 3 * dx);
  }
  fs::remove_all(dir);
}

namespace {

// (t, Ek) rows of validation/reference/tgv_re1600_spectral_512_sampled.csv.
std::vector<std::pair<double, double>> tgv_reference() {
  std::ifstream in(std::string(CLOUDBURST_SOURCE_DIR) +
                   "/validation/reference/tgv_re1600_spectral_512_sampled.csv");
  REQUIRE(in.good());
  std::vector<std::pair<double, double>> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line[0] == 't') continue;
    std::stringstream row(line);
    std::string t, ek;
    std::getline(row, t, ',');
    std::getline(row, ek, ',');
    rows.emplace_back(std::stod(t), std::stod(ek));
  }
  return rows;
}

double interpolate(const std::vector<double>& x, const std::vector<double>& y, double at) {
  const size_t i = std::upper_bound(x.begin(), x.end(), at) - x.begin();
  REQUIRE(i > 0);
  REQUIRE(i < x.size());
  return y[i - 1] + (y[i] - y[i - 1]) * (at - x[i - 1]) / (x[i] - x[i - 1]);
}

}  // namespace

TEST_CASE("Taylor-Green vortex at 32^3 follows the DNS kinetic energy early on",
          "[cfd][validation][tgv]") {
  // The case file (MUSCL, HLLC with its low-Mach correction, Re 1600, Mach
  // 0.1) on 32^3 to t = 1 (about 400 steps, 20-60 s here): Ek against the
  // 512^3 DNS of van Rees et al. (2011) at the reference table's times, within
  // 2%, the required tolerance for 64^3 over t <= 4, here on a grid twice as
  // coarse over a quarter of that time. By t = 1 the DNS has lost 0.4% of
  // Ek, so a scheme dissipating five times too much fails; the plain HLLC
  // (low_mach = false) at 64^3 lost 1.5% by t = 1.5 in our runs. Mass and
  // total energy are conserved to round-off (periodic box).
  const std::string dir = make_temp_dir("cb_cfd_tgv_");
  const std::string out = run_case(dir, "tgv32", "taylor_green",
                                   {"grid.cells=[32,32,32]", "run.end_time=1.0",
                                    "diagnostics.every_steps=5", "output.every_time=1.0"});
  const auto d = read_diagnostics(out);
  const auto& t = d.at("time");
  const auto& ek = d.at("kinetic_energy");
  for (const auto& [time, reference] : tgv_reference()) {
    if (time > 1.0 || time <= 0.0) continue;
    const double ours = interpolate(t, ek, time - 1e-12);
    INFO("t = " << time << ": Ek " << ours << ", DNS " << reference);
    CHECK(std::abs(ours - reference) <= 0.02 * reference);
  }
  // Ek falls between samples by more than the round-off of its sum (with
  // float fields early steps change it by less: 1.5e-8 relative was seen).
  for (size_t i = 1; i < ek.size(); ++i) CHECK(ek[i] < ek[i - 1] * (1.0 + round_off(1e-15)));
  const auto& mass = d.at("mass");
  const auto& energy = d.at("energy");
  CHECK(std::abs(mass.back() - mass.front()) <= round_off(1e-13) * mass.front());
  CHECK(std::abs(energy.back() - energy.front()) <= round_off(1e-13) * energy.front());
  fs::remove_all(dir);
}
