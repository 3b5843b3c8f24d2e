#include "solvers/md/force_field.hpp"

#include "solvers/md/bonded_force.hpp"
#include "solvers/md/ewald_sum.hpp"
#include "solvers/md/lj_force.hpp"
#include "solvers/md/pppm_sum.hpp"
#include "solvers/md/slab_correction.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace cb::md {

std::array<bool, 4> special_pairs_without_interaction(const Params& params) {
  std::array<bool, 4> none{false, false, false, false};
  if (!params.molecular()) return none;
  for (int level = 1; level < 4; ++level)
    none[level] =
        params.molecule.special_lj[level] == 0.0 && params.molecule.special_coul[level] == 0.0;
  return none;
}

SpecialRule special_rule(const Params& params) {
  SpecialRule rule;
  if (!params.molecular()) return rule;
  for (int level = 1; level < 4; ++level) {
    const double lj = params.molecule.special_lj[level], coul = params.molecule.special_coul[level];
    if (lj == 0.0 && coul == 0.0 && !params.kspace()) {
      rule.action[level] = SpecialAction::exclude;
    } else if (!(lj == 1.0 && coul == 1.0)) {
      rule.action[level] = SpecialAction::mark;
    }
  }
  return rule;
}

ForceField::ForceField(const Params& params, MPI_Comm comm, const MeshContext& mesh) {
  auto pair = std::make_unique<LjForce>(params);
  pair_ = pair.get();
  terms_.push_back(std::move(pair));
  if (params.ewald) {
    auto ewald = std::make_unique<EwaldSum>(params, comm);
    ewald_ = ewald.get();
    terms_.push_back(std::move(ewald));
  }
  if (params.pppm) {
    if (mesh.decomposition == nullptr)
      throw std::logic_error("ForceField: PPPM needs a MeshContext");
    auto pppm = std::make_unique<PppmSum>(params, *mesh.decomposition, mesh.box, mesh.comm);
    pppm_ = pppm.get();
    terms_.push_back(std::move(pppm));
  }
  if (params.slab()) {
    auto slab = std::make_unique<SlabCorrection>(params, comm);
    slab_ = slab.get();
    terms_.push_back(std::move(slab));
  }
  if (params.molecular()) {
    auto bonded = std::make_unique<BondedForce>(params);
    bonded_ = bonded.get();
    terms_.push_back(std::move(bonded));
  }
  const int n = params.atom_types;
  list_cutsq_ = CutoffTable("md::list_cutsq", n + 1, n + 1);  // types are 1-based
  auto cutsq = Kokkos::create_mirror_view(list_cutsq_);
  for (int i = 1; i <= n; ++i) {
    for (int j = 1; j <= n; ++j) {
      const double cutoff = params.pair_of(i, j).cutoff;
      const double reach =
          (params.coulomb ? std::max(cutoff, params.coulomb_cutoff) : cutoff) + params.skin;
      cutsq(i, j) = reach * reach;
    }
  }
  Kokkos::deep_copy(list_cutsq_, cutsq);
}

ForceField::~ForceField() = default;

void ForceField::setup(const Atoms& atoms, std::int64_t natoms, MPI_Comm comm,
                       const std::optional<ChargeSums>& charges) {
  if (ewald_ != nullptr) pair_->set_g_ewald(ewald_->setup(atoms, natoms, charges));
  if (pppm_ != nullptr) pair_->set_g_ewald(pppm_->setup(atoms, natoms, charges));
  if (slab_ != nullptr) slab_->setup(atoms);
  if (bonded_ != nullptr) bonded_->setup(atoms, comm);
}

std::optional<ChargeSums> ForceField::charge_sums() const {
  if (ewald_ != nullptr) return ewald_->charge_sums();
  if (pppm_ != nullptr) return pppm_->charge_sums();
  return std::nullopt;
}

void ForceField::atoms_rebuilt(const Atoms& atoms) {
  for (const auto& term : terms_) term->atoms_rebuilt(atoms);
}

void ForceField::box_changed(const LocalBox& box) {
  for (const auto& term : terms_) term->box_changed(box);
}

std::string ForceField::kspace_summary() const {
  if (pppm_ != nullptr) {
    const kernels::md::PppmParameters& p = pppm_->parameters();
    char text[200];
    std::snprintf(text, sizeof text,
                  "kspace pppm: g_ewald = %.8g, grid = %d %d %d, order %d, estimated relative "
                  "force accuracy %.7g",
                  p.g_ewald, p.mesh[0], p.mesh[1], p.mesh[2], p.order,
                  p.estimated_relative_accuracy);
    return text;
  }
  if (ewald_ == nullptr) return "";
  const kernels::md::EwaldParameters& p = ewald_->parameters();
  char text[160];
  std::snprintf(text, sizeof text, "kspace ewald: g_ewald = %.8g, kmax = %d %d %d, %d k vectors",
                p.g_ewald, p.kmax[0], p.kmax[1], p.kmax[2], ewald_->vectors());
  return text;
}

void ForceField::compute(Atoms& atoms, const NeighborList& list) {
  Kokkos::deep_copy(atoms.f, 0.0);
  for (const auto& term : terms_) term->add_forces(atoms, list);
}

namespace {

void add_energy_virial(const EnergyVirial& part, EnergyVirial& sum) {
  for (int e = 0; e < Energy::terms; ++e) sum.energy[e] += part.energy[e];
  sum.virial += part.virial;
  for (int c = 0; c < 6; ++c) sum.virial_tensor[c] += part.virial_tensor[c];
}

}  // namespace

void ForceField::compute(Atoms& atoms, const NeighborList& list, PartTimers& timers,
                         EnergyVirial* energy) {
  timers.start();
  Kokkos::deep_copy(atoms.f, 0.0);
  if (energy != nullptr) *energy = EnergyVirial{};
  for (const auto& term : terms_) {
    term->set_timers(&timers);
    if (energy != nullptr) {
      add_energy_virial(term->add_forces_and_energy(atoms, list), *energy);
    } else {
      term->add_forces(atoms, list);
    }
    term->set_timers(nullptr);
    timers.charge(term->part());
  }
}

EnergyVirial ForceField::energy_virial(const Atoms& atoms, const NeighborList& list) {
  EnergyVirial sum;
  for (const auto& term : terms_) add_energy_virial(term->energy_virial(atoms, list), sum);
  return sum;
}

void ForceField::per_atom_energy(const Atoms& atoms, const NeighborList& list,
                                 const Vec3View& out) {
  Kokkos::deep_copy(out, 0.0);
  for (const auto& term : terms_) term->add_per_atom_energy(atoms, list, out);
}

kernels::md::TailTerms ForceField::tail_terms(const std::vector<double>& type_counts) const {
  kernels::md::TailTerms sum;
  for (const auto& term : terms_) {
    const kernels::md::TailTerms part = term->tail_terms(type_counts);
    sum.etail += part.etail;
    sum.ptail += part.ptail;
  }
  return sum;
}

}  // namespace cb::md
