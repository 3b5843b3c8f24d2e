#include "solvers/md/lj_force.hpp"

#include "kernels/md/vec3.hpp"

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

// -(dE/dr)/r of a pair within reach, for Coulomb kind `coulomb`.
KOKKOS_INLINE_FUNCTION double pair_fpair(double rsq, const kmd::LjCoeff& c, int coulomb,
                                         const kmd::CoulCut& coul, const kmd::CharmmSwitch& sw,
                                         double qqrd2e_qi, double qj, const kmd::SpecialFactor& s) {
  return coulomb == 3   ? kmd::lj_charmm_coul_long_fpair(rsq, c, coul, sw, qqrd2e_qi, qj, s)
         : coulomb == 2 ? kmd::lj_coul_long_fpair(rsq, c, coul, qqrd2e_qi, qj, s)
         : coulomb == 1 ? kmd::lj_coul_cut_fpair(rsq, c, coul, qqrd2e_qi, qj, s)
                        : s.lj * kmd::lj_fpair(rsq, c);
}

// The pair energy split into van der Waals and Coulomb (thermo's evdwl, ecoul),
// zero beyond each cutoff.
struct PairEnergy {
  double vdwl = 0.0, coul = 0.0;
};

KOKKOS_INLINE_FUNCTION PairEnergy pair_energy(double rsq, const kmd::LjCoeff& c, int coulomb,
                                              const kmd::CoulCut& coul, const kmd::CharmmSwitch& sw,
                                              double qqrd2e_qi, double qj,
                                              const kmd::SpecialFactor& s) {
  PairEnergy e;
  if (rsq < c.cutsq)
    e.vdwl = s.lj * (coulomb == 3 ? kmd::charmm_lj_energy(rsq, c, sw) : kmd::lj_energy(rsq, c));
  if (coulomb != 0 && rsq < coul.cutsq) {
    e.coul = coulomb >= 2 ? kmd::coul_long_energy(rsq, coul, qqrd2e_qi, qj, s)
                          : kmd::coul_cut_energy(rsq, coul, qqrd2e_qi, qj, s);
  }
  return e;
}

// fpair (pair_fpair) and the energies (pair_energy) of a pair within reach,
// the same bits as those two, with coul/long's erfc evaluated once.
struct PairForceEnergy {
  double fpair = 0.0;
  PairEnergy energy;
};

KOKKOS_INLINE_FUNCTION PairForceEnergy pair_force_energy(double rsq, const kmd::LjCoeff& c,
                                                         int coulomb, const kmd::CoulCut& coul,
                                                         const kmd::CharmmSwitch& sw,
                                                         double qqrd2e_qi, double qj,
                                                         const kmd::SpecialFactor& s) {
  PairForceEnergy out;
  if (coulomb < 2) {
    out.fpair = pair_fpair(rsq, c, coulomb, coul, sw, qqrd2e_qi, qj, s);
    out.energy = pair_energy(rsq, c, coulomb, coul, sw, qqrd2e_qi, qj, s);
    return out;
  }
  const double r2inv = 1.0 / rsq;
  const kmd::CoulLongTerms terms = kmd::coul_long_terms(rsq, coul, qqrd2e_qi, qj, s);
  const double forcelj =
      coulomb == 3 ? kmd::charmm_forcelj(rsq, r2inv, c, sw) : kmd::lj_forcelj(rsq, r2inv, c);
  out.fpair = (terms.force + s.lj * forcelj) * r2inv;
  out.energy.coul = terms.energy;
  const double vdwl =
      s.lj * (coulomb == 3 ? kmd::charmm_lj_energy(rsq, c, sw) : kmd::lj_energy(rsq, c));
  out.energy.vdwl = rsq < c.cutsq ? vdwl : 0.0;
  return out;
}

// A row's energies, r . f and r_a f_b, summed pair by pair in row order.
struct RowTally {
  double vdwl = 0.0, coul = 0.0, virial = 0.0;
  double tensor[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};

