// MdSolver: atoms in and out of the device (loading, host copies, per-atom
// output quantities, the non-finite check). Host code at the I/O edges.
#include "core/error.hpp"
#include "io/lammps_data.hpp"
#include "solvers/md/distribution.hpp"
#include "solvers/md/domain.hpp"
#include "solvers/md/solver.hpp"
#include "solvers/md/topology.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace cb::md {
namespace {

// Rows [0, n) of `device` <- host rows (row-major, the view's width).
void copy_rows(const std::vector<std::int64_t>& rows, int n, const RowsView& device) {
  const int width = static_cast<int>(device.extent(1));
  if (width == 0 || n == 0) return;
  auto host = Kokkos::create_mirror_view(device);
  for (int a = 0; a < n; ++a)
    for (int c = 0; c < width; ++c) host(a, c) = rows[std::size_t(a) * width + c];
  Kokkos::deep_copy(device, host);
}

// Host atoms on the device, in their given order, as owned atoms of a new
// Atoms with the properties of `like`: x_build from the atoms when
// `with_build`, else x; the MSD reference x_ref is the unwrapped position x +
// image L; the term and special rows from `rows`.
Atoms to_device(const HostParticles& given, bool with_build, const Atoms& like,
                const HostRows& rows, const LocalBox& box) {
  const int n = static_cast<int>(given.size());
  const bool charged = like.charged;
  Atoms atoms;
  atoms.allocate_like(like, n);
  atoms.nlocal = n;
  for (int kind = 0; kind < term_kinds; ++kind) copy_rows(rows.terms[kind], n, atoms.terms[kind]);
  copy_rows(rows.special, n, atoms.special);
  copy_rows(rows.cluster, n, atoms.cluster);
  if (like.cluster_width > 0 && given.f_constraint.size() == 3 * given.size()) {
    auto f_constraint = Kokkos::create_mirror_view(atoms.f_constraint);
    for (int a = 0; a < n; ++a)
      for (int d = 0; d < 3; ++d) f_constraint(a, d) = given.f_constraint[3 * a + d];
    Kokkos::deep_copy(atoms.f_constraint, f_constraint);
  }
  auto id = Kokkos::create_mirror_view(atoms.id);
  auto type = Kokkos::create_mirror_view(atoms.type);
  auto x = Kokkos::create_mirror_view(atoms.x);
  auto v = Kokkos::create_mirror_view(atoms.v);
  auto image = Kokkos::create_mirror_view(atoms.image);
  auto x_build = Kokkos::create_mirror_view(atoms.x_build);
  auto x_ref = Kokkos::create_mirror_view(atoms.x_ref);
  const std::vector<double>& build = with_build ? given.x_build : given.x;
  for (int a = 0; a < n; ++a) {
    id(a) = given.id[a];
    type(a) = given.type[a];
    for (int d = 0; d < 3; ++d) {
      x(a, d) = given.x[3 * a + d];
      v(a, d) = given.v[3 * a + d];
      image(a, d) = given.image[3 * a + d];
      x_build(a, d) = build[3 * a + d];
      x_ref(a, d) = x(a, d) + image(a, d) * box.length(d);
    }
  }
  Kokkos::deep_copy(atoms.id, id);
  Kokkos::deep_copy(atoms.type, type);
  Kokkos::deep_copy(atoms.image, image);
  if (charged) {
    const auto range = std::make_pair(0, n);
    Kokkos::deep_copy(
        Kokkos::subview(atoms.q, range),
        Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(given.q.data(), n));
    Kokkos::deep_copy(Kokkos::subview(atoms.molecule, range),
                      Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          given.molecule.data(), n));
  }
  for (auto [device, host] :
       {std::make_pair(atoms.x, x), std::make_pair(atoms.v, v),
        std::make_pair(atoms.x_build, x_build), std::make_pair(atoms.x_ref, x_ref)}) {
    Kokkos::deep_copy(device, host);
  }
  return atoms;
}

// Owned atoms in id order: the local order is then a function of the atoms
// alone, not of where they came from (restarts are bit for bit).
void sort_owned_by_id(Atoms& atoms) {
  const int n = atoms.nlocal;
  const auto id = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(atoms.id, std::make_pair(0, n)));
  IntView order("md::id_order", n);
  auto host_order = Kokkos::create_mirror_view(order);
  std::iota(host_order.data(), host_order.data() + n, 0);
  std::sort(host_order.data(), host_order.data() + n, [&](int a, int b) { return id(a) < id(b); });
  Kokkos::deep_copy(order, host_order);
  const BufferView scratch("md::id_order_records", std::size_t(n) * owned_record_width(atoms));
  reorder_owned(atoms, order, scratch);
}

bool on_every_rank(bool mine, MPI_Comm comm) {
  int local = mine ? 1 : 0, everywhere = 0;
  MPI_Allreduce(&local, &everywhere, 1, MPI_INT, MPI_MIN, comm);
  return everywhere == 1;
}

}  // namespace

