// Unit systems of LAMMPS's `units` command (LAMMPS documentation, "units";
// the constants are those of LAMMPS's Update::set_units, versions 2020-2022,
// which Debian 12's lmp 20220106 uses):
//   lj     reduced units: sigma, epsilon, m, tau; k_B = 1
//   real   Angstrom, fs, kcal/mol, g/mol, K, e (charge), atm
//   metal  Angstrom, ps, eV, g/mol, K, e, bar
// and the conversions the equations of motion and thermo need:
//   v += dt ftm2v f / m,   T = mvv2e sum m v^2 / (dof k_B),
//   P = nktv2p (dof k_B T + sum r.f) / (3 V),   E_coul = qqr2e q_i q_j / r.
#pragma once

namespace cb::kernels::md {

enum class UnitStyle : int { lj, real, metal };

struct Units {
  double boltz = 1.0;           // k_B, energy / temperature
  double mvv2e = 1.0;           // mass velocity^2 -> energy
  double ftm2v = 1.0;           // force time / mass -> velocity
  double nktv2p = 1.0;          // energy / volume -> pressure
  double qqr2e = 1.0;           // charge^2 / distance -> energy (Coulomb constant)
  double mv2d = 1.0;            // mass / volume -> density (g/cm^3 in real and metal)
  double dt = 0.005;            // default time step
  double skin = 0.3;            // default neighbour skin (LAMMPS Neighbor::init defaults)
  bool per_atom_thermo = true;  // thermo_modify norm: yes in lj, no otherwise
};

inline Units units_of(UnitStyle style) {
  Units u;
  if (style == UnitStyle::real) {
    u.boltz = 0.0019872067;
    u.mvv2e = 48.88821291 * 48.88821291;
    u.ftm2v = 1.0 / 48.88821291 / 48.88821291;
    u.nktv2p = 68568.415;
    u.qqr2e = 332.06371;
    u.mv2d = 1.0 / 0.602214129;
    u.dt = 1.0;
    u.skin = 2.0;
    u.per_atom_thermo = false;
  } else if (style == UnitStyle::metal) {
    u.boltz = 8.617343e-5;
    u.mvv2e = 1.0364269e-4;
    u.ftm2v = 1.0 / 1.0364269e-4;
    u.nktv2p = 1.6021765e6;
    u.qqr2e = 14.399645;
    u.mv2d = 1.0 / 0.602214129;
    u.dt = 0.001;
    u.skin = 2.0;
    u.per_atom_thermo = false;
  }
  return u;
}

// The temperature of kinetic energy sum m v^2 = mv2 over dof degrees of
// freedom, in LAMMPS's order (ComputeTemp: tfactor = mvv2e / (dof k_B)).
inline double temperature_of(double mv2, double dof, const Units& u) {
  const double tfactor = u.mvv2e / (dof * u.boltz);
  return mv2 * tfactor;
}

}  // namespace cb::kernels::md
