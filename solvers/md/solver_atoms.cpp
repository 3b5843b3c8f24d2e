// MdSolver: atoms in and out of the device (load, host copies, per-atom
// output quantities, the non-finite check). Host code at the I/O edges.
#include "core/error.hpp"
#include "solvers/md/solver.hpp"

#include <algorithm>
#include <numeric>

namespace cb::md {
namespace {

// id, type, x (3), v (3), image (3), then x_build (3) when known.
constexpr int record_width = 11;
constexpr int record_width_with_build = 14;

// Rank coordinate along `axis` whose sub-box holds x (clamped at the box
// ends: between rebuilds an atom may sit slightly outside, as in LAMMPS).
int owner_coordinate(const Params& p, const Int3& dims, int axis, double x) {
  const double lo = p.box.lo[axis], length = p.box.hi[axis] - p.box.lo[axis];
  const int cells = p.geometry.cells[axis];
  int c = 0;
  for (int k = 1; k < dims[axis]; ++k) {
    const double start = lo + length * Decomposition::block_offset(cells, dims[axis], k) / cells;
    if (x >= start) c = k;
  }
  return c;
}

// Tail terms summed over type pairs (both orders), LAMMPS Pair::init.
kernels::md::TailTerms tail_terms(const Params& p, const std::vector<double>& type_counts) {
  kernels::md::TailTerms sum;
  for (int i = 1; i <= p.atom_types; ++i) {
    for (int j = i; j <= p.atom_types; ++j) {
      const kernels::md::TailTerms t =
          kernels::md::lj_tail(type_counts[i - 1], type_counts[j - 1], p.pair_of(i, j));
      const double times = i == j ? 1.0 : 2.0;
      sum.etail += times * t.etail;
      sum.ptail += times * t.ptail;
    }
  }
  return sum;
}

}  // namespace

void MdSolver::load_particles(const HostParticles& given) {
  const MPI_Comm comm = decomposition_.comm();
  const int ranks = decomposition_.size();
  const Int3& dims = decomposition_.dims();
  std::vector<int> all_coords(3 * ranks);
  MPI_Allgather(decomposition_.coords().data(), 3, MPI_INT, all_coords.data(), 3, MPI_INT, comm);
  auto rank_of = [&](const int c[3]) {
    for (int r = 0; r < ranks; ++r) {
      if (all_coords[3 * r] == c[0] && all_coords[3 * r + 1] == c[1] &&
          all_coords[3 * r + 2] == c[2])
        return r;
    }
    return 0;
  };
  // With the positions at the last build, each atom goes back to the rank
  // that owned it then (and the skin check continues): a bit-for-bit restart.
  int mine = given.x_build.size() == 3 * given.size() ? 1 : 0, everywhere = 0;
  MPI_Allreduce(&mine, &everywhere, 1, MPI_INT, MPI_MIN, comm);
  const bool with_build = everywhere == 1;
  const int width = with_build ? record_width_with_build : record_width;
  const std::vector<double>& place = with_build ? given.x_build : given.x;
  std::vector<std::vector<double>> outgoing(ranks);
  for (std::size_t a = 0; a < given.size(); ++a) {
    int c[3];
    for (int d = 0; d < 3; ++d) c[d] = owner_coordinate(params_, dims, d, place[3 * a + d]);
    std::vector<double>& out = outgoing[rank_of(c)];
    out.push_back(static_cast<double>(given.id[a]));
    out.push_back(given.type[a]);
    for (int d = 0; d < 3; ++d) out.push_back(given.x[3 * a + d]);
    for (int d = 0; d < 3; ++d) out.push_back(given.v[3 * a + d]);
    for (int d = 0; d < 3; ++d) out.push_back(given.image[3 * a + d]);
    if (with_build) {
      for (int d = 0; d < 3; ++d) out.push_back(given.x_build[3 * a + d]);
    }
  }
  std::vector<int> send_counts(ranks), recv_counts(ranks), send_offsets(ranks), recv_offsets(ranks);
  std::vector<double> send;
  for (int r = 0; r < ranks; ++r) {
    send_counts[r] = static_cast<int>(outgoing[r].size());
    send_offsets[r] = static_cast<int>(send.size());
    send.insert(send.end(), outgoing[r].begin(), outgoing[r].end());
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_offsets.begin(), 0);
  std::vector<double> received(recv_offsets.back() + recv_counts.back());
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_DOUBLE, received.data(),
                recv_counts.data(), recv_offsets.data(), MPI_DOUBLE, comm);

