// Initial conditions of the lattice start (host code, run once): atoms as
// LAMMPS `create_atoms` and `velocity ... loop geom` give them.
#pragma once

#include "core/particle_solver.hpp"
#include "solvers/md/atoms.hpp"
#include "solvers/md/params.hpp"

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace cb::md {

// The lattice atoms inside this rank's sub-box, with their loop-geom
// velocities before the momentum is zeroed and the temperature scaled.
HostParticles lattice_atoms(const Params& params, const LocalBox& local);
// Zeroes the net momentum and scales to `temperature` with the dof of
// degrees_of_freedom() (3N - 3)
// (collective; LAMMPS `velocity create` with mom yes).
void zero_momentum_and_scale(HostParticles& atoms, const std::vector<double>& masses,
                             double temperature, std::int64_t total,
                             const kernels::md::Units& units, MPI_Comm comm);

}  // namespace cb::md
