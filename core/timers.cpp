#include "core/timers.hpp"

namespace cb {

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::compute:
      return "compute";
    case Phase::halo:
      return "halo";
    case Phase::io:
      return "I/O";
    case Phase::other:
      return "other";
    case Phase::count:
      break;
  }
  return "?";
}

PhaseTimer::PhaseTimer() : stack_{Phase::other}, since_(Clock::now()) {}

void PhaseTimer::charge(Clock::time_point now) {
  seconds_[static_cast<int>(stack_.back())] += std::chrono::duration<double>(now - since_).count();
  since_ = now;
}

void PhaseTimer::push(Phase phase, const char* region) {
  Kokkos::fence();
  charge(Clock::now());
  stack_.push_back(phase);
  Kokkos::Profiling::pushRegion(region);
}

void PhaseTimer::pop() {
  Kokkos::fence();
  Kokkos::Profiling::popRegion();
  charge(Clock::now());
  if (stack_.size() > 1) stack_.pop_back();
}

double PhaseTimer::total() const {
  double sum = 0.0;
  for (double s : seconds_) sum += s;
  return sum;
}

}  // namespace cb
