#include "solvers/md/lj_force.hpp"

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

// The energy and r . f of one pair (zeros beyond its cutoffs).
struct PairTerms {
  double energy = 0.0, virial = 0.0;
};

// -(dE/dr)/r of a pair within reach, for Coulomb kind `coulomb`.
KOKKOS_INLINE_FUNCTION double pair_fpair(double rsq, const kmd::LjCoeff& c, int coulomb,
                                         const kmd::CoulCut& coul, double qqrd2e_qi, double qj) {
  return coulomb == 2   ? kmd::lj_coul_long_fpair(rsq, c, coul, qqrd2e_qi, qj)
         : coulomb == 1 ? kmd::lj_coul_cut_fpair(rsq, c, coul, qqrd2e_qi, qj)
                        : kmd::lj_fpair(rsq, c);
}

KOKKOS_INLINE_FUNCTION PairTerms pair_terms(double rsq, const kmd::LjCoeff& c, int coulomb,
                                            const kmd::CoulCut& coul, double qqrd2e_qi, double qj) {
  PairTerms t;
  const bool lj = rsq < c.cutsq, charged = coulomb != 0 && rsq < coul.cutsq;
  if (!lj && !charged) return t;
  if (lj) t.energy += kmd::lj_energy(rsq, c);
  if (charged) {
    t.energy += coulomb == 2 ? kmd::coul_long_energy(rsq, coul, qqrd2e_qi, qj)
                             : kmd::coul_cut_energy(rsq, coul, qqrd2e_qi, qj);
  }
  t.virial = rsq * pair_fpair(rsq, c, coulomb, coul, qqrd2e_qi, qj);
  return t;
}

}  // namespace

LjForce::LjForce(const Params& params)
    : params_(params),
      one_type_(params.atom_types == 1),
      coulomb_(params.coulomb_long ? 2
               : params.coulomb    ? 1
                                   : 0) {
  if (coulomb_) {
    coul_.cutsq = params.coulomb_cutoff * params.coulomb_cutoff;
    coul_.qqrd2e = params.units.qqr2e / params.dielectric;
  }
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
}

// F_i = sum_j fpair(r_ij) (x_i - x_j) over the row of owned atom i; with a
// half list the reaction -F_ij goes to j (Newton's third law).
template <bool Half, bool OneType, int Coul>
void LjForce::add_pair_forces(Atoms& atoms, const NeighborList& list) {
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
          const int j = neighbors(i, k);
          const double dx = xi - x(j, 0), dy = yi - x(j, 1), dz = zi - x(j, 2);
          const double rsq = dx * dx + dy * dy + dz * dz;
          const kmd::LjCoeff& c = OneType ? one : coeff(ti, type(j));
          if (rsq >= c.cutsq && (Coul == 0 || rsq >= coul.cutsq)) continue;
          const double fpair = pair_fpair(rsq, c, Coul, coul, qqrd2e_qi, Coul != 0 ? q(j) : 0.0);
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
  if (coulomb_ == 2) {
    half ? add_pair_forces<true, false, 2>(atoms, list)
         : add_pair_forces<false, false, 2>(atoms, list);
  } else if (coulomb_ == 1) {
    half ? add_pair_forces<true, false, 1>(atoms, list)
         : add_pair_forces<false, false, 1>(atoms, list);
  } else if (half) {
    one_type_ ? add_pair_forces<true, true, 0>(atoms, list)
              : add_pair_forces<true, false, 0>(atoms, list);
  } else {
    one_type_ ? add_pair_forces<false, true, 0>(atoms, list)
              : add_pair_forces<false, false, 0>(atoms, list);
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
  const double weight = list.half() ? 1.0 : 0.5;  // a full list holds each pair twice
  const Sums<2> sums = sums_.sum<2>(
      "md::lj_energy_virial", atoms.nlocal, KOKKOS_LAMBDA(int i, double* sum) {
        double e = 0.0, w = 0.0;
        const double qqrd2e_qi = coulomb != 0 ? coul.qqrd2e * q(i) : 0.0;
        for (int k = 0; k < counts(i); ++k) {
          const int j = neighbors(i, k);
          const double dx = x(i, 0) - x(j, 0), dy = x(i, 1) - x(j, 1), dz = x(i, 2) - x(j, 2);
          const PairTerms t = pair_terms(dx * dx + dy * dy + dz * dz, coeff(type(i), type(j)),
                                         coulomb, coul, qqrd2e_qi, coulomb != 0 ? q(j) : 0.0);
          e += t.energy;
          w += t.virial;
        }
        sum[0] += weight * e;
        sum[1] += weight * w;
      });
  return {sums[0], sums[1]};
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
  const bool half = list.half();
  const Vec3Scatter scatter = energy_scatter_.onto(out);
  Kokkos::parallel_for(
      "md::lj_energy_per_atom", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        auto access = scatter.access();
        double e = 0.0;
        const double qqrd2e_qi = coulomb != 0 ? coul.qqrd2e * q(i) : 0.0;
        for (int k = 0; k < counts(i); ++k) {
          const int j = neighbors(i, k);
          const double dx = x(i, 0) - x(j, 0), dy = x(i, 1) - x(j, 1), dz = x(i, 2) - x(j, 2);
          const PairTerms t = pair_terms(dx * dx + dy * dy + dz * dz, coeff(type(i), type(j)),
                                         coulomb, coul, qqrd2e_qi, coulomb != 0 ? q(j) : 0.0);
          const double half_pair = 0.5 * t.energy;
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
