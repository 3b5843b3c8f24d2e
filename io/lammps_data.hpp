// LAMMPS data files, atom_style atomic, charge or full with its molecular
// topology (the format of LAMMPS `read_data` and `write_data`;
// docs/checkpoint-format.md, "LAMMPS data files"). An orthogonal box only: a
// tilted (triclinic) box is refused.
#pragma once

#include "core/particle_solver.hpp"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cb::io {

struct LammpsData {
  std::string title;  // the first line
  ParticleBox box;    // periodic as asked of the reader
  int atom_types = 0;
  std::vector<double> masses;   // index type - 1; empty without a Masses section
  bool has_velocities = false;  // else atoms.v is all zero
  HostParticles atoms;          // in file order; x inside the box, image flags adjusted
                                // (atom_style full: atoms.topology, terms in file order)
  DataCoeffs coeffs;            // the Coeffs sections read; empty ones absent
};

// Reads the whole file (header with comments, then the sections Masses, Atoms,
// Velocities, Bonds, Angles, Dihedrals, Impropers, Pair/Bond/Angle/Dihedral/
// Improper Coeffs and PairIJ Coeffs in any order; PairIJ Coeffs are skipped).
// Atom lines are `id type x y z` (atomic), `id type q x y z` (charge) or
// `id molecule type q x y z` (full), as `style` says, with optional image
// flags `ix iy iz` (0 when absent); velocities are matched by id. Topology
// (atom_style full only) is `id type atom1 atom2 ...`; every term's atoms
// must be in the Atoms section.
// An atom outside the box on a periodic axis is wrapped into it and its image
// flag adjusted, as LAMMPS does; outside on a non-periodic axis is an error.
// Every error is a cb::InputError starting "FILE:LINE: ".
LammpsData read_lammps_data(const std::string& path, const Bool3& periodic = {true, true, true},
                            AtomStyle style = AtomStyle::atomic);

// "atomic", "charge" or "full".
const char* style_name(AtomStyle style);

// Collective over `comm`: gathers every rank's atoms and owned.topology to
// rank 0, which writes them in the layout of LAMMPS `write_data` (header with
// the topology counts and types, Masses, the Coeffs sections of `coeffs` that
// are not empty, Atoms # <style> with image flags, Velocities, Bonds, Angles,
// Dihedrals, Impropers) at full precision (%.17g), so a file read back gives
// the same bits. Atoms are sorted by id, terms by their atom ids (numbered 1..n
// in that order), so the file is the same on any rank count. Topology is
// written with atom_style full only, for kinds with types > 0. Throws RunError
// when rank 0 cannot write and std::invalid_argument when a Coeffs section's
// row count is not its type count (the same on every rank).
void write_lammps_data(const std::string& path, MPI_Comm comm, const ParticleBox& box,
                       const std::vector<double>& masses, const HostParticles& owned,
                       const std::string& title, const DataCoeffs& coeffs = {});

}  // namespace cb::io
