#include "solvers/md/analysis.hpp"

#include "core/format.hpp"
#include "core/kokkos_compat.hpp"

#include <algorithm>
#include <cstdio>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;

// The atoms of type `wanted` (0: any) over all ranks. A free function: nvcc
// refuses device lambdas in private members and in other lambdas.
double count_of_type(MPI_Comm comm, const Atoms& atoms, int wanted) {
  const auto type = atoms.type;
  long long mine = 0, all = 0;
  Kokkos::parallel_reduce(
      "md::rdf_group_count", Policy(0, atoms.nlocal),
      KOKKOS_LAMBDA(int i, long long& n) { n += wanted == 0 || type(i) == wanted ? 1 : 0; }, mine);
  MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, comm);
  return static_cast<double>(all);
}

// Whether an ordered pair of atoms of types (ti, tj) counts for pair m.
KOKKOS_INLINE_FUNCTION bool pair_matches(const Kokkos::Array<int, 2 * max_rdf_pairs>& types, int m,
                                         int ti, int tj) {
  const int a = types[2 * m], b = types[2 * m + 1];
  return (a == 0 || ti == a) && (b == 0 || tj == b);
}

}  // namespace

RadialDistribution::RadialDistribution(const ComputeParams& params, const std::array<bool, 4>& skip)
    : params_(params), pairs_(std::max<int>(1, static_cast<int>(params.rdf_pairs.size() / 2))) {
  for (int k = 0; k < 2 * max_rdf_pairs; ++k)
    types_[k] = k < static_cast<int>(params.rdf_pairs.size()) ? params.rdf_pairs[k] : 0;
  for (int level = 0; level < 4; ++level) skip_[level] = level > 0 && skip[level];
  histogram_ =
      Kokkos::View<double**, MemSpace>("md::rdf_histogram", pairs_, std::max(params.rdf_bins, 1));
}

bool RadialDistribution::due(long step) const {
  return params_.rdf_bins > 0 && step >= params_.rdf_start && step % params_.rdf_every == 0;
}

void RadialDistribution::accumulate(const Atoms& atoms, const NeighborList& list) {
  const auto x = atoms.x;
  const auto type = atoms.type;
  const auto neighbors = list.neighbors;
  const auto counts = list.counts;
  const auto hist = histogram_;
  const auto types = types_;
  const auto skip = skip_;
  const int pairs = pairs_;
  const double cutoff = params_.rdf_cutoff;
  const double inv_width = params_.rdf_bins / cutoff;
  const bool half = list.half();  // each pair once: count it both ways
  Kokkos::parallel_for(
      "md::rdf_histogram", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        for (int k = 0; k < counts(i); ++k) {
          const int entry = neighbors(i, k);
          if (skip[special_level(entry)]) continue;
          const int j = neighbor_index(entry);
          const double dx = x(i, 0) - x(j, 0), dy = x(i, 1) - x(j, 1), dz = x(i, 2) - x(j, 2);
          const double r = cb::math::sqrt(dx * dx + dy * dy + dz * dz);
          if (r >= cutoff) continue;
          const int bin = static_cast<int>(r * inv_width);
          for (int m = 0; m < pairs; ++m) {
            double weight = pair_matches(types, m, type(i), type(j)) ? 1.0 : 0.0;
            if (half && pair_matches(types, m, type(j), type(i))) weight += 1.0;
            if (weight > 0.0) Kokkos::atomic_add(&hist(m, bin), weight);
          }
        }
      });
  ++samples_;
}

RadialDistribution::GroupCounts RadialDistribution::group_counts(MPI_Comm comm,
                                                                 const Atoms& atoms) const {
  auto count = [&](int wanted) { return count_of_type(comm, atoms, wanted); };
  GroupCounts c;
  for (int m = 0; m < pairs_; ++m) {
    const int a = types_[2 * m], b = types_[2 * m + 1];
    c.first.push_back(count(a));
    c.second.push_back(count(b));
    const bool overlap = a == 0 || b == 0 || a == b;
    c.both.push_back(overlap ? count(a == 0 ? b : a) : 0.0);
  }
  return c;
}

std::vector<std::string> RadialDistribution::summary_lines(MPI_Comm comm, const Atoms& atoms,
                                                           double volume) const {
  std::vector<std::string> lines;
  if (params_.rdf_bins == 0 || samples_ == 0) return lines;
  const int bins = params_.rdf_bins;
  const auto local = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), histogram_);
  std::vector<double> hist(std::size_t(pairs_) * bins);
  MPI_Allreduce(local.data(), hist.data(), pairs_ * bins, MPI_DOUBLE, MPI_SUM, comm);
  const GroupCounts groups = group_counts(comm, atoms);
  const double width = params_.rdf_cutoff / bins;
  std::vector<double> peak_r(pairs_, 0.0), peak_g(pairs_, 0.0);
  std::string columns;
  for (int m = 0; m < pairs_ && !params_.rdf_pairs.empty(); ++m)
    columns += format_text(" g(%d,%d)", types_[2 * m], types_[2 * m + 1]);
  lines.push_back(format_text("rdf: %ld samples, %d bins to r = %g (columns r ", samples_, bins,
                              params_.rdf_cutoff) +
                  (columns.empty() ? std::string("g(r)") : columns.substr(1)) + ")");
  for (int b = 0; b < bins; ++b) {
    const double r0 = b * width, r1 = r0 + width, r = r0 + 0.5 * width;
    const double shell = 4.0 / 3.0 * cb::math::pi * (r1 * r1 * r1 - r0 * r0 * r0) / volume;
    std::string line = format_text("rdf %.6f", r);
    for (int m = 0; m < pairs_; ++m) {
      const double first = groups.first[m];
      const double norm = first > 0.0 ? groups.second[m] - groups.both[m] / first : 0.0;
      const double n = hist[std::size_t(m) * bins + b];
      const double g = norm * first > 0.0 ? n / (samples_ * shell * norm * first) : 0.0;
      if (g > peak_g[m]) {
        peak_g[m] = g;
        peak_r[m] = r;
      }
      line += format_text(" %.6f", g);
    }
    lines.push_back(line);
  }
  for (int m = 0; m < pairs_; ++m) {
    const std::string which =
        params_.rdf_pairs.empty() ? "" : format_text(" g(%d,%d)", types_[2 * m], types_[2 * m + 1]);
    lines.push_back(
        format_text("rdf first peak%s: r = %.4f, g = %.4f", which.c_str(), peak_r[m], peak_g[m]));
  }
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
