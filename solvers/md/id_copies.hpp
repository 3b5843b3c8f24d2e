// The copies of each atom id on a rank: the owned atom and its ghost images.
// Bonded terms and constraint clusters find their partners through them.
#pragma once

#include "solvers/md/atoms.hpp"

#include <cstdint>

namespace cb::md {

// Every local copy (owned atom or ghost image) of each atom id held here.
struct IdCopies {
  IntView first;  // by id: the lowest local index (the owned copy if any), -1 if none
  IntView next;   // by local index: another copy of the same id, -1 at the end

  // The copy of atom `id` nearest to the point p: the image that an atom at p
  // bonded to it sees. A choice by geometry alone, so it does not depend on
  // the order or the set of the ghosts (a restart builds them anew): the
  // arithmetic, and so the bits, are those of the uninterrupted run.
  KOKKOS_INLINE_FUNCTION int nearest(const Vec3View& x, std::int64_t id, const double p[3]) const {
    int best = -1;
    double best_r2 = 0.0;
    for (int k = first(id); k >= 0; k = next(k)) {
      double r2 = 0.0;
      for (int d = 0; d < 3; ++d) r2 += (x(k, d) - p[d]) * (x(k, d) - p[d]);
      if (best < 0 || r2 < best_r2 || (r2 == best_r2 && k < best)) {
        best = k;
        best_r2 = r2;
      }
    }
    return best;
  }
};

// Maps the copies of every id among the owned atoms and ghosts; `first` must
// be sized past the largest id, `next` grows with the atoms.
void map_id_copies(const Atoms& atoms, IdCopies& copies);

}  // namespace cb::md
