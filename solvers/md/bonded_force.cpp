#include "solvers/md/bonded_force.hpp"

#include "core/error.hpp"
#include "kernels/md/charmm.hpp"
#include "solvers/md/topology.hpp"

#include <algorithm>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

// What one owned atom's rows give: the energy of each kind over the terms it
// is first in (and their virial), its own force, and its share of every term's
// energy (1/N of an N-atom term, as LAMMPS compute pe/atom).
struct AtomShare {
  double energy[term_kinds] = {0.0, 0.0, 0.0, 0.0};
  double evdwl14 = 0.0, ecoul14 = 0.0;  // 1-4 pairs of charmm dihedrals
  double virial = 0.0;
  double virial_tensor[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  double force[3] = {0.0, 0.0, 0.0};
  double per_atom = 0.0;
};

// Evaluates the term rows of owned atoms; a copy is captured by each kernel.
struct TermRowsEval {
  Vec3View x;
  IdView id;
  RowsView rows[term_kinds];
  IdCopies copies;
  BondedForce::Styles styles;
  BondedForce::Tables tables;
  BondedForce::Frame frame;
  BondedForce::Pairs14 pairs14;

  // x of the partner with id `partner` as seen from atom i (minimum image).
  KOKKOS_INLINE_FUNCTION void partner_position(int i, std::int64_t partner, double out[3]) const {
    const double xi[3] = {x(i, 0), x(i, 1), x(i, 2)};
    const int j = copies.nearest(x, partner, xi);
    for (int d = 0; d < 3; ++d) {
      double delta = x(j, d) - x(i, d);
      if (frame.periodic[d]) {
        const double half = 0.5 * frame.length[d];
        if (delta > half) delta -= frame.length[d];
        if (delta < -half) delta += frame.length[d];
      }
      out[d] = x(i, d) + delta;
    }
  }

  // Energy and forces of a term of N atoms (slot: type, ids).
  template <int N>
  KOKKOS_INLINE_FUNCTION double term(int kind, int type, const double xs[N][3],
                                     double fs[N][3]) const {
    if constexpr (N == 2) {
      return kmd::bond_energy_forces(styles.bond, tables.bond(type), xs, fs);
    } else if constexpr (N == 3) {
      return kmd::angle_energy_forces(styles.angle, tables.angle(type), xs, fs);
    } else if (kind == static_cast<int>(TermKind::dihedral)) {
      return kmd::dihedral_energy_forces(styles.dihedral, tables.dihedral(type), xs, fs);
    } else {
      return kmd::improper_energy_forces(styles.improper, tables.improper(type), xs, fs);
    }
  }

  // The weighted 1-4 pair of a charmm dihedral (atoms 0 and 3 of the slot),
  // for atom i at position `own` of it.
  KOKKOS_INLINE_FUNCTION void add_pair14(int i, int own, std::int64_t other, double weight,
                                         const double xs[4][3], AtomShare& share) const {
    if (own != 0 && own != 3) return;
    const int j = copies.first(other);  // its type and charge
    double del[3], rsq = 0.0;
    for (int d = 0; d < 3; ++d) {
      del[d] = xs[0][d] - xs[3][d];
      rsq += del[d] * del[d];
    }
    const kmd::Pair14 p = kmd::charmm_pair14(rsq, pairs14.coeff(pairs14.type(i), pairs14.type(j)),
                                             pairs14.qqrd2e * pairs14.q(i), pairs14.q(j), weight);
    const double sign = own == 0 ? 1.0 : -1.0;
    for (int d = 0; d < 3; ++d) share.force[d] += sign * del[d] * p.fpair;
    share.per_atom += 0.5 * (p.evdwl + p.ecoul);
    if (own == 0) {
      share.evdwl14 += p.evdwl;
      share.ecoul14 += p.ecoul;
      share.virial += rsq * p.fpair;
      for (int c = 0; c < 6; ++c)
        share.virial_tensor[c] += del[kmd::tensor_row(c)] * del[kmd::tensor_col(c)] * p.fpair;
    }
  }

  template <int N>
  KOKKOS_INLINE_FUNCTION void add_kind(int i, int kind, AtomShare& share) const {
    const RowsView& row = rows[kind];
    const int slots = static_cast<int>(row.extent(1)) / (1 + N);
    for (int s = 0; s < slots; ++s) {
      const int type = static_cast<int>(row(i, s * (1 + N)));
      if (type == 0) break;
      if (type < 0) continue;  // held by a constraint (LAMMPS fix shake's negative type)
      double xs[N][3], fs[N][3];
      int own = 0;
      for (int a = 0; a < N; ++a) {
        const std::int64_t atom = row(i, s * (1 + N) + 1 + a);
        if (atom == id(i)) {
          own = a;
          for (int d = 0; d < 3; ++d) xs[a][d] = x(i, d);
        } else {
          partner_position(i, atom, xs[a]);
        }
      }
      const double e = term<N>(kind, type - 1, xs, fs);
      for (int d = 0; d < 3; ++d) share.force[d] += fs[own][d];
      if constexpr (N == 4) {
        if (kind == static_cast<int>(TermKind::dihedral) && pairs14.on) {
          const double weight = tables.dihedral(type - 1).periodic.weight;
          const std::int64_t other = row(i, s * (1 + N) + (own == 0 ? 4 : 1));
          if (weight > 0.0) add_pair14(i, own, other, weight, xs, share);
        }
      }
      share.per_atom += e / N;
      if (own == 0) {
        share.energy[kind] += e;
        share.virial += kmd::term_virial<N>(xs, fs);
        for (int c = 0; c < 6; ++c)
          share.virial_tensor[c] += kmd::term_virial_component<N>(xs, fs, c);
      }
    }
  }