  // Owned atoms in id order: the local order is then a function of the atoms
  // alone, not of where they came from (restarts are bit-for-bit).
  const int n = static_cast<int>(received.size() / width);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return received[a * width] < received[b * width]; });
  atoms_.reserve(n);
  atoms_.nlocal = n;
  atoms_.nghost = 0;
  auto id = Kokkos::create_mirror_view(atoms_.id);
  auto type = Kokkos::create_mirror_view(atoms_.type);
  auto code = Kokkos::create_mirror_view(atoms_.code);
  auto x = Kokkos::create_mirror_view(atoms_.x);
  auto v = Kokkos::create_mirror_view(atoms_.v);
  auto image = Kokkos::create_mirror_view(atoms_.image);
  auto x_ref = Kokkos::create_mirror_view(atoms_.x_ref);
  auto x_build = Kokkos::create_mirror_view(atoms_.x_build);
  std::vector<double> type_counts(params_.atom_types, 0.0), all_counts(params_.atom_types);
  for (int k = 0; k < n; ++k) {
    const double* in = &received[order[k] * width];
    id(k) = static_cast<std::int64_t>(in[0]);
    type(k) = static_cast<int>(in[1]);
    code(k) = owned_image_code;
    if (type(k) < 1 || type(k) > params_.atom_types) {
      throw InputError("md: atom " + std::to_string(id(k)) + " has type " +
                       std::to_string(type(k)) + ", outside 1.." +
                       std::to_string(params_.atom_types));
    }
    type_counts[type(k) - 1] += 1.0;
    for (int d = 0; d < 3; ++d) {
      x(k, d) = in[2 + d];
      v(k, d) = in[5 + d];
      image(k, d) = static_cast<int>(in[8 + d]);
      x_ref(k, d) = x(k, d) + image(k, d) * local_.length(d);
      x_build(k, d) = with_build ? in[11 + d] : x(k, d);
    }
  }
  for (auto [device, host] : {std::make_pair(atoms_.x, x), std::make_pair(atoms_.v, v),
                              std::make_pair(atoms_.x_ref, x_ref)}) {
    Kokkos::deep_copy(device, host);
  }
  Kokkos::deep_copy(atoms_.id, id);
  Kokkos::deep_copy(atoms_.type, type);
  Kokkos::deep_copy(atoms_.code, code);
  Kokkos::deep_copy(atoms_.image, image);
  MPI_Allreduce(type_counts.data(), all_counts.data(), params_.atom_types, MPI_DOUBLE, MPI_SUM,
                comm);
  atoms_.total =
      static_cast<std::int64_t>(std::accumulate(all_counts.begin(), all_counts.end(), 0.0));
  const kernels::md::TailTerms tail = tail_terms(params_, all_counts);
  etail_ = tail.etail;
  ptail_ = tail.ptail;
  rebuild(false);
  // After rebuild(), which saved the current positions (and may have grown the arrays).
  const auto owned = std::make_pair(0, n);
  Kokkos::deep_copy(Kokkos::subview(atoms_.x_build, owned, Kokkos::ALL),
                    Kokkos::subview(x_build, owned, Kokkos::ALL));
  compute_forces();
  cached_.reset();
}

HostParticles MdSolver::owned_particles() {
  const int n = atoms_.nlocal;
  const auto range = std::make_pair(0, n);
  auto id =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(atoms_.id, range));
  auto type =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(atoms_.type, range));
  auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                               Kokkos::subview(atoms_.x, range, Kokkos::ALL));
  auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                               Kokkos::subview(atoms_.v, range, Kokkos::ALL));
  auto image = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(atoms_.image, range, Kokkos::ALL));
  HostParticles out;
  out.id.assign(id.data(), id.data() + n);
  out.type.assign(type.data(), type.data() + n);
  out.x.resize(3 * n);
  out.v.resize(3 * n);
  out.image.resize(3 * n);
  out.x_build.resize(3 * n);
  auto x_build = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(atoms_.x_build, range, Kokkos::ALL));
  for (int a = 0; a < n; ++a) {
    for (int d = 0; d < 3; ++d) {
      out.x_build[3 * a + d] = x_build(a, d);
      out.x[3 * a + d] = x(a, d);
      out.v[3 * a + d] = v(a, d);
      out.image[3 * a + d] = image(a, d);
    }
  }
  return out;
}

// "pe": pair energy per atom (half of each pair; no tail share), as LAMMPS
// compute pe/atom; "ke": m v^2 / 2.
std::vector<double> MdSolver::per_atom_values(int q) {
  const int n = atoms_.nlocal;
  if (static_cast<int>(scratch_.extent(0)) < atoms_.capacity()) {
    scratch_ = Vec3View("md::per_atom_scratch", atoms_.capacity());
  }
  if (q == 0) {
    pair_.per_atom_energy(atoms_, list_, scratch_);
    if (list_.half()) comm_->reverse(atoms_, scratch_);
  } else {
    const auto v = atoms_.v;
    const auto type = atoms_.type;
    const auto mass = mass_;
    const auto out = scratch_;
    Kokkos::parallel_for(
        "md::kinetic_energy_per_atom", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(int i) {
          out(i, 0) =
              0.5 * mass(type(i)) * (v(i, 0) * v(i, 0) + v(i, 1) * v(i, 1) + v(i, 2) * v(i, 2));
        });
  }
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), scratch_);
  std::vector<double> values(n);
  for (int a = 0; a < n; ++a) values[a] = host(a, 0);
  return values;
}

std::string MdSolver::locate_non_finite() {
  const auto x = atoms_.x;
  const auto v = atoms_.v;
  const auto id = atoms_.id;
  long long first = -1;
  Kokkos::parallel_reduce(
      "md::find_non_finite", Kokkos::RangePolicy<ExecSpace>(0, atoms_.nlocal),
      KOKKOS_LAMBDA(int i, long long& best) {
        bool ok = true;
        for (int d = 0; d < 3; ++d) {
          ok = ok && cb::math::isfinite(x(i, d)) && cb::math::isfinite(v(i, d));
        }
        if (!ok && id(i) > best) best = id(i);
      },
      Kokkos::Max<long long>(first));
  long long mine = first < 0 ? -1 : first, worst = -1;  // Max starts at the lowest value
  MPI_Allreduce(&mine, &worst, 1, MPI_LONG_LONG, MPI_MAX, decomposition_.comm());
  if (worst < 0) return "";
  return "atom id " + std::to_string(worst) + " (position or velocity)";
}

}  // namespace cb::md
