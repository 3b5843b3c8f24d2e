// The clusters, targets and SHAKE kernels together against Debian's LAMMPS:
// fix shake's setup (correct_coordinates) moves every cluster of the data
// file onto its constraints with SHAKE, v = f = 0, so the predicted positions
// are the old ones. Doing the same with find_shake_clusters, shake_targets
// (from the data file's bond r0 and angle theta0) and shake_multipliers
// (LAMMPS's convergence test, tolerance 1e-4, 10 iterations) must give the
// positions lmp dumps at step 0 of `run 0`: in.peptide's fix shake and SPC/E
// water with frozen angles, every atom first displaced by up to 0.05 A per
// axis (the example files are already on their constraints) and the data
// written again (write_lammps_data, full precision) for both programs.
#include "cli_runner.hpp"
#include "io/lammps_data.hpp"

#include <mpi.h>
#include "kernels/md/shake.hpp"
#include "lmp_compare.hpp"
#include "solvers/md/shake_clusters.hpp"

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace kmd = cb::kernels::md;

namespace {

constexpr double pi = 3.14159265358979323846;

struct SetupCase {
  std::string name, data, system, lmp_selection;  // system: peptide or spce
  cb::md::ShakeSelection selection;
};

double minimum_image(double d, double length) {
  return d - length * std::round(d / length);
}

// Our SHAKE of the data file's clusters with x_pred = x_old: the displacement
// of every cluster atom, by id; the largest constraint error after it.
std::map<long, std::array<double, 3>> our_setup(const cb::io::LammpsData& data,
                                                const cb::md::ShakeSelection& selection,
                                                const std::vector<double>& r0,
                                                const std::vector<double>& theta0,
                                                double& worst_error) {
  const cb::md::ShakeAtoms atoms{data.atoms.id, data.atoms.type, data.masses};
  const auto clusters = cb::md::find_shake_clusters(data.atoms.topology, atoms, selection);
  const auto targets = cb::md::shake_targets(clusters, r0, theta0);
  std::map<long, std::size_t> index;
  for (std::size_t a = 0; a < data.atoms.size(); ++a) index[data.atoms.id[a]] = a;
  kmd::ShakeControl control;
  control.test = kmd::ShakeTest::multiplier_change;  // fix shake 0.0001 10
  std::map<long, std::array<double, 3>> moved;
  worst_error = 0.0;
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    const cb::md::ShakeCluster& cluster = clusters[c];
    double x[4][3] = {}, w[4] = {}, g[3], dx[4][3];
    const std::size_t centre = index.at(cluster.atoms[0]);
    for (int a = 0; a < cluster.size(); ++a) {
      const std::size_t i = index.at(cluster.atoms[a]);
      w[a] = 1.0 / data.masses[data.atoms.type[i] - 1];
      for (int d = 0; d < 3; ++d) {
        const double length = data.box.hi[d] - data.box.lo[d];
        x[a][d] = data.atoms.x[3 * centre + d] +
                  minimum_image(data.atoms.x[3 * i + d] - data.atoms.x[3 * centre + d], length);
      }
    }
    const kmd::ShakeResult result =
        kmd::shake_multipliers(cluster.shape, x, x, w, targets[c].data(), control, g);
    CHECK(result.converged);
    kmd::constraint_corrections(cluster.shape, x, w, g, dx);
    const kmd::ClusterConstraints constraints = kmd::cluster_constraints(cluster.shape);
    for (int k = 0; k < constraints.count; ++k) {
      double r2 = 0.0;
      for (int d = 0; d < 3; ++d) {
        const int i = constraints.pair[k][0], j = constraints.pair[k][1];
        const double r = x[i][d] + dx[i][d] - x[j][d] - dx[j][d];
        r2 += r * r;
      }
      worst_error = std::max(worst_error, std::abs(std::sqrt(r2) - targets[c][k]) / targets[c][k]);
    }
    for (int a = 0; a < cluster.size(); ++a)
      moved[cluster.atoms[a]] = {dx[a][0], dx[a][1], dx[a][2]};
  }
  return moved;
}

}  // namespace

