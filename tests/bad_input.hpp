// Bad-input checks of a solver's own case keys through the `cloudburst`
// program: every failure exits 2 with a message naming the key, and writes
// nothing.
#pragma once

#include "cli_runner.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace cb::test {

struct BadOverride {
  std::string what;
  std::string set;                    // --set arguments applied to the valid case
  std::vector<std::string> expected;  // parts of the message
};

// Each override applied to `valid` (written to DIR/bad.toml).
inline void check_bad_overrides(const std::string& dir, const std::string& valid,
                                const std::vector<BadOverride>& bad) {
  using Catch::Matchers::ContainsSubstring;
  for (const BadOverride& b : bad) {
    write_text(dir + "/bad.toml", valid);
    const CliResult r =
        run_cloudburst("run " + dir + "/bad.toml --output-dir " + dir + "/out " + b.set);
    INFO(b.what << ":\n" << r.output);
    CHECK(r.code == 2);
    for (const auto& e : b.expected) CHECK_THAT(r.output, ContainsSubstring(e));
    CHECK_FALSE(std::filesystem::exists(dir + "/out"));
  }
}

// `key` misspelt as `typo` inside the file: the message names bad.toml:LINE
// and suggests the key.
inline void check_misspelt_key(const std::string& dir, std::string text, const std::string& key,
                               const std::string& typo, int line) {
  using Catch::Matchers::ContainsSubstring;
  text.replace(text.find(key), key.size(), typo);
  write_text(dir + "/bad.toml", text);
  const CliResult r = run_cloudburst("run " + dir + "/bad.toml --output-dir " + dir + "/out");
  INFO(r.output);
  CHECK(r.code == 2);
  CHECK_THAT(r.output, ContainsSubstring("bad.toml:" + std::to_string(line) + ":") &&
                           ContainsSubstring("did you mean '" + key + "'"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out"));
}

}  // namespace cb::test
