// The words after a subcommand, read the same way by `run`, `check`,
// `estimate` and `submit`: options with a value (`--name VALUE` or
// `--name=VALUE`), flags (`--json`) and one positional argument, the case file.
// Every refusal is an InputError naming the word.
#pragma once

#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace cb::app {

class ArgumentParser {
 public:
  // Called with the option's name and its value; may throw InputError.
  using Setter = std::function<void(const std::string& option, const std::string& value)>;

  // `command` names the subcommand in the hint for an unknown option.
  explicit ArgumentParser(std::string command);

  ArgumentParser& option(const std::string& name, Setter set);
  ArgumentParser& text(const std::string& name, std::string& target);               // stores
  ArgumentParser& list(const std::string& name, std::vector<std::string>& target);  // appends
  ArgumentParser& flag(const std::string& name, bool& target);
  // A whole number from `lo` to `hi` (parse_whole_number).
  ArgumentParser& whole_number(const std::string& name, int& target, long lo, long hi);

  // Reads `words`; the one positional argument goes into `case_path`.
  void parse(const std::vector<std::string>& words, std::string& case_path) const;

 private:
  std::string command_;
  std::map<std::string, Setter> options_;
  std::map<std::string, bool*> flags_;
};

// The largest job `submit` renders and `estimate` predicts.
constexpr long max_nodes = 100000;
constexpr long max_ranks_per_node = 4096;

// A whole number from `lo` to `hi`, else InputError "OPTION 'TEXT': expected ...".
long parse_whole_number(const std::string& option, const std::string& text, long lo,
                        long hi = std::numeric_limits<long>::max());
// A finite number of at least 0, else InputError naming the option.
double parse_non_negative(const std::string& option, const std::string& text);

}  // namespace cb::app