  KOKKOS_INLINE_FUNCTION void add(const double (&del)[3], double rsq, double fpair,
                                  const PairEnergy& e) {
    vdwl += e.vdwl;
    coul += e.coul;
    virial += rsq * fpair;
    for (int c = 0; c < 6; ++c)
      tensor[c] += del[kmd::tensor_row(c)] * del[kmd::tensor_col(c)] * fpair;
  }
  // Slot 0 evdwl, 1 ecoul, 2 r . f, 3-8 the tensor.
  KOKKOS_INLINE_FUNCTION double slot(int c) const {
    return c == 0 ? vdwl : c == 1 ? coul : c == 2 ? virial : tensor[c - 3];
  }
};

// Copies of a pair's coefficients made of one load per field (a struct copy
// stops GCC's vectoriser), all loaded whether used or not (no branch).
KOKKOS_INLINE_FUNCTION kmd::LjCoeff field_by_field(const kmd::LjCoeff& c) {
  kmd::LjCoeff v;
  v.lj1 = c.lj1;
  v.lj2 = c.lj2;
  v.lj3 = c.lj3;
  v.lj4 = c.lj4;
  v.cutsq = c.cutsq;
  v.offset = c.offset;
  return v;
}

// Entries of a row evaluated together (add_pair_forces), a whole block of the
// padded row: a multiple of the CPU vector widths (2, 4 or 8 doubles), few
// enough for a GPU thread to hold.
constexpr int pair_lanes = NeighborList::row_block;

// What the sums of add_pair_forces need of each of pair_lanes entries: fpair
// and, with Tally, the energies, zero for an entry beyond reach.
template <bool Tally>
struct PairLanes {
  int j[pair_lanes];
  double dx[pair_lanes], dy[pair_lanes], dz[pair_lanes], rsq[pair_lanes], fpair[pair_lanes];
  double vdwl[Tally ? pair_lanes : 1], coul[Tally ? pair_lanes : 1];

  // Lane l's pair at squared distance rsq_l, within reach when rsq_l < reach_sq.
  KOKKOS_INLINE_FUNCTION void set(int l, int atom, double x, double y, double z, double rsq_l,
                                  double reach_sq, const kmd::LjCoeff& c, int coulomb,
                                  const kmd::CoulCut& cut, const kmd::CharmmSwitch& sw,
                                  double qqrd2e_qi, double qj, const kmd::SpecialFactor& s) {
    j[l] = atom;
    dx[l] = x;
    dy[l] = y;
    dz[l] = z;
    rsq[l] = rsq_l;
    if (Tally) {
      const PairForceEnergy pfe = pair_force_energy(rsq_l, c, coulomb, cut, sw, qqrd2e_qi, qj, s);
      fpair[l] = rsq_l < reach_sq ? pfe.fpair : 0.0;
      vdwl[l] = rsq_l < reach_sq ? pfe.energy.vdwl : 0.0;
      coul[l] = rsq_l < reach_sq ? pfe.energy.coul : 0.0;
    } else {
      const double fp = pair_fpair(rsq_l, c, coulomb, cut, sw, qqrd2e_qi, qj, s);
      fpair[l] = rsq_l < reach_sq ? fp : 0.0;
    }
  }
  KOKKOS_INLINE_FUNCTION PairEnergy energy(int l) const {
    PairEnergy e;
    if (Tally) {
      e.vdwl = vdwl[l];
      e.coul = coul[l];
    }
    return e;
  }
};

constexpr int tally_width = 9;

EnergyVirial energy_virial_of(const Sums<tally_width>& sums) {
  EnergyVirial ev;
  ev.energy[Energy::vdwl] = sums[0];
  ev.energy[Energy::coul] = sums[1];
  ev.virial = sums[2];
  for (int c = 0; c < 6; ++c) ev.virial_tensor[c] = sums[3 + c];
  return ev;
}

}  // namespace

