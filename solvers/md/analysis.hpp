// On-the-fly analysis ([compute]):
//  - the radial distribution function g(r) (Allen & Tildesley 2017, sec. 2.6;
//    LAMMPS compute rdf), over all atoms or per type pair: histograms of pair
//    distances from the force neighbour list (without the special pairs
//    whose LJ and Coulomb factors are both 0, as LAMMPS leaves them out),
//    normalised at the end as LAMMPS does: g = n / (samples N_i (N_j - d/N_i)
//    4/3 pi (r1^3 - r0^3) / V), d the atoms counted in both groups;
//  - the mean squared displacement (LAMMPS compute msd) from unwrapped
//    positions x + image L against the reference x_ref.
#pragma once

#include "core/ordered_sum.hpp"
#include "solvers/md/neighbor.hpp"
#include "solvers/md/params.hpp"

#include <mpi.h>

#include <array>
#include <string>
#include <vector>

namespace cb::md {

class RadialDistribution {
 public:
  // `skip[level]`: leave out the special pairs of that level (1-3).
  RadialDistribution(const ComputeParams& params, const std::array<bool, 4>& skip);

  bool due(long step) const;
  // Adds the pairs within rdf_cutoff (all in the list: it is at most the force
  // cutoff) of the owned atoms to the histogram.
  void accumulate(const Atoms& atoms, const NeighborList& list);
  // "rdf r g(r) ..." lines (a g column per type pair) and the first peak of
  // each (collective; empty when nothing was sampled).
  std::vector<std::string> summary_lines(MPI_Comm comm, const Atoms& atoms, double volume) const;

 private:
  // Atoms in the first and second group of each pair, and in both, over all ranks.
  struct GroupCounts {
    std::vector<double> first, second, both;
  };
  GroupCounts group_counts(MPI_Comm comm, const Atoms& atoms) const;

  ComputeParams params_;
  int pairs_ = 1;                                // histograms (1: all atoms)
  Kokkos::Array<int, 2 * max_rdf_pairs> types_;  // 0 0: any type
  Kokkos::Array<bool, 4> skip_;
  Kokkos::View<double**, MemSpace> histogram_;  // (pair, bin)
  long samples_ = 0;
};

// This rank's sum over owned atoms of |x + image L - x_ref|^2.
double sum_squared_displacement(const Atoms& atoms, const LocalBox& box, OrderedSum& sums);

}  // namespace cb::md
