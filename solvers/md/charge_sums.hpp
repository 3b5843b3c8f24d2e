// The sums of the charges over all atoms, from which the k-space sums take
// their parameters (g_ewald, the PPPM mesh) and their self and background
// energies.
#pragma once

#include "core/ordered_sum.hpp"
#include "solvers/md/atoms.hpp"

#include <mpi.h>

#include <optional>

namespace cb::md {

struct ChargeSums {
  double sum = 0.0;         // sum q_i (the net charge)
  double square_sum = 0.0;  // sum q_i^2
};

// The sums over the owned atoms of every rank (collective). Their last bits
// depend on which rank holds which atom, which a restart changes (atoms go
// back to their owners at the last list build, not at step 0); so a
// checkpoint stores them and a restart passes them back as `given`, and the
// sums, g_ewald and the forces stay bit for bit those of the uninterrupted run.
ChargeSums sum_charges(const Atoms& atoms, OrderedSum& sums, MPI_Comm comm,
                       const std::optional<ChargeSums>& given);

}  // namespace cb::md
