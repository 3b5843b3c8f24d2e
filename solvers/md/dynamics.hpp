// Launch sites over the owned atoms for Newton's equations of motion
// (kernels/md/integrate.hpp has the updates): velocity Verlet split as LAMMPS
// fix nve does, and the kinetic-energy sums and velocity scaling that the
// thermostats and thermo output use.
#pragma once

#include "core/ordered_sum.hpp"
#include "solvers/md/atoms.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace cb::md {

// Degrees of freedom of the temperature, and so of every thermostat, of thermo
// output and of `velocity create` scaling: 3 per atom less the 3 of the
// centre-of-mass momentum, which the solver conserves (LAMMPS compute temp:
// 3N - 3), less `constrained`, the number of independent holonomic
// constraints (one per SHAKE/RATTLE distance, 3 per SETTLE water; LAMMPS
// fix shake's dof_flag). The single place that number is made.
double degrees_of_freedom(std::int64_t natoms, std::int64_t constrained = 0);

// Mass and 1/mass by type on the device (types are 1-based: index 0 unused).
struct TypeMasses {
  Kokkos::View<double*, MemSpace> mass, inv_mass;
  explicit TypeMasses(const std::vector<double>& masses);  // index type - 1
};

// v += (dt ftm2v / 2m) f; x += dt v (ftm2v: the unit conversion, units.hpp).
void integrate_initial(const Atoms& atoms, const TypeMasses& masses, double dt, double ftm2v);
// v += (dt ftm2v / 2m) f.
void integrate_final(const Atoms& atoms, const TypeMasses& masses, double dt, double ftm2v);
// x += dt v.
void drift(const Atoms& atoms, double dt);
// v *= factor.
void scale_velocities(const Atoms& atoms, double factor);
// v_d *= factor_d, twice (LAMMPS FixNH::nh_v_press: the two multiplications
// enclose the triclinic cross terms, so the rounding is that of two).
void scale_velocity_components_twice(const Atoms& atoms, const Kokkos::Array<double, 3>& factor);
// This rank's sum of m v^2.
double sum_mv2(const Atoms& atoms, const TypeMasses& masses, OrderedSum& sums);
// This rank's sums of m v_a v_b, xx, yy, zz, xy, xz, yz (LAMMPS compute temp's
// vector, before mvv2e).
std::array<double, 6> sum_mv2_tensor(const Atoms& atoms, const TypeMasses& masses,
                                     OrderedSum& sums);
// This rank's sum of m v^2 over the owned atoms of type `type` (every_type: all).
constexpr int every_type = 0;
double sum_mv2_of_type(const Atoms& atoms, const TypeMasses& masses, int type, OrderedSum& sums);
// This rank's sum of the owned atoms' masses.
double sum_mass(const Atoms& atoms, const TypeMasses& masses, OrderedSum& sums);
// out(i, 0) = mvv2e m v^2 / 2 for every owned atom i.
void kinetic_energy_per_atom(const Atoms& atoms, const TypeMasses& masses, double mvv2e,
                             const Vec3View& out);

}  // namespace cb::md
