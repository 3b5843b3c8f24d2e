// Strict TOML case files: typed getters with bounds, --set overrides, and a
// final check that rejects every section or key no getter asked for.
#include "io/case_file.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <type_traits>
#include <utility>

#include "io/detail/case_text.hpp"

namespace cb::io {
namespace {

using detail::edit_distance;
using detail::is_bare_word;
using detail::join;
using detail::lower;
using detail::spell;
using detail::spell_node;
using detail::toml_string;
using detail::trim;

using Int3 = std::array<int, 3>;
using Real3 = std::array<double, 3>;

template <class T>
struct is_vector : std::false_type {};
template <class E>
struct is_vector<std::vector<E>> : std::true_type {};
template <class T>
constexpr bool is_list = is_vector<T>::value || std::is_same_v<T, Int3> || std::is_same_v<T, Real3>;

// What a getter of type T expects, for "must be ..." messages.
template <class T>
std::string expected() {
  if constexpr (is_list<T>) {
    using E = typename T::value_type;
    return std::string(is_vector<T>::value ? "an array of " : "an array of 3 ") +
           (std::is_same_v<E, std::string> ? "strings"
            : std::is_same_v<E, double>    ? "numbers"
                                           : "integers");
  } else {
    return std::is_same_v<T, bool>          ? "a boolean"
           : std::is_same_v<T, double>      ? "a number"
           : std::is_same_v<T, std::string> ? "a string"
                                            : "an integer";
  }
}

enum class Fit { ok, wrong_type, overflow };

// Reads one scalar of type T from `n`; an integer is accepted for a double.
template <class T>
Fit read_scalar(const toml::node& n, T& out) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!n.is_boolean()) return Fit::wrong_type;
    out = n.as_boolean()->get();
  } else if constexpr (std::is_integral_v<T>) {
    if (!n.is_integer()) return Fit::wrong_type;
    const int64_t v = n.as_integer()->get();
    if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
      return Fit::overflow;
    out = static_cast<T>(v);
  } else if constexpr (std::is_same_v<T, double>) {
    if (!n.is_floating_point() && !n.is_integer()) return Fit::wrong_type;
    out = n.is_integer() ? double(n.as_integer()->get()) : n.as_floating_point()->get();
  } else {
    if (!n.is_string()) return Fit::wrong_type;
    out = n.as_string()->get();
  }
  return Fit::ok;
}

std::string at(const std::string& file, const toml::source_region& where) {
  if (where.begin.line == 0) return file;
  return file + ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column);
}

// "; did you mean X?" when a candidate is close, else the full list (if any).
std::string hint(const std::string& word, const std::vector<std::string>& candidates,
                 const std::string& open, const std::string& close, const char* what) {
  const std::string best = closest_match(word, candidates);
  if (!best.empty()) return "; did you mean " + open + best + close + "?";
  if (candidates.empty()) return "";
  std::string list;
  for (const auto& c : candidates) list += (list.empty() ? "" : ", ") + open + c + close;
  return std::string(" (known ") + what + ": " + list + ")";
}

}  // namespace

bool Bounds::contains(double x) const {
  // Infinite ends are open: inf is never inside, and nan is nowhere.
  const bool above = std::isinf(lo) ? x > lo : (lo_inclusive ? x >= lo : x > lo);
  const bool below = std::isinf(hi) ? x < hi : (hi_inclusive ? x <= hi : x < hi);
  return above && below;
}

std::string Bounds::describe() const {
  const bool lo_closed = lo_inclusive && !std::isinf(lo);
  const bool hi_closed = hi_inclusive && !std::isinf(hi);
  return (lo_closed ? "[" : "(") + detail::shortest(lo) + ", " + detail::shortest(hi) +
         (hi_closed ? "]" : ")");
}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  const std::string w = lower(word);
  std::string best;
  std::size_t best_distance = limit + 1;
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(w, lower(candidate));
    if (d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  return best;
}

struct CaseFile::Impl {
  struct Origin {
    std::string text;       // "--set section.key=value"
    std::size_t index = 0;  // position on the command line
  };
  using Key = std::pair<std::string, std::string>;

  std::string name;
  std::string text;
  toml::table doc;
  std::map<Key, Origin> key_origin;
  std::map<std::string, Origin> section_origin;  // sections only an override created
  std::vector<std::pair<std::string, std::vector<std::string>>> known;  // in first-asked order
  std::vector<ResolvedEntry> entries;

