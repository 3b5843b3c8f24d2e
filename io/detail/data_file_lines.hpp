// The lines of a LAMMPS data file as the reader sees them: words without the
// comment, the comment, the line number; numbers parsed with errors that name
// FILE:LINE. Not part of the public io API.
#pragma once

#include <fstream>
#include <string>
#include <vector>

namespace cb::io::detail {

struct DataLine {
  long number = 0;
  std::vector<std::string> words;  // without the comment
  std::string comment;             // text after '#', trimmed
};

std::string join_words(const std::vector<std::string>& words, std::size_t from);
bool is_number(const std::string& word);

class DataFileLines {
 public:
  // Throws cb::InputError when `path` cannot be opened.
  explicit DataFileLines(const std::string& path);

  // The first line, trimmed.
  std::string title();
  // The next line with words (blank and comment-only lines skipped); false at the end.
  bool next(DataLine& line);
  long line_number() const { return line_number_; }

  // cb::InputError "PATH:LINE: message".
  [[noreturn]] void fail(long line, const std::string& message) const;
  double number(const DataLine& line, std::size_t at, const char* what) const;
  long long integer(const DataLine& line, std::size_t at, const char* what) const;
  // `integer` that must lie in [lo, hi]; `what` names it in the error.
  long long integer_in(const DataLine& line, std::size_t at, const std::string& what, long long lo,
                       long long hi, const std::string& range_hint) const;
  void expect_words(const DataLine& line, std::size_t count, const char* layout) const;

  // Calls entry(line) for the `count` lines of `section`; a file that ends
  // first, or a line that does not start with a number (the next section's
  // keyword), is an error.
  template <class Entry>
  void read_entries(const std::string& section, long long count, Entry entry) {
    DataLine line;
    for (long long n = 0; n < count; ++n) {
      if (!next(line)) fail(line_number_, entries_short(section, n, count, ""));
      if (!is_number(line.words[0]))
        fail(line.number, entries_short(section, n, count, join_words(line.words, 0)));
      entry(line);
    }
  }

 private:
  static std::string entries_short(const std::string& section, long long n, long long count,
                                   const std::string& next_words);

  std::string path_;
  std::ifstream in_;
  long line_number_ = 0;
};

}  // namespace cb::io::detail
