// When to rebuild the neighbour lists, as LAMMPS Neighbor::decide does for
// `neigh_modify every N delay D check yes|no`: on steps where the steps since
// the last build reach `delay` and are a multiple of `every`, and with `check`
// only when some atom moved more than skin / 2 since that build. When the box
// changes size (a barostat), that distance shrinks by half the distance the
// box corners moved since the build (LAMMPS Neighbor::check_distance's
// boxcheck): periodic images move with the box.
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
  bool due(const Atoms& atoms, const LocalBox& box) const;
  // After a build: remembers the owned positions and the box, and restarts
  // the count.
  void built(const Atoms& atoms, const LocalBox& box);

  // Steps since the last build (LAMMPS Neighbor::ago), for checkpoints.
  long ago() const { return ago_; }
  void set_ago(long ago) { ago_ = ago; }
  // The box corners at the last build (checkpoints of runs whose box changes).
  const double* build_lo() const { return build_lo_; }
  const double* build_hi() const { return build_hi_; }
  void set_build_corner(int corner, int axis, double value) {
    (corner == 0 ? build_lo_ : build_hi_)[axis] = value;
  }

 private:
  int every_, delay_;
  bool check_;
  double skin_;
  MPI_Comm comm_;
  long ago_ = 0;
  double build_lo_[3], build_hi_[3];
};

// The largest squared displacement of an owned atom since the last build.
double max_displacement_sq(const Atoms& atoms);
// x_build = x for the owned atoms.
void save_build_positions(const Atoms& atoms);

}  // namespace cb::md
