// MD atoms between ranks and the force field's bookkeeping: the distribution
// plan (counts, order, all-to-all of records), the atom records that carry
// every listed per-atom property (distribution, reordering, ghost copies), and
// force arrays zeroed before the force terms add onto them. Run on 1, 2 and 4
// ranks.
#include "solvers/md/distribution.hpp"
#include "solvers/md/force_field.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <vector>

using Catch::Approx;
using namespace cb::md;

namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// Owned atoms whose every property is a function of the id (ids past 2^32 and
// negative image flags check that the records are exact).
std::int64_t id_of(int rank, int k) {
  return (std::int64_t(1) << 40) + 1000 * rank + k;
}

Atoms make_atoms(int n, int rank) {
  Atoms atoms;
  atoms.allocate(n);
  atoms.nlocal = n;
  auto id = Kokkos::create_mirror_view(atoms.id);
  auto type = Kokkos::create_mirror_view(atoms.type);
  auto x = Kokkos::create_mirror_view(atoms.x);
  auto v = Kokkos::create_mirror_view(atoms.v);
  auto image = Kokkos::create_mirror_view(atoms.image);
  auto x_build = Kokkos::create_mirror_view(atoms.x_build);
  auto x_ref = Kokkos::create_mirror_view(atoms.x_ref);
  for (int k = 0; k < n; ++k) {
    id(k) = id_of(rank, k);
    const double s = static_cast<double>(id(k) % 100000);
    type(k) = 1 + k % 3;
    for (int d = 0; d < 3; ++d) {
      x(k, d) = s + 0.1 * d;
      v(k, d) = -s / 7.0 + d;
      image(k, d) = d - 1 - k;
      x_build(k, d) = s / 3.0 - d;
      x_ref(k, d) = s * 1e-3 + d;
    }
  }
  Kokkos::deep_copy(atoms.id, id);
  Kokkos::deep_copy(atoms.type, type);
  Kokkos::deep_copy(atoms.x, x);
  Kokkos::deep_copy(atoms.v, v);
  Kokkos::deep_copy(atoms.image, image);
  Kokkos::deep_copy(atoms.x_build, x_build);
  Kokkos::deep_copy(atoms.x_ref, x_ref);
  return atoms;
}

// Checks atom i of `atoms` against make_atoms' atom k of `rank`.
void check_atom(const Atoms& atoms, int i, int rank, int k) {
  const Atoms expected = make_atoms(k + 1, rank);
  const auto host = [](const auto& view) {
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  };
  CHECK(host(atoms.id)(i) == host(expected.id)(k));
  CHECK(host(atoms.type)(i) == host(expected.type)(k));
  CHECK(host(atoms.code)(i) == owned_image_code);
  for (int d = 0; d < 3; ++d) {
    CHECK(host(atoms.x)(i, d) == host(expected.x)(k, d));
    CHECK(host(atoms.v)(i, d) == host(expected.v)(k, d));
    CHECK(host(atoms.image)(i, d) == host(expected.image)(k, d));
    CHECK(host(atoms.x_build)(i, d) == host(expected.x_build)(k, d));
    CHECK(host(atoms.x_ref)(i, d) == host(expected.x_ref)(k, d));
  }
}

}  // namespace

TEST_CASE("a distribution plan sends each item to its rank, in order", "[md][mpi]") {
  const int rank = world_rank(), size = world_size();
  const int n = 5 + rank;
  std::vector<int> destination(n);
  for (int k = 0; k < n; ++k) destination[k] = (rank + k) % size;
  const DistributionPlan plan(MPI_COMM_WORLD, destination);
  REQUIRE(plan.send_count() == n);
  auto order = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plan.send_order());
  cb::MessageBuffer<double> send("send", 2 * n, {});
  auto host_send = Kokkos::create_mirror_view(send.device());
  for (int k = 0; k < n; ++k) {
    if (k > 0) CHECK(destination[order(k - 1)] <= destination[order(k)]);
    host_send(2 * k) = rank;
    host_send(2 * k + 1) = order(k);
  }
  Kokkos::deep_copy(send.device(), host_send);
  cb::MessageBuffer<double> receive("receive", 2 * plan.receive_count(), {});
  plan.exchange(send, receive, 2);
  auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), receive.device());
  int expected = 0;
  for (int source = 0; source < size; ++source) {
    for (int k = 0; k < 5 + source; ++k) {
      if ((source + k) % size != rank) continue;
      REQUIRE(expected < plan.receive_count());
      CHECK(got(2 * expected) == source);
      CHECK(got(2 * expected + 1) == k);
      ++expected;
    }
  }
  CHECK(plan.receive_count() == expected);
}