  KOKKOS_INLINE_FUNCTION AtomShare operator()(int i) const {
    AtomShare share;
    if (rows[0].extent(1) > 0) add_kind<2>(i, 0, share);
    if (rows[1].extent(1) > 0) add_kind<3>(i, 1, share);
    if (rows[2].extent(1) > 0) add_kind<4>(i, 2, share);
    if (rows[3].extent(1) > 0) add_kind<4>(i, 3, share);
    return share;
  }
};

template <class Coeff, class Make>
Kokkos::View<Coeff*, MemSpace> coeff_table(const char* label,
                                           const std::vector<std::vector<double>>& rows,
                                           Make make) {
  Kokkos::View<Coeff*, MemSpace> table(std::string(label), std::max<std::size_t>(rows.size(), 1));
  auto host = Kokkos::create_mirror_view(table);
  for (std::size_t t = 0; t < rows.size(); ++t) host(t) = make(rows[t]);
  Kokkos::deep_copy(table, host);
  return table;
}

TermRowsEval make_eval(const Atoms& atoms, const IdCopies& copies,
                       const BondedForce::Styles& styles, const BondedForce::Tables& tables,
                       const BondedForce::Frame& frame, BondedForce::Pairs14 pairs14) {
  TermRowsEval eval;
  eval.x = atoms.x;
  eval.id = atoms.id;
  for (int kind = 0; kind < term_kinds; ++kind) eval.rows[kind] = atoms.terms[kind];
  eval.copies = copies;
  eval.styles = styles;
  eval.tables = tables;
  eval.frame = frame;
  pairs14.type = atoms.type;
  pairs14.q = atoms.q;
  eval.pairs14 = pairs14;
  return eval;
}

}  // namespace

BondedForce::BondedForce(const Params& params) {
  const MolecularParams& m = params.molecule;
  const auto style = [&m](TermKind kind) -> const std::string& {
    return m.style[static_cast<int>(kind)];
  };
  const auto rows = [&m](TermKind kind) -> const std::vector<std::vector<double>>& {
    return m.coeffs[static_cast<int>(kind)];
  };
  styles_.bond =
      style(TermKind::bond).empty() ? kmd::BondStyle::none : kmd::bond_style(style(TermKind::bond));
  styles_.angle = style(TermKind::angle).empty() ? kmd::AngleStyle::none
                                                 : kmd::angle_style(style(TermKind::angle));
  styles_.dihedral = style(TermKind::dihedral).empty()
                         ? kmd::DihedralStyle::none
                         : kmd::dihedral_style(style(TermKind::dihedral));
  styles_.improper = style(TermKind::improper).empty()
                         ? kmd::ImproperStyle::none
                         : kmd::improper_style(style(TermKind::improper));
  const Styles s = styles_;
  tables_.bond = coeff_table<kmd::BondCoeff>(
      "md::bond_coeff", rows(TermKind::bond),
      [s](const std::vector<double>& v) { return kmd::bond_coeff(s.bond, v); });
  tables_.angle = coeff_table<kmd::AngleCoeff>(
      "md::angle_coeff", rows(TermKind::angle),
      [s](const std::vector<double>& v) { return kmd::angle_coeff(s.angle, v); });
  tables_.dihedral = coeff_table<kmd::DihedralCoeff>(
      "md::dihedral_coeff", rows(TermKind::dihedral),
      [s](const std::vector<double>& v) { return kmd::dihedral_coeff(s.dihedral, v); });
  tables_.improper = coeff_table<kmd::ImproperCoeff>(
      "md::improper_coeff", rows(TermKind::improper),
      [s](const std::vector<double>& v) { return kmd::improper_coeff(s.improper, v); });
  for (int d = 0; d < 3; ++d) {
    frame_.length[d] = params.box.hi[d] - params.box.lo[d];
    frame_.periodic[d] = params.box.periodic[d];
  }
  copies_.first = IntView("md::first_copy", 0);
  pairs14_.on = params.charmm && styles_.dihedral == kmd::DihedralStyle::charmm;
  const int n = params.atom_types;
  pairs14_.coeff = Kokkos::View<kmd::LjCoeff**, MemSpace>("md::lj14_coeff", n + 1, n + 1);
  if (pairs14_.on) {
    auto coeff = Kokkos::create_mirror_view(pairs14_.coeff);
    for (int i = 1; i <= n; ++i) {
      for (int j = 1; j <= n; ++j) {
        const kmd::LjParams& p14 = params.pair14[(i - 1) * n + (j - 1)];
        coeff(i, j) = kmd::make_lj_coeff(p14.epsilon, p14.sigma, p14.cutoff, false);
      }
    }
    Kokkos::deep_copy(pairs14_.coeff, coeff);
    pairs14_.qqrd2e = params.units.qqr2e / params.dielectric;
  }
}

