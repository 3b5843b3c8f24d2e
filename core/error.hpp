// Errors that map to the exit codes (docs/architecture.md, "Exit codes").
#pragma once

#include <stdexcept>
#include <string>

namespace cb {

enum ExitCode : int {
  exit_ok = 0,
  exit_bad_input = 2,   // nothing was written
  exit_run_failed = 3,  // e.g. a non-finite diagnostic
  exit_resumable = 75,  // stopped early after writing a checkpoint (EX_TEMPFAIL)
};

// Bad user input (case file, command line, checkpoint that does not match).
// The message is complete, e.g. "case.toml:3:1: unknown key 'x' in [run]".
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The run itself failed (blow-up, I/O failure during the run).
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cb