LjForce::LjForce(const Params& params)
    : params_(params),
      one_type_(params.atom_types == 1),
      coulomb_(params.charmm         ? 3
               : params.coulomb_long ? 2
               : params.coulomb      ? 1
                                     : 0) {
  if (coulomb_) {
    coul_.cutsq = params.coulomb_cutoff * params.coulomb_cutoff;
    coul_.qqrd2e = params.units.qqr2e / params.dielectric;
  }
  if (params.charmm) switch_ = kmd::make_charmm_switch(params.charmm_inner, params.max_lj_cutoff());
  const int n = params.atom_types;
  coeff_ = CoeffTable("md::lj_coeff", n + 1, n + 1);
  auto coeff = Kokkos::create_mirror_view(coeff_);
  for (int i = 1; i <= n; ++i) {
    for (int j = 1; j <= n; ++j) {
      const kmd::LjParams& p = params.pair_of(i, j);
      coeff(i, j) = kmd::make_lj_coeff(p.epsilon, p.sigma, p.cutoff, params.shift);
    }
  }
  one_ = coeff(1, 1);
  Kokkos::deep_copy(coeff_, coeff);
  for (int level = 1; level < 4; ++level) {
    special_.level[level] =
        kmd::SpecialFactor{params.molecule.special_lj[level], params.molecule.special_coul[level]};
  }
}

// F_i = sum_j fpair(r_ij) (x_i - x_j) over the row of owned atom i; with a
// half list the reaction -F_ij goes to j (Newton's third law). With Tally,
// also the row's energies and virial into tally_(i, :), then summed in
// energy_virial's order (the same bits).
//
// A row is taken `pair_lanes` entries at a time: first each entry's fpair (and
// energies) with selects in place of branches, one straight code path that a
// CPU compiler turns into SIMD instructions and a GPU thread runs without
// divergence; an entry beyond reach gets fpair = 0. Then the sums in row order,
// as one pair at a time: adding a zero force changes no sum.
template <bool Half, bool OneType, int Coul, bool Special, bool Tally>
void LjForce::add_pair_forces(Atoms& atoms, const NeighborList& list) {
  const SpecialTable special = special_;
  const kmd::CharmmSwitch sw = switch_;
  const auto x = atoms.x;
  const auto q = atoms.q;
  const kmd::CoulCut coul = coul_;
  const auto f = atoms.f;
  const auto type = atoms.type;
  const auto neighbors = list.neighbors;
  const auto counts = list.counts;
  const auto coeff = coeff_;
  const kmd::LjCoeff one = one_;
  const Vec3Scatter scatter = Half ? force_scatter_.onto(f) : Vec3Scatter();
  if (Tally && static_cast<int>(tally_.extent(0)) < atoms.nlocal)
    tally_ = TallyView("md::lj_tally", atoms.nlocal + atoms.nlocal / 8 + 64);
  const TallyView tally = tally_;
  const double weight = Half ? 1.0 : 0.5;  // a full list holds each pair twice
  Kokkos::parallel_for(
      Half ? "md::lj_forces_half" : "md::lj_forces_full", Policy(0, atoms.nlocal),
      KOKKOS_LAMBDA(int i) {
        const double xi = x(i, 0), yi = x(i, 1), zi = x(i, 2);
        const int ti = OneType ? 1 : type(i);
        const double qqrd2e_qi = Coul != 0 ? coul.qqrd2e * q(i) : 0.0;
        double fx = 0.0, fy = 0.0, fz = 0.0;
        RowTally row;
        const int n = counts(i);
        for (int k0 = 0; k0 < n; k0 += pair_lanes) {
          PairLanes<Tally> pairs;
          for (int l = 0; l < pair_lanes; ++l) {
            const int entry = neighbors(i, k0 + l);  // past n: padding, a valid atom
            const int j = Special ? neighbor_index(entry) : entry;
            const double dx = xi - x(j, 0), dy = yi - x(j, 1), dz = zi - x(j, 2);
            const double rsq = dx * dx + dy * dy + dz * dz;
            const kmd::LjCoeff c = field_by_field(OneType ? one : coeff(ti, type(j)));
            const double reach_sq =
                Coul != 0 && coul.cutsq > c.cutsq ? coul.cutsq : c.cutsq;  // max of the two
            const kmd::SpecialFactor factor =
                Special ? special.selected(special_level(entry)) : kmd::SpecialFactor{};
            const double qj = Coul != 0 ? q(j) : 0.0;
            pairs.set(l, j, dx, dy, dz, rsq, reach_sq, c, Coul, coul, sw, qqrd2e_qi, qj, factor);
          }
          const int m = n - k0 < pair_lanes ? n - k0 : pair_lanes;
          for (int l = 0; l < m; ++l) {
            const double fpair = pairs.fpair[l];
            const double dx = pairs.dx[l], dy = pairs.dy[l], dz = pairs.dz[l];
            fx += dx * fpair;
            fy += dy * fpair;
            fz += dz * fpair;
            if (Half) {
              auto access = scatter.access();
              access(pairs.j[l], 0) -= dx * fpair;
              access(pairs.j[l], 1) -= dy * fpair;
              access(pairs.j[l], 2) -= dz * fpair;
            }
            if (Tally) {
              const double del[3] = {dx, dy, dz};
              row.add(del, pairs.rsq[l], fpair, pairs.energy(l));
            }
          }
        }
        if (Half) {
          auto access = scatter.access();
          access(i, 0) += fx;
          access(i, 1) += fy;
          access(i, 2) += fz;
        } else {
          f(i, 0) += fx;
          f(i, 1) += fy;
          f(i, 2) += fz;
        }
        if (Tally) {
          for (int c = 0; c < tally_width; ++c) tally(i, c) = weight * row.slot(c);
        }
      });
  if (Half) {
    Vec3View target = f;
    Kokkos::Experimental::contribute(target, force_scatter_.scatter);
  }
}

