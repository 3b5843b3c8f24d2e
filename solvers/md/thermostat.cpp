#include "solvers/md/thermostat.hpp"

#include "kernels/md/random.hpp"

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

}  // namespace

Thermostat::Thermostat(const ThermostatParams& params, MPI_Comm comm)
    : params_(params), comm_(comm) {}

void Thermostat::begin_step(const Atoms& atoms, const TypeMasses& masses, long step, double dt,
                            double dof) {
  if (params_.style == ThermostatStyle::nose_hoover) rescale(atoms, masses, dt, dof);
  if (params_.style == ThermostatStyle::langevin) langevin_kick(atoms, masses, params_, step, dt);
}

void Thermostat::end_step(const Atoms& atoms, const TypeMasses& masses, double dt, double dof) {
  if (params_.style == ThermostatStyle::nose_hoover ||
      params_.style == ThermostatStyle::berendsen) {
    rescale(atoms, masses, dt, dof);
  }
}

void Thermostat::rescale(const Atoms& atoms, const TypeMasses& masses, double dt, double dof) {
  double mv2 = 0.0, local = sum_mv2(atoms, masses, sums_);
  MPI_Allreduce(&local, &mv2, 1, MPI_DOUBLE, MPI_SUM, comm_);
  const double current = kmd::temperature_of(mv2, dof, params_.units);
  const ThermostatParams& t = params_;
  const double factor = t.style == ThermostatStyle::berendsen
                            ? kmd::berendsen_scale(current, t.temperature, dt, t.damp)
                            : nose_hoover_.half_step(current, t.temperature, dof, t.damp, dt);
  scale_velocities(atoms, factor);
}

std::vector<std::pair<std::string, double>> Thermostat::checkpoint_scalars() const {
  return {{"md_nose_hoover_eta", nose_hoover_.eta},
          {"md_nose_hoover_eta_dot", nose_hoover_.eta_dot}};
}

void Thermostat::restore(const std::string& name, double value) {
  if (name == "md_nose_hoover_eta") nose_hoover_.eta = value;
  if (name == "md_nose_hoover_eta_dot") nose_hoover_.eta_dot = value;
}

// The impulse dt F of LAMMPS's force form with F evaluated at the
// start-of-step velocity, so a checkpoint's (x, v) is the whole state; the
// stream does not depend on the rank count or the atom order.
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
