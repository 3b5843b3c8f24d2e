#include "solvers/md/pppm_grid.hpp"

#include "core/error.hpp"

#include <algorithm>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;

long long volume(const Brick& b) {
  long long v = 1;
  for (int a = 0; a < 3; ++a) v *= std::max(0, b.hi[a] - b.lo[a]);
  return v;
}

// The brick that is `base` along every axis but `axis`, [lo, hi) there.
Brick slab(const Brick& base, int axis, int lo, int hi) {
  Brick b = base;
  b.lo[axis] = lo;
  b.hi[axis] = hi;
  return b;
}

// A brick as the device sees it: its extents and its first point's indices
// in the field of the out brick.
struct Slab {
  int nx, ny, nz, x0, y0, z0;
  // The field element of item n of a packed slab (x fastest, then y, z, and
  // the component c slowest).
  template <class Field>
  KOKKOS_INLINE_FUNCTION double& at(const Field& field, int n) const {
    const int x = n % nx, y = (n / nx) % ny, z = (n / (nx * ny)) % nz;
    const int c = n / (nx * ny * nz);
    return field(c, z + z0, y + y0, x + x0);
  }
};

Slab slab_of(const Brick& b, const Brick& out) {
  const Int3 e = b.extent();
  return {e[0], e[1], e[2], b.lo[0] - out.lo[0], b.lo[1] - out.lo[1], b.lo[2] - out.lo[2]};
}

using Buffer = MessageBuffer<double>::DeviceView;

// The first `count` items of `from` (Slab::at order) into `buffer`. Free
// functions, not members: nvcc refuses device lambdas in private members.
void pack_slab(const PppmField& field, const Slab& from, const Buffer& buffer, int count) {
  Kokkos::parallel_for(
      "md::pppm_grid_pack", Policy(0, count),
      KOKKOS_LAMBDA(int n) { buffer(n) = from.at(field, n); });
}

// `buffer` stored into (or, with `add`, added to) the first `count` items of `into`.
void unpack_slab(const PppmField& field, const Slab& into, const Buffer& buffer, int count,
                 bool add) {
  Kokkos::parallel_for(
      "md::pppm_grid_unpack", Policy(0, count), KOKKOS_LAMBDA(int n) {
        double& v = into.at(field, n);
        v = add ? v + buffer(n) : buffer(n);
      });
}

}  // namespace

PppmGrid::PppmGrid(const Decomposition& decomposition, const Int3& mesh, const Brick& in,
                   const Brick& out, int max_components, const CommOptions& comm_options)
    : comm_(decomposition.comm()), in_(in), out_(out) {
  const char* axis_name[3] = {"x", "y", "z"};
  // 0: fine; 1 + axis: a ghost slab reaches past the neighbour's brick along
  // axis; 4 + axis: a rank owns no points along axis (reported first).
  int problem = 0;
  long long largest = 0;
  for (int a = 0; a < 3; ++a) {
    // The mesh is periodic even where the box is not (a slab's k-space box).
    const int lower = decomposition.wrapped_neighbor(a, 0);
    const int upper = decomposition.wrapped_neighbor(a, 1);
    const int need_below = in.lo[a] - out.lo[a], need_above = out.hi[a] - in.hi[a];
    // What the neighbours need of my owned points: the upper one's lower ghosts
    // and the lower one's upper ghosts.
    int give_up = 0, give_down = 0;
    MPI_Sendrecv(&need_below, 1, MPI_INT, lower, 0, &give_up, 1, MPI_INT, upper, 0, comm_,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&need_above, 1, MPI_INT, upper, 1, &give_down, 1, MPI_INT, lower, 1, comm_,
                 MPI_STATUS_IGNORE);
    const int owned = in.hi[a] - in.lo[a];
    if (owned <= 0) problem = std::max(problem, 4 + a);
    if (give_up > owned || give_down > owned) problem = std::max(problem, 1 + a);
    // Along axes already swapped the slabs span the out brick, along the
    // others the owned one (so that edges and corners arrive).
    Brick base = in;
    for (int b = 0; b < a; ++b) {
      base.lo[b] = out.lo[b];
      base.hi[b] = out.hi[b];
    }
    swaps_.push_back({slab(base, a, in.hi[a] - give_up, in.hi[a]),
                      slab(base, a, out.lo[a], in.lo[a]), upper, lower});
    swaps_.push_back({slab(base, a, in.lo[a], in.lo[a] + give_down),
                      slab(base, a, in.hi[a], out.hi[a]), lower, upper});
    largest = std::max({largest, volume(swaps_[swaps_.size() - 2].send),
                        volume(swaps_[swaps_.size() - 2].recv), volume(swaps_.back().send),
                        volume(swaps_.back().recv)});
  }
  int worst = 0;
  MPI_Allreduce(&problem, &worst, 1, MPI_INT, MPI_MAX, comm_);
  if (worst != 0) {
    const int a = (worst - 1) % 3;
    const int ranks = decomposition.dims()[a];
    const std::string what =
        "md: kspace pppm: the mesh of " + std::to_string(mesh[a]) + " points along " +
        axis_name[a] + " does not divide across " + std::to_string(ranks) + " ranks along " +
        axis_name[a] +
        (worst > 3 ? ": a rank would own no mesh points"
                   : ": the charge stencils of a rank's atoms reach past its neighbour's mesh "
                     "points") +
        " (use fewer ranks along " + axis_name[a] + ", a larger [kspace] mesh or a lower order)";
    throw InputError(what);
  }
  const auto size = static_cast<std::size_t>(largest * max_components);
  send_ = MessageBuffer<double>("md::pppm_grid_send", size, comm_options);
  recv_ = MessageBuffer<double>("md::pppm_grid_recv", size, comm_options);
}

PppmField PppmGrid::make_field(const std::string& label, int components) const {
  const Int3 e = out_.extent();
  return PppmField(label, components, e[2], e[1], e[0]);
}

void PppmGrid::forward(const PppmField& field) {
  for (const Swap& s : swaps_) exchange(field, s.send, s.send_rank, s.recv, s.recv_rank, false);
}

void PppmGrid::reverse(const PppmField& field) {
  for (auto s = swaps_.rbegin(); s != swaps_.rend(); ++s)
    exchange(field, s->recv, s->recv_rank, s->send, s->send_rank, true);
}

// Packs `pack` of every component (component, z, y, x order, x fastest),
// sends it to `to`, receives the same shape from `from` and stores it in
// `unpack` (or adds it there).
void PppmGrid::exchange(const PppmField& field, const Brick& pack, int to, const Brick& unpack,
                        int from, bool add) {
  const int components = static_cast<int>(field.extent(0));
  const int send_count = static_cast<int>(volume(pack)) * components;
  const int recv_count = static_cast<int>(volume(unpack)) * components;
  if (send_count > 0) {
    pack_slab(field, slab_of(pack, out_), send_.device(), send_count);
    Kokkos::fence();
  }
  MPI_Sendrecv(send_.outgoing(send_count), send_count, MPI_DOUBLE, to, 2, recv_.incoming(),
               recv_count, MPI_DOUBLE, from, 2, comm_, MPI_STATUS_IGNORE);
  if (recv_count == 0) return;
  recv_.received(recv_count);
  unpack_slab(field, slab_of(unpack, out_), recv_.device(), recv_count, add);
}

}  // namespace cb::md