void LjForce::add_forces(Atoms& atoms, const NeighborList& list) {
  dispatch<false>(atoms, list);
}

EnergyVirial LjForce::add_forces_and_energy(Atoms& atoms, const NeighborList& list) {
  dispatch<true>(atoms, list);
  return summed_tally(atoms.nlocal);
}

EnergyVirial LjForce::summed_tally(int nlocal) {
  const TallyView tally = tally_;
  return energy_virial_of(sums_.sum<tally_width>(
      "md::lj_energy_virial", nlocal, KOKKOS_LAMBDA(int i, double* sum) {
        for (int c = 0; c < tally_width; ++c) sum[c] += tally(i, c);
      }));
}

template <bool Tally>
void LjForce::dispatch(Atoms& atoms, const NeighborList& list) {
  const bool half = list.half();
  if (atoms.special_width > 0 || coulomb_ == 3) {
    dispatch_special<Tally>(atoms, list);
  } else if (coulomb_ == 2) {
    half ? add_pair_forces<true, false, 2, false, Tally>(atoms, list)
         : add_pair_forces<false, false, 2, false, Tally>(atoms, list);
  } else if (coulomb_ == 1) {
    half ? add_pair_forces<true, false, 1, false, Tally>(atoms, list)
         : add_pair_forces<false, false, 1, false, Tally>(atoms, list);
  } else if (half) {
    one_type_ ? add_pair_forces<true, true, 0, false, Tally>(atoms, list)
              : add_pair_forces<true, false, 0, false, Tally>(atoms, list);
  } else {
    one_type_ ? add_pair_forces<false, true, 0, false, Tally>(atoms, list)
              : add_pair_forces<false, false, 0, false, Tally>(atoms, list);
  }
}

// Molecules: rows whose entries carry special levels (and lj/charmm/coul/long,
// a molecular pair style).
template <bool Tally>
void LjForce::dispatch_special(Atoms& atoms, const NeighborList& list) {
  const bool half = list.half();
  if (coulomb_ == 3) {
    half ? add_pair_forces<true, false, 3, true, Tally>(atoms, list)
         : add_pair_forces<false, false, 3, true, Tally>(atoms, list);
  } else if (coulomb_ == 2) {
    half ? add_pair_forces<true, false, 2, true, Tally>(atoms, list)
         : add_pair_forces<false, false, 2, true, Tally>(atoms, list);
  } else if (coulomb_ == 1) {
    half ? add_pair_forces<true, false, 1, true, Tally>(atoms, list)
         : add_pair_forces<false, false, 1, true, Tally>(atoms, list);
  } else {
    half ? add_pair_forces<true, false, 0, true, Tally>(atoms, list)
         : add_pair_forces<false, false, 0, true, Tally>(atoms, list);
  }
}