// With the positions at the last build, each atom goes back to the rank that
// owned it then (and the skin check continues): a bit-for-bit restart.
void MdSolver::load_particles(const HostParticles& given) {
  const MPI_Comm comm = decomposition_.comm();
  const bool with_build = on_every_rank(given.x_build.size() == 3 * given.size(), comm);
  const bool charged = atoms_.charged;
  if (!on_every_rank(given.q.size() == (charged ? given.size() : 0), comm)) {
    throw InputError(std::string("md: the atoms given ") +
                     (charged ? "have no charges, but [md] atom_style is \"" +
                                    std::string(io::style_name(params_.atom_style)) + "\""
                              : "carry charges, but [md] atom_style is \"atomic\""));
  }
  const HostRows rows = topology_rows(given);
  stored_constraint_forces_ = on_every_rank(given.f_constraint.size() == 3 * given.size(), comm) &&
                              atoms_.cluster_width > 0;
  constraints_ready_ = false;
  // Owners as at the last build: in the box of then (a barostat changes it).
  Params at_build = params_;
  for (int d = 0; d < 3; ++d) {
    at_build.box.lo[d] = with_build ? schedule_.build_lo()[d] : params_.box.lo[d];
    at_build.box.hi[d] = with_build ? schedule_.build_hi()[d] : params_.box.hi[d];
  }
  const OwnerLookup owners(at_build, decomposition_);
  const DistributionPlan plan(comm, owners.ranks_of(with_build ? given.x_build : given.x));
  distribute_owned(plan, to_device(given, with_build, atoms_, rows, local_), atoms_, comm_options_);
  sort_owned_by_id(atoms_);
  count_atoms_and_tail_terms();
  rebuild(false);  // keeps the loaded x_build
  compute_forces();
  cached_.reset();
}

// Collective. The term and special rows of the given atoms from every rank's
// share of the topology; atoms_ takes their widths.
HostRows MdSolver::topology_rows(const HostParticles& given) {
  const MPI_Comm comm = decomposition_.comm();
  Topology all = allgather_topology(given.topology, comm);
  if (!all.empty() && params_.atom_style != AtomStyle::full)
    throw InputError(
        std::string("md: the atoms given have bonded terms, but [md] atom_style is \"") +
        io::style_name(params_.atom_style) + "\" (molecules need \"full\")");
  if (!params_.molecular()) return HostRows{};
  for (int kind = 0; kind < term_kinds; ++kind) {
    for (int type : all.terms[kind].type) {
      if (type < 1 || type > params_.molecule.types[kind])
        throw InputError("md: a bonded term has type " + std::to_string(type) + ", outside 1.." +
                         std::to_string(params_.molecule.types[kind]));
    }
  }
  std::vector<std::int64_t> cluster_rows;
  if (constraints_.active()) {  // the constrained terms' types turn negative in `all`
    cluster_rows = constraints_.assign(all, given, comm);
    constrained_dof_ = constraints_.count();
  }
  HostRows rows = host_rows(all, given.id);
  if (constraints_.active()) {
    rows.cluster_width = cluster_row_width;
    rows.cluster = std::move(cluster_rows);
  }
  bool same =
      rows.special_width == atoms_.special_width && rows.cluster_width == atoms_.cluster_width;
  for (int kind = 0; kind < term_kinds; ++kind)
    same = same && rows.term_width[kind] == atoms_.term_width[kind];
  if (!same) {
    for (int kind = 0; kind < term_kinds; ++kind) atoms_.term_width[kind] = rows.term_width[kind];
    atoms_.special_width = rows.special_width;
    atoms_.cluster_width = rows.cluster_width;
    atoms_.allocate(atoms_.capacity());
  }
  return rows;
}

// Checks the types and counts the atoms of each type over all ranks.
void MdSolver::count_atoms_and_tail_terms() {
  const int n = atoms_.nlocal;
  const auto type = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(atoms_.type, std::make_pair(0, n)));
  const auto id = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(atoms_.id, std::make_pair(0, n)));
  std::vector<double> type_counts(params_.atom_types, 0.0), all_counts(params_.atom_types);
  for (int k = 0; k < n; ++k) {
    if (type(k) < 1 || type(k) > params_.atom_types) {
      throw InputError("md: atom " + std::to_string(id(k)) + " has type " +
                       std::to_string(type(k)) + ", outside 1.." +
                       std::to_string(params_.atom_types));
    }
    type_counts[type(k) - 1] += 1.0;
  }
  MPI_Allreduce(type_counts.data(), all_counts.data(), params_.atom_types, MPI_DOUBLE, MPI_SUM,
                decomposition_.comm());
  atoms_.total =
      static_cast<std::int64_t>(std::accumulate(all_counts.begin(), all_counts.end(), 0.0));
  tail_ = forces_.tail_terms(all_counts);
  forces_.setup(atoms_, atoms_.total, decomposition_.comm(), restored_charges_);
  restored_charges_.reset();
}

