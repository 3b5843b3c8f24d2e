// Particle output for visualisation (docs/checkpoint-format.md, "Particle
// output"):
// - LAMMPS text dumps, one file per output step,
//   `<out>/dumps/dump_<step:08d>.lammpstrj` (the `dump custom` layout: ITEM:
//   TIMESTEP, NUMBER OF ATOMS, BOX BOUNDS, ATOMS id type x y z ...), atoms
//   sorted by id; OVITO opens the series as dump_*.lammpstrj.
// - XDMF + HDF5: `<out>/particles/particles_<step:08d>.h5` (global per-atom
//   arrays at rank offsets) and `<out>/particles.xmf`, a temporal collection
//   of Polyvertex grids that ParaView and VisIt open as one animated dataset.
//   A molecular run's bonds are a second temporal collection of Polyline grids
//   (2 nodes a cell: the rows of the bonded atoms in that step's arrays, from
//   /bonds, with /bond_type per cell); ParaView shows atoms and bonds as two
//   blocks. Positions are wrapped into a periodic box, so a bond across its
//   boundary is drawn as a line through the box.
#pragma once

#include "core/particle_solver.hpp"
#include "io/atom_table.hpp"

#include <mpi.h>

#include <string>
#include <vector>

namespace cb::io {

// Collective over `comm`: gathers the atoms to rank 0, which writes `path`
// (via a temporary and a rename). `columns` are names of
// standard_atom_columns() or of local.extra_names. Throws RunError on failure.
void write_lammps_dump(const std::string& path, MPI_Comm comm, long step, const ParticleBox& box,
                       const AtomTable& local, const std::vector<std::string>& columns);

// `<dir>/dump_<step:08d>.lammpstrj`
std::string dump_path(const std::string& dir, long step);

class ParticleXdmfOutput {
 public:
  // On restart, the series already in `<out_dir>/particles.xmf` is kept up to
  // `first_step` (later entries belong to the abandoned future and are dropped).
  ParticleXdmfOutput(std::string out_dir, MPI_Comm comm, long first_step = 0);

  // Collective. Writes the particles file (id, type, x always; v when
  // `velocities`, image when `images`, every extra column of `local`, and the
  // bonds of local.atoms.topology), then rewrites particles.xmf atomically.
  void write(long step, double time, const ParticleBox& box, const AtomTable& local,
             bool velocities, bool images);

  struct Entry {
    long step = 0;
    double time = 0.0;
    long long atoms = 0;
    long long bonds = 0;             // Polyline cells in /bonds (molecular runs)
    std::string file;                // relative to out_dir
    std::vector<std::string> names;  // datasets besides x and cells
    bool cells = true;               // the file has the connectivity /cells
  };

 private:
  // On rank 0: records the written step and rewrites particles.xmf; returns
  // "" or what failed.
  std::string add_to_series(Entry entry);
  void write_xdmf() const;

  std::string out_dir_;
  MPI_Comm comm_;
  std::vector<Entry> series_;
};

}  // namespace cb::io
