// When to rebuild the neighbour lists, as LAMMPS Neighbor::decide does for
// `neigh_modify every N delay D check yes|no`: on steps where the steps since
// the last build reach `delay` and are a multiple of `every`, and with `check`
// only when some atom moved more than skin / 2 since that build.
#pragma once

#include "solvers/md/atoms.hpp"
#include "solvers/md/params.hpp"

#include <mpi.h>

namespace cb::md {

class RebuildSchedule {
 public:
  RebuildSchedule(const Params& params, MPI_Comm comm);

  // One more step since the last build.
  void advance() { ++ago_; }
  // Collective when `check` is on (global largest displacement).
  bool due(const Atoms& atoms) const;
  // After a build: remembers the owned positions and restarts the count.
  void built(const Atoms& atoms);

  // Steps since the last build (LAMMPS Neighbor::ago), for checkpoints.
  long ago() const { return ago_; }
  void set_ago(long ago) { ago_ = ago; }

 private:
  int every_, delay_;
  bool check_;
  double skin_;
  MPI_Comm comm_;
  long ago_ = 0;
};

// The largest squared displacement of an owned atom since the last build.
double max_displacement_sq(const Atoms& atoms);
// x_build = x for the owned atoms.
void save_build_positions(const Atoms& atoms);

}  // namespace cb::md
