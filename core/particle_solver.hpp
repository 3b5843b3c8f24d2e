// The interface between the run driver's I/O and a particle solver (MD): host
// copies of the atoms a rank owns, for checkpoints, dumps and data files.
// core knows no physics: this is only the bookkeeping every particle code has.
#pragma once

#include "core/solver.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cb {

// An orthogonal box; periodic per axis.
struct ParticleBox {
  Real3 lo{0.0, 0.0, 0.0};
  Real3 hi{1.0, 1.0, 1.0};
  Bool3 periodic{true, true, true};
};

// Atoms on the host, structure of arrays; vectors of 3 are interleaved
// (x[3 * a + axis]). The order is whatever the owner had.
// LAMMPS atom styles: atomic (id type x y z), charge (id type q x y z) and
// full (id molecule type q x y z).
enum class AtomStyle : int { atomic, charge, full };

struct HostParticles {
  AtomStyle style = AtomStyle::atomic;
  std::vector<std::int64_t> id;
  std::vector<int> type;     // 1-based, as LAMMPS numbers types
  std::vector<double> x, v;  // 3 per atom, unwrapped into the box
  std::vector<int> image;    // 3 per atom, LAMMPS image flags
  // Optional: positions at the last neighbour-list build, 3 per atom (empty
  // when not known). A checkpoint that stores and returns them lets a particle
  // solver restart bit for bit between two rebuilds on the same rank count
  // (the owner of an atom and the skin check follow them); without them the
  // restart agrees to round-off. Not an output quantity.
  std::vector<double> x_build;
  // One per atom with the charge and full styles, else empty: charge and
  // molecule id (0 for none, and always 0 with the charge style).
  std::vector<double> q;
  std::vector<std::int64_t> molecule;
  std::size_t size() const { return id.size(); }
};

class ParticleSolver : public Solver {
 public:
  virtual const ParticleBox& box() const = 0;
  virtual std::vector<double> type_masses() const = 0;  // index type - 1
  virtual std::int64_t total_atoms() const = 0;
  // Host copy of the atoms this rank owns (not ghosts).
  virtual HostParticles owned_particles() = 0;
  // Collective. Replaces the state with `atoms` (any subset on any rank, e.g.
  // a rank-offset slice of a checkpoint); the solver sends each atom to its owner.
  virtual void load_particles(const HostParticles& atoms) = 0;
  // Names of extra per-atom output quantities beyond id/type/x/v (e.g. "pe", "ke").
  virtual std::vector<std::string> per_atom_names() const { return {}; }
  // Values of `per_atom_names()[q]` for the atoms of owned_particles(), same order.
  virtual std::vector<double> per_atom_values(int /*q*/) { return {}; }
};

}  // namespace cb
