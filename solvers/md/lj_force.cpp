#include "solvers/md/lj_force.hpp"

#include "kernels/md/vec3.hpp"

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

// The energy, r . f and its tensor r_a f_b of one pair (zeros beyond its cutoffs).
struct PairTerms {
  double vdwl = 0.0, coul = 0.0, virial = 0.0;
  double tensor[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
};

// -(dE/dr)/r of a pair within reach, for Coulomb kind `coulomb`.
KOKKOS_INLINE_FUNCTION double pair_fpair(double rsq, const kmd::LjCoeff& c, int coulomb,
                                         const kmd::CoulCut& coul, const kmd::CharmmSwitch& sw,
                                         double qqrd2e_qi, double qj, const kmd::SpecialFactor& s) {
  return coulomb == 3   ? kmd::lj_charmm_coul_long_fpair(rsq, c, coul, sw, qqrd2e_qi, qj, s)
         : coulomb == 2 ? kmd::lj_coul_long_fpair(rsq, c, coul, qqrd2e_qi, qj, s)
         : coulomb == 1 ? kmd::lj_coul_cut_fpair(rsq, c, coul, qqrd2e_qi, qj, s)
                        : s.lj * kmd::lj_fpair(rsq, c);
}

// The pair energy split into van der Waals and Coulomb (thermo's evdwl, ecoul).
KOKKOS_INLINE_FUNCTION PairTerms pair_terms(const double (&del)[3], const kmd::LjCoeff& c,
                                            int coulomb, const kmd::CoulCut& coul,
                                            const kmd::CharmmSwitch& sw, double qqrd2e_qi,
                                            double qj, const kmd::SpecialFactor& s) {
  const double rsq = del[0] * del[0] + del[1] * del[1] + del[2] * del[2];
  PairTerms t;
  const bool lj = rsq < c.cutsq, charged = coulomb != 0 && rsq < coul.cutsq;
  if (!lj && !charged) return t;
  if (lj)
    t.vdwl = s.lj * (coulomb == 3 ? kmd::charmm_lj_energy(rsq, c, sw) : kmd::lj_energy(rsq, c));
  if (charged) {
    t.coul = coulomb >= 2 ? kmd::coul_long_energy(rsq, coul, qqrd2e_qi, qj, s)
                          : kmd::coul_cut_energy(rsq, coul, qqrd2e_qi, qj, s);
  }
  const double fpair = pair_fpair(rsq, c, coulomb, coul, sw, qqrd2e_qi, qj, s);
  t.virial = rsq * fpair;
  for (int c = 0; c < 6; ++c)
    t.tensor[c] = del[kmd::tensor_row(c)] * del[kmd::tensor_col(c)] * fpair;
  return t;
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
// half list the reaction -F_ij goes to j (Newton's third law).
template <bool Half, bool OneType, int Coul, bool Special>
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
  Kokkos::parallel_for(
      Half ? "md::lj_forces_half" : "md::lj_forces_full", Policy(0, atoms.nlocal),
      KOKKOS_LAMBDA(int i) {
        const double xi = x(i, 0), yi = x(i, 1), zi = x(i, 2);
        const int ti = OneType ? 1 : type(i);
        const double qqrd2e_qi = Coul != 0 ? coul.qqrd2e * q(i) : 0.0;
        double fx = 0.0, fy = 0.0, fz = 0.0;
        const int n = counts(i);
        for (int k = 0; k < n; ++k) {
          const int entry = neighbors(i, k);
          const int j = Special ? neighbor_index(entry) : entry;
          const double dx = xi - x(j, 0), dy = yi - x(j, 1), dz = zi - x(j, 2);
          const double rsq = dx * dx + dy * dy + dz * dz;
          const kmd::LjCoeff& c = OneType ? one : coeff(ti, type(j));
          if (rsq >= c.cutsq && (Coul == 0 || rsq >= coul.cutsq)) continue;
          const kmd::SpecialFactor factor =
              Special ? special.level[special_level(entry)] : kmd::SpecialFactor{};
          const double fpair =
              pair_fpair(rsq, c, Coul, coul, sw, qqrd2e_qi, Coul != 0 ? q(j) : 0.0, factor);
          fx += dx * fpair;
          fy += dy * fpair;
          fz += dz * fpair;
          if (Half) {
            auto access = scatter.access();
            access(j, 0) -= dx * fpair;
            access(j, 1) -= dy * fpair;
            access(j, 2) -= dz * fpair;
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
      });
  if (Half) {
    Vec3View target = f;
    Kokkos::Experimental::contribute(target, force_scatter_.scatter);
  }
}

void LjForce::add_forces(Atoms& atoms, const NeighborList& list) {
  const bool half = list.half();
  if (atoms.special_width > 0 || coulomb_ == 3) {
    add_special_pair_forces(atoms, list);
  } else if (coulomb_ == 2) {
    half ? add_pair_forces<true, false, 2, false>(atoms, list)
         : add_pair_forces<false, false, 2, false>(atoms, list);
  } else if (coulomb_ == 1) {
    half ? add_pair_forces<true, false, 1, false>(atoms, list)
         : add_pair_forces<false, false, 1, false>(atoms, list);
  } else if (half) {
    one_type_ ? add_pair_forces<true, true, 0, false>(atoms, list)
              : add_pair_forces<true, false, 0, false>(atoms, list);
  } else {
    one_type_ ? add_pair_forces<false, true, 0, false>(atoms, list)
              : add_pair_forces<false, false, 0, false>(atoms, list);
  }
}

// Molecules: rows whose entries carry special levels (and lj/charmm/coul/long,
// a molecular pair style).
void LjForce::add_special_pair_forces(Atoms& atoms, const NeighborList& list) {
  const bool half = list.half();
  if (coulomb_ == 3) {
    half ? add_pair_forces<true, false, 3, true>(atoms, list)
         : add_pair_forces<false, false, 3, true>(atoms, list);
  } else if (coulomb_ == 2) {
    half ? add_pair_forces<true, false, 2, true>(atoms, list)
         : add_pair_forces<false, false, 2, true>(atoms, list);
  } else if (coulomb_ == 1) {
    half ? add_pair_forces<true, false, 1, true>(atoms, list)
         : add_pair_forces<false, false, 1, true>(atoms, list);
  } else {
    half ? add_pair_forces<true, false, 0, true>(atoms, list)
         : add_pair_forces<false, false, 0, true>(atoms, list);
  }
}

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
  const Sums<9> sums = sums_.sum<9>(
      "md::lj_energy_virial", atoms.nlocal, KOKKOS_LAMBDA(int i, double* sum) {
        double evdwl = 0.0, ecoul = 0.0, w = 0.0, tensor[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        const double qqrd2e_qi = coulomb != 0 ? coul.qqrd2e * q(i) : 0.0;
        for (int k = 0; k < counts(i); ++k) {
          const int entry = neighbors(i, k);
          const int j = neighbor_index(entry);
          const double del[3] = {x(i, 0) - x(j, 0), x(i, 1) - x(j, 1), x(i, 2) - x(j, 2)};
          const PairTerms t =
              pair_terms(del, coeff(type(i), type(j)), coulomb, coul, sw, qqrd2e_qi,
                         coulomb != 0 ? q(j) : 0.0, special.level[special_level(entry)]);
          evdwl += t.vdwl;
          ecoul += t.coul;
          w += t.virial;
          for (int c = 0; c < 6; ++c) tensor[c] += t.tensor[c];
        }
        sum[0] += weight * evdwl;
        sum[1] += weight * ecoul;
        sum[2] += weight * w;
        for (int c = 0; c < 6; ++c) sum[3 + c] += weight * tensor[c];
      });
  EnergyVirial ev;
  ev.energy[Energy::vdwl] = sums[0];
  ev.energy[Energy::coul] = sums[1];
  ev.virial = sums[2];
  for (int c = 0; c < 6; ++c) ev.virial_tensor[c] = sums[3 + c];
  return ev;
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
          const PairTerms t =
              pair_terms(del, coeff(type(i), type(j)), coulomb, coul, sw, qqrd2e_qi,
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
