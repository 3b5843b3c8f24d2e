// The force field: a list of force terms whose forces, energies and virials
// are summed (today one term, the Lennard-Jones pair style of lj_force.hpp;
// bonds, charges or constraints add terms). The force field zeroes the arrays
// once, explicitly, and every term adds onto them.
#pragma once

#include "core/decomposition.hpp"
#include "core/run_context.hpp"
#include "kernels/md/lj.hpp"
#include "solvers/md/charge_sums.hpp"
#include "solvers/md/neighbor.hpp"
#include "solvers/md/params.hpp"
#include "solvers/md/part_timers.hpp"

#include <mpi.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cb::md {

// The terms of the potential energy, as LAMMPS's thermo keywords evdwl, ecoul,
// elong, ebond, eangle, edihed, eimp.
struct Energy {
  enum : int { vdwl, coul, kspace, bond, angle, dihedral, improper, terms };
};

struct EnergyVirial {
  double energy[Energy::terms] = {};  // this rank's share of each term
  double virial = 0.0;                // this rank's share of sum r . f
  double virial_tensor[6] = {};       // ... and of sum r_a f_b: xx, yy, zz, xy, xz, yz
  double total() const {
    double sum = 0.0;
    for (double e : energy) sum += e;
    return sum;
  }
};

// One term of the potential energy, evaluated over the neighbour list.
class ForceTerm {
 public:
  virtual ~ForceTerm() = default;
  // The timer part this term's forces are charged to (part_timers.hpp).
  virtual Part part() const { return Part::pair; }
  // Adds the forces on owned atoms (with a half list also on ghosts) to atoms.f.
  virtual void add_forces(Atoms& atoms, const NeighborList& list) = 0;
  // This rank's share of the energy and virial.
  virtual EnergyVirial energy_virial(const Atoms& atoms, const NeighborList& list) = 0;
  // add_forces, then energy_virial at the same positions: the same bits as
  // the two calls (the default), in one pass where a term can share the work
  // (LAMMPS's eflag and vflag on the steps that need energies).
  virtual EnergyVirial add_forces_and_energy(Atoms& atoms, const NeighborList& list) {
    add_forces(atoms, list);
    return energy_virial(atoms, list);
  }
  // Adds each atom's share of the energy to out(:, 0) (with a half list also
  // on ghosts).
  virtual void add_per_atom_energy(const Atoms& atoms, const NeighborList& list,
                                   const Vec3View& out) = 0;
  // After a neighbour-list rebuild (new ghosts, new local indices).
  virtual void atoms_rebuilt(const Atoms& /*atoms*/) {}
  // After the box changed size (a barostat): what depends on it (k vectors).
  virtual void box_changed(const LocalBox& /*box*/) {}
  // Long-range corrections for `type_counts` atoms of each type (global),
  // E += etail / V and P += ptail / V^2 (none by default).
  virtual kernels::md::TailTerms tail_terms(const std::vector<double>& /*type_counts*/) const {
    return {};
  }
  // The timers add_forces may charge sub-parts to (null: not timed).
  void set_timers(PartTimers* timers) { timers_ = timers; }

 protected:
  // Charges the time since the last mark to `part` when timed.
  void charge(Part part) {
    if (timers_ != nullptr) timers_->charge(part);
  }

 private:
  PartTimers* timers_ = nullptr;
};

// What the neighbour list does with 1-2, 1-3 and 1-4 pairs: factors 0 and 0
// leave a pair out (unless k-space counted it and the pair style must take
// its Coulomb back), factors 1 and 1 keep it as an ordinary pair, anything
// else marks it with its level (LAMMPS Neighbor::init's special_flag).
SpecialRule special_rule(const Params& params);
// The special levels (1-3) whose LJ and Coulomb factors are both 0 (in a
// molecular system): pairs that do not interact, left out of g(r).
std::array<bool, 4> special_pairs_without_interaction(const Params& params);

class LjForce;
class EwaldSum;
class PppmSum;
class BondedForce;
class SlabCorrection;

// What a mesh-based k-space term (PPPM) needs of the run besides the
// parameters: the rank grid, this rank's sub-box, how MPI sees buffers.
struct MeshContext {
  const Decomposition* decomposition = nullptr;
  LocalBox box;
  CommOptions comm;
};

class ForceField {
 public:
  // The terms the case asks for: the pair style, the Ewald or PPPM sum with
  // lj/cut/coul/long, the bonded terms with molecules. PPPM needs `mesh`.
  ForceField(const Params& params, MPI_Comm comm, const MeshContext& mesh = {});
  ~ForceField();

  // Collective, whenever atoms were loaded: what depends on all of them (the
  // Ewald parameters from the charges and the atom count, the largest id).
  // `charges`: the sums a checkpoint stored (charge_sums()), else none.
  void setup(const Atoms& atoms, std::int64_t natoms, MPI_Comm comm,
             const std::optional<ChargeSums>& charges = std::nullopt);
  // The charge sums of the Ewald or PPPM sum, none without one.
  std::optional<ChargeSums> charge_sums() const;
  // After every neighbour-list rebuild.
  void atoms_rebuilt(const Atoms& atoms);
  // After the box changed size (a barostat; LAMMPS's kspace->setup()).
  void box_changed(const LocalBox& box);
  // "kspace ewald: ..." or "kspace pppm: ..." with a k-space term, else "".
  std::string kspace_summary() const;

  // f = the sum of every term's forces on owned atoms and, with a half list,
  // on ghosts (the caller reverse-communicates those).
  void compute(Atoms& atoms, const NeighborList& list);
  // compute() with each term's time charged to its part; with `energy`, also
  // energy_virial()'s result in the same pass (the same bits).
  void compute(Atoms& atoms, const NeighborList& list, PartTimers& timers,
               EnergyVirial* energy = nullptr);
  EnergyVirial energy_virial(const Atoms& atoms, const NeighborList& list);
  // out(:, 0) = each atom's share of the energy (ghost shares as compute()).
  void per_atom_energy(const Atoms& atoms, const NeighborList& list, const Vec3View& out);
  kernels::md::TailTerms tail_terms(const std::vector<double>& type_counts) const;

  // (cut_ij + skin)^2 by type pair: the reach of the neighbour list.
  const CutoffTable& list_cutsq() const { return list_cutsq_; }

 private:
  std::vector<std::unique_ptr<ForceTerm>> terms_;
  LjForce* pair_ = nullptr;         // terms_[0]
  EwaldSum* ewald_ = nullptr;       // with lj/cut/coul/long and [kspace] ewald
  PppmSum* pppm_ = nullptr;         // with lj/cut/coul/long and [kspace] pppm
  BondedForce* bonded_ = nullptr;   // with molecules
  SlabCorrection* slab_ = nullptr;  // with [kspace] slab
  CutoffTable list_cutsq_;
};

}  // namespace cb::md
