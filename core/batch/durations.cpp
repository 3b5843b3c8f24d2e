#include "core/batch/durations.hpp"

#include <mpi.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace cb {
namespace {

// A non-negative decimal integer (digits only), or -1.
long parse_count(const std::string& text) {
  if (text.empty() || text.size() > 9) return -1;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
  }
  return std::stol(text);
}

// Slurm's time formats with a colon or a day prefix: "MM:SS", "HH:MM:SS",
// "D-HH", "D-HH:MM", "D-HH:MM:SS".
std::optional<double> parse_slurm_duration(const std::string& text) {
  long days = 0;
  std::string rest = text;
  const size_t dash = text.find('-');
  if (dash != std::string::npos) {
    days = parse_count(text.substr(0, dash));
    rest = text.substr(dash + 1);
    if (days < 0) return std::nullopt;
  }
  std::vector<long> parts;
  size_t begin = 0;
  while (true) {
    const size_t colon = rest.find(':', begin);
    parts.push_back(parse_count(rest.substr(begin, colon - begin)));
    if (parts.back() < 0) return std::nullopt;
    if (colon == std::string::npos) break;
    begin = colon + 1;
  }
  double seconds = 0.0;
  if (dash != std::string::npos && parts.size() <= 3) {  // hours[:minutes[:seconds]]
    const double scale[] = {3600.0, 60.0, 1.0};
    for (size_t n = 0; n < parts.size(); ++n) seconds += scale[n] * parts[n];
  } else if (parts.size() == 2) {  // minutes:seconds
    seconds = 60.0 * parts[0] + parts[1];
  } else if (parts.size() == 3) {  // hours:minutes:seconds
    seconds = 3600.0 * parts[0] + 60.0 * parts[1] + parts[2];
  } else {
    return std::nullopt;
  }
  seconds += 86400.0 * days;
  return seconds > 0.0 ? std::optional<double>(seconds) : std::nullopt;
}

}  // namespace

double wall_seconds() {
  return MPI_Wtime();
}

double epoch_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

std::optional<double> parse_duration(const std::string& text) {
  if (text.find_first_of(":-") != std::string::npos) return parse_slurm_duration(text);
  static constexpr char units[] = "dhms";
  static constexpr double unit_seconds[] = {86400.0, 3600.0, 60.0, 1.0};
  double total = 0.0;
  int last_unit = -1;
  size_t n = 0;
  while (n < text.size()) {
    const size_t start = n;
    while (n < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[n])) || text[n] == '.')) {
      ++n;
    }
    if (n == start || n == text.size()) return std::nullopt;  // no number, or no unit
    char* end = nullptr;
    const std::string number = text.substr(start, n - start);
    const double value = std::strtod(number.c_str(), &end);
    if (*end != '\0') return std::nullopt;
    const char* unit = std::strchr(units, text[n++]);
    if (!unit || *unit == '\0' || unit - units <= last_unit) return std::nullopt;
    last_unit = static_cast<int>(unit - units);
    total += value * unit_seconds[last_unit];
  }
  return total > 0.0 && std::isfinite(total) ? std::optional<double>(total) : std::nullopt;
}

std::string format_slurm_time(double seconds) {
  const long s = static_cast<long>(std::ceil(std::max(seconds, 0.0)));
  char buffer[48];
  if (s >= 86400) {
    std::snprintf(buffer, sizeof buffer, "%ld-%02ld:%02ld:%02ld", s / 86400, (s / 3600) % 24,
                  (s / 60) % 60, s % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  }
  return buffer;
}

}  // namespace cb
