#include "solvers/md/constraints.hpp"

#include "core/error.hpp"
#include "core/mpi_gather.hpp"
#include "kernels/md/vec3.hpp"
#include "solvers/md/bonded_force.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

constexpr double pi = 3.14159265358979323846;

std::pair<std::int64_t, std::int64_t> ordered(std::int64_t a, std::int64_t b) {
  return {std::min(a, b), std::max(a, b)};
}

// LAMMPS fix shake's bondtype_findset / angletype_findset with -1: the
// constrained bonds (central - partner) and frozen angles (by their end
// atoms) get negative types.
void negate_constrained_terms(const std::vector<ShakeCluster>& clusters, Topology& all) {
  std::set<std::pair<std::int64_t, std::int64_t>> bonds, angle_ends;
  for (const ShakeCluster& c : clusters) {
    for (int a = 1; a < c.size(); ++a) bonds.insert(ordered(c.atoms[0], c.atoms[a]));
    if (c.shape == kmd::ClusterShape::angle3) angle_ends.insert(ordered(c.atoms[1], c.atoms[2]));
  }
  TermList& bond = all.of(TermKind::bond);
  for (std::size_t t = 0; t < bond.size(); ++t) {
    if (bonds.count(ordered(bond.atoms[2 * t], bond.atoms[2 * t + 1])) && bond.type[t] > 0)
      bond.type[t] = -bond.type[t];
  }
  TermList& angle = all.of(TermKind::angle);
  for (std::size_t t = 0; t < angle.size(); ++t) {
    if (angle_ends.count(ordered(angle.atoms[3 * t], angle.atoms[3 * t + 2])) && angle.type[t] > 0)
      angle.type[t] = -angle.type[t];
  }
}

// SETTLE solves rigid waters only: every cluster of 3 atoms with its angle
// frozen, its two bonds of one length and its two outer atoms of one mass.
void check_rigid_waters(const std::vector<ShakeCluster>& clusters,
                        const std::vector<std::array<double, 3>>& targets,
                        const ShakeAtoms& atoms) {
  std::map<std::int64_t, double> mass_of;
  for (std::size_t a = 0; a < atoms.id.size(); ++a)
    mass_of[atoms.id[a]] = atoms.type_masses.at(atoms.type[a] - 1);
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    const ShakeCluster& cluster = clusters[c];
    std::string ids;
    for (int a = 0; a < cluster.size(); ++a)
      ids += (a ? " " : "") + std::to_string(cluster.atoms[a]);
    const std::string start =
        "[constraints] style = \"settle\" is for rigid water only: the cluster of atoms " + ids;
    if (cluster.shape != kmd::ClusterShape::angle3) {
      throw InputError(start +
                       " is not 3 atoms with their angle frozen (list the angle's type in "
                       "[constraints] angle_types, or use style = \"shake\")");
    }
    if (targets[c][0] != targets[c][1] || mass_of[cluster.atoms[1]] != mass_of[cluster.atoms[2]]) {
      throw InputError(start + " has bond lengths " + std::to_string(targets[c][0]) + " and " +
                       std::to_string(targets[c][1]) + " and outer masses " +
                       std::to_string(mass_of[cluster.atoms[1]]) + " and " +
                       std::to_string(mass_of[cluster.atoms[2]]) +
                       "; SETTLE needs them equal (use style = \"shake\")");
    }
  }
}

}  // namespace

Constraints::Constraints(const Params& params)
    : on_(params.constraints.style != ConstraintStyle::none),
      settle_(params.constraints.style == ConstraintStyle::settle),
      rattle_(params.constraints.style == ConstraintStyle::rattle),
      selection_(params.constraints.selection),
      type_masses_(params.masses) {
  control_.tolerance = params.constraints.tolerance;
  control_.max_iterations = params.constraints.max_iterations;
  control_.test = kmd::ShakeTest::multiplier_change;  // LAMMPS's test
  set_box(params.box);
  for (int kind = 0; kind < term_kinds; ++kind) term_types_[kind] = params.molecule.types[kind];
  if (!on_) return;
  for (const auto& row : params.molecule.coeffs[static_cast<int>(TermKind::bond)])
    bond_r0_.push_back(row.at(1));
  for (const auto& row : params.molecule.coeffs[static_cast<int>(TermKind::angle)])
    angle_theta0_.push_back(row.at(1) * pi / 180.0);
  x_shake_ = Vec3View("md::x_shake", 0);
  failed_ = IntView("md::shake_failed", 0);
}

