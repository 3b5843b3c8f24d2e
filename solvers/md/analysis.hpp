// On-the-fly analysis ([compute]):
//  - the radial distribution function g(r) (Allen & Tildesley 2017, sec. 2.6;
//    LAMMPS compute rdf): a histogram of pair distances from the force
//    neighbour list, normalised by ideal-gas shell counts at the end;
//  - the mean squared displacement (LAMMPS compute msd) from unwrapped
//    positions x + image L against the reference x_ref.
#pragma once

#include "core/ordered_sum.hpp"
#include "solvers/md/neighbor.hpp"
#include "solvers/md/params.hpp"

#include <mpi.h>

#include <string>
#include <vector>

namespace cb::md {

class RadialDistribution {
 public:
  explicit RadialDistribution(const ComputeParams& params);

  bool due(long step) const;
  // Adds the pairs within rdf_cutoff (all in the list: it is at most the force
  // cutoff) of the owned atoms to the histogram.
  void accumulate(const Atoms& atoms, const NeighborList& list);
  // g(r) = n(r) / (samples N rho 4/3 pi (r1^3 - r0^3)) as "rdf r g(r)" lines and
  // the first peak (collective; empty when nothing was sampled).
  std::vector<std::string> summary_lines(MPI_Comm comm, double natoms, double volume) const;

 private:
  ComputeParams params_;
  Kokkos::View<double*, MemSpace> histogram_;
  long samples_ = 0;
};

// This rank's sum over owned atoms of |x + image L - x_ref|^2.
double sum_squared_displacement(const Atoms& atoms, const LocalBox& box, OrderedSum& sums);

}  // namespace cb::md
