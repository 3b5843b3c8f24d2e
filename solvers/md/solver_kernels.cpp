// MdSolver launch sites: integration, thermostats and computes over owned atoms.
#include "kernels/md/random.hpp"
#include "solvers/md/solver.hpp"

#include <cmath>
#include <cstdio>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

}  // namespace

void MdSolver::integrate_initial(double dt) {
  const auto x = atoms_.x;
  const auto v = atoms_.v;
  const auto f = atoms_.f;
  const auto type = atoms_.type;
  const auto inv_mass = inv_mass_;
  const double dtf = 0.5 * dt;
  Kokkos::parallel_for(
      "md::integrate_initial", Policy(0, atoms_.nlocal), KOKKOS_LAMBDA(int i) {
        const double dtfm = dtf * inv_mass(type(i));
        for (int d = 0; d < 3; ++d) kmd::kick_drift(x(i, d), v(i, d), f(i, d), dtfm, dt);
      });
}

void MdSolver::integrate_final(double dt) {
  const auto v = atoms_.v;
  const auto f = atoms_.f;
  const auto type = atoms_.type;
  const auto inv_mass = inv_mass_;
  const double dtf = 0.5 * dt;
  Kokkos::parallel_for(
      "md::integrate_final", Policy(0, atoms_.nlocal), KOKKOS_LAMBDA(int i) {
        const double dtfm = dtf * inv_mass(type(i));
        for (int d = 0; d < 3; ++d) kmd::kick(v(i, d), f(i, d), dtfm);
      });
}

void MdSolver::scale_velocities(double factor) {
  const auto v = atoms_.v;
  Kokkos::parallel_for(
      "md::scale_velocities", Policy(0, atoms_.nlocal), KOKKOS_LAMBDA(int i) {
        for (int d = 0; d < 3; ++d) v(i, d) *= factor;
      });
}

// Langevin friction and noise as one velocity update at the start of the step
// (Euler-Maruyama for dv = -v/damp dt + sqrt(2 kT / (m damp)) dW, then velocity
// Verlet with the pair forces): the impulse dt F of LAMMPS's force form, with F
// evaluated at the start-of-step velocity, so a checkpoint's (x, v) is the
// whole state. Random stream keyed by (seed, atom id, step, component):
// independent of the rank count and of the atom order.
void MdSolver::langevin_kick(double dt) {
  const auto v = atoms_.v;
  const auto id = atoms_.id;
  const auto type = atoms_.type;
  const auto mass = mass_;
  const auto inv_mass = inv_mass_;
  const ThermostatParams t = params_.thermostat;
  const std::uint64_t seed = static_cast<std::uint64_t>(t.seed);
  const std::int64_t step = step_ + 1;  // the step being taken
  Kokkos::parallel_for(
      "md::langevin_kick", Policy(0, atoms_.nlocal), KOKKOS_LAMBDA(int i) {
        const kmd::LangevinCoeff c = kmd::langevin_coeff(mass(type(i)), t.temperature, t.damp, dt);
        const double dtm = dt * inv_mass(type(i));
        for (int d = 0; d < 3; ++d) {
          v(i, d) +=
              dtm * kmd::langevin_force(v(i, d), kmd::counter_uniform(seed, id(i), step, d), c);
        }
      });
}

double MdSolver::sum_mv2() {
  const auto v = atoms_.v;
  const auto type = atoms_.type;
  const auto mass = mass_;
  double sum = 0.0;
  Kokkos::parallel_reduce(
      "md::sum_mv2", Policy(0, atoms_.nlocal),
      KOKKOS_LAMBDA(int i, double& s) {
        s += (v(i, 0) * v(i, 0) + v(i, 1) * v(i, 1) + v(i, 2) * v(i, 2)) * mass(type(i));
      },
      sum);
  return sum;
}

double MdSolver::max_displacement_sq() {
  const auto x = atoms_.x;
  const auto x0 = atoms_.x_build;
  double most = 0.0;
  Kokkos::parallel_reduce(
      "md::max_displacement", Policy(0, atoms_.nlocal),
      KOKKOS_LAMBDA(int i, double& m) {
        const double dx = x(i, 0) - x0(i, 0), dy = x(i, 1) - x0(i, 1), dz = x(i, 2) - x0(i, 2);
        const double r2 = dx * dx + dy * dy + dz * dz;
        if (r2 > m) m = r2;
      },
      Kokkos::Max<double>(most));
  return most;
}

