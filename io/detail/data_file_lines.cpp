#include "io/detail/data_file_lines.hpp"

#include "core/error.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace cb::io::detail {
namespace {

std::string trim(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> words;
  std::size_t at = 0;
  while (true) {
    const std::size_t begin = text.find_first_not_of(" \t\r\n", at);
    if (begin == std::string::npos) return words;
    const std::size_t end = text.find_first_of(" \t\r\n", begin);
    words.push_back(text.substr(begin, end - begin));
    if (end == std::string::npos) return words;
    at = end;
  }
}

}  // namespace

std::string join_words(const std::vector<std::string>& words, std::size_t from) {
  std::string text;
  for (std::size_t n = from; n < words.size(); ++n) text += (n > from ? " " : "") + words[n];
  return text;
}

bool is_number(const std::string& word) {
  char* end = nullptr;
  std::strtod(word.c_str(), &end);
  return end != word.c_str() && *end == '\0';
}

DataFileLines::DataFileLines(const std::string& path) : path_(path), in_(path) {
  if (!in_) throw InputError(path + ": cannot open the LAMMPS data file: " + std::strerror(errno));
}

std::string DataFileLines::title() {
  std::string title;
  std::getline(in_, title);
  line_number_ = 1;
  return trim(title);
}

bool DataFileLines::next(DataLine& line) {
  std::string text;
  while (std::getline(in_, text)) {
    ++line_number_;
    const std::size_t hash = text.find('#');
    line.number = line_number_;
    line.words = split(hash == std::string::npos ? text : text.substr(0, hash));
    line.comment = hash == std::string::npos ? "" : trim(text.substr(hash + 1));
    if (!line.words.empty()) return true;
  }
  return false;
}

void DataFileLines::fail(long line, const std::string& message) const {
  throw InputError(path_ + ":" + std::to_string(line) + ": " + message);
}

double DataFileLines::number(const DataLine& line, std::size_t at, const char* what) const {
  const std::string& word = line.words[at];
  char* end = nullptr;
  const double value = std::strtod(word.c_str(), &end);
  if (end == word.c_str() || *end != '\0' || !std::isfinite(value))
    fail(line.number, std::string("expected a number for ") + what + ", got '" + word + "'");
  return value;
}

long long DataFileLines::integer(const DataLine& line, std::size_t at, const char* what) const {
  const std::string& word = line.words[at];
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(word.c_str(), &end, 10);
  if (end == word.c_str() || *end != '\0' || errno == ERANGE)
    fail(line.number, std::string("expected an integer for ") + what + ", got '" + word + "'");
  return value;
}

long long DataFileLines::integer_in(const DataLine& line, std::size_t at, const std::string& what,
                                    long long lo, long long hi,
                                    const std::string& range_hint) const {
  const long long value = integer(line, at, what.c_str());
  if (value < lo || value > hi)
    fail(line.number, what + " " + std::to_string(value) + " is outside " + std::to_string(lo) +
                          ".." + std::to_string(hi) + range_hint);
  return value;
}

void DataFileLines::expect_words(const DataLine& line, std::size_t count,
                                 const char* layout) const {
  if (line.words.size() != count)
    fail(line.number, "expected '" + std::string(layout) + "', got " +
                          std::to_string(line.words.size()) + " values");
}

std::string DataFileLines::entries_short(const std::string& section, long long n, long long count,
                                         const std::string& next_words) {
  const std::string counted = std::to_string(n) + " of " + std::to_string(count) + " entries";
  if (next_words.empty()) return "the file ends after " + counted + " of section '" + section + "'";
  return "section '" + section + "' ends after " + counted + ": expected an entry, got '" +
         next_words + "'";
}

}  // namespace cb::io::detail