  // A section, or table N (1-based) of an array of tables: "name[N]".
  const toml::table* section_table(std::string_view section) const {
    if (const auto element = array_element(section)) {
      const toml::node* n = doc.get(element->first);
      const toml::array* a = n ? n->as_array() : nullptr;
      const toml::node* e =
          a && element->second <= a->size() ? a->get(element->second - 1) : nullptr;
      return e ? e->as_table() : nullptr;
    }
    const toml::node* n = doc.get(section);
    return n ? n->as_table() : nullptr;
  }
  // ("name", N) for "name[N]".
  static std::optional<std::pair<std::string, std::size_t>> array_element(
      std::string_view section) {
    const auto open = section.find('[');
    if (open == std::string_view::npos || open == 0 || section.back() != ']') return std::nullopt;
    const std::string digits(section.substr(open + 1, section.size() - open - 2));
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    return std::make_pair(std::string(section.substr(0, open)), std::stoul(digits));
  }
  const toml::node* lookup(std::string_view section, std::string_view key) const {
    const toml::table* t = section_table(section);
    return t ? t->get(key) : nullptr;
  }
  const Origin* override_of(std::string_view section, std::string_view key) const {
    const auto it = key_origin.find(Key(section, key));
    return it == key_origin.end() ? nullptr : &it->second;
  }

  std::string section_where(std::string_view section) const {
    const toml::table* t = section_table(section);
    return t ? at(name, t->source()) : name;
  }
  std::string key_where(std::string_view section, std::string_view key) const {
    if (const Origin* o = override_of(section, key)) return o->text;
    const toml::table* t = section_table(section);
    const auto it = t ? t->find(key) : toml::table::const_iterator{};
    if (!t || it == t->end()) return section_where(section);
    if (it->first.source().begin.line > 0) return at(name, it->first.source());
    return at(name, it->second.source());
  }
  // Location of `n`, which is section.key's value or one of its elements.
  std::string value_where(std::string_view section, std::string_view key,
                          const toml::node& n) const {
    if (const Origin* o = override_of(section, key)) return o->text;
    return n.source().begin.line > 0 ? at(name, n.source()) : key_where(section, key);
  }

  void mark_known(std::string_view section, std::string_view key) {
    auto it =
        std::find_if(known.begin(), known.end(), [&](const auto& s) { return s.first == section; });
    if (it == known.end()) it = known.insert(known.end(), {std::string(section), {}});
    if (std::find(it->second.begin(), it->second.end(), key) == it->second.end())
      it->second.emplace_back(key);
  }

  // A key asked for twice keeps its first place and its latest value.
  void record(std::string_view section, std::string_view key, std::string value, bool defaulted) {
    const auto it = std::find_if(entries.begin(), entries.end(), [&](const ResolvedEntry& e) {
      return e.section == section && e.key == key;
    });
    if (it == entries.end())
      entries.push_back({std::string(section), std::string(key), std::move(value), defaulted});
    else
      *it = {it->section, it->key, std::move(value), defaulted};
  }

  // A required key is absent. A misspelling of it (or of its section) is the
  // likelier cause, so that is reported first, located, with the suggestion.
  [[noreturn]] void missing(std::string_view section, std::string_view key,
                            const std::string& what = "") const {
    const std::string wanted(key), wanted_section(section);
    if (const toml::table* t = section_table(section)) {
      for (const auto& [k, v] : *t) {
        const std::string name(k.str());
        if (closest_match(name, {wanted}) == wanted) {
          throw InputError(key_where(section, name) + ": unknown key '" + name + "' in [" +
                           wanted_section + "]; did you mean '" + wanted + "'?");
        }
      }
    } else {
      for (const auto& [k, v] : doc) {
        const std::string name(k.str());
        if (closest_match(name, {wanted_section}) == wanted_section) {
          throw InputError(section_where(name) + ": unknown section [" + name +
                           "]; did you mean [" + wanted_section + "]?");
        }
      }
    }
    throw InputError(section_where(section) + ": missing required key '" +
                     (what.empty() ? wanted : what) + "' in [" + wanted_section + "]");
  }

  template <class T>
  [[noreturn]] void type_error(std::string_view section, std::string_view key,
                               const toml::node& n) const {
    throw InputError(key_where(section, key) + ": [" + std::string(section) + "] " +
                     std::string(key) + " must be " + expected<T>() + ", got " +
                     detail::describe_node(n));
  }

