#include "solvers/md/barostat.hpp"

#include "kernels/md/barostat.hpp"
#include "kernels/md/random.hpp"

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

constexpr std::int64_t stream_key = -1;

}  // namespace

Barostat::Barostat(const BarostatParams& params, const kernels::md::Units& units)
    : params_(params), units_(units) {}

double Barostat::dilation(double pressure, double volume, long step, double dt) const {
  const BarostatParams& b = params_;
  if (b.style == BarostatStyle::berendsen) {
    return kmd::berendsen_dilation(b.pressure, pressure, dt, b.damp, b.modulus);
  }
  if (b.style != BarostatStyle::c_rescale) return 1.0;
  kmd::CounterStream stream{static_cast<std::uint64_t>(b.seed), stream_key, step, 0};
  const double xi = kmd::gaussian(stream);
  return kmd::c_rescale_dilation(b.pressure, pressure, dt, b.damp, b.compressibility,
                                 units_.boltz * b.temperature, volume, units_.nktv2p, xi);
}

void Barostat::set_reference(const ParticleBox& box, std::int64_t natoms) {
  mtk_.length = params_.chain;
  mtk_.box_dof = params_.aniso ? 3.0 : 1.0;
  natoms_ = static_cast<double>(natoms);
  volume0_ = volume_of(box);
  for (int d = 0; d < 3; ++d) centre_[d] = 0.5 * (box.lo[d] + box.hi[d]);
}

// W = (N + 1) k_B T0 / p_freq^2 and Q = k_B T0 / p_freq^2, p_freq = 1/damp
// (LAMMPS FixNH::setup).
double Barostat::box_mass() const {
  const double p_freq = 1.0 / params_.damp;
  return (natoms_ + 1.0) * kt() / (p_freq * p_freq);
}

double Barostat::chain_mass() const {
  const double p_freq = 1.0 / params_.damp;
  return kt() / (p_freq * p_freq);
}

void Barostat::chain_half_step(double dt) {
  mtk_.chain_half_step(kt(), box_mass(), chain_mass(), dt);
}

void Barostat::box_velocity_half_step(const Thermo& now, double dof, double dt) {
  if (params_.aniso) {
    const double* p = now.press_tensor;
    mtk_.omega_half_step({p[0], p[1], p[2]}, params_.pressure, now.volume, now.mv2_axes_energy,
                         box_mass(), natoms_, units_.nktv2p, dt);
  } else {
    mtk_.omega_half_step({now.press, now.press, now.press}, params_.pressure, now.volume,
                         dof * units_.boltz * now.temp, box_mass(), natoms_, units_.nktv2p, dt);
  }
}

Kokkos::Array<double, 3> Barostat::velocity_factors(double dt) const {
  return {mtk_.velocity_factor(0, dt), mtk_.velocity_factor(1, dt), mtk_.velocity_factor(2, dt)};
}

ParticleBox Barostat::half_remapped(const ParticleBox& box, double dt) const {
  ParticleBox out = box;
  for (int d = 0; d < 3; ++d) {
    const double expfac = mtk_.box_factor(d, dt);
    out.lo[d] = (box.lo[d] - centre_[d]) * expfac + centre_[d];
    out.hi[d] = (box.hi[d] - centre_[d]) * expfac + centre_[d];
  }
  return out;
}

double Barostat::energy(double volume) const {
  if (!mtk()) return 0.0;
  return mtk_.energy(kt(), box_mass(), chain_mass(), params_.pressure, volume, volume0_,
                     units_.nktv2p);
}

// Checkpoint names md_mtk_omega_dot_{axis}, md_mtk_etap_{k}, md_mtk_etap_dot_{k}
// (LAMMPS's restart keeps the same: omega_dot, etap, etap_dot).
std::vector<std::pair<std::string, double>> Barostat::checkpoint_scalars() const {
  std::vector<std::pair<std::string, double>> scalars;
  if (!mtk()) return scalars;
  for (int d = 0; d < 3; ++d)
    scalars.push_back({"md_mtk_omega_dot_" + std::to_string(d), mtk_.omega_dot[d]});
  for (int k = 0; k < mtk_.length; ++k) {
    scalars.push_back({"md_mtk_etap_" + std::to_string(k), mtk_.etap[k]});
    scalars.push_back({"md_mtk_etap_dot_" + std::to_string(k), mtk_.etap_dot[k]});
  }
  return scalars;
}

void Barostat::restore(const std::string& name, double value) {
  if (!mtk()) return;
  for (int d = 0; d < 3; ++d)
    if (name == "md_mtk_omega_dot_" + std::to_string(d)) mtk_.omega_dot[d] = value;
  for (int k = 0; k < mtk_.length; ++k) {
    if (name == "md_mtk_etap_" + std::to_string(k)) mtk_.etap[k] = value;
    if (name == "md_mtk_etap_dot_" + std::to_string(k)) mtk_.etap_dot[k] = value;
  }
}

ParticleBox dilated_box(const ParticleBox& box, double mu) {
  ParticleBox out = box;
  for (int d = 0; d < 3; ++d)
    kmd::dilate_about_centre(box.lo[d], box.hi[d], mu, out.lo[d], out.hi[d]);
  return out;
}

double volume_of(const ParticleBox& box) {
  return (box.hi[0] - box.lo[0]) * (box.hi[1] - box.lo[1]) * (box.hi[2] - box.lo[2]);
}

void remap_positions(const Atoms& atoms, const ParticleBox& from, const ParticleBox& to) {
  const auto x = atoms.x;
  Kokkos::Array<double, 3> lo, inv_length, new_lo, new_length;
  for (int d = 0; d < 3; ++d) {
    lo[d] = from.lo[d];
    inv_length[d] = 1.0 / (from.hi[d] - from.lo[d]);  // LAMMPS h_inv
    new_lo[d] = to.lo[d];
    new_length[d] = to.hi[d] - to.lo[d];
  }
  Kokkos::parallel_for(
      "md::remap_positions", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        for (int d = 0; d < 3; ++d)
          x(i, d) = kmd::remap_coordinate(x(i, d), lo[d], inv_length[d], new_lo[d], new_length[d]);
      });
}

}  // namespace cb::md
