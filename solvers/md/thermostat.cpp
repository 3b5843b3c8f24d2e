#include "solvers/md/thermostat.hpp"

#include "kernels/md/random.hpp"

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

}  // namespace

Thermostat::Thermostat(const ThermostatParams& params, MPI_Comm comm)
    : params_(params), comm_(comm) {
  chain_.length = params.chain;
}

void Thermostat::setup(const Atoms& atoms, const TypeMasses& masses) {
  if (params_.style == ThermostatStyle::nose_hoover) setup_mv2_ = total_mv2(atoms, masses);
}

void Thermostat::begin_step(const Atoms& atoms, const TypeMasses& masses, long step, double dt,
                            double dof) {
  if (params_.style == ThermostatStyle::nose_hoover) {
    const double mv2 = setup_mv2_ >= 0.0 ? setup_mv2_ : total_mv2(atoms, masses);
    setup_mv2_ = -1.0;
    rescale(atoms, step, dt, dof, mv2);
  }
}

void Thermostat::after_forces(const Atoms& atoms, const TypeMasses& masses, long step, double dt) {
  if (params_.style == ThermostatStyle::langevin) langevin_kick(atoms, masses, params_, step, dt);
}

void Thermostat::end_step(const Atoms& atoms, const TypeMasses& masses, long step, double dt,
                          double dof) {
  if (couples()) rescale(atoms, step, dt, dof, total_mv2(atoms, masses));
}

double Thermostat::total_mv2(const Atoms& atoms, const TypeMasses& masses) {
  double mv2 = 0.0, local = sum_mv2(atoms, masses, sums_);
  MPI_Allreduce(&local, &mv2, 1, MPI_DOUBLE, MPI_SUM, comm_);
  return mv2;
}

bool Thermostat::couples() const {
  return params_.style == ThermostatStyle::nose_hoover ||
         params_.style == ThermostatStyle::berendsen || params_.style == ThermostatStyle::csvr;
}

double Thermostat::ecouple(double dof) const {
  if (params_.style != ThermostatStyle::nose_hoover) return removed_;
  return params_.units.boltz * chain_.energy(params_.temperature, dof, params_.damp);
}

void Thermostat::rescale(const Atoms& atoms, long step, double dt, double dof, double mv2) {
  const double current = kmd::temperature_of(mv2, dof, params_.units);
  const double factor = rescale_factor(current, step, dt, dof);
  if (params_.style != ThermostatStyle::nose_hoover) {
    removed_ += 0.5 * dof * params_.units.boltz * current * (1.0 - factor * factor);
  }
  scale_velocities(atoms, factor);
}

// The CSVR stream is keyed by (seed, key 0, step): atom ids, the Langevin
// keys, start at 1, and every rank draws the same two variates.
double Thermostat::rescale_factor(double current, long step, double dt, double dof) {
  const ThermostatParams& t = params_;
  if (t.style == ThermostatStyle::berendsen) {
    return kmd::berendsen_scale(current, t.temperature, dt, t.damp);
  }
  if (t.style == ThermostatStyle::nose_hoover) {
    return chain_.half_step(current, t.temperature, dof, t.damp, dt);
  }
  kmd::CounterStream stream{static_cast<std::uint64_t>(t.seed), 0, step, 0};
  const double r1 = kmd::gaussian(stream);
  const double chi2 = kmd::chi_squared(dof - 1.0, stream);
  return kmd::csvr_scale(current, t.temperature, dof, dt, t.damp, r1, chi2);
}

// Checkpoint names: the first chain element keeps the names of the chain of
// length 1 (md_nose_hoover_eta, md_nose_hoover_eta_dot); element k > 0 adds _k.
std::vector<std::pair<std::string, double>> Thermostat::checkpoint_scalars() const {
  std::vector<std::pair<std::string, double>> scalars;
  for (int k = 0; k < chain_.length; ++k) {
    const std::string suffix = k == 0 ? "" : "_" + std::to_string(k);
    scalars.push_back({"md_nose_hoover_eta" + suffix, chain_.eta[k]});
    scalars.push_back({"md_nose_hoover_eta_dot" + suffix, chain_.eta_dot[k]});
  }
  scalars.push_back({"md_thermostat_removed", removed_});
  return scalars;
}

void Thermostat::restore(const std::string& name, double value) {
  if (name == "md_thermostat_removed") removed_ = value;
  for (int k = 0; k < chain_.length; ++k) {
    const std::string suffix = k == 0 ? "" : "_" + std::to_string(k);
    if (name == "md_nose_hoover_eta" + suffix) chain_.eta[k] = value;
    if (name == "md_nose_hoover_eta_dot" + suffix) chain_.eta_dot[k] = value;
  }
}

// The impulse dt F of LAMMPS's force form, F from the half-step velocity as
// LAMMPS evaluates it; the stream does not depend on the rank count or the
// atom order.
void langevin_kick(const Atoms& atoms, const TypeMasses& masses, const ThermostatParams& params,
                   long step, double dt) {
  const auto v = atoms.v;
  const auto id = atoms.id;
  const auto type = atoms.type;
  const auto mass = masses.mass;
  const auto inv_mass = masses.inv_mass;
  const ThermostatParams t = params;
  const std::uint64_t seed = static_cast<std::uint64_t>(t.seed);
  const std::int64_t this_step = step;
  Kokkos::parallel_for(
      "md::langevin_kick", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        const kmd::LangevinCoeff c =
            kmd::langevin_coeff(mass(type(i)), t.temperature, t.damp, dt, t.units);
        const double dtm = dt * t.units.ftm2v * inv_mass(type(i));
        for (int d = 0; d < 3; ++d) {
          v(i, d) += dtm * kmd::langevin_force(v(i, d),
                                               kmd::counter_uniform(seed, id(i), this_step, d), c);
        }
      });
}

}  // namespace cb::md
