// The interface between the run driver's I/O and a particle solver (MD): host
// copies of the atoms a rank owns, for checkpoints, dumps and data files.
// core knows no physics: this is only the bookkeeping every particle code has.
#pragma once

#include "core/solver.hpp"

#include <cstdint>
#include <string>
#include <utility>
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

// Molecular topology, as LAMMPS's Bonds, Angles, Dihedrals and Impropers
// sections: each term a type (1-based) and the global ids of its atoms in the
// order the style defines (angle: end, centre, end; dihedral: along the chain;
// improper: as the style reads them).
enum class TermKind : int { bond = 0, angle = 1, dihedral = 2, improper = 3 };
constexpr int term_kinds = 4;
constexpr int atoms_per_term(TermKind kind) {
  return kind == TermKind::bond ? 2 : kind == TermKind::angle ? 3 : 4;
}

struct TermList {
  std::vector<int> type;
  std::vector<std::int64_t> atoms;  // atoms_per_term(kind) ids per term
  std::size_t size() const { return type.size(); }
};

struct Topology {
  int types[term_kinds] = {0, 0, 0, 0};  // bond, angle, dihedral, improper types
  TermList terms[term_kinds];
  TermList& of(TermKind kind) { return terms[static_cast<int>(kind)]; }
  const TermList& of(TermKind kind) const { return terms[static_cast<int>(kind)]; }
  bool empty() const {
    for (const TermList& list : terms)
      if (list.size() != 0) return false;
    return true;
  }
};

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
  // Optional, 3 per atom: the constraint force (SHAKE) of the last step, which
  // the next step's first half kick uses; stored for bit-for-bit restarts.
  std::vector<double> f_constraint;
  // One per atom with the charge and full styles, else empty: charge and
  // molecule id (0 for none, and always 0 with the charge style).
  std::vector<double> q;
  std::vector<std::int64_t> molecule;
  // atom_style full: bonded terms. From a solver, the terms whose first atom
  // this rank owns (so every term appears once over the ranks); to a solver
  // (load_particles), any share of the terms on any rank. The types count is
  // the same on every rank.
  Topology topology;
  std::size_t size() const { return id.size(); }
};

// A Coeffs section (Pair Coeffs; Bond, Angle, Dihedral, Improper Coeffs): the
// numbers of each type's line as written (rows[type - 1]), their line numbers,
// and the style named in the section's comment ("Bond Coeffs # harmonic"), ""
// when none. The solver interprets them by its styles.
struct CoeffRows {
  std::string style;
  long line = 0;  // the section header's line, 0 when absent
  std::vector<std::vector<double>> rows;
  std::vector<long> lines;
  bool empty() const { return rows.empty(); }
};

struct DataCoeffs {
  CoeffRows pair;               // Pair Coeffs (one line per type)
  CoeffRows terms[term_kinds];  // by TermKind
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
  // Collective; on restart, before load_particles: the checkpoint's box and root
  // scalars, for what the atoms' setup needs from them. A solver whose box changes
  // during a run (a barostat) takes the checkpoint's box; others keep theirs (and
  // the checkpoint's must then be the same). MD also takes the charge sums its
  // Ewald/PPPM setup uses, so that they do not depend on the atoms' owners.
  virtual void prepare_restore(const ParticleBox& /*saved*/,
                               const std::vector<std::pair<std::string, double>>& /*scalars*/) {}
  // Names of extra per-atom output quantities beyond id/type/x/v (e.g. "pe", "ke").
  virtual std::vector<std::string> per_atom_names() const { return {}; }
  // Those written when [output] fields names none (all by default).
  virtual std::vector<std::string> default_per_atom_names() const { return per_atom_names(); }
  // Values of `per_atom_names()[q]` for the atoms of owned_particles(), same order.
  virtual std::vector<double> per_atom_values(int /*q*/) { return {}; }
  // For data files: LAMMPS's name of the unit system, and the force field's
  // coefficients as LAMMPS's write_data writes them (none by default).
  virtual std::string unit_style() const { return "lj"; }
  virtual DataCoeffs data_coeffs() const { return {}; }
};

}  // namespace cb
