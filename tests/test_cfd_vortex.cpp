// Order of accuracy of the CFD schemes on Shu's isentropic vortex (docs/solvers/cfd.md §6)
// through the `cloudburst` program: one period on a periodic square, L2 error
// of rho against the initial state (the exact solution is the translation).
// validation/report.md has the same on the case file's [-10, 10]^2 up to 256^2.
//
// Cost: about 160 s of user CPU in all (Release, the shared 2-core
// development machine): MUSCL 50 s, WENO5 27 s, fourth-order WENO5 15 s,
// finite-difference WENO5 70 s.
#include "cfd_cases.hpp"
#include "cli_runner.hpp"
#include "h5_read.hpp"
#include "precision.hpp"

#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

using namespace cb::test;
namespace fs = std::filesystem;

namespace {

// L2 norm of rho(t_end) - rho(0) from the first and last fields files.
double vortex_error(const std::string& out) {
  const auto files = files_in(out + "/fields");
  REQUIRE(files.size() >= 2);
  const auto first = read_field(files.front(), "/rho");
  const auto last = read_field(files.back(), "/rho");
  double sum = 0;
  for (size_t i = 0; i < first.size(); ++i) sum += (last[i] - first[i]) * (last[i] - first[i]);
  return std::sqrt(sum / first.size());
}

double vortex_run(const std::string& dir, const std::string& label, int cells, double half_width,
                  const std::vector<std::string>& scheme,
                  const std::string& stem = "isentropic_vortex") {
  const std::string n = std::to_string(cells), w = std::to_string(half_width);
  std::vector<std::string> sets = {"grid.cells=[" + n + "," + n + ",1]",
                                   "grid.lo=[-" + w + ",-" + w + ",0.0]",
                                   "grid.hi=[" + w + "," + w + ",1.0]",
                                   "run.end_time=" + std::to_string(2 * half_width),
                                   "output.every_time=" + std::to_string(2 * half_width),
                                   "output.fields=[\"rho\"]",
                                   "cfd.integrator=\"ssp_rk3\""};
  sets.insert(sets.end(), scheme.begin(), scheme.end());
  return vortex_error(run_case(dir, label + "_" + n, stem, sets));
}

struct Convergence {
  double coarse, fine, order;  // L2(rho) at n and 2n cells, log2 of their ratio
};

// WENO5 vortex runs at `cells` and 2 `cells` on [-half_width, half_width]^2;
// scheme(n) gives the settings for n cells besides the reconstruction.
template <class Scheme>
Convergence vortex_convergence(const std::string& dir, const std::string& label, int cells,
                               double half_width, const Scheme& scheme) {
  const std::string stem = without_limiter(dir, "isentropic_vortex");
  double error[2];
  for (int level = 0; level < 2; ++level) {
    const int n = cells << level;
    std::vector<std::string> sets = scheme(n);
    sets.push_back("cfd.reconstruction=\"weno5\"");
    error[level] = vortex_run(dir, label, n, half_width, sets, stem);
  }
  return {error[0], error[1], std::log2(error[0] / error[1])};
}

// The same settings on every grid (the case's CFL).
auto fixed_cfl(std::vector<std::string> sets) {
  return [sets](int) { return sets; };
}

}  // namespace

TEST_CASE("isentropic vortex with MUSCL converges at second order", "[cfd][validation][vortex]") {
  // One period (the exact solution is the initial state translated by the
  // domain), L2(rho). MUSCL without limiter: required order 2 +/- 0.2,
  // measured on [-5, 5]^2 (period 10) at 32, 64, 128 cells: the vortex's
  // perturbation there is below 5e-6 at the domain edge, far under the errors
  // measured (>= 1e-3), and the smaller domain costs 8x less than [-10, 10]^2
  // at the same dx (50 s of CPU measured). On [-10, 10]^2 64 -> 128 is still
  // pre-asymptotic (order 1.74; 2.06 from 128 to 256, validation/report.md).
  const std::string dir = make_temp_dir("cb_cfd_vortex_");
  const std::vector<std::string> muscl = {"cfd.reconstruction=\"muscl\"", "cfd.limiter=\"none\""};
  const double e32 = vortex_run(dir, "muscl", 32, 5.0, muscl);
  const double e64 = vortex_run(dir, "muscl", 64, 5.0, muscl);
  const double e128 = vortex_run(dir, "muscl", 128, 5.0, muscl);
  const double order1 = std::log2(e32 / e64), order2 = std::log2(e64 / e128);
  INFO("MUSCL L2(rho): " << e32 << " " << e64 << " " << e128 << ", orders " << order1 << " "
                         << order2);
  CHECK(std::abs(order1 - 2.0) <= 0.2);
  CHECK(std::abs(order2 - 2.0) <= 0.2);
  fs::remove_all(dir);
}