std::vector<std::int64_t> Constraints::assign(Topology& all, const HostParticles& given,
                                              MPI_Comm comm) {
  comm_ = comm;
  // The type counts of the case (a rank that read no atoms has none).
  for (int kind = 0; kind < term_kinds; ++kind) all.types[kind] = term_types_[kind];
  ShakeAtoms atoms;
  atoms.id = allgather(given.id, MPI_INT64_T, comm);
  atoms.type = allgather(given.type, MPI_INT, comm);
  atoms.type_masses = type_masses_;
  const std::vector<ShakeCluster> clusters = find_shake_clusters(all, atoms, selection_);
  const auto targets = shake_targets(clusters, bond_r0_, angle_theta0_);
  if (settle_) check_rigid_waters(clusters, targets, atoms);
  count_ = constraint_count(clusters);
  negate_constrained_terms(clusters, all);

  auto bond_length = Kokkos::View<double*, Kokkos::HostSpace>("md::shake_r0", bond_r0_.size() + 1);
  auto angle_length =
      Kokkos::View<double*, Kokkos::HostSpace>("md::shake_angle", angle_theta0_.size() + 1);
  for (std::size_t t = 0; t < bond_r0_.size(); ++t) bond_length(t + 1) = bond_r0_[t];
  std::map<std::int64_t, std::size_t> cluster_of;
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    for (int a = 0; a < clusters[c].size(); ++a) cluster_of[clusters[c].atoms[a]] = c;
    if (clusters[c].shape == kmd::ClusterShape::angle3)
      angle_length(clusters[c].angle_type) = targets[c][2];
  }
  bond_length_ = Kokkos::create_mirror_view_and_copy(MemSpace(), bond_length);
  angle_length_ = Kokkos::create_mirror_view_and_copy(MemSpace(), angle_length);

  std::vector<std::int64_t> rows(given.size() * cluster_row_width, 0);
  for (std::size_t a = 0; a < given.size(); ++a) {
    const auto found = cluster_of.find(given.id[a]);
    if (found == cluster_of.end()) continue;
    const ShakeCluster& c = clusters[found->second];
    std::int64_t* row = &rows[a * cluster_row_width];
    row[0] = static_cast<std::int64_t>(c.shape);
    for (int k = 0; k < c.size(); ++k) row[1 + k] = c.atoms[k];
    const int bonds = c.size() - 1;
    for (int k = 0; k < bonds; ++k) row[5 + k] = c.bond_types[k];
    if (c.shape == kmd::ClusterShape::angle3) row[7] = -c.angle_type;
  }
  std::int64_t max_id = 0;
  for (std::int64_t id : atoms.id) max_id = std::max(max_id, id);
  copies_.first = IntView("md::shake_first_copy", max_id + 1);
  return rows;
}

void Constraints::set_box(const ParticleBox& box) {
  for (int d = 0; d < 3; ++d) {
    length_[d] = box.hi[d] - box.lo[d];
    periodic_[d] = box.periodic[d];
  }
}

void Constraints::atoms_rebuilt(const Atoms& atoms) {
  if (!on_) return;
  map_id_copies(atoms, copies_);
  const auto map = copies_.first;
  const auto cluster = atoms.cluster;
  std::int64_t missing = 0;
  Kokkos::parallel_reduce(
      "md::shake_partners", Policy(0, atoms.nlocal),
      KOKKOS_LAMBDA(int i, std::int64_t& worst) {
        for (int a = 0; a < 4; ++a) {
          const std::int64_t partner = cluster(i, 1 + a);
          if (partner > 0 && map(partner) < 0 && partner > worst) worst = partner;
        }
      },
      Kokkos::Max<std::int64_t>(missing));
  if (missing > 0)
    throw RunError("md: atom " + std::to_string(missing) +
                   ", in a SHAKE cluster, is neither owned nor a ghost on this rank");
}

void Constraints::reserve(const Atoms& atoms) {
  if (static_cast<int>(x_shake_.extent(0)) < atoms.capacity()) {
    x_shake_ = Vec3View("md::x_shake", atoms.capacity());
    failed_ = IntView("md::shake_failed", atoms.capacity());
  }
}

ClusterEval Constraints::evaluator(const Atoms& atoms, const TypeMasses* masses) const {
  ClusterEval eval;
  eval.cluster = atoms.cluster;
  eval.id = atoms.id;
  eval.type = atoms.type;
  eval.x = atoms.x;
  eval.copies = copies_;
  if (masses) eval.inv_mass = masses->inv_mass;
  eval.bond_length = bond_length_;
  eval.angle_length = angle_length_;
  for (int d = 0; d < 3; ++d) {
    eval.length[d] = length_[d];
    eval.periodic[d] = periodic_[d];
  }
  eval.control = control_;
  eval.settle = settle_;
  return eval;
}

