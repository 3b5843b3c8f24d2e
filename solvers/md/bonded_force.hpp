// The bonded terms of a molecular system (bonds, angles, dihedrals,
// impropers; kernels/md/bonded.hpp has the physics) over the per-atom term
// rows of topology.hpp. Each owned atom evaluates every term in its rows and
// keeps its own share of the force; each partner's position comes from its
// copy (owned or ghost image) nearest to the atom. The copies of each id are
// mapped again whenever the ghosts are rebuilt.
#pragma once

#include "core/ordered_sum.hpp"
#include "kernels/md/bonded.hpp"
#include "solvers/md/force_field.hpp"
#include "solvers/md/id_copies.hpp"

namespace cb::md {

class BondedForce : public ForceTerm {
 public:
  explicit BondedForce(const Params& params);

  void add_forces(Atoms& atoms, const NeighborList& list) override;
  EnergyVirial energy_virial(const Atoms& atoms, const NeighborList& list) override;
  Part part() const override { return Part::bonded; }
  void add_per_atom_energy(const Atoms& atoms, const NeighborList& list,
                           const Vec3View& out) override;
  // After ghosts were rebuilt: the id map; throws RunError when a partner of
  // an owned atom is neither owned nor a ghost here.
  void atoms_rebuilt(const Atoms& atoms) override;
  // Collective, when atoms were loaded: the largest atom id.
  void setup(const Atoms& atoms, MPI_Comm comm);
  // The box changed size (a barostat): the minimum-image lengths follow.
  void box_changed(const LocalBox& box) override {
    for (int d = 0; d < 3; ++d) frame_.length[d] = box.length(d);
  }

  // Public for the CUDA extended-lambda rule; not part of the interface.
  struct Styles {
    kernels::md::BondStyle bond = kernels::md::BondStyle::none;
    kernels::md::AngleStyle angle = kernels::md::AngleStyle::none;
    kernels::md::DihedralStyle dihedral = kernels::md::DihedralStyle::none;
    kernels::md::ImproperStyle improper = kernels::md::ImproperStyle::none;
  };
  struct Tables {
    Kokkos::View<kernels::md::BondCoeff*, MemSpace> bond;
    Kokkos::View<kernels::md::AngleCoeff*, MemSpace> angle;
    Kokkos::View<kernels::md::DihedralCoeff*, MemSpace> dihedral;
    Kokkos::View<kernels::md::ImproperCoeff*, MemSpace> improper;
  };
  struct Pairs14 {  // charmm dihedrals' weighted 1-4 pairs
    bool on = false;
    Kokkos::View<kernels::md::LjCoeff**, MemSpace> coeff;  // epsilon_14, sigma_14 by types
    double qqrd2e = 0.0;
    IntView type;
    ScalarView q;
  };
  struct Frame {  // the minimum image
    double length[3] = {1, 1, 1};
    bool periodic[3] = {true, true, true};
  };

 private:
  Styles styles_;
  Tables tables_;
  Frame frame_;
  Pairs14 pairs14_;
  IdCopies copies_;
  std::int64_t max_id_ = 0;
  OrderedSum sums_;
};

}  // namespace cb::md