TEST_CASE("SHAKE setup of in.peptide and SPC/E water: positions as LAMMPS's") {
  const std::vector<SetupCase> cases = {
      {"in.peptide",
       cb::test::lammps_examples + "peptide/data.peptide",
       "peptide",
       "b 4 6 8 10 12 14 18 a 31",
       {{4, 6, 8, 10, 12, 14, 18}, {31}, {}, {}}},
      {"SPC/E",
       cb::test::lammps_examples + "HEAT/data.spce",
       "spce",
       "b 1 a 1",
       {{1}, {1}, {}, {}}},
  };
  for (const SetupCase& c : cases) {
    INFO(c.name);
    if (!cb::test::lmp_with(c.data)) {
      WARN("skipped: no lmp or no " << c.data);
      continue;
    }
    const std::string dir = cb::test::make_temp_dir("cb_md_shake_setup_");
    const std::string perturbed = dir + "/data.perturbed";
    {
      cb::io::LammpsData original =
          cb::io::read_lammps_data(c.data, {true, true, true}, cb::AtomStyle::full);
      std::mt19937_64 rng(19);
      std::uniform_real_distribution<double> shift(-0.05, 0.05);
      for (double& x : original.atoms.x) x += shift(rng);
      cb::io::write_lammps_data(perturbed, MPI_COMM_WORLD, original.box, original.masses,
                                original.atoms, original.title, original.coeffs);
    }
    const cb::io::LammpsData data =
        cb::io::read_lammps_data(perturbed, {true, true, true}, cb::AtomStyle::full);
    // r0 and theta0: the data file's Coeffs (harmonic bonds, charmm angles),
    // or SPC/E's lmp_spce_setup.
    std::vector<double> r0{1.0}, theta0{109.47 * pi / 180};
    const cb::CoeffRows& bonds = data.coeffs.terms[static_cast<int>(cb::TermKind::bond)];
    const cb::CoeffRows& angles = data.coeffs.terms[static_cast<int>(cb::TermKind::angle)];
    if (!bonds.empty()) {
      r0.clear(), theta0.clear();
      for (const auto& row : bonds.rows) r0.push_back(row.at(1));
      for (const auto& row : angles.rows) theta0.push_back(row.at(1) * pi / 180);
    }
    double worst_error = 0.0;
    const auto ours = our_setup(data, c.selection, r0, theta0, worst_error);
    CHECK(worst_error <= 1e-4);

    const std::string setup = c.system == "peptide" ? cb::test::lmp_peptide_setup(perturbed)
                                                    : cb::test::lmp_spce_setup(perturbed);
    cb::test::write_text(dir + "/in.lmp", setup + "fix s all shake 0.0001 10 0 " + c.lmp_selection +
                                              "\ndump x all custom 1 dump.x id x y z\n"
                                              "dump_modify x format float %.17g\nrun 0\n");
    const cb::test::CliResult r =
        cb::test::run_shell("cd " + dir + " && lmp -in in.lmp -log none -echo none");
    INFO(r.output);
    REQUIRE(r.code == 0);
    const auto lmp = cb::test::dump_by_id(dir + "/dump.x", {"x", "y", "z"});
    REQUIRE(lmp.size() == data.atoms.size());
    double largest_move = 0.0, largest_difference = 0.0;
    for (std::size_t a = 0; a < data.atoms.size(); ++a) {
      const long id = data.atoms.id[a];
      const auto it = ours.find(id);
      for (int d = 0; d < 3; ++d) {
        const double length = data.box.hi[d] - data.box.lo[d];
        const double lmp_move = minimum_image(lmp.at(id)[d] - data.atoms.x[3 * a + d], length);
        const double our_move = it == ours.end() ? 0.0 : it->second[d];
        largest_move = std::max(largest_move, std::abs(lmp_move));
        largest_difference = std::max(largest_difference, std::abs(lmp_move - our_move));
      }
    }
    INFO("largest move " << largest_move << " A, largest difference " << largest_difference
                         << " A, worst relative constraint error " << worst_error);
    CHECK(largest_move > 0.01);  // the setup did move atoms
    CHECK(largest_difference <= 1e-10);
    WARN(c.name << ": largest move " << largest_move << " A, largest difference from lmp "
                << largest_difference << " A, worst relative constraint error " << worst_error);
  }
}