TEST_CASE("distributed atoms keep every per-atom property", "[md][mpi]") {
  const int rank = world_rank(), size = world_size();
  const int n = 7;
  const Atoms from = make_atoms(n, rank);
  std::vector<int> destination(n);
  for (int k = 0; k < n; ++k) destination[k] = (k + 1) % size;
  const DistributionPlan plan(MPI_COMM_WORLD, destination);
  Atoms to;
  to.allocate(1);
  distribute_owned(plan, from, to);
  REQUIRE(to.nlocal == plan.receive_count());
  REQUIRE(to.nghost == 0);
  int i = 0;
  for (int source = 0; source < size; ++source) {
    for (int k = 0; k < n; ++k) {
      if ((k + 1) % size == rank) check_atom(to, i++, source, k);
    }
  }
  CHECK(i == to.nlocal);
}

TEST_CASE("reordered atoms keep their properties; ghost copies are shifted", "[md]") {
  const int n = 6;
  Atoms atoms = make_atoms(n, 3);
  IntView order("order", n);
  auto host_order = Kokkos::create_mirror_view(order);
  for (int k = 0; k < n; ++k) host_order(k) = n - 1 - k;
  Kokkos::deep_copy(order, host_order);
  BufferView scratch("scratch", std::size_t(n) * owned_record_width(atoms));
  reorder_owned(atoms, order, scratch);
  for (int k = 0; k < n; ++k) check_atom(atoms, k, 3, n - 1 - k);

  // Ghost copies of atoms 4 and 1 across a periodic face in y.
  IntView list("list", 2);
  auto host_list = Kokkos::create_mirror_view(list);
  host_list(0) = 4;
  host_list(1) = 1;
  Kokkos::deep_copy(list, host_list);
  GhostShift shift;
  shift.x[1] = -10.0;
  shift.code = -3;
  BufferView buffer("ghosts", 2 * ghost_record_width(atoms));
  pack_ghosts(atoms, list, 2, shift, buffer);
  atoms.reserve(n + 2);
  unpack_ghosts(buffer, 2, atoms, n);
  atoms.nghost = 2;
  auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms.x);
  auto id = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms.id);
  auto type = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms.type);
  auto code = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms.code);
  for (int g = 0; g < 2; ++g) {
    const int owner = host_list(g);
    CHECK(id(n + g) == id(owner));
    CHECK(type(n + g) == type(owner));
    CHECK(code(n + g) == owned_image_code - 3);
    CHECK(x(n + g, 0) == x(owner, 0));
    CHECK(x(n + g, 1) == x(owner, 1) - 10.0);
    CHECK(x(n + g, 2) == x(owner, 2));
  }
}

TEST_CASE("the force field zeroes forces and energies before adding its terms", "[md]") {
  // Two atoms 1.2 apart in x: F = 24 eps (2 (s/r)^12 - (s/r)^6) / r along x,
  // E = 4 eps ((s/r)^12 - (s/r)^6), each called twice (nothing accumulates).
  for (const ListKind kind : {ListKind::half, ListKind::full}) {
    Params p;
    p.atom_types = 1;
    p.masses = {1.0};
    p.pair = {cb::kernels::md::LjParams{1.0, 1.0, 2.5}};
    p.list = kind;
    Atoms atoms;
    atoms.allocate(2);
    atoms.nlocal = 2;
    auto x = Kokkos::create_mirror_view(atoms.x);
    auto id = Kokkos::create_mirror_view(atoms.id);
    auto type = Kokkos::create_mirror_view(atoms.type);
    auto code = Kokkos::create_mirror_view(atoms.code);
    for (int a = 0; a < 2; ++a) {
      for (int d = 0; d < 3; ++d) x(a, d) = 5.0 + (d == 0 ? 1.2 * a : 0.0);
      id(a) = a + 1;
      type(a) = 1;
      code(a) = owned_image_code;
    }
    Kokkos::deep_copy(atoms.x, x);
    Kokkos::deep_copy(atoms.id, id);
    Kokkos::deep_copy(atoms.type, type);
    Kokkos::deep_copy(atoms.code, code);
    ForceField forces(p, MPI_COMM_SELF);
    NeighborList list(p.neighbor_cutoff(), kind == ListKind::half);
    list.build(atoms, forces.list_cutsq());
    const double r = 1.2, s6 = std::pow(r, -6.0);
    const double force = 24.0 * (2.0 * s6 * s6 - s6) / r;
    const double energy = 4.0 * (s6 * s6 - s6);
    Vec3View pe("pe", atoms.capacity());
    for (int call = 0; call < 2; ++call) {
      forces.compute(atoms, list);
      forces.per_atom_energy(atoms, list, pe);
      auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms.f);
      auto e = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pe);
      CHECK(f(0, 0) == Approx(-force).epsilon(1e-13));
      CHECK(f(1, 0) == Approx(force).epsilon(1e-13));
      CHECK(f(0, 1) == 0.0);
      CHECK(e(0, 0) == Approx(0.5 * energy).epsilon(1e-13));
      CHECK(e(1, 0) == Approx(0.5 * energy).epsilon(1e-13));
      const EnergyVirial ev = forces.energy_virial(atoms, list);
      CHECK(ev.energy[Energy::vdwl] == Approx(energy).epsilon(1e-13));
      CHECK(ev.virial == Approx(force * r).epsilon(1e-13));
    }
  }
}
