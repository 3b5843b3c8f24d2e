// Stop requests from SIGTERM, SIGUSR1 and SIGINT (docs/architecture.md, "Batch jobs"). The handler
// only records the signal; the driver polls at step boundaries, all ranks agree, and the run stops
// with a checkpoint and exit code 75. A second SIGINT aborts.
#pragma once

namespace cb {

void install_stop_handlers();
// The signal number that asked to stop, or 0.
int stop_requested();
// For tests: forget a request.
void clear_stop_request();

}  // namespace cb
