// Atom communication over the Cartesian decomposition (the spatial
// decomposition of Plimpton 1995, as LAMMPS's Comm does it):
//  - borders(): ghost atoms within `rcomm` of a sub-box face are copied to the
//    neighbouring rank in swaps (x low, x high, y low, ...); the y and z
//    swaps also send ghosts received earlier, so edges and corners fill.
//    Where `rcomm` is thicker than the thinnest sub-box along an axis, that
//    axis takes several hops (LAMMPS's maxneed): each later pair of swaps
//    passes on the ghosts that arrived in the pair before, those of them the
//    neighbour still needs (the slabs of LAMMPS CommBrick::setup).
//    Across a periodic face the copy is shifted by the box length. The send
//    lists are kept until the next rebuild.
//  - forward(): ghost positions refreshed from their owners every step.
//  - reverse(): forces accumulated on ghosts added back to their owners
//    (half lists with Newton's third law across ranks), swaps in reverse order.
//  - migrate(): at a rebuild, owned atoms that left the sub-box along an axis
//    go to the neighbours along that axis (atoms move less than a sub-box
//    between rebuilds), which keep those inside their own sub-box. Owned
//    atoms stay in id order (arrivals are merged in), so the order in which
//    forces are summed is the same after a restart (load_particles sorts too).
// Atoms travel as the records of atom_records.hpp (every listed per-atom
// property). Packing runs on the device; MPI sees the device buffers or host
// mirrors as [parallel] gpu_aware_mpi says (cb::MessageBuffer); a rank that is
// its own neighbour copies on the device without MPI.
#pragma once

#include "core/decomposition.hpp"
#include "core/message_buffer.hpp"
#include "solvers/md/atom_records.hpp"

#include <vector>

namespace cb::md {

class AtomComm {
 public:
  AtomComm(const Decomposition& decomposition, const LocalBox& box, double rcomm,
           const CommOptions& options = {});

  void borders(Atoms& atoms);
  // Ghost positions refreshed from their owners, shifted across periodic faces.
  void forward(Atoms& atoms) { forward(atoms.x, true); }
  // Ghost entries of `field` (sized like atoms.x) refreshed from their
  // owners; `shifted` for positions, not for velocities.
  void forward(const Vec3View& field, bool shifted);
  // Adds the ghost entries of `field` (sized like atoms.x) to their owners.
  void reverse(Atoms& atoms, const Vec3View& field);
  // Wraps owned positions into the box along its periodic axes (updating
  // image flags), then migrates. Returns the atom count over all ranks
  // afterwards.
  std::int64_t wrap_and_migrate(Atoms& atoms);
  // Collective, after the box changed size (the rank grid unchanged): the
  // ghost slabs and periodic shifts of the new box. Throws RunError when the
  // box or a sub-box became too thin for the hops set up at construction.
  void set_box(const LocalBox& box, long step);
  // Collective: the owned atoms outside the box along a non-periodic axis
  // (LAMMPS loses them at its next exchange), over all ranks.
  std::int64_t outside_fixed_faces(const Atoms& atoms) const;

  // Public for the CUDA extended-lambda rule; not part of the interface.
  struct Swap {
    int axis = 0, side = 0;
    int send_rank = 0, recv_rank = 0;
    // Atoms with slab_lo <= x[axis] < slab_hi are sent; the first hop looks at
    // every atom held when the axis begins, later hops only at the ghosts
    // that arrived in the hop before.
    int hop = 0;
    double slab_lo = 0, slab_hi = 0;
    bool wraps = false;  // across a periodic face of the box
    GhostShift shift;    // across a periodic face
    int nsend = 0, nrecv = 0, first_recv = 0;
    IntView send_list;
  };
  int select_border_atoms(Swap& swap, const Atoms& atoms, int nfirst, int nlast);
  void pack_forward(const Swap& swap, const Vec3View& field, bool shifted);
  void unpack_forward(const Swap& swap, const Vec3View& field);
  void pack_ghost_forces(const Swap& swap, const Vec3View& field);
  void add_ghost_forces(const Swap& swap, const Vec3View& field);
  void wrap_positions(Atoms& atoms);
  int pack_leavers(Atoms& atoms, int axis);
  int unpack_arrivals(Atoms& atoms, int axis, int count);
  void merge_arrivals(Atoms& atoms, int kept);

 private:
  // Sends `nsend` items of `width` doubles from send_ to `send_rank` and
  // receives from `recv_rank` into recv_; returns the items received.
  int exchange(int send_rank, int recv_rank, int nsend, int width);
  void add_swaps(const Decomposition& decomposition, int axis);
  // The slab and shift of `swap` in the current box.
  void set_geometry(Swap& swap) const;
  void reserve_buffers(std::size_t doubles);

  MPI_Comm comm_;
  int rank_ = 0;
  Int3 dims_{1, 1, 1};
  LocalBox box_;
  Bool3 periodic_{true, true, true};
  double rcomm_;
  std::vector<Swap> swaps_;
  MessageBuffer<double> send_, recv_;
  // Migration scratch: owned atoms leaving and staying along an axis, the
  // received records kept, each atom's place in id order and the atom at
  // each place, the ids of the arrivals in order.
  IntView leaving_, staying_, accepted_, slot_, order_;
  IdView arrival_ids_;
};

}  // namespace cb::md