TEST_CASE("isentropic vortex with WENO5 converges at third order or better",
          "[cfd][validation][vortex]") {
  // RK3 at the case's fixed CFL: required order >= 3 on the case file's [-10, 10]^2 from 64
  // to 128 cells (27 s of CPU); asymptotically one Riemann flux per face is
  // second order in 2-D (2.28 from 128 to 256, validation/report.md).
  const std::string dir = make_temp_dir("cb_cfd_vortex_weno_");
  const Convergence c = vortex_convergence(dir, "weno5", 64, 10.0, fixed_cfl({}));
  INFO("WENO5 L2(rho): " << c.coarse << " " << c.fine << ", order " << c.order);
  CHECK(c.order >= 3.0);
  fs::remove_all(dir);
}

TEST_CASE("isentropic vortex with fourth-order WENO5 converges at fourth order",
          "[cfd][validation][vortex]") {
  // [cfd] fourth_order (cell-average initial data, fourth-order average/point
  // conversions) on [-5, 5]^2, one period, RK3 at CFL 0.4. Measured: L2(rho)
  // 3.93e-3, 2.08e-4, 8.83e-6 at 32, 64, 128 cells, orders 4.24 and 4.56
  // (with dt ~ dx^(5/3) the same to three digits: the spatial error dominates);
  // the one-point-flux WENO5 gives 3.25 and 2.18 on these grids. 32 -> 64
  // here (15 s of CPU).
  const std::string dir = make_temp_dir("cb_cfd_vortex_fourth_");
  const Convergence c =
      vortex_convergence(dir, "weno5_fo", 32, 5.0, fixed_cfl({"cfd.fourth_order=true"}));
  INFO("fourth-order WENO5 L2(rho): " << c.coarse << " " << c.fine << ", order " << c.order);
  CHECK(c.order >= 4.0);
  fs::remove_all(dir);
}

TEST_CASE("isentropic vortex with finite-difference WENO5 converges at fifth order",
          "[cfd][validation][vortex]") {
  // [cfd] finite_difference (point values, split fluxes, Jiang & Shu 1996) on
  // [-5, 5]^2, one period, RK3 with dt ~ dx^(5/3): CFL 0.4 (32/n)^(2/3), so
  // that RK3's third-order error falls like dx^5. Measured: L2(rho) 1.35e-2,
  // 1.24e-3, 2.86e-5 at 32, 64, 128 cells, orders 3.44 and 5.44 (the WENO
  // weights reach their linear values as the grid resolves the vortex).
  // 64 -> 128 here (70 s of CPU). With float fields the error at 128 cells
  // (9.8e-5, against 2.9e-5 with double) is float round-off accumulated over
  // the run, not the scheme's: the order shows only with double fields.
  if (!cb::test::double_fields) SKIP("fifth order is below float round-off at 128 cells");
  const std::string dir = make_temp_dir("cb_cfd_vortex_fd_");
  const Convergence c = vortex_convergence(dir, "weno5_fd", 64, 5.0, [](int cells) {
    const double cfl = 0.4 * std::pow(32.0 / cells, 2.0 / 3.0);
    return std::vector<std::string>{"cfd.finite_difference=true",
                                    "time.cfl=" + std::to_string(cfl)};
  });
  INFO("finite-difference WENO5 L2(rho): " << c.coarse << " " << c.fine << ", order " << c.order);
  CHECK(c.order >= 4.5);
  fs::remove_all(dir);
}
