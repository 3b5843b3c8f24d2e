#include "solvers/md/pppm_grid.hpp"

#include "core/error.hpp"

#include <algorithm>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;

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

// Ghost slab `into` of every component from owned slab `from` of the same
// field (or added onto it), when both ends of a swap are this rank: no buffer,
// no message, the same numbers.
void copy_slab(const PppmField& field, const Slab& from, const Slab& into, bool add) {
  using Policy4 = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<4>>;
  const int components = static_cast<int>(field.extent(0));
  Kokkos::parallel_for(
      "md::pppm_grid_copy", Policy4({0, 0, 0, 0}, {components, into.nz, into.ny, into.nx}),
      KOKKOS_LAMBDA(int c, int z, int y, int x) {
        const double v = field(c, z + from.z0, y + from.y0, x + from.x0);
        double& target = field(c, z + into.z0, y + into.y0, x + into.x0);
        target = add ? target + v : v;
      });
}

}  // namespace

PppmGrid::PppmGrid(const Decomposition& decomposition, const Int3& mesh, const Brick& in,
                   const Brick& out, int max_components, const CommOptions& comm_options)
    : comm_(decomposition.comm()), in_(in), out_(out) {
  MPI_Comm_rank(comm_, &rank_);
  const char* axis_name[3] = {"x", "y", "z"};
  // 0: fine; 1 + axis: the ghost layers along axis cannot be filled (a
  // neighbour needs more than this rank holds); 4 + axis: a rank owns no points
  // along axis (reported first).
  int problem = 0;
  long long largest = 0;
  for (int a = 0; a < 3; ++a) {
    if (in.hi[a] <= in.lo[a]) problem = std::max(problem, 4 + a);
    if (!add_axis_swaps(decomposition, a)) problem = std::max(problem, 1 + a);
  }
  for (const Swap& s : swaps_) largest = std::max({largest, s.send.points(), s.recv.points()});
  int worst = 0;
  MPI_Allreduce(&problem, &worst, 1, MPI_INT, MPI_MAX, comm_);
  if (worst != 0) {
    const int a = (worst - 1) % 3;
    const int ranks = decomposition.dims()[a];
    const std::string what =
        "md: kspace pppm: the mesh of " + std::to_string(mesh[a]) + " points along " +
        axis_name[a] + " does not divide across " + std::to_string(ranks) + " ranks along " +
        axis_name[a] +
        (worst > 3
             ? ": a rank would own no mesh points"
             : ": the charge stencils of a rank's atoms reach past what its neighbours hold") +
        " (use fewer ranks along " + axis_name[a] + ", a larger [kspace] mesh or a lower order)";
    throw InputError(what);
  }
  const auto size = static_cast<std::size_t>(largest * max_components);
  send_ = MessageBuffer<double>("md::pppm_grid_send", size, comm_options);
  recv_ = MessageBuffer<double>("md::pppm_grid_recv", size, comm_options);
}

// Hops along axis `a` until every rank's ghost layers on both sides are
// filled (LAMMPS GridComm's multiple swaps): a hop sends up the layers the
// upper neighbour still lacks among those the sender holds (owned, and ghosts
// filled in earlier hops), then down the mirror image. One hop where each
// ghost slab lies within the neighbour's owned points. Collective; false on
// every rank when a hop fills nothing new anywhere while layers are missing.
bool PppmGrid::add_axis_swaps(const Decomposition& decomposition, int a) {
  const Brick &in = in_, &out = out_;
  // The mesh is periodic even where the box is not (a slab's k-space box).
  const int lower = decomposition.wrapped_neighbor(a, 0);
  const int upper = decomposition.wrapped_neighbor(a, 1);
  const int owned = std::max(0, in.hi[a] - in.lo[a]);
  const int need_below = in.lo[a] - out.lo[a], need_above = out.hi[a] - in.hi[a];
  // What the neighbours need of my layers: the upper one's lower ghosts and
  // the lower one's upper ghosts.
  int give_up = 0, give_down = 0;
  MPI_Sendrecv(&need_below, 1, MPI_INT, lower, 0, &give_up, 1, MPI_INT, upper, 0, comm_,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&need_above, 1, MPI_INT, upper, 1, &give_down, 1, MPI_INT, lower, 1, comm_,
               MPI_STATUS_IGNORE);
  // Along axes already swapped the slabs span the out brick, along the
  // others the owned one (so that edges and corners arrive).
  Brick base = in;
  for (int b = 0; b < a; ++b) {
    base.lo[b] = out.lo[b];
    base.hi[b] = out.hi[b];
  }
  int below = 0, above = 0;        // depth of my ghost layers filled so far
  int sent_up = 0, sent_down = 0;  // depth of the neighbours' ghost layers I filled
  for (;;) {
    int missing = below < need_below || above < need_above ? 1 : 0, any_missing = 0;
    MPI_Allreduce(&missing, &any_missing, 1, MPI_INT, MPI_MAX, comm_);
    if (any_missing == 0) return true;
    const int provide_up = std::min(give_up, owned + below);
    const int provide_down = std::min(give_down, owned + above);
    int got_below = 0, got_above = 0;
    MPI_Sendrecv(&provide_up, 1, MPI_INT, upper, 2, &got_below, 1, MPI_INT, lower, 2, comm_,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&provide_down, 1, MPI_INT, lower, 3, &got_above, 1, MPI_INT, upper, 3, comm_,
                 MPI_STATUS_IGNORE);
    int progress = got_below > below || got_above > above ? 1 : 0, any_progress = 0;
    MPI_Allreduce(&progress, &any_progress, 1, MPI_INT, MPI_MAX, comm_);
    if (any_progress == 0) return false;
    swaps_.push_back({slab(base, a, in.hi[a] - provide_up, in.hi[a] - sent_up),
                      slab(base, a, in.lo[a] - got_below, in.lo[a] - below), upper, lower});
    swaps_.push_back({slab(base, a, in.lo[a] + sent_down, in.lo[a] + provide_down),
                      slab(base, a, in.hi[a] + above, in.hi[a] + got_above), lower, upper});
    below = got_below;
    above = got_above;
    sent_up = provide_up;
    sent_down = provide_down;
  }
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
  if (to == rank_ && from == rank_) {
    if (unpack.points() > 0) copy_slab(field, slab_of(pack, out_), slab_of(unpack, out_), add);
    return;
  }
  const int components = static_cast<int>(field.extent(0));
  const int send_count = static_cast<int>(pack.points()) * components;
  const int recv_count = static_cast<int>(unpack.points()) * components;
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