void MdSolver::save_build_positions() {
  const auto x = atoms_.x;
  const auto x0 = atoms_.x_build;
  Kokkos::parallel_for(
      "md::save_build_positions", Policy(0, atoms_.nlocal), KOKKOS_LAMBDA(int i) {
        for (int d = 0; d < 3; ++d) x0(i, d) = x(i, d);
      });
}

// Sum over owned atoms of |x + image L - x_ref|^2 (unwrapped displacement).
double MdSolver::sum_msd() {
  const auto x = atoms_.x;
  const auto image = atoms_.image;
  const auto ref = atoms_.x_ref;
  const double lx = local_.length(0), ly = local_.length(1), lz = local_.length(2);
  double sum = 0.0;
  Kokkos::parallel_reduce(
      "md::sum_msd", Policy(0, atoms_.nlocal),
      KOKKOS_LAMBDA(int i, double& s) {
        const double dx = x(i, 0) + image(i, 0) * lx - ref(i, 0);
        const double dy = x(i, 1) + image(i, 1) * ly - ref(i, 1);
        const double dz = x(i, 2) + image(i, 2) * lz - ref(i, 2);
        s += dx * dx + dy * dy + dz * dz;
      },
      sum);
  return sum;
}

// Pair-distance histogram from the neighbour list (pairs within rdf_cutoff,
// which is at most the force cutoff, are all in the list).
void MdSolver::accumulate_rdf() {
  const auto x = atoms_.x;
  const auto neighbors = list_.neighbors;
  const auto counts = list_.counts;
  const auto hist = rdf_hist_;
  const int bins = params_.compute.rdf_bins;
  const double cutoff = params_.compute.rdf_cutoff;
  const double inv_width = bins / cutoff;
  const double weight = list_.half() ? 2.0 : 1.0;  // ordered pairs
  Kokkos::parallel_for(
      "md::rdf_histogram", Policy(0, atoms_.nlocal), KOKKOS_LAMBDA(int i) {
        for (int k = 0; k < counts(i); ++k) {
          const int j = neighbors(i, k);
          const double dx = x(i, 0) - x(j, 0), dy = x(i, 1) - x(j, 1), dz = x(i, 2) - x(j, 2);
          const double r = cb::math::sqrt(dx * dx + dy * dy + dz * dz);
          if (r >= cutoff) continue;
          Kokkos::atomic_add(&hist(static_cast<int>(r * inv_width)), weight);
        }
      });
  ++rdf_samples_;
}

// g(r) = n(r) / (N rho 4 pi r^2 dr) averaged over samples, ideal-gas shells.
std::vector<std::string> MdSolver::summary_lines() {
  std::vector<std::string> lines;
  if (params_.compute.rdf_bins == 0 || rdf_samples_ == 0) return lines;
  const int bins = params_.compute.rdf_bins;
  auto local = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rdf_hist_);
  std::vector<double> hist(bins);
  MPI_Allreduce(local.data(), hist.data(), bins, MPI_DOUBLE, MPI_SUM, decomposition_.comm());
  const double natoms = static_cast<double>(atoms_.total);
  const double rho = natoms / local_.volume();
  const double width = params_.compute.rdf_cutoff / bins;
  double peak_r = 0.0, peak_g = 0.0;
  char line[96];
  std::snprintf(line, sizeof line, "rdf: %ld samples, %d bins to r = %g (columns r g(r))",
                rdf_samples_, bins, params_.compute.rdf_cutoff);
  lines.push_back(line);
  for (int b = 0; b < bins; ++b) {
    const double r0 = b * width, r1 = r0 + width;
    const double shell = 4.0 / 3.0 * cb::math::pi * (r1 * r1 * r1 - r0 * r0 * r0);
    const double g = hist[b] / (rdf_samples_ * natoms * rho * shell);
    const double r = r0 + 0.5 * width;
    if (g > peak_g) {
      peak_g = g;
      peak_r = r;
    }
    std::snprintf(line, sizeof line, "rdf %.6f %.6f", r, g);
    lines.push_back(line);
  }
  std::snprintf(line, sizeof line, "rdf first peak: r = %.4f, g = %.4f", peak_r, peak_g);
  lines.push_back(line);
  return lines;
}

}  // namespace cb::md
