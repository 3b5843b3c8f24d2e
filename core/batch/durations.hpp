// Wall-clock durations as users and Slurm write them.
#pragma once

#include <optional>
#include <string>

namespace cb {

// Parses a duration: "2h30m", "90m", "45s", "1h5m30s", "1.5h", "2d", or Slurm's
// "[D-]HH:MM:SS", "MM:SS", "D-HH[:MM]". A bare number (no unit) is refused as
// ambiguous. Returns seconds, or nullopt when malformed or not positive.
std::optional<double> parse_duration(const std::string& text);

// "H:MM:SS" (or "D-HH:MM:SS" from a day on) of a number of seconds, rounded up.
std::string format_slurm_time(double seconds);

// Seconds since the Unix epoch (system clock; comparable across hosts).
double epoch_seconds();

// Seconds since an arbitrary fixed point (MPI_Wtime).
double wall_seconds();

}  // namespace cb