void BondedForce::setup(const Atoms& atoms, MPI_Comm comm) {
  std::int64_t mine = 0;
  const auto id = atoms.id;
  Kokkos::parallel_reduce(
      "md::max_atom_id", Policy(0, atoms.nlocal),
      KOKKOS_LAMBDA(int i, std::int64_t& most) { most = id(i) > most ? id(i) : most; },
      Kokkos::Max<std::int64_t>(mine));
  mine = std::max<std::int64_t>(mine, 0);
  MPI_Allreduce(&mine, &max_id_, 1, MPI_INT64_T, MPI_MAX, comm);
  copies_.first = IntView("md::first_copy", max_id_ + 1);
}

void BondedForce::atoms_rebuilt(const Atoms& atoms) {
  if (static_cast<std::int64_t>(copies_.first.extent(0)) < max_id_ + 1) return;  // before setup
  map_id_copies(atoms, copies_);
  const auto map = copies_.first;
  std::int64_t missing = 0;
  for (int kind = 0; kind < term_kinds; ++kind) {
    const RowsView rows = atoms.terms[kind];
    const int width = static_cast<int>(rows.extent(1));
    if (width == 0) continue;
    const int slot = slot_width(static_cast<TermKind>(kind));
    std::int64_t lost = 0;
    Kokkos::parallel_reduce(
        "md::bonded_partners", Policy(0, atoms.nlocal),
        KOKKOS_LAMBDA(int i, std::int64_t& worst) {
          for (int c = 0; c < width; ++c) {
            const std::int64_t value = rows(i, c);
            const bool is_type = c % slot == 0;
            if (is_type && value == 0) break;
            if (!is_type && map(value) < 0 && value > worst) worst = value;
          }
        },
        Kokkos::Max<std::int64_t>(lost));
    missing = std::max(missing, lost);
  }
  if (missing > 0)
    throw RunError("md: atom " + std::to_string(missing) +
                   ", a partner in a bonded term, is neither owned nor a ghost on this rank "
                   "(a molecule spans more than cutoff + skin, or the box is too small)");
}

void BondedForce::add_forces(Atoms& atoms, const NeighborList&) {
  const TermRowsEval eval = make_eval(atoms, copies_, styles_, tables_, frame_, pairs14_);
  const auto f = atoms.f;
  Kokkos::parallel_for(
      "md::bonded_forces", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        const AtomShare share = eval(i);
        for (int d = 0; d < 3; ++d) f(i, d) += share.force[d];
      });
}

EnergyVirial BondedForce::energy_virial(const Atoms& atoms, const NeighborList&) {
  const TermRowsEval eval = make_eval(atoms, copies_, styles_, tables_, frame_, pairs14_);
  const Sums<13> sums = sums_.sum<13>(
      "md::bonded_energy_virial", atoms.nlocal, KOKKOS_LAMBDA(int i, double* sum) {
        const AtomShare share = eval(i);
        for (int kind = 0; kind < term_kinds; ++kind) sum[kind] += share.energy[kind];
        sum[4] += share.virial;
        sum[5] += share.evdwl14;
        sum[6] += share.ecoul14;
        for (int c = 0; c < 6; ++c) sum[7 + c] += share.virial_tensor[c];
      });
  EnergyVirial ev;
  for (int kind = 0; kind < term_kinds; ++kind) ev.energy[Energy::bond + kind] = sums[kind];
  ev.virial = sums[4];
  for (int c = 0; c < 6; ++c) ev.virial_tensor[c] = sums[7 + c];
  ev.energy[Energy::vdwl] = sums[5];  // LAMMPS tallies the 1-4 pairs as pair energy
  ev.energy[Energy::coul] = sums[6];
  return ev;
}

void BondedForce::add_per_atom_energy(const Atoms& atoms, const NeighborList&,
                                      const Vec3View& out) {
  const TermRowsEval eval = make_eval(atoms, copies_, styles_, tables_, frame_, pairs14_);
  Kokkos::parallel_for(
      "md::bonded_energy_per_atom", Policy(0, atoms.nlocal),
      KOKKOS_LAMBDA(int i) { out(i, 0) += eval(i).per_atom; });
}

}  // namespace cb::md