void Constraints::solve_owned(Atoms& atoms, const TypeMasses& masses, bool correct, double scale,
                              long step) {
  const ClusterEval eval = evaluator(atoms, &masses);
  const Vec3View predicted = correct ? atoms.x : x_shake_;
  const auto out = correct ? x_shake_ : atoms.f_constraint;
  const auto failed = failed_;
  const Sums<1> sums = sums_.sum<1>(
      "md::shake_solve", atoms.nlocal, KOKKOS_LAMBDA(int i, double* acc) {
        double own[3] = {0.0, 0.0, 0.0};
        const bool ok = eval.cluster(i, 0) == 0 || eval.solve(i, predicted, correct, scale, own);
        for (int d = 0; d < 3; ++d) out(i, d) = own[d];
        failed(i) = ok ? 0 : 1;
        acc[0] += ok ? 0.0 : 1.0;
      });
  check_converged(atoms, sums[0], step, Stage::positions);
}

void Constraints::check_converged(const Atoms& atoms, double failed_here, long step,
                                  Stage stage) const {
  double failed_anywhere = 0.0;
  MPI_Allreduce(&failed_here, &failed_anywhere, 1, MPI_DOUBLE, MPI_SUM, comm_);
  if (failed_anywhere == 0.0) return;
  // The failed cluster with the smallest central id, over all ranks.
  constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();
  std::int64_t ids[4] = {none, none, none, none};
  const int n = atoms.nlocal;
  const auto failed = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(failed_, std::make_pair(0, n)));
  const auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms.cluster);
  for (int i = 0; i < n; ++i) {
    if (failed(i) == 0 || rows(i, 1) >= ids[0]) continue;
    for (int a = 0; a < 4; ++a) ids[a] = rows(i, 1 + a) > 0 ? rows(i, 1 + a) : none;
  }
  std::int64_t first = none;
  MPI_Allreduce(&ids[0], &first, 1, MPI_INT64_T, MPI_MIN, comm_);
  if (ids[0] != first) std::fill(ids, ids + 4, none);
  std::int64_t all[4];
  MPI_Allreduce(ids, all, 4, MPI_INT64_T, MPI_MIN, comm_);
  std::string atoms_text;
  for (std::int64_t id : all)
    if (id != none) atoms_text += (atoms_text.empty() ? "" : " ") + std::to_string(id);
  const std::string failures =
      " (" + std::to_string(std::lround(failed_anywhere)) + " atoms' clusters failed)";
  if (stage == Stage::velocities) {
    throw RunError("md: step " + std::to_string(step) +
                   ": RATTLE's velocity equations are singular for the cluster of atoms " +
                   atoms_text + failures + " (coinciding or collinear atoms); lower [time] dt");
  }
  if (settle_) {
    throw RunError("md: step " + std::to_string(step) +
                   ": SETTLE found no rigid water reaching the predicted positions of the "
                   "cluster of atoms " +
                   atoms_text + failures + "; lower [time] dt");
  }
  throw RunError("md: step " + std::to_string(step) + ": SHAKE did not converge within " +
                 std::to_string(control_.max_iterations) + " iterations (tolerance " +
                 std::to_string(control_.tolerance) + ") for the cluster of atoms " + atoms_text +
                 failures + "; lower [time] dt or raise [constraints] max_iterations");
}

void Constraints::correct_positions(Atoms& atoms, const TypeMasses& masses, AtomComm& comm,
                                    long step) {
  if (!on_) return;
  reserve(atoms);
  solve_owned(atoms, masses, true, 1.0, step);
  const auto x = atoms.x;
  const auto dx = x_shake_;
  Kokkos::parallel_for(
      "md::shake_correct", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        for (int d = 0; d < 3; ++d) x(i, d) += dx(i, d);
      });
  comm.forward(atoms);
}

void Constraints::setup(Atoms& atoms, const TypeMasses& masses, AtomComm& comm, double dt,
                        double ftm2v, long step) {
  if (!on_) return;
  correct_positions(atoms, masses, comm, step);
  if (rattle_) correct_velocities(atoms, masses, comm, 0.0, step);
  add_forces(atoms, masses, comm, dt, ftm2v, step, true);
}

void Constraints::post_force(Atoms& atoms, const TypeMasses& masses, AtomComm& comm, double dt,
                             double ftm2v, long step) {
  if (!on_) return;
  if (rattle_) {
    correct_velocities(atoms, masses, comm, 0.5 * dt * ftm2v, step);
  } else {
    add_forces(atoms, masses, comm, dt, ftm2v, step, false);
  }
}

void Constraints::end_of_step(Atoms& atoms, const TypeMasses& masses, AtomComm& comm, double dt,
                              double ftm2v, long step) {
  if (rattle_) add_forces(atoms, masses, comm, dt, ftm2v, step, true);
}

