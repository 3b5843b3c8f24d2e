// The atoms of one rank on the device, structure of arrays: owned atoms at
// [0, nlocal), ghost atoms (copies of neighbours' atoms and periodic images)
// at [nlocal, nlocal + nghost). Arrays grow (rarely, at neighbour rebuilds);
// nothing is allocated in an ordinary time step.
#pragma once

#include "core/types.hpp"

#include <cstdint>

namespace cb::md {

using Vec3View = Kokkos::View<double* [3], MemSpace>;
using IntView = Kokkos::View<int*, MemSpace>;
using IdView = Kokkos::View<std::int64_t*, MemSpace>;
using ImageView = Kokkos::View<int* [3], MemSpace>;

// Periodic image of a ghost relative to its owner, as one code:
// (sx + 1) + 3 (sy + 1) + 9 (sz + 1) for shifts s in {-1, 0, 1} box lengths.
constexpr int owned_image_code = 13;

struct Atoms {
  int nlocal = 0;
  int nghost = 0;
  std::int64_t total = 0;  // over all ranks
  // Owned and ghost.
  Vec3View x, f;
  IdView id;
  IntView type;  // 1-based
  IntView code;  // image code (owned_image_code for owned atoms)
  // Owned only.
  Vec3View v;
  ImageView image;   // LAMMPS image flags
  Vec3View x_build;  // positions at the last neighbour build
  Vec3View x_ref;    // unwrapped positions when the MSD reference was taken

  int nall() const { return nlocal + nghost; }
  int capacity() const { return static_cast<int>(x.extent(0)); }

  // Grows every array to hold at least `n` atoms, keeping the contents.
  void reserve(int n) {
    if (n <= capacity()) return;
    const int grown = n + n / 5 + 64;
    Kokkos::resize(x, grown);
    Kokkos::resize(f, grown);
    Kokkos::resize(id, grown);
    Kokkos::resize(type, grown);
    Kokkos::resize(code, grown);
    Kokkos::resize(v, grown);
    Kokkos::resize(image, grown);
    Kokkos::resize(x_build, grown);
    Kokkos::resize(x_ref, grown);
  }

  void allocate(int n) {
    x = Vec3View("md::x", 0);
    f = Vec3View("md::f", 0);
    id = IdView("md::id", 0);
    type = IntView("md::type", 0);
    code = IntView("md::image_code", 0);
    v = Vec3View("md::v", 0);
    image = ImageView("md::image", 0);
    x_build = Vec3View("md::x_build", 0);
    x_ref = Vec3View("md::x_ref", 0);
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
