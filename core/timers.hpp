// Wall-clock time per run phase, for the final summary. Phases
// nest: starting "halo" inside "compute" pauses compute, so the phases add up to
// the wall time. Each phase is also a Kokkos profiling region for Kokkos Tools.
#pragma once

#include <Kokkos_Core.hpp>

#include <array>
#include <chrono>
#include <vector>

namespace cb {

enum class Phase : int { compute, halo, io, other, count };

const char* phase_name(Phase phase);

class PhaseTimer {
 public:
  PhaseTimer();
  void push(Phase phase, const char* region);  // fences, then starts `phase`
  void pop();                                  // fences, then resumes the outer phase
  double seconds(Phase phase) const { return seconds_[static_cast<int>(phase)]; }
  double total() const;

 private:
  using Clock = std::chrono::steady_clock;
  void charge(Clock::time_point now);
  std::array<double, static_cast<int>(Phase::count)> seconds_{};
  std::vector<Phase> stack_;
  Clock::time_point since_;
};

// RAII phase: `ScopedPhase halo_phase(timer, Phase::halo, "scalar::halo");`
class ScopedPhase {
 public:
  ScopedPhase(PhaseTimer& timer, Phase phase, const char* region) : timer_(timer) {
    timer_.push(phase, region);
  }
  ~ScopedPhase() { timer_.pop(); }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseTimer& timer_;
};

}  // namespace cb
