#include "solvers/md/dynamics.hpp"

#include "kernels/md/integrate.hpp"
#include "kernels/md/vec3.hpp"

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

}  // namespace

double degrees_of_freedom(std::int64_t natoms, std::int64_t constrained) {
  return 3.0 * static_cast<double>(natoms) - 3.0 - static_cast<double>(constrained);
}

TypeMasses::TypeMasses(const std::vector<double>& masses) {
  const int n = static_cast<int>(masses.size());
  mass = Kokkos::View<double*, MemSpace>("md::mass", n + 1);
  inv_mass = Kokkos::View<double*, MemSpace>("md::inv_mass", n + 1);
  auto host_mass = Kokkos::create_mirror_view(mass);
  auto host_inv_mass = Kokkos::create_mirror_view(inv_mass);
  for (int t = 1; t <= n; ++t) {
    host_mass(t) = masses[t - 1];
    host_inv_mass(t) = 1.0 / masses[t - 1];
  }
  Kokkos::deep_copy(mass, host_mass);
  Kokkos::deep_copy(inv_mass, host_inv_mass);
}

void integrate_initial(const Atoms& atoms, const TypeMasses& masses, double dt, double ftm2v) {
  const auto x = atoms.x;
  const auto v = atoms.v;
  const auto f = atoms.f;
  const auto type = atoms.type;
  const auto mass = masses.mass;
  const double dtf = 0.5 * dt * ftm2v;
  Kokkos::parallel_for(
      "md::integrate_initial", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        const double dtfm = dtf / mass(type(i));  // as LAMMPS FixNVE
        for (int d = 0; d < 3; ++d) kmd::kick_drift(x(i, d), v(i, d), f(i, d), dtfm, dt);
      });
}

void integrate_final(const Atoms& atoms, const TypeMasses& masses, double dt, double ftm2v) {
  const auto v = atoms.v;
  const auto f = atoms.f;
  const auto type = atoms.type;
  const auto mass = masses.mass;
  const double dtf = 0.5 * dt * ftm2v;
  Kokkos::parallel_for(
      "md::integrate_final", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        const double dtfm = dtf / mass(type(i));  // as LAMMPS FixNVE
        for (int d = 0; d < 3; ++d) kmd::kick(v(i, d), f(i, d), dtfm);
      });
}

void drift(const Atoms& atoms, double dt) {
  const auto x = atoms.x;
  const auto v = atoms.v;
  Kokkos::parallel_for(
      "md::drift", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        for (int d = 0; d < 3; ++d) x(i, d) += dt * v(i, d);
      });
}

void scale_velocity_components_twice(const Atoms& atoms, const Kokkos::Array<double, 3>& factor) {
  const auto v = atoms.v;
  const Kokkos::Array<double, 3> f = factor;
  Kokkos::parallel_for(
      "md::scale_velocity_components_twice", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        for (int d = 0; d < 3; ++d) {
          v(i, d) *= f[d];
          v(i, d) *= f[d];
        }
      });
}

void scale_velocities(const Atoms& atoms, double factor) {
  const auto v = atoms.v;
  Kokkos::parallel_for(
      "md::scale_velocities", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        for (int d = 0; d < 3; ++d) v(i, d) *= factor;
      });
}

double sum_mv2(const Atoms& atoms, const TypeMasses& masses, OrderedSum& sums) {
  return sum_mv2_of_type(atoms, masses, every_type, sums);
}

std::array<double, 6> sum_mv2_tensor(const Atoms& atoms, const TypeMasses& masses,
                                     OrderedSum& sums) {
  const auto v = atoms.v;
  const auto type = atoms.type;
  const auto mass = masses.mass;
  const Sums<6> s = sums.sum<6>(
      "md::sum_mv2_tensor", atoms.nlocal, KOKKOS_LAMBDA(int i, double* acc) {
        for (int c = 0; c < 6; ++c)
          acc[c] += mass(type(i)) * v(i, kmd::tensor_row(c)) * v(i, kmd::tensor_col(c));
      });
  return {s[0], s[1], s[2], s[3], s[4], s[5]};
}

double sum_mv2_of_type(const Atoms& atoms, const TypeMasses& masses, int of_type,
                       OrderedSum& sums) {
  const auto v = atoms.v;
  const auto type = atoms.type;
  const auto mass = masses.mass;
  return sums
      .sum<1>(
          "md::sum_mv2", atoms.nlocal,
          KOKKOS_LAMBDA(int i, double* s) {
            if (of_type != every_type && type(i) != of_type) return;
            s[0] += (v(i, 0) * v(i, 0) + v(i, 1) * v(i, 1) + v(i, 2) * v(i, 2)) * mass(type(i));
          })
      .value[0];
}

double sum_mass(const Atoms& atoms, const TypeMasses& masses, OrderedSum& sums) {
  const auto type = atoms.type;
  const auto mass = masses.mass;
  return sums
      .sum<1>(
          "md::sum_mass", atoms.nlocal, KOKKOS_LAMBDA(int i, double* s) { s[0] += mass(type(i)); })
      .value[0];
}

void kinetic_energy_per_atom(const Atoms& atoms, const TypeMasses& masses, double mvv2e,
                             const Vec3View& out) {
  const auto v = atoms.v;
  const auto type = atoms.type;
  const auto mass = masses.mass;
  Kokkos::parallel_for(
      "md::kinetic_energy_per_atom", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        out(i, 0) = 0.5 * mvv2e * mass(type(i)) *
                    (v(i, 0) * v(i, 0) + v(i, 1) * v(i, 1) + v(i, 2) * v(i, 2));
      });
}

}  // namespace cb::md
