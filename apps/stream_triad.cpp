// `cloudburst-stream`: a STREAM-like triad a = b + s c on Kokkos' default
// memory space, every rank at once, for the roofline figures of scripts/bench.
// Counts 24 bytes per element (two reads, one write), as STREAM does
// (McCalpin, "Memory bandwidth and machine balance", IEEE TCCA newsletter,
// 1995); write-allocate traffic on CPUs is not counted.
#include "core/driver.hpp"
#include "core/environment.hpp"
#include "core/types.hpp"

#include <cstdio>
#include <cstdlib>

namespace {

using Vector = Kokkos::View<double*, cb::MemSpace>;

void triad(const Vector& a, const Vector& b, const Vector& c, double s) {
  Kokkos::parallel_for(
      "stream::triad", Kokkos::RangePolicy<cb::ExecSpace>(0, a.extent(0)),
      KOKKOS_LAMBDA(const long n) { a(n) = b(n) + s * c(n); });
}

// Best time of `repeats` triads, all ranks starting together; the slowest rank
// counts, as in a bulk-synchronous solver.
double best_triad_seconds(long elements, int repeats) {
  Vector a("stream::a", elements), b("stream::b", elements), c("stream::c", elements);
  Kokkos::deep_copy(b, 1.0);
  Kokkos::deep_copy(c, 2.0);
  triad(a, b, c, 3.0);  // first touch
  Kokkos::fence();
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double begin = cb::wall_seconds();
    triad(a, b, c, 3.0);
    Kokkos::fence();
    double elapsed = cb::wall_seconds() - begin;
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (elapsed < best) best = elapsed;
  }
  return best;
}

}  // namespace

int main(int argc, char* argv[]) {
  cb::Environment environment(argc, argv);
  // Default 2^25 doubles per array (768 MiB for three): far beyond any cache.
  const long elements = argc > 1 ? std::atol(argv[1]) : (1L << 25);
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 10;
  if (elements <= 0 || repeats <= 0) {
    if (environment.rank() == 0) std::fprintf(stderr, "usage: cloudburst-stream [N] [REPEATS]\n");
    return 2;
  }
  const double seconds = best_triad_seconds(elements, repeats);
  const double bytes = 24.0 * double(elements) * environment.size();
  if (environment.rank() == 0) {
    std::printf("stream triad: %d rank(s) x %ld doubles, %s, best of %d: %.3f GB/s\n",
                environment.size(), elements, cb::kokkos_backend_name().c_str(), repeats,
                bytes / seconds * 1e-9);
  }
  return 0;
}
