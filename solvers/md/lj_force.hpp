// The Lennard-Jones force term (LAMMPS pair_style lj/cut; kernels/md/lj.hpp
// has the pair physics), with the cut Coulomb of lj/cut/coul/cut when the
// atoms carry charges (kernels/md/coulomb.hpp), over a neighbour list:
//  - half list: each pair once; the force on j is scattered through a Kokkos
//    ScatterView (plain adds on Serial, per-thread copies on OpenMP, atomics
//    on GPUs), ghost forces then go home by reverse communication;
//  - full list: each owned atom sums its own force, no scatter.
// Adds onto arrays the force field zeroed (force_field.hpp).
#pragma once

#include "core/ordered_sum.hpp"
#include "kernels/md/charmm.hpp"
#include "solvers/md/force_field.hpp"

#include <Kokkos_ScatterView.hpp>

namespace cb::md {

using CoeffTable = Kokkos::View<kernels::md::LjCoeff**, MemSpace>;
using Vec3Scatter =
    Kokkos::Experimental::ScatterView<double* [3], typename Vec3View::array_layout, ExecSpace>;

// A ScatterView adding onto `target`, remade when the target is reallocated.
// reset_except() zeroes the per-thread duplicates (OpenMP) and leaves the
// target alone (Serial and GPUs scatter into it directly): the target keeps
// what was there, and contribute() adds this term's share.
struct ScatterOnto {
  Vec3Scatter scatter;
  Vec3View target;
  const Vec3Scatter& onto(const Vec3View& view) {
    if (target.data() != view.data() || target.extent(0) != view.extent(0)) {
      scatter = Vec3Scatter(view);
      target = view;
    }
    scatter.reset_except(view);
    return scatter;
  }
};

class LjForce : public ForceTerm {
 public:
  explicit LjForce(const Params& params);

  void add_forces(Atoms& atoms, const NeighborList& list) override;
  EnergyVirial energy_virial(const Atoms& atoms, const NeighborList& list) override;
  EnergyVirial add_forces_and_energy(Atoms& atoms, const NeighborList& list) override;
  void add_per_atom_energy(const Atoms& atoms, const NeighborList& list,
                           const Vec3View& out) override;
  // Summed over type pairs (both orders), as LAMMPS Pair::init.
  kernels::md::TailTerms tail_terms(const std::vector<double>& type_counts) const override;

  // Public for the CUDA extended-lambda rule; not part of the interface.
  // The Ewald splitting parameter of lj/cut/coul/long (from EwaldSum::setup).
  void set_g_ewald(double g) { coul_.g_ewald = g; }

  // Coul: 0 none, 1 cut, 2 long, 3 long with charmm's switched LJ; Special:
  // rows carry special levels; Tally: each row's energies and virial too.
  template <bool Half, bool OneType, int Coul, bool Special, bool Tally>
  void add_pair_forces(Atoms& atoms, const NeighborList& list);
  // energy_virial()'s sums of the rows add_pair_forces<..., true> tallied.
  EnergyVirial summed_tally(int nlocal);

  // special_bonds factors by level (index 0: ordinary pairs, 1 and 1).
  struct SpecialTable {
    kernels::md::SpecialFactor level[4];
    // level[l] by selects of values all loaded, not an indexed load: a vector loop can take it.
    KOKKOS_INLINE_FUNCTION kernels::md::SpecialFactor selected(int l) const {
      const double lj[4] = {level[0].lj, level[1].lj, level[2].lj, level[3].lj};
      const double coul[4] = {level[0].coul, level[1].coul, level[2].coul, level[3].coul};
      kernels::md::SpecialFactor s;
      s.lj = l == 0 ? lj[0] : l == 1 ? lj[1] : l == 2 ? lj[2] : lj[3];
      s.coul = l == 0 ? coul[0] : l == 1 ? coul[1] : l == 2 ? coul[2] : coul[3];
      return s;
    }
  };

 private:
  Params params_;
  CoeffTable coeff_;          // by type pair (types are 1-based: index 0 unused)
  kernels::md::LjCoeff one_;  // the coefficients when there is one atom type
  bool one_type_;
  int coulomb_;  // 0 none, 1 cut, 2 long
  kernels::md::CoulCut coul_;
  SpecialTable special_;
  kernels::md::CharmmSwitch switch_;
  template <bool Tally>
  void dispatch(Atoms& atoms, const NeighborList& list);
  template <bool Tally>
  void dispatch_special(Atoms& atoms, const NeighborList& list);

  using TallyView = Kokkos::View<double* [9], Kokkos::LayoutRight, MemSpace>;
  ScatterOnto force_scatter_, energy_scatter_;
  TallyView tally_;  // per owned atom: evdwl, ecoul, r . f, r_a f_b of its row
  OrderedSum sums_;  // energy and virial, summed in a thread-count independent order
};

}  // namespace cb::md