  template <class T>
  void check_number(std::string_view section, std::string_view key, const toml::node& n,
                    const std::string& label, T& out, const Bounds& bounds) const;
  template <class T>
  T convert(std::string_view section, std::string_view key, const toml::node& n,
            const Bounds& bounds) const;
  // Marks section.key known; its value (converted, checked, recorded) if present.
  template <class T>
  std::optional<T> read(std::string_view section, std::string_view key, const Bounds& bounds);

  void check_top_level() const;
  void apply_override(const std::string& arg, std::size_t index);
};

// Reads scalar `n` into `out`, rejecting an integer overflow or a value
// outside `bounds` (located at the value); `label` is "[section] key[i]".
template <class T>
void CaseFile::Impl::check_number(std::string_view section, std::string_view key,
                                  const toml::node& n, const std::string& label, T& out,
                                  const Bounds& bounds) const {
  const Fit fit = read_scalar(n, out);
  if (fit == Fit::wrong_type) type_error<T>(section, key, n);
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    const Bounds range = fit == Fit::overflow
                             ? Bounds::closed(double(std::numeric_limits<T>::min()),
                                              double(std::numeric_limits<T>::max()))
                             : bounds;
    if (fit == Fit::overflow || !range.contains(double(out))) {
      throw InputError(value_where(section, key, n) + ": " + label + " = " + spell_node(n) +
                       " is out of range: must be in " + range.describe());
    }
  }
}

template <class T>
T CaseFile::Impl::convert(std::string_view section, std::string_view key, const toml::node& n,
                          const Bounds& bounds) const {
  const std::string label = "[" + std::string(section) + "] " + std::string(key);
  T out{};
  if constexpr (is_list<T>) {
    const toml::array* a = n.as_array();
    const auto fits = [](const toml::node& item) {
      typename T::value_type v{};
      return read_scalar(item, v) != Fit::wrong_type;
    };
    if (!a || (!is_vector<T>::value && a->size() != 3) || !std::all_of(a->begin(), a->end(), fits))
      type_error<T>(section, key, n);
    if constexpr (is_vector<T>::value) out.resize(a->size());
    for (std::size_t i = 0; i < a->size(); ++i)
      check_number(section, key, *a->get(i), label + "[" + std::to_string(i) + "]", out[i], bounds);
  } else {
    check_number(section, key, n, label, out, bounds);
  }
  return out;
}

template <class T>
std::optional<T> CaseFile::Impl::read(std::string_view section, std::string_view key,
                                      const Bounds& bounds) {
  mark_known(section, key);
  const toml::node* n = lookup(section, key);
  if (!n) return std::nullopt;
  T value = convert<T>(section, key, *n, bounds);
  record(section, key, spell(value), false);
  return value;
}

void CaseFile::Impl::check_top_level() const {
  for (const auto& [key, node] : doc) {
    if (node.is_table() || node.is_array_of_tables()) continue;
    throw InputError(at(name, key.source()) + ": top-level " + detail::type_name(node) + " '" +
                     std::string(key.str()) + "' is not allowed; every key belongs to a [section]");
  }
}

// Applies "section.key=value" to the document; the value is TOML, or a bare
// word taken as a string (--set run.case=sine).
void CaseFile::Impl::apply_override(const std::string& arg, std::size_t index) {
  const auto eq = arg.find('=');
  const std::string path = trim(std::string_view(arg).substr(0, eq));
  const auto dot = path.find('.');
  if (eq == std::string::npos || dot == std::string::npos || dot == 0 || dot + 1 == path.size() ||
      path.find('.', dot + 1) != std::string::npos) {
    throw InputError("--set: expected section.key=value, got '" + arg + "'");
  }
  const std::string section = trim(path.substr(0, dot));
  const std::string key = trim(path.substr(dot + 1));
  const std::string value = trim(std::string_view(arg).substr(eq + 1));
  const Origin origin{"--set " + arg, index};
  if (value.empty() || value.find_first_of("\r\n") != std::string::npos)
    throw InputError(origin.text + ": expected one TOML value after '='");

  toml::table parsed;
  try {
    parsed = toml::parse("v = " + value, std::string_view("--set"));
  } catch (const toml::parse_error& e) {
    if (!is_bare_word(value))
      throw InputError(origin.text +
                       ": TOML syntax error in value: " + std::string(e.description()));
    parsed.insert("v", value);
  }
  if (parsed.size() != 1 || !parsed.contains("v"))
    throw InputError(origin.text + ": expected one TOML value after '='");

  toml::table* t = const_cast<toml::table*>(section_table(section));
  if (t == nullptr && array_element(section))
    throw InputError(origin.text + ": there is no table " + section);
  if (t == nullptr) {
    doc.insert(section, toml::table{});
    section_origin.emplace(section, origin);
    t = doc.get(section)->as_table();
  }
  t->insert_or_assign(key, std::move(*parsed.get("v")));
  key_origin[Key(section, key)] = origin;
}

