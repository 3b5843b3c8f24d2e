// SHAKE clusters from the global topology, by LAMMPS fix shake's rules
// (src/RIGID/fix_shake.cpp, find_clusters and init):
//  - a bond is constrained when its type is among `b`, the type of either
//    atom among `t`, or the mass of either atom within 0.1 of one of `m`;
//  - an atom with one constrained bond whose partner has one too is a 2-atom
//    cluster, the lower id central; an atom with 2 or 3 constrained bonds is
//    the central atom of a 3- or 4-atom cluster, its partners having no other
//    constrained bond;
//  - a 3-atom cluster whose angle (partner, central, partner) has a type among
//    `a` freezes that angle: the partner-partner distance is constrained too;
//  - an atom with more than 3 constrained bonds ("Shake cluster of more than
//    4 atoms") or two bonded atoms both with more than one ("Shake clusters
//    are connected", so an atom would sit in two clusters) are errors.
// Host code on the whole topology (every rank can hold it: topology.hpp's
// allgather_topology), so every rank finds the same clusters.
//
// The time-step integration is the next step (docs/solvers/md.md,
// "Constraints (in progress)").
#pragma once

#include "core/particle_solver.hpp"
#include "kernels/md/shake.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace cb::md {

// LAMMPS fix shake's keywords b, a, t and m (types 1-based).
struct ShakeSelection {
  std::vector<int> bond_types;
  std::vector<int> angle_types;
  std::vector<int> atom_types;
  std::vector<double> masses;
};

// LAMMPS's MASSDELTA: `m` matches masses within this (amu in real units).
constexpr double shake_mass_tolerance = 0.1;

struct ShakeCluster {
  kernels::md::ClusterShape shape = kernels::md::ClusterShape::pair;
  std::int64_t atoms[kernels::md::max_cluster_atoms] = {0, 0, 0, 0};  // central, then by id
  int bond_types[3] = {0, 0, 0};  // of the bonds central - atoms[k + 1]
  int angle_type = 0;             // ClusterShape::angle3 only
  int size() const { return kernels::md::cluster_constraints(shape).atoms; }
};

// The atoms the clusters are drawn from: ids and their types (1-based), any
// order; masses by type (index type - 1).
struct ShakeAtoms {
  std::vector<std::int64_t> id;
  std::vector<int> type;
  std::vector<double> type_masses;
};

// The clusters, sorted by central atom id. Throws cb::InputError with
// LAMMPS's message (and the atoms involved) for a selection outside the
// types, a zero mass, a bond whose atom is not in `atoms`, and the two
// cluster errors above.
std::vector<ShakeCluster> find_shake_clusters(const Topology& topology, const ShakeAtoms& atoms,
                                              const ShakeSelection& selection);

// What LAMMPS prints after "Finding SHAKE clusters ...".
struct ShakeCounts {
  std::int64_t size2 = 0, size3 = 0, size4 = 0, frozen_angles = 0;
};
ShakeCounts count_clusters(const std::vector<ShakeCluster>& clusters);

// Distance constraints in all clusters (LAMMPS fix shake's dof: 1, 2, 3 and
// 3 per cluster of 2, 3, 4 atoms and frozen angle), for degrees_of_freedom().
std::int64_t constraint_count(const std::vector<ShakeCluster>& clusters);

// Target lengths in the order of kernels::md::cluster_constraints: the bonds'
// equilibrium distances (bond_r0, index type - 1) and, for a frozen angle,
// sqrt(b1^2 + b2^2 - 2 b1 b2 cos theta0) (angle_theta0 in radians, index
// type - 1), as LAMMPS fix shake's init. Throws cb::InputError "Shake angles
// have different bond types" when two clusters of one angle type have
// different bond types.
std::vector<std::array<double, 3>> shake_targets(const std::vector<ShakeCluster>& clusters,
                                                 const std::vector<double>& bond_r0,
                                                 const std::vector<double>& angle_theta0);

}  // namespace cb::md
