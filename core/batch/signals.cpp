#include "core/batch/signals.hpp"

#include <unistd.h>
#include <csignal>
#include <cstdlib>
#include <initializer_list>

namespace cb {
namespace {

// A signal handler can only communicate through a lock-free global; this is the
// one process-wide variable in the code base.
volatile std::sig_atomic_t pending_signal = 0;

extern "C" void on_stop_signal(int signal) {
  if (signal == SIGINT && pending_signal == SIGINT) _exit(128 + SIGINT);
  pending_signal = signal;
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (int signal : {SIGTERM, SIGUSR1, SIGINT}) sigaction(signal, &action, nullptr);
}

int stop_requested() {
  return pending_signal;
}

void clear_stop_request() {
  pending_signal = 0;
}

}  // namespace cb