// The same rows, pairs and sums as add_pair_forces<..., Tally = true>.
EnergyVirial LjForce::energy_virial(const Atoms& atoms, const NeighborList& list) {
  const auto x = atoms.x;
  const auto type = atoms.type;
  const auto q = atoms.q;
  const int coulomb = coulomb_;
  const kmd::CoulCut coul = coul_;
  const auto neighbors = list.neighbors;
  const auto counts = list.counts;
  const auto coeff = coeff_;
  const SpecialTable special = special_;
  const kmd::CharmmSwitch sw = switch_;
  const double weight = list.half() ? 1.0 : 0.5;  // a full list holds each pair twice
  return energy_virial_of(sums_.sum<tally_width>(
      "md::lj_energy_virial", atoms.nlocal, KOKKOS_LAMBDA(int i, double* sum) {
        RowTally row;
        const double qqrd2e_qi = coulomb != 0 ? coul.qqrd2e * q(i) : 0.0;
        for (int k = 0; k < counts(i); ++k) {
          const int entry = neighbors(i, k);
          const int j = neighbor_index(entry);
          const double del[3] = {x(i, 0) - x(j, 0), x(i, 1) - x(j, 1), x(i, 2) - x(j, 2)};
          const double rsq = del[0] * del[0] + del[1] * del[1] + del[2] * del[2];
          const kmd::LjCoeff& c = coeff(type(i), type(j));
          if (rsq >= c.cutsq && (coulomb == 0 || rsq >= coul.cutsq)) continue;
          const kmd::SpecialFactor factor = special.level[special_level(entry)];
          const double qj = coulomb != 0 ? q(j) : 0.0;
          const PairForceEnergy pfe =
              pair_force_energy(rsq, c, coulomb, coul, sw, qqrd2e_qi, qj, factor);
          row.add(del, rsq, pfe.fpair, pfe.energy);
        }
        for (int c = 0; c < tally_width; ++c) sum[c] += weight * row.slot(c);
      }));
}

// Half of each pair energy to each atom of the pair, as LAMMPS compute pe/atom.
void LjForce::add_per_atom_energy(const Atoms& atoms, const NeighborList& list,
                                  const Vec3View& out) {
  const auto x = atoms.x;
  const auto type = atoms.type;
  const auto neighbors = list.neighbors;
  const auto counts = list.counts;
  const auto coeff = coeff_;
  const auto q = atoms.q;
  const int coulomb = coulomb_;
  const kmd::CoulCut coul = coul_;
  const SpecialTable special = special_;
  const kmd::CharmmSwitch sw = switch_;
  const bool half = list.half();
  const Vec3Scatter scatter = energy_scatter_.onto(out);
  Kokkos::parallel_for(
      "md::lj_energy_per_atom", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        auto access = scatter.access();
        double e = 0.0;
        const double qqrd2e_qi = coulomb != 0 ? coul.qqrd2e * q(i) : 0.0;
        for (int k = 0; k < counts(i); ++k) {
          const int entry = neighbors(i, k);
          const int j = neighbor_index(entry);
          const double del[3] = {x(i, 0) - x(j, 0), x(i, 1) - x(j, 1), x(i, 2) - x(j, 2)};
          const double rsq = del[0] * del[0] + del[1] * del[1] + del[2] * del[2];
          const PairEnergy t =
              pair_energy(rsq, coeff(type(i), type(j)), coulomb, coul, sw, qqrd2e_qi,
                          coulomb != 0 ? q(j) : 0.0, special.level[special_level(entry)]);
          const double half_pair = 0.5 * (t.vdwl + t.coul);
          e += half_pair;
          if (half) access(j, 0) += half_pair;
        }
        access(i, 0) += e;
      });
  Vec3View target = out;
  Kokkos::Experimental::contribute(target, energy_scatter_.scatter);
}

kmd::TailTerms LjForce::tail_terms(const std::vector<double>& type_counts) const {
  kmd::TailTerms sum;
  for (int i = 1; i <= params_.atom_types; ++i) {
    for (int j = i; j <= params_.atom_types; ++j) {
      const kmd::TailTerms t =
          kmd::lj_tail(type_counts[i - 1], type_counts[j - 1], params_.pair_of(i, j));
      const double times = i == j ? 1.0 : 2.0;
      sum.etail += times * t.etail;
      sum.ptail += times * t.ptail;
    }
  }
  return sum;
}

}  // namespace cb::md