HostParticles MdSolver::owned_particles() {
  const int n = atoms_.nlocal;
  const auto range = std::make_pair(0, n);
  const auto host = [range](const auto& view) {
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(view, range));
  };
  const auto host3 = [range](const auto& view) {
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                               Kokkos::subview(view, range, Kokkos::ALL));
  };
  const auto id = host(atoms_.id);
  const auto type = host(atoms_.type);
  const auto x = host3(atoms_.x), v = host3(atoms_.v), x_build = host3(atoms_.x_build);
  const auto image = host3(atoms_.image);
  HostParticles out;
  out.style = params_.atom_style;
  if (atoms_.charged) {
    const auto q = host(atoms_.q);
    const auto molecule = host(atoms_.molecule);
    out.q.assign(q.data(), q.data() + n);
    out.molecule.assign(molecule.data(), molecule.data() + n);
  }
  out.id.assign(id.data(), id.data() + n);
  out.type.assign(type.data(), type.data() + n);
  for (int kind = 0; kind < term_kinds; ++kind) {
    out.topology.types[kind] = params_.molecule.types[kind];
    const int width = atoms_.term_width[kind];
    if (width == 0) continue;
    const auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.terms[kind]);
    std::vector<std::int64_t> flat(std::size_t(n) * width);
    const int slot = slot_width(static_cast<TermKind>(kind));
    for (int a = 0; a < n; ++a)
      for (int c = 0; c < width; ++c)  // constrained terms (negative types) as given
        flat[std::size_t(a) * width + c] = c % slot == 0 ? std::abs(rows(a, c)) : rows(a, c);
    append_first_atom_terms(static_cast<TermKind>(kind), out.id, flat, width,
                            out.topology.terms[kind]);
  }
  if (atoms_.cluster_width > 0) {
    const auto fc = host3(atoms_.f_constraint);
    out.f_constraint.resize(3 * n);
    for (int a = 0; a < n; ++a)
      for (int d = 0; d < 3; ++d) out.f_constraint[3 * a + d] = fc(a, d);
  }
  for (std::vector<double>* values : {&out.x, &out.v, &out.x_build}) values->resize(3 * n);
  out.image.resize(3 * n);
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
// compute pe/atom; "ke": m v^2 / 2; "fx", "fy", "fz": the total force of the
// last force evaluation (pair, bonded, k-space and thermostat), as LAMMPS's
// dump fx fy fz.
std::vector<double> MdSolver::per_atom_values(int q) {
  const int n = atoms_.nlocal;
  if (q >= 2) {
    const auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.f);
    std::vector<double> values(n);
    for (int a = 0; a < n; ++a) values[a] = f(a, q - 2);
    return values;
  }
  if (static_cast<int>(per_atom_output_.extent(0)) < atoms_.capacity()) {
    per_atom_output_ = Vec3View("md::per_atom_output", atoms_.capacity());
  }
  if (q == 0) {
    forces_.per_atom_energy(atoms_, list_, per_atom_output_);
    if (list_.half()) comm_.reverse(atoms_, per_atom_output_);
  } else {
    kinetic_energy_per_atom(atoms_, masses_, params_.units.mvv2e, per_atom_output_);
  }
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), per_atom_output_);
  std::vector<double> values(n);
  for (int a = 0; a < n; ++a) values[a] = host(a, 0);
  return values;
}

std::string MdSolver::unit_style() const {
  switch (params_.unit_style) {
    case kernels::md::UnitStyle::real:
      return "real";
    case kernels::md::UnitStyle::metal:
      return "metal";
    default:
      return "lj";
  }
}

// The pair style's per-type numbers as LAMMPS's write_data writes them
// (epsilon sigma, and epsilon14 sigma14 for lj/charmm/coul/long; none for
// coul/long), and each bonded style's coefficients as the case gave them.
DataCoeffs MdSolver::data_coeffs() const {
  DataCoeffs coeffs;
  if (params_.pair_style != "coul/long") {
    coeffs.pair.style = params_.pair_style == "lj" ? "lj/cut" : params_.pair_style;
    const int n = params_.atom_types;
    for (int t = 0; t < n; ++t) {
      const kernels::md::LjParams& lj = params_.pair[t * n + t];
      coeffs.pair.rows.push_back({lj.epsilon, lj.sigma});
      if (params_.charmm) {
        const kernels::md::LjParams& lj14 = params_.pair14[t * n + t];
        coeffs.pair.rows.back().insert(coeffs.pair.rows.back().end(), {lj14.epsilon, lj14.sigma});
      }
    }
  }
  for (int kind = 0; kind < term_kinds; ++kind) {
    coeffs.terms[kind].style = params_.molecule.style[kind];
    coeffs.terms[kind].rows = params_.molecule.coeffs[kind];
  }
  return coeffs;
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
