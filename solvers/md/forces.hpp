// Lennard-Jones forces, energy and virial over a neighbour list
// (kernels/md/lj.hpp has the pair physics).
//  - half list: each pair once; the force on j is scattered through a
//    Kokkos ScatterView (plain adds on Serial, per-thread copies on OpenMP,
//    atomics on GPUs), ghost forces then go home by reverse communication;
//  - full list: each owned atom sums its own force, no scatter.
#pragma once

#include "kernels/md/lj.hpp"
#include "solvers/md/neighbor.hpp"
#include "solvers/md/params.hpp"

#include <Kokkos_ScatterView.hpp>

namespace cb::md {

using CoeffTable = Kokkos::View<kernels::md::LjCoeff**, MemSpace>;
using ForceScatter =
    Kokkos::Experimental::ScatterView<double* [3], typename Vec3View::array_layout, ExecSpace>;

struct EnergyVirial {
  double energy = 0.0;  // sum of pair energies (this rank's share)
  double virial = 0.0;  // sum of r . f over pairs
};

class PairForce {
 public:
  explicit PairForce(const Params& params);

  // Forces on owned atoms (and, with a half list, on ghosts: reverse-communicate
  // them next). Zeroes f first.
  void compute(Atoms& atoms, const NeighborList& list);
  // This rank's share of the pair energy and virial (pairs within cutoff).
  EnergyVirial energy_virial(const Atoms& atoms, const NeighborList& list);
  // Per-atom pair energy, half of each pair to each atom, into `out` (sized
  // like atoms.x; component 0); with a half list the ghost shares must be
  // reverse-communicated by the caller.
  void per_atom_energy(const Atoms& atoms, const NeighborList& list, Vec3View out);

  const CutoffTable& list_cutsq() const { return list_cutsq_; }

  // Public for the CUDA extended-lambda rule; not part of the interface.
  template <bool Half, bool OneType>
  void compute_pairs(Atoms& atoms, const NeighborList& list);

 private:
  CoeffTable coeff_;
  CutoffTable list_cutsq_;
  kernels::md::LjCoeff one_;  // the coefficients when there is one atom type
  bool one_type_;
  ForceScatter scatter_;
  Vec3View scatter_target_;  // the view scatter_ was made for
  Kokkos::View<double* [2], MemSpace> tally_;
  Kokkos::Experimental::ScatterView<double* [3], typename Vec3View::array_layout, ExecSpace>
      energy_scatter_;
  Vec3View energy_target_;
};

}  // namespace cb::md
