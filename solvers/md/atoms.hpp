// The atoms of one rank on the device, structure of arrays: owned atoms at
// [0, nlocal), ghost atoms (copies of neighbours' atoms and periodic images)
// at [nlocal, nlocal + nghost). Arrays grow (rarely, at neighbour rebuilds);
// nothing is allocated in an ordinary time step.
#pragma once

#include "core/types.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

namespace cb::md {

// Per-atom rows are LayoutRight on every backend (as LAMMPS's KOKKOS package keeps x, v
// and f): the first n rows of a view are then one contiguous block, which host copies of
// the owned atoms rely on. CUDA's and HIP's default, LayoutLeft, would stride them.
using Vec3View = Kokkos::View<double* [3], Kokkos::LayoutRight, MemSpace>;
using IntView = Kokkos::View<int*, MemSpace>;
using IdView = Kokkos::View<std::int64_t*, MemSpace>;
using ImageView = Kokkos::View<int* [3], Kokkos::LayoutRight, MemSpace>;
using ScalarView = Kokkos::View<double*, MemSpace>;
// Per-atom rows of integers whose width is fixed for a run (topology.hpp).
using RowsView = Kokkos::View<std::int64_t**, Kokkos::LayoutRight, MemSpace>;

// Periodic image of a ghost relative to its owner, as one code:
// (sx + 1) + 3 (sy + 1) + 9 (sz + 1) for shifts s in {-1, 0, 1} box lengths.
constexpr int owned_image_code = 13;

// Which atoms carry a per-atom property: owned atoms only, or their ghost
// copies too (sent with the positions when ghosts are rebuilt).
enum class Reach { owned, ghosts };

struct Atoms {
  int nlocal = 0;
  int nghost = 0;
  std::int64_t total = 0;  // over all ranks
  // Owned and ghost, handled by each exchange itself: the position (shifted
  // across periodic faces; it decides which rank owns an atom), the force
  // (recomputed every step; ghost shares go home by reverse communication)
  // and the periodic image code of a ghost (owned_image_code when owned).
  Vec3View x, f;
  IntView code;
  // The per-atom properties of for_each_property.
  IdView id;
  IntView type;      // 1-based
  Vec3View v;        // owned only
  ImageView image;   // LAMMPS image flags (owned only)
  Vec3View x_build;  // positions at the last neighbour build (owned only)
  Vec3View x_ref;    // unwrapped positions when the MSD reference was taken (owned only)
  // With charges (atom_style charge or full) only: the charge and the
  // molecule id (0 for none), for owned atoms and ghosts.
  bool charged = false;
  ScalarView q;
  IdView molecule;
  // With molecular topology only (topology.hpp): per owned atom, every bonded
  // term it takes part in (slots of type and atom ids, by TermKind) and its
  // special neighbours (1-2, 1-3, 1-4). The widths are set before allocate()
  // and stay fixed for the run.
  int term_width[4] = {0, 0, 0, 0};
  int special_width = 0;
  RowsView terms[4];
  RowsView special;
  // With constraints only (constraints.hpp): per owned atom, the cluster it
  // belongs to (shape, atom ids, target codes; a row of zeros for none) and
  // the constraint force of the last step, which the next step's kicks use.
  int cluster_width = 0;
  RowsView cluster;
  Vec3View f_constraint;

  // Every per-atom property besides x, f and code, listed once: allocation,
  // growth, the records that carry an owned atom to another rank (migration,
  // loading, restart: atom_records.hpp), the id-order sort and the ghost copies
  // (Reach::ghosts) iterate this list. A new property (charge q, molecule id)
  // is a member above and one line here. Calls visit(label, view, reach).
  template <class Self, class Visit>
  static void for_each_property(Self& atoms, Visit&& visit) {
    visit("md::id", atoms.id, Reach::ghosts);
    visit("md::type", atoms.type, Reach::ghosts);
    visit("md::v", atoms.v, Reach::owned);
    visit("md::image", atoms.image, Reach::owned);
    visit("md::x_build", atoms.x_build, Reach::owned);
    visit("md::x_ref", atoms.x_ref, Reach::owned);
    if (atoms.charged) {
      visit("md::q", atoms.q, Reach::ghosts);
      visit("md::molecule", atoms.molecule, Reach::ghosts);
    }
    const char* term_labels[4] = {"md::bonds", "md::angles", "md::dihedrals", "md::impropers"};
    for (int kind = 0; kind < 4; ++kind) {
      if (atoms.term_width[kind] > 0) visit(term_labels[kind], atoms.terms[kind], Reach::owned);
    }
    if (atoms.special_width > 0) visit("md::special", atoms.special, Reach::owned);
    if (atoms.cluster_width > 0) {
      visit("md::cluster", atoms.cluster, Reach::owned);
      visit("md::f_constraint", atoms.f_constraint, Reach::owned);
    }
  }

  // The same properties (and widths) as `other`, no atoms.
  void allocate_like(const Atoms& other, int n) {
    charged = other.charged;
    for (int kind = 0; kind < 4; ++kind) term_width[kind] = other.term_width[kind];
    special_width = other.special_width;
    cluster_width = other.cluster_width;
    allocate(n);
  }

  int nall() const { return nlocal + nghost; }
  int capacity() const { return static_cast<int>(x.extent(0)); }

  // Grows every array to hold at least `n` atoms, keeping the contents.
  void reserve(int n) {
    if (n <= capacity()) return;
    const int grown = n + n / 5 + 64;
    Kokkos::resize(x, grown);
    Kokkos::resize(f, grown);
    Kokkos::resize(code, grown);
    for_each_property(*this, [grown](const char*, auto& view, Reach) {
      if constexpr (std::decay_t<decltype(view)>::rank_dynamic == 2) {
        Kokkos::resize(view, grown, view.extent(1));
      } else {
        Kokkos::resize(view, grown);
      }
    });
  }

  // Sets `charged` and the widths first: which properties exist.
  void allocate(int n) {
    x = Vec3View("md::x", 0);
    f = Vec3View("md::f", 0);
    code = IntView("md::image_code", 0);
    for (int kind = 0; kind < 4; ++kind) terms[kind] = RowsView("md::terms", 0, term_width[kind]);
    special = RowsView("md::special", 0, special_width);
    cluster = RowsView("md::cluster", 0, cluster_width);
    for_each_property(*this, [](const char* label, auto& view, Reach) {
      using View = std::decay_t<decltype(view)>;
      if constexpr (View::rank_dynamic == 2) {
        view = View(std::string(label), 0, view.extent(1));
      } else {
        view = View(std::string(label), 0);
      }
    });
    reserve(n);
  }
};

// The part of the box a rank owns, and the whole periodic box.
struct LocalBox {
  double sublo[3] = {0, 0, 0}, subhi[3] = {1, 1, 1};
  double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  double length(int d) const { return hi[d] - lo[d]; }
  double volume() const { return length(0) * length(1) * length(2); }
};

}  // namespace cb::md
