#include "solvers/md/setup.hpp"

#include "kernels/md/lattice.hpp"
#include "kernels/md/random.hpp"
#include "solvers/md/dynamics.hpp"

#include <cmath>

namespace cb::md {
namespace {

namespace kmd = kernels::md;

bool inside(const LocalBox& local, const double x[3]) {
  for (int d = 0; d < 3; ++d) {
    if (x[d] < local.sublo[d] || x[d] >= local.subhi[d]) return false;
  }
  return true;
}

}  // namespace

// LAMMPS `create_atoms 1 box` on one process creates cell by cell, k slowest,
// basis fastest, and numbers the atoms in that order; `velocity all create T
// seed loop geom` then draws three uniforms - 1/2 per atom from a generator
// reseeded by the atom's coordinates, divided by sqrt(mass).
HostParticles lattice_atoms(const Params& params, const LocalBox& local) {
  const kmd::LatticeStyle style = params.lattice;
  const double a = params.lattice_constant;
  const Int3& n = params.lattice_cells;
  const int nbasis = kmd::basis_count(style);
  const double inv_sqrt_mass = 1.0 / std::sqrt(params.masses[0]);
  HostParticles atoms;
  for (int k = 0; k < n[2]; ++k) {
    for (int j = 0; j < n[1]; ++j) {
      for (int i = 0; i < n[0]; ++i) {
        for (int m = 0; m < nbasis; ++m) {
          const int cell[3] = {i, j, k};
          double x[3];
          for (int d = 0; d < 3; ++d) x[d] = kmd::lattice_position(style, a, cell[d], m, d);
          if (!inside(local, x)) continue;
          kmd::ParkMiller rng = kmd::seed_from_position(params.seed, x[0], x[1], x[2]);
          atoms.id.push_back(kmd::lattice_atom_id(style, i, j, k, m, n[0], n[1]));
          atoms.type.push_back(1);
          for (int d = 0; d < 3; ++d) {
            atoms.x.push_back(x[d]);
            atoms.image.push_back(0);
          }
          for (int d = 0; d < 3; ++d) atoms.v.push_back((rng.uniform() - 0.5) * inv_sqrt_mass);
        }
      }
    }
  }
  return atoms;
}

// As LAMMPS Velocity::zero_momentum then rescale: v -= sum(m v) / sum(m);
// T = mvv2e sum(m v^2) / (dof k_B), dof of degrees_of_freedom(); v *= sqrt(T0 / T).
void zero_momentum_and_scale(HostParticles& atoms, const std::vector<double>& masses,
                             double temperature, std::int64_t total,
                             const kernels::md::Units& units, MPI_Comm comm) {
  const std::size_t n = atoms.size();
  double local[4] = {0.0, 0.0, 0.0, 0.0}, global[4];
  for (std::size_t a = 0; a < n; ++a) local[3] += masses[atoms.type[a] - 1];
  for (std::size_t a = 0; a < n; ++a) {
    const double m = masses[atoms.type[a] - 1];
    for (int d = 0; d < 3; ++d) local[d] += atoms.v[3 * a + d] * m;
  }
  MPI_Allreduce(local, global, 4, MPI_DOUBLE, MPI_SUM, comm);
  for (std::size_t a = 0; a < n; ++a) {
    for (int d = 0; d < 3; ++d) atoms.v[3 * a + d] -= global[d] / global[3];
  }
  double mv2 = 0.0, sum = 0.0;
  for (std::size_t a = 0; a < n; ++a) {
    const double* v = &atoms.v[3 * a];
    mv2 += (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * masses[atoms.type[a] - 1];
  }
  MPI_Allreduce(&mv2, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  const double dof = degrees_of_freedom(total);
  const double t = kernels::md::temperature_of(sum, dof, units);
  const double factor = t > 0.0 ? std::sqrt(temperature / t) : 0.0;
  for (double& v : atoms.v) v *= factor;
}

}  // namespace cb::md
