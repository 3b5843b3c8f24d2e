// The atoms a particle writer outputs: the solver's owned atoms plus named
// per-atom columns (ParticleSolver::per_atom_names(), e.g. "pe").
#pragma once

#include "core/particle_solver.hpp"

#include <string>
#include <vector>

namespace cb::io {

struct AtomTable {
  HostParticles atoms;
  std::vector<std::string> extra_names;
  std::vector<std::vector<double>> extra;  // extra[q][atom], same atom order
};

// Host copy of the owned atoms of `solver` and of the per-atom quantities in
// `names` that the solver offers (other names are ignored).
AtomTable owned_atom_table(ParticleSolver& solver, const std::vector<std::string>& names);

// Dump column names beyond the solver's per-atom names, in LAMMPS `dump
// custom` spelling: id type x y z xu yu zu vx vy vz ix iy iz.
const std::vector<std::string>& standard_atom_columns();

// What [output] fields accepts for a particle solver: the standard columns
// followed by the solver's per-atom names. A registry entry lists these as
// its output_field_names.
std::vector<std::string> particle_output_names(const std::vector<std::string>& per_atom_names);

}  // namespace cb::io
