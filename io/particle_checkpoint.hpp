// HDF5 checkpoints of a particle solver (docs/checkpoint-format.md,
// "Particle checkpoints"): the root attributes and write protocol of every
// checkpoint, and a /particles group of global per-atom arrays id [N],
// type [N], x [N][3], v [N][3], image [N][3] (and x_build [N][3], positions at
// the last neighbour-list build, when the solver gives them; q [N] and
// molecule [N] with charges), each rank's owned
// atoms at its rank offset. Any rank count reads them back: each rank takes a contiguous
// slice and the solver's load_particles() sends the atoms to their owners.
// With topology (any type count > 0), a /topology group: the type and term
// counts as attributes and per kind with terms a dataset bonds [n][3], angles
// [n][4], dihedrals [n][5], impropers [n][5] (int64 rows: type, atom ids),
// each rank's terms sorted, at its rank offset; read back as even slices.
#pragma once

#include "core/particle_solver.hpp"
#include "io/checkpoint.hpp"

#include <mpi.h>

#include <cstdint>
#include <string>

namespace cb::io {

// Collective over `comm`. `header.geometry` carries the box (lo, hi, periodic)
// and the solver's decomposition grid (cells); the atom count is summed here.
// Atomic as write_checkpoint(); throws RunError on an I/O failure.
void write_particle_checkpoint(const std::string& path, MPI_Comm comm,
                               const CheckpointHeader& header, const HostParticles& owned);

// Collective. Rank r of p gets atoms [N r / p, N (r + 1) / p) of the file's
// arrays, and likewise its share of each kind of topology term (with the type
// counts on every rank; empty topology when the file has none). Throws
// InputError naming `path` on a missing or misshapen dataset, or a term whose
// type is outside 1..types or that names an atom id below 1.
HostParticles read_particle_checkpoint(const std::string& path, MPI_Comm comm);

// Collective. Throws InputError naming `path` and the dataset unless every
// atom read (each rank its slice) has an id >= 1 that no other atom has,
// finite x and v, and x within one box length of `box` (a run wraps atoms into
// the box at each neighbour-list build, so no atom is farther out).
void check_particles_valid(const std::string& path, const HostParticles& atoms,
                           const ParticleBox& box, MPI_Comm comm);

// Throws InputError unless `header` is a particle checkpoint of `solver` with
// the same box (lo, hi, periodic) and atom count. `path` is named.
void check_particles_compatible(const std::string& path, const CheckpointHeader& header,
                                const std::string& solver, const ParticleBox& box,
                                std::int64_t atoms);

}  // namespace cb::io
