#include "apps/arguments.hpp"

#include "core/error.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace cb::app {

ArgumentParser::ArgumentParser(std::string command) : command_(std::move(command)) {}

ArgumentParser& ArgumentParser::option(const std::string& name, Setter set) {
  options_[name] = std::move(set);
  return *this;
}

ArgumentParser& ArgumentParser::text(const std::string& name, std::string& target) {
  return option(name, [&target](const std::string&, const std::string& value) { target = value; });
}

ArgumentParser& ArgumentParser::list(const std::string& name, std::vector<std::string>& target) {
  return option(
      name, [&target](const std::string&, const std::string& value) { target.push_back(value); });
}

ArgumentParser& ArgumentParser::flag(const std::string& name, bool& target) {
  flags_[name] = &target;
  return *this;
}

ArgumentParser& ArgumentParser::whole_number(const std::string& name, int& target, long lo,
                                             long hi) {
  return option(name, [&target, lo, hi](const std::string& option, const std::string& value) {
    target = static_cast<int>(parse_whole_number(option, value, lo, hi));
  });
}

void ArgumentParser::parse(const std::vector<std::string>& words, std::string& case_path) const {
  for (std::size_t n = 0; n < words.size(); ++n) {
    const std::string& word = words[n];
    const std::size_t eq = word.rfind("--", 0) == 0 ? word.find('=') : std::string::npos;
    const std::string name = word.substr(0, eq);
    if (const auto option = options_.find(name); option != options_.end()) {
      if (eq == std::string::npos && n + 1 >= words.size())
        throw InputError(name + " needs a value");
      option->second(name, eq == std::string::npos ? words[++n] : word.substr(eq + 1));
    } else if (const auto flag = flags_.find(word); flag != flags_.end()) {
      *flag->second = true;
    } else if (!word.empty() && word[0] == '-') {
      throw InputError("unknown option '" + word + "' (cloudburst " + command_ + " --help)");
    } else if (case_path.empty()) {
      case_path = word;
    } else {
      throw InputError("unexpected argument '" + word + "' (one case file)");
    }
  }
  if (case_path.empty()) throw InputError("missing the case file (CASE.toml)");
}

long parse_whole_number(const std::string& option, const std::string& text, long lo, long hi) {
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text.c_str(), &end, 10);
  const bool digits = !text.empty() && !std::isspace(static_cast<unsigned char>(text[0])) &&
                      *end == '\0' && errno == 0;
  if (!digits || value < lo || value > hi) {
    const std::string range = hi == std::numeric_limits<long>::max()
                                  ? "of at least " + std::to_string(lo)
                                  : "from " + std::to_string(lo) + " to " + std::to_string(hi);
    throw InputError(option + " '" + text + "': expected a whole number " + range);
  }
  return value;
}

double parse_non_negative(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value))
    throw InputError(option + " '" + text + "': expected a number");
  if (value < 0.0) throw InputError(option + " '" + text + "': must not be negative");
  return value;
}

}  // namespace cb::app