void Constraints::add_forces(Atoms& atoms, const TypeMasses& masses, AtomComm& comm, double dt,
                             double ftm2v, long step, bool full_step) {
  if (!on_) return;
  reserve(atoms);
  const double dtfsq = (full_step ? 0.5 : 1.0) * dt * dt * ftm2v;
  const auto x = atoms.x, v = atoms.v, f = atoms.f, predicted = x_shake_;
  const auto type = atoms.type;
  const auto inv_mass = masses.inv_mass;
  Kokkos::parallel_for(
      "md::shake_predict", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        const double dtfm = dtfsq * inv_mass(type(i));
        for (int d = 0; d < 3; ++d) predicted(i, d) = x(i, d) + dt * v(i, d) + dtfm * f(i, d);
      });
  comm.forward(x_shake_, true);  // the ghosts' predictions, shifted as positions are
  solve_owned(atoms, masses, false, 1.0 / dtfsq, step);
  add_stored_forces(atoms);
}

void Constraints::correct_velocities(Atoms& atoms, const TypeMasses& masses, AtomComm& comm,
                                     double kick, long step) {
  reserve(atoms);
  const auto v = atoms.v, f = atoms.f, unconstrained = x_shake_;
  const auto type = atoms.type;
  const auto inv_mass = masses.inv_mass;
  Kokkos::parallel_for(
      "md::rattle_predict", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        const double kick_m = kick * inv_mass(type(i));
        for (int d = 0; d < 3; ++d) unconstrained(i, d) = v(i, d) + kick_m * f(i, d);
      });
  comm.forward(x_shake_, false);
  const ClusterEval eval = evaluator(atoms, &masses);
  const auto failed = failed_;
  const Sums<1> sums = sums_.sum<1>(
      "md::rattle_solve", atoms.nlocal, KOKKOS_LAMBDA(int i, double* acc) {
        failed(i) = 0;
        if (eval.cluster(i, 0) == 0) return;
        double dv[3];
        const bool ok = eval.rattle(i, unconstrained, dv);
        for (int d = 0; d < 3; ++d) v(i, d) += dv[d];
        failed(i) = ok ? 0 : 1;
        acc[0] += ok ? 0.0 : 1.0;
      });
  check_converged(atoms, sums[0], step, Stage::velocities);
}

void Constraints::add_stored_forces(const Atoms& atoms) const {
  if (!on_) return;
  const auto f = atoms.f, fc = atoms.f_constraint;
  Kokkos::parallel_for(
      "md::shake_add_forces", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        for (int d = 0; d < 3; ++d) f(i, d) += fc(i, d);
      });
}

// Each cluster once, by its central atom's owner; Max is exact, so every rank
// count gives the same number.
double Constraints::max_deviation(const Atoms& atoms) const {
  if (!on_) return 0.0;
  const ClusterEval eval = evaluator(atoms, nullptr);
  double here = 0.0;
  Kokkos::parallel_reduce(
      "md::constraint_deviation", Policy(0, atoms.nlocal),
      KOKKOS_LAMBDA(int i, double& worst) {
        if (eval.cluster(i, 0) == 0 || eval.cluster(i, 1) != eval.id(i)) return;
        const double deviation = eval.deviation(i);
        if (deviation > worst) worst = deviation;
      },
      Kokkos::Max<double>(here));
  double everywhere = 0.0;
  MPI_Allreduce(&here, &everywhere, 1, MPI_DOUBLE, MPI_MAX, comm_);
  return everywhere;
}

// sum_a (x_a - x_central) . f_a over a cluster is sum_k G_k r_k^2, its virial;
// its tensor sums (x_a - x_central)_r f_a,c for each component (r, c).
EnergyVirial Constraints::virial(const Atoms& atoms) {
  EnergyVirial ev;
  if (!on_) return ev;
  const ClusterEval eval = evaluator(atoms, nullptr);
  const auto fc = atoms.f_constraint;
  const Sums<7> sums = sums_.sum<7>(
      "md::shake_virial", atoms.nlocal, KOKKOS_LAMBDA(int i, double* acc) {
        if (eval.cluster(i, 0) == 0) return;
        const double xi[3] = {eval.x(i, 0), eval.x(i, 1), eval.x(i, 2)};
        const int central = eval.copies.nearest(eval.x, eval.cluster(i, 1), xi);
        double del[3];
        for (int d = 0; d < 3; ++d) del[d] = eval.nearest(eval.x(i, d) - eval.x(central, d), d);
        for (int d = 0; d < 3; ++d) acc[0] += del[d] * fc(i, d);
        for (int c = 0; c < 6; ++c)
          acc[1 + c] += del[kmd::tensor_row(c)] * fc(i, kmd::tensor_col(c));
      });
  ev.virial = sums[0];
  for (int c = 0; c < 6; ++c) ev.virial_tensor[c] = sums[1 + c];
  return ev;
}

}  // namespace cb::md