CaseFile::CaseFile(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CaseFile::CaseFile(CaseFile&&) noexcept = default;
CaseFile& CaseFile::operator=(CaseFile&&) noexcept = default;
CaseFile::~CaseFile() = default;

CaseFile CaseFile::load(const std::string& path, const std::vector<std::string>& overrides) {
  const auto cannot = [&](const std::string& reason) {
    return InputError(path + ": cannot read case file: " + reason);
  };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw cannot("is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw cannot(std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw cannot(std::strerror(errno));
  return parse(text.str(), path, overrides);
}

CaseFile CaseFile::parse(const std::string& text, const std::string& name,
                         const std::vector<std::string>& overrides) {
  auto impl = std::make_unique<Impl>();
  impl->name = name;
  impl->text = text;
  try {
    impl->doc = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    throw InputError(at(name, e.source()) + ": TOML syntax error: " + std::string(e.description()));
  }
  impl->check_top_level();
  for (std::size_t i = 0; i < overrides.size(); ++i) impl->apply_override(overrides[i], i);
  return CaseFile(std::move(impl));
}

template <class T>
T CaseFile::get(std::string_view section, std::string_view key, const T& fallback,
                const Bounds& bounds) {
  if (auto value = impl_->read<T>(section, key, bounds)) return *value;
  impl_->record(section, key, spell(fallback), true);
  return fallback;
}

template <class T>
T CaseFile::require(std::string_view section, std::string_view key, const Bounds& bounds) {
  if (auto value = impl_->read<T>(section, key, bounds)) return *value;
  impl_->missing(section, key);
}

template <class T>
std::optional<T> CaseFile::find(std::string_view section, std::string_view key,
                                const Bounds& bounds) {
  return impl_->read<T>(section, key, bounds);
}

#define CB_CASE_FILE_INSTANTIATE(T)                                                         \
  template T CaseFile::get<T>(std::string_view, std::string_view, const T&, const Bounds&); \
  template T CaseFile::require<T>(std::string_view, std::string_view, const Bounds&);       \
  template std::optional<T> CaseFile::find<T>(std::string_view, std::string_view, const Bounds&);
CB_CASE_FILE_INSTANTIATE(bool)
CB_CASE_FILE_INSTANTIATE(int)
CB_CASE_FILE_INSTANTIATE(long)
CB_CASE_FILE_INSTANTIATE(double)
CB_CASE_FILE_INSTANTIATE(std::string)
CB_CASE_FILE_INSTANTIATE(std::vector<int>)
CB_CASE_FILE_INSTANTIATE(std::vector<long>)
CB_CASE_FILE_INSTANTIATE(std::vector<double>)
CB_CASE_FILE_INSTANTIATE(std::vector<std::string>)
CB_CASE_FILE_INSTANTIATE(Int3)
CB_CASE_FILE_INSTANTIATE(Real3)
#undef CB_CASE_FILE_INSTANTIATE

std::string CaseFile::choice(std::string_view section, std::string_view key,
                             const std::vector<std::string>& allowed,
                             const std::optional<std::string>& fallback) {
  impl_->mark_known(section, key);
  const toml::node* n = impl_->lookup(section, key);
  if (!n && !fallback) impl_->missing(section, key);
  if (!n) {
    impl_->record(section, key, spell(*fallback), true);
    return *fallback;
  }
  auto value = impl_->convert<std::string>(section, key, *n, Bounds::any());
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    const std::string suggestion = closest_match(value, allowed);
    throw InputError(impl_->value_where(section, key, *n) + ": [" + std::string(section) + "] " +
                     std::string(key) + " = " + toml_string(value) +
                     " is not one of: " + join(allowed, ", ") +
                     (suggestion.empty() ? "" : "; did you mean " + toml_string(suggestion) + "?"));
  }
  impl_->record(section, key, spell(value), false);
  return value;
}

void CaseFile::allow(std::string_view section, std::string_view key) {
  impl_->mark_known(section, key);
}

std::size_t CaseFile::tables(std::string_view name) const {
  const toml::node* n = impl_->doc.get(name);
  return n && n->is_array_of_tables() ? n->as_array()->size() : 0;
}

bool CaseFile::has(std::string_view section, std::string_view key) const {
  return impl_->lookup(section, key) != nullptr;
}

void CaseFile::fail(std::string_view section, std::string_view key,
                    const std::string& message) const {
  throw InputError(impl_->key_where(section, key) + ": " + message);
}

void CaseFile::fail_missing(std::string_view section, std::string_view key,
                            const std::string& what) const {
  impl_->missing(section, key, what);
}

void CaseFile::finish() const {
  // Problems sort by where they are: the file's (line, column) first, then
  // overrides in command-line order; the first one is reported.
  using Place = std::tuple<int, std::size_t, std::size_t>;
  std::vector<std::pair<Place, std::string>> problems;
  const Impl& m = *impl_;
  const auto place = [](const Impl::Origin* origin, const toml::source_position& pos) {
    return origin ? Place{1, origin->index, 0} : Place{0, pos.line, pos.column};
  };
  std::vector<std::string> known_sections;
  for (const auto& s : m.known) known_sections.push_back(s.first);

  // Each section, and each table of an array of tables as "name[N]".
  std::vector<std::pair<std::string, const toml::table*>> tables;
  for (const auto& [section_key, section_node] : m.doc) {
    const std::string section(section_key.str());
    if (const toml::array* a = section_node.as_array()) {
      for (std::size_t i = 0; i < a->size(); ++i)
        tables.push_back({section + "[" + std::to_string(i + 1) + "]", a->get(i)->as_table()});
    } else {
      tables.push_back({section, section_node.as_table()});
    }
  }
  for (const auto& [section, table] : tables) {
    const auto known = std::find_if(m.known.begin(), m.known.end(),
                                    [&](const auto& s) { return s.first == section; });
    if (known == m.known.end()) {
      const auto it = m.section_origin.find(section);
      const Impl::Origin* origin = it == m.section_origin.end() ? nullptr : &it->second;
      const auto element = Impl::array_element(section);
      const std::string spelled = element ? "[[" + element->first + "]]" : "[" + section + "]";
      problems.push_back(
          {place(origin, table->source().begin),
           (origin ? origin->text : m.section_where(section)) + ": unknown section " + spelled +
               hint(element ? element->first : section, known_sections, "[", "]", "sections")});
      continue;
    }
    for (const auto& [key, value] : *table) {
      const std::string name(key.str());
      if (std::find(known->second.begin(), known->second.end(), name) != known->second.end())
        continue;
      const auto& pos = key.source().begin.line > 0 ? key.source().begin : value.source().begin;
      problems.push_back({place(m.override_of(section, name), pos),
                          m.key_where(section, name) + ": unknown key '" + name + "' in [" +
                              section + "]" + hint(name, known->second, "'", "'", "keys")});
    }
  }
  if (problems.empty()) return;
  throw InputError(std::min_element(problems.begin(), problems.end())->second);
}

const std::string& CaseFile::path() const {
  return impl_->name;
}

const std::vector<ResolvedEntry>& CaseFile::resolved() const {
  return impl_->entries;
}

std::string CaseFile::resolved_text() const {
  std::vector<std::string> sections;
  for (const auto& e : impl_->entries)
    if (std::find(sections.begin(), sections.end(), e.section) == sections.end())
      sections.push_back(e.section);
  std::string out;
  for (const auto& section : sections) {
    const auto element = Impl::array_element(section);
    out += (out.empty() ? "" : "\n") + (element ? "[[" + detail::toml_key(element->first) + "]]\n"
                                                : "[" + detail::toml_key(section) + "]\n");
    for (const auto& e : impl_->entries) {
      if (e.section != section) continue;
      out += detail::toml_key(e.key) + " = " + e.value + (e.defaulted ? "  # default\n" : "\n");
    }
  }
  return out;
}

const std::string& CaseFile::source_text() const {
  return impl_->text;
}

}  // namespace cb::io
