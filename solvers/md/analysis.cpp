#include "solvers/md/analysis.hpp"

#include "core/kokkos_compat.hpp"

#include <algorithm>
#include <cstdio>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;

}  // namespace

RadialDistribution::RadialDistribution(const ComputeParams& params)
    : params_(params), histogram_("md::rdf_histogram", std::max(params.rdf_bins, 1)) {}

bool RadialDistribution::due(long step) const {
  return params_.rdf_bins > 0 && step >= params_.rdf_start && step % params_.rdf_every == 0;
}

void RadialDistribution::accumulate(const Atoms& atoms, const NeighborList& list) {
  const auto x = atoms.x;
  const auto neighbors = list.neighbors;
  const auto counts = list.counts;
  const auto hist = histogram_;
  const int bins = params_.rdf_bins;
  const double cutoff = params_.rdf_cutoff;
  const double inv_width = bins / cutoff;
  const double weight = list.half() ? 2.0 : 1.0;  // ordered pairs
  Kokkos::parallel_for(
      "md::rdf_histogram", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        for (int k = 0; k < counts(i); ++k) {
          const int j = neighbor_index(neighbors(i, k));
          const double dx = x(i, 0) - x(j, 0), dy = x(i, 1) - x(j, 1), dz = x(i, 2) - x(j, 2);
          const double r = cb::math::sqrt(dx * dx + dy * dy + dz * dz);
          if (r >= cutoff) continue;
          Kokkos::atomic_add(&hist(static_cast<int>(r * inv_width)), weight);
        }
      });
  ++samples_;
}

std::vector<std::string> RadialDistribution::summary_lines(MPI_Comm comm, double natoms,
                                                           double volume) const {
  std::vector<std::string> lines;
  if (params_.rdf_bins == 0 || samples_ == 0) return lines;
  const int bins = params_.rdf_bins;
  auto local = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), histogram_);
  std::vector<double> hist(bins);
  MPI_Allreduce(local.data(), hist.data(), bins, MPI_DOUBLE, MPI_SUM, comm);
  const double rho = natoms / volume;
  const double width = params_.rdf_cutoff / bins;
  double peak_r = 0.0, peak_g = 0.0;
  char line[96];
  std::snprintf(line, sizeof line, "rdf: %ld samples, %d bins to r = %g (columns r g(r))", samples_,
                bins, params_.rdf_cutoff);
  lines.push_back(line);
  for (int b = 0; b < bins; ++b) {
    const double r0 = b * width, r1 = r0 + width;
    const double shell = 4.0 / 3.0 * cb::math::pi * (r1 * r1 * r1 - r0 * r0 * r0);
    const double g = hist[b] / (samples_ * natoms * rho * shell);
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

double sum_squared_displacement(const Atoms& atoms, const LocalBox& box, OrderedSum& sums) {
  const auto x = atoms.x;
  const auto image = atoms.image;
  const auto ref = atoms.x_ref;
  const double lx = box.length(0), ly = box.length(1), lz = box.length(2);
  return sums
      .sum<1>(
          "md::sum_squared_displacement", atoms.nlocal,
          KOKKOS_LAMBDA(int i, double* s) {
            const double dx = x(i, 0) + image(i, 0) * lx - ref(i, 0);
            const double dy = x(i, 1) + image(i, 1) * ly - ref(i, 1);
            const double dz = x(i, 2) + image(i, 2) * lz - ref(i, 2);
            s[0] += dx * dx + dy * dy + dz * dz;
          })
      .value[0];
}

}  // namespace cb::md
