// Wall time of the parts of an MD step, as LAMMPS's timer sections (Pair,
// Bond, Kspace, Neigh, Comm), with PPPM's FFTs (their remaps included) apart
// from the rest of k-space: each part is fenced at its end so that device
// work is charged to the part that launched it. For the run summary and the
// side-by-side benchmark; never asserted.
#pragma once

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <array>
#include <string>

namespace cb::md {

enum class Part : int { pair, bonded, kspace, fft, neighbor, comm, count };

class PartTimers {
 public:
  // Charges the time since the last mark (or start) to `part`, after a fence.
  void start() {
    Kokkos::fence();
    since_ = MPI_Wtime();
  }
  void charge(Part part) {
    Kokkos::fence();
    const double now = MPI_Wtime();
    seconds_[static_cast<int>(part)] += now - since_;
    since_ = now;
  }
  double seconds(Part part) const { return seconds_[static_cast<int>(part)]; }

  // "md time by part: pair 1.2 s, bonded ..., kspace ..., fft ..., neighbor ..., comm ..."
  // with the largest over ranks (collective).
  std::string summary(MPI_Comm comm) const {
    std::array<double, static_cast<int>(Part::count)> most{};
    MPI_Allreduce(seconds_.data(), most.data(), static_cast<int>(Part::count), MPI_DOUBLE, MPI_MAX,
                  comm);
    const char* names[] = {"pair", "bonded", "kspace", "fft", "neighbor", "comm"};
    std::string text = "md time by part (slowest rank):";
    char item[64];
    for (int p = 0; p < static_cast<int>(Part::count); ++p) {
      std::snprintf(item, sizeof item, "%s %s %.3f s", p == 0 ? "" : ",", names[p], most[p]);
      text += item;
    }
    return text;
  }

 private:
  std::array<double, static_cast<int>(Part::count)> seconds_{};
  double since_ = 0.0;
};

}  // namespace cb::md
