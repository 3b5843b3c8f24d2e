// Text helpers private to io/case_file.cpp: TOML spelling of values and parsed
// nodes (messages, the resolved case text), --set value scanning, edit distance.
#pragma once

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cb::io::detail {

// Shortest text that reads back to exactly `x` ("1", "0.1", "1e+20", "inf").
inline std::string shortest(double x) {
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, x).ptr;
  return std::string(buf, end);
}

// A TOML float literal: shortest() plus ".0" where needed, so that 1.0 stays
// a float when read back.
inline std::string toml_float(double x) {
  std::string s = shortest(x);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

inline std::string toml_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// A key as TOML writes it: bare when it can be, quoted otherwise.
inline std::string toml_key(std::string_view key) {
  const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  return bare ? std::string(key) : toml_string(key);
}

// TOML spelling of a C++ value.
inline std::string spell(bool v) {
  return v ? "true" : "false";
}
inline std::string spell(int v) {
  return std::to_string(v);
}
inline std::string spell(long v) {
  return std::to_string(v);
}
inline std::string spell(double v) {
  return toml_float(v);
}
inline std::string spell(const std::string& v) {
  return toml_string(v);
}
template <class C>
auto spell(const C& items) -> decltype(items.begin(), std::string()) {
  std::string out = "[";
  for (const auto& item : items) out += (out.size() > 1 ? ", " : "") + spell(item);
  return out + "]";
}

// TOML spelling of a parsed node ("{...}" for a table).
inline std::string spell_node(const toml::node& n) {
  if (auto s = n.as_string()) return toml_string(s->get());
  if (auto i = n.as_integer()) return std::to_string(i->get());
  if (auto f = n.as_floating_point()) return toml_float(f->get());
  if (auto b = n.as_boolean()) return spell(b->get());
  if (auto a = n.as_array()) {
    std::string out = "[";
    for (const auto& item : *a) out += (out.size() > 1 ? ", " : "") + spell_node(item);
    return out + "]";
  }
  if (n.is_table()) return "{...}";
  std::ostringstream os;
  n.visit([&os](const auto& v) { os << v; });
  return os.str();
}

inline std::string type_name(const toml::node& n) {
  // In the order of toml::node_type.
  static constexpr const char* names[] = {"none",  "table",   "array", "string", "integer",
                                          "float", "boolean", "date",  "time",   "date-time"};
  return names[static_cast<int>(n.type())];
}

// "string \"ten\"", "float 1.5", "table": what a message says was found.
inline std::string describe_node(const toml::node& n) {
  return n.is_table() ? "table" : type_name(n) + " " + spell_node(n);
}

inline std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A --set value that is not TOML but may be taken as a string (run.case=sine).
inline bool is_bare_word(std::string_view s) {
  if (s.empty() || std::string_view("[{\"'#").find(s.front()) != std::string_view::npos)
    return false;
  return std::none_of(s.begin(), s.end(), [](char c) {
    return std::isspace(static_cast<unsigned char>(c)) ||
           std::iscntrl(static_cast<unsigned char>(c)) || c == '"' || c == '\'';
  });
}

inline std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return std::string(s.substr(first, s.find_last_not_of(" \t") - first + 1));
}

// Optimal-string-alignment (restricted Damerau-Levenshtein) distance.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev2(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        row[j] = std::min(row[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, row);
  }
  return prev[b.size()];
}

}  // namespace cb::io::detail
