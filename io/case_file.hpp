// Strict TOML case files (docs/case-files.md). A CaseFile wraps the parsed document;
// typed getters record every key a solver asks for, its value and whether it
// was defaulted. After all getters ran, finish() rejects whatever was not asked
// for (unknown sections and keys, with a "did you mean" suggestion). Every error
// is a cb::InputError whose message starts "FILE:LINE:COL: " (or "--set: ").
#pragma once

#include "core/error.hpp"

#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cb::io {

// Accepted interval of a number (or of each element of a numeric array).
struct Bounds {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_inclusive = true;
  bool hi_inclusive = true;

  static Bounds any() { return {}; }
  static Bounds positive() { return {0.0, Bounds{}.hi, false, true}; }
  static Bounds non_negative() { return {0.0, Bounds{}.hi, true, true}; }
  static Bounds at_least(double lo) { return {lo, Bounds{}.hi, true, true}; }
  static Bounds closed(double lo, double hi) { return {lo, hi, true, true}; }
  static Bounds open_closed(double lo, double hi) { return {lo, hi, false, true}; }
  bool contains(double x) const;
  std::string describe() const;  // e.g. "(0, 1]"
};

// One resolved key, for `cloudburst check` and the embedded case text.
struct ResolvedEntry {
  std::string section;
  std::string key;
  std::string value;  // TOML spelling
  bool defaulted = false;
};

class CaseFile {
 public:
  // Reads and parses `path`, then applies `overrides` ("section.key=value",
  // the value in TOML syntax). Throws InputError on a missing/unreadable file,
  // a TOML syntax error or a malformed override.
  static CaseFile load(const std::string& path, const std::vector<std::string>& overrides = {});
  // Same from text in memory (tests); `name` is used in messages.
  static CaseFile parse(const std::string& text, const std::string& name,
                        const std::vector<std::string>& overrides = {});

  CaseFile(CaseFile&&) noexcept;
  CaseFile& operator=(CaseFile&&) noexcept;
  ~CaseFile();

  // Supported T: bool, int, long, double, std::string, std::vector<int>,
  // std::vector<long>, std::vector<double>, std::vector<std::string>, Int3,
  // std::array<double, 3>. An integer is accepted where a double is asked.
  // Wrong type or out-of-bounds values throw InputError naming file:line:col
  // and section.key.
  template <class T>
  T get(std::string_view section, std::string_view key, const T& fallback,
        const Bounds& bounds = Bounds::any());
  template <class T>
  T require(std::string_view section, std::string_view key, const Bounds& bounds = Bounds::any());
  template <class T>
  std::optional<T> find(std::string_view section, std::string_view key,
                        const Bounds& bounds = Bounds::any());

  // A string that must be one of `allowed`; an unknown value is an error that
  // lists the allowed values and suggests the closest one.
  std::string choice(std::string_view section, std::string_view key,
                     const std::vector<std::string>& allowed,
                     const std::optional<std::string>& fallback = std::nullopt);

  // Declares a key valid without reading it (e.g. a key another mode uses).
  void allow(std::string_view section, std::string_view key);

  bool has(std::string_view section, std::string_view key) const;

  // The number of tables in the array of tables [[name]] (0 when absent).
  // Table N (1-based) is read and reported as the section "name[N]".
  std::size_t tables(std::string_view name) const;

  // Throws InputError located at section.key (or at the section, or the file).
  [[noreturn]] void fail(std::string_view section, std::string_view key,
                         const std::string& message) const;

  // Throws "missing required key" for section.key (`what` replaces the key's
  // name in the message, e.g. "end_time' or 'steps"), unless a misspelling of
  // the key or its section explains the absence: then that is reported.
  [[noreturn]] void fail_missing(std::string_view section, std::string_view key,
                                 const std::string& what = "") const;

  // Rejects every section or key no getter asked for, suggesting the closest
  // known name (edit distance). Call once, after all parameters were read.
  void finish() const;

  const std::string& path() const;
  const std::vector<ResolvedEntry>& resolved() const;
  // The fully resolved case as TOML text (defaults written out, marked with a
  // "# default" comment): embedded in checkpoints and outputs.
  std::string resolved_text() const;
  // The file's own text (before overrides).
  const std::string& source_text() const;

 private:
  struct Impl;
  explicit CaseFile(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Closest candidate to `word` by edit distance, or "" when none is close.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace cb::io
