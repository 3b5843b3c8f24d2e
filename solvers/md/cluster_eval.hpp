// One constraint cluster as an owned atom of it sees it, on the device: the
// cluster's atoms (the copies nearest to the atom, owned or ghost) relative
// to the central atom, the targets of its constraints, and the solves of
// solvers/md/constraints.hpp (SHAKE or SETTLE for positions, RATTLE's
// velocity stage) with the atom's own share of the result.
#pragma once

#include "kernels/md/settle.hpp"
#include "kernels/md/shake.hpp"
#include "solvers/md/atoms.hpp"
#include "solvers/md/id_copies.hpp"

namespace cb::md {

struct ClusterEval {
  RowsView cluster;
  IdView id;
  IntView type;
  Vec3View x;
  IdCopies copies;
  Kokkos::View<double*, MemSpace> inv_mass, bond_length, angle_length;
  double length[3] = {1, 1, 1};
  bool periodic[3] = {true, true, true};
  kernels::md::ShakeControl control;
  bool settle = false;

  KOKKOS_INLINE_FUNCTION kernels::md::ClusterShape shape(int i) const {
    return static_cast<kernels::md::ClusterShape>(cluster(i, 0));
  }

  KOKKOS_INLINE_FUNCTION double nearest(double delta, int d) const {
    if (periodic[d]) {
      const double half = 0.5 * length[d];
      if (delta > half) delta -= length[d];
      if (delta < -half) delta += length[d];
    }
    return delta;
  }

  // The local index of each atom of atom i's cluster (the copy nearest to
  // atom i); returns atom i's place in the cluster.
  KOKKOS_INLINE_FUNCTION int members(int i, int local[]) const {
    const int atoms = kernels::md::cluster_constraints(shape(i)).atoms;
    const double xi[3] = {x(i, 0), x(i, 1), x(i, 2)};
    int own = 0;
    for (int a = 0; a < atoms; ++a) {
      local[a] = copies.nearest(x, cluster(i, 1 + a), xi);
      if (cluster(i, 1 + a) == id(i)) own = a;
    }
    return own;
  }

  // `field` at the cluster's atoms `local` relative to the central atom:
  // minimum images for positions, plain differences for velocities.
  KOKKOS_INLINE_FUNCTION void relative(int i, const int local[], const Vec3View& field,
                                       bool positions, double out[][3]) const {
    const int atoms = kernels::md::cluster_constraints(shape(i)).atoms;
    for (int a = 0; a < atoms; ++a)
      for (int d = 0; d < 3; ++d) {
        const double delta = field(local[a], d) - field(local[0], d);
        out[a][d] = positions ? nearest(delta, d) : delta;
      }
  }

  // The target lengths of atom i's cluster's `count` constraints.
  KOKKOS_INLINE_FUNCTION void targets(int i, int count, double target[]) const {
    for (int k = 0; k < count; ++k) {
      const auto code = cluster(i, 5 + k);
      target[k] = code > 0 ? bond_length(code) : angle_length(-code);
    }
  }

  KOKKOS_INLINE_FUNCTION void inverse_masses(int i, double w[]) const {
    const int atoms = kernels::md::cluster_constraints(shape(i)).atoms;
    for (int a = 0; a < atoms; ++a) w[a] = inv_mass(type(copies.first(cluster(i, 1 + a))));
  }

  // The largest relative deviation of atom i's cluster from its constraints now.
  KOKKOS_INLINE_FUNCTION double deviation(int i) const {
    double xc[kernels::md::max_cluster_atoms][3], target[kernels::md::max_cluster_constraints];
    int local[kernels::md::max_cluster_atoms];
    members(i, local);
    relative(i, local, x, true, xc);
    targets(i, kernels::md::cluster_constraints(shape(i)).count, target);
    return kernels::md::constraint_deviation(shape(i), xc, target);
  }

  // Solves atom i's cluster with predicted positions `predicted`: own the
  // atom's force (scale g r), or, with `correct`, its displacement (g r / m).
  KOKKOS_INLINE_FUNCTION bool solve(int i, const Vec3View& predicted, bool correct, double scale,
                                    double own_out[3]) const {
    namespace kmd = kernels::md;
    const kmd::ClusterConstraints c = kmd::cluster_constraints(shape(i));
    double xo[kmd::max_cluster_atoms][3], xp[kmd::max_cluster_atoms][3],
        out[kmd::max_cluster_atoms][3];
    double w[kmd::max_cluster_atoms], target[kmd::max_cluster_constraints], g[3];
    int local[kmd::max_cluster_atoms];
    const int own = members(i, local);
    relative(i, local, x, true, xo);
    relative(i, local, predicted, true, xp);
    inverse_masses(i, w);
    targets(i, c.count, target);
    const kmd::ShakeResult result =
        settle ? kmd::settle_multipliers(xo, xp, w, target, g)
               : kmd::shake_multipliers(shape(i), xo, xp, w, target, control, g);
    if (correct) {
      kmd::constraint_corrections(shape(i), xo, w, g, out);
    } else {
      kmd::constraint_forces(shape(i), xo, g, scale, out);
    }
    for (int d = 0; d < 3; ++d) own_out[d] = out[own][d];
    return result.converged;
  }

  // RATTLE's velocity stage for atom i's cluster: the change of atom i's
  // velocity that makes the cluster's velocities `velocity` (owned and
  // ghost) orthogonal to its bonds at the positions x. False when the
  // cluster's linear system is singular.
  KOKKOS_INLINE_FUNCTION bool rattle(int i, const Vec3View& velocity, double own_out[3]) const {
    namespace kmd = kernels::md;
    double xc[kmd::max_cluster_atoms][3], vc[kmd::max_cluster_atoms][3],
        out[kmd::max_cluster_atoms][3];
    double w[kmd::max_cluster_atoms], mu[kmd::max_cluster_constraints];
    int local[kmd::max_cluster_atoms];
    const int own = members(i, local);
    relative(i, local, x, true, xc);
    relative(i, local, velocity, false, vc);
    inverse_masses(i, w);
    const bool solved = kmd::rattle_multipliers(shape(i), xc, vc, w, mu);
    kmd::constraint_corrections(shape(i), xc, w, mu, out);
    for (int d = 0; d < 3; ++d) own_out[d] = out[own][d];
    return solved;
  }
};

}  // namespace cb::md
