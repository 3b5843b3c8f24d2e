// LAMMPS data files (atom_style atomic): the reader follows the layout
// LAMMPS's read_data documents (a title line, a header of "value keyword"
// lines, then sections introduced by a keyword line, each of a fixed number of
// entries); the writer produces what write_data writes.
#include "io/lammps_data.hpp"

#include "core/error.hpp"
#include "io/detail/h5_fields.hpp"
#include "io/detail/particle_arrays.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

namespace cb::io {
namespace {

struct Line {
  long number = 0;
  std::vector<std::string> words;  // without the comment
  std::string comment;             // text after '#', trimmed
};

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

std::string join(const std::vector<std::string>& words, std::size_t from) {
  std::string text;
  for (std::size_t n = from; n < words.size(); ++n) text += (n > from ? " " : "") + words[n];
  return text;
}

bool is_number(const std::string& word) {
  char* end = nullptr;
  std::strtod(word.c_str(), &end);
  return end != word.c_str() && *end == '\0';
}

// Header keywords that name molecular topology: atom_style atomic has none.
const char* const topology_keywords[] = {"bonds",
                                         "angles",
                                         "dihedrals",
                                         "impropers",
                                         "bond types",
                                         "angle types",
                                         "dihedral types",
                                         "improper types",
                                         "extra bond per atom",
                                         "extra angle per atom",
                                         "extra dihedral per atom",
                                         "extra improper per atom",
                                         "extra special per atom",
                                         "ellipsoids",
                                         "lines",
                                         "triangles",
                                         "bodies"};

// The columns of an Atoms line before the image flags.
std::string atom_layout(AtomStyle style) {
  return style == AtomStyle::atomic   ? "id type x y z"
         : style == AtomStyle::charge ? "id type q x y z"
                                      : "id molecule type q x y z";
}

class DataFileParser {
 public:
  DataFileParser(const std::string& path, const Bool3& periodic, AtomStyle style)
      : path_(path), in_(path) {
    data_.box.periodic = periodic;
    data_.atoms.style = style;
    if (!in_)
      throw InputError(path + ": cannot open the LAMMPS data file: " + std::strerror(errno));
  }

  LammpsData parse() {
    std::string title;
    std::getline(in_, title);
    data_.title = trim(title);
    line_number_ = 1;
    Line line;
    bool more = read_header(line);
    check_header();
    while (more) {
      read_section(line);
      more = next_line(line);
    }
    finish();
    return std::move(data_);
  }

 private:
  [[noreturn]] void fail(long line, const std::string& message) const {
    throw InputError(path_ + ":" + std::to_string(line) + ": " + message);
  }

  // The next line with words (blank and comment-only lines skipped); false at the end.
  bool next_line(Line& line) {
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

  double number(const Line& line, std::size_t at, const char* what) const {
    const std::string& word = line.words[at];
    char* end = nullptr;
    const double value = std::strtod(word.c_str(), &end);
    if (end == word.c_str() || *end != '\0' || !std::isfinite(value))
      fail(line.number, std::string("expected a number for ") + what + ", got '" + word + "'");
    return value;
  }

  long long integer(const Line& line, std::size_t at, const char* what) const {
    const std::string& word = line.words[at];
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(word.c_str(), &end, 10);
    if (end == word.c_str() || *end != '\0' || errno == ERANGE)
      fail(line.number, std::string("expected an integer for ") + what + ", got '" + word + "'");
    return value;
  }

  // Header lines until the first section keyword (left in `line`); false at the end.
  bool read_header(Line& line) {
    while (next_line(line)) {
      if (!is_number(line.words[0])) return true;
      const std::vector<std::string>& w = line.words;
      const std::string last_two = w.size() >= 2 ? w[w.size() - 2] + " " + w.back() : "";
      if (w.size() == 4 &&
          (last_two == "xlo xhi" || last_two == "ylo yhi" || last_two == "zlo zhi")) {
        const int axis = last_two[0] - 'x';
        data_.box.lo[axis] = number(line, 0, "the box bound");
        data_.box.hi[axis] = number(line, 1, "the box bound");
        if (!(data_.box.hi[axis] > data_.box.lo[axis]))
          fail(line.number, last_two + ": the upper bound must exceed the lower one");
        bounds_seen_[axis] = true;
      } else if (w.size() == 6 && join(w, 3) == "xy xz yz") {
        fail(line.number, "a triclinic (tilted) box is not supported; only orthogonal boxes");
      } else if (join(w, 1) == "atoms") {
        atom_count_ = integer(line, 0, "atoms");
        if (atom_count_ < 1) fail(line.number, "the atom count must be at least 1");
      } else if (join(w, 1) == "atom types") {
        const long long types = integer(line, 0, "atom types");
        if (types < 1 || types > 1000000) fail(line.number, "atom types must be at least 1");
        data_.atom_types = static_cast<int>(types);
      } else {
        check_topology_line(line);
      }
    }
    return false;
  }

  void check_topology_line(const Line& line) const {
    const std::string keyword = join(line.words, 1);
    for (const char* known : topology_keywords) {
      if (keyword != known) continue;
      if (integer(line, 0, known) != 0)
        fail(line.number, "'" + keyword + "': atom_style atomic has no molecular topology");
      return;
    }
    fail(line.number, "unknown header line '" + join(line.words, 0) + "'");
  }

  void check_header() const {
    const char* names[] = {"xlo xhi", "ylo yhi", "zlo zhi"};
    for (int axis = 0; axis < 3; ++axis)
      if (!bounds_seen_[axis])
        fail(line_number_, std::string("header has no '") + names[axis] + "' line");
    if (data_.atom_types < 1) fail(line_number_, "header has no 'atom types' line");
  }

  void read_section(const Line& header) {
    const std::string name = join(header.words, 0);
    if (!sections_seen_.emplace(name, header.number).second)
      fail(header.number, "section '" + name + "' appears twice (first at line " +
                              std::to_string(sections_seen_[name]) + ")");
    const long long types = data_.atom_types;
    if (name == "Masses") {
      read_entries(name, types, [&](const Line& l) { mass_line(l); });
    } else if (name == "Atoms") {
      const std::string style = style_name(data_.atoms.style);
      if (!header.comment.empty() && header.comment != style)
        fail(header.number, "Atoms section of style '" + header.comment +
                                "', but [md] atom_style is \"" + style + "\"");
      read_entries(name, atom_count_, [&](const Line& l) { atom_line(l); });
    } else if (name == "Velocities") {
      read_entries(name, atom_count_, [&](const Line& l) { velocity_line(l); });
    } else if (name == "Pair Coeffs" || name == "PairIJ Coeffs") {
      const long long count = name == "Pair Coeffs" ? types : types * (types + 1) / 2;
      read_entries(name, count, [](const Line&) {});  // the case file's [pair] rules
    } else {
      fail(header.number, "section '" + name + "' is not supported (atom_style atomic reads " +
                              "Masses, Atoms, Velocities, Pair Coeffs, PairIJ Coeffs)");
    }
  }

  template <class Entry>
  void read_entries(const std::string& section, long long count, Entry entry) {
    Line line;
    for (long long n = 0; n < count; ++n) {
      if (!next_line(line))
        fail(line_number_, "the file ends after " + std::to_string(n) + " of " +
                               std::to_string(count) + " entries of section '" + section + "'");
      entry(line);
    }
  }

  void expect_words(const Line& line, std::size_t count, const char* layout) const {
    if (line.words.size() != count)
      fail(line.number, "expected '" + std::string(layout) + "', got " +
                            std::to_string(line.words.size()) + " values");
  }

  int atom_type(const Line& line, std::size_t at) const {
    const long long type = integer(line, at, "the atom type");
    if (type < 1 || type > data_.atom_types)
      fail(line.number, "atom type " + std::to_string(type) + " is outside 1.." +
                            std::to_string(data_.atom_types) + " (header 'atom types')");
    return static_cast<int>(type);
  }

  void mass_line(const Line& line) {
    expect_words(line, 2, "type mass");
    const int type = atom_type(line, 0);
    const double mass = number(line, 1, "the mass");
    if (!(mass > 0.0))
      fail(line.number, "the mass of type " + std::to_string(type) + " must be positive");
    if (data_.masses.empty()) data_.masses.assign(data_.atom_types, 0.0);
    if (data_.masses[type - 1] != 0.0)
      fail(line.number, "the mass of type " + std::to_string(type) + " is given twice");
    data_.masses[type - 1] = mass;
  }

  void atom_line(const Line& line) {
    // Columns before x: id type (atomic), id type q (charge), id molecule type q (full).
    const AtomStyle style = data_.atoms.style;
    const std::size_t first_x = style == AtomStyle::atomic ? 2 : style == AtomStyle::charge ? 3 : 4;
    const std::size_t type_column = style == AtomStyle::full ? 2 : 1;
    if (line.words.size() != first_x + 3 && line.words.size() != first_x + 6) {
      const std::string layout = atom_layout(style);
      fail(line.number, "expected '" + layout + "' or '" + layout + " ix iy iz' (atom_style " +
                            style_name(style) + "), got " + std::to_string(line.words.size()) +
                            " values");
    }
    const long long id = integer(line, 0, "the atom id");
    if (id < 1) fail(line.number, "atom id " + std::to_string(id) + " must be positive");
    const auto [it, fresh] = index_of_id_.emplace(id, data_.atoms.id.size());
    if (!fresh)
      fail(line.number, "atom id " + std::to_string(id) + " appears twice (also at line " +
                            std::to_string(atom_lines_[it->second]) + ")");
    HostParticles& atoms = data_.atoms;
    atoms.id.push_back(id);
    atoms.type.push_back(atom_type(line, type_column));
    if (style != AtomStyle::atomic) {
      atoms.q.push_back(number(line, type_column + 1, "the charge"));
      const long long molecule = style == AtomStyle::full ? integer(line, 1, "the molecule id") : 0;
      if (molecule < 0)
        fail(line.number, "molecule id " + std::to_string(molecule) + " must not be negative");
      atoms.molecule.push_back(molecule);
    }
    atom_lines_.push_back(line.number);
    const bool images = line.words.size() == first_x + 6;
    for (int axis = 0; axis < 3; ++axis) {
      double x = number(line, first_x + axis, "a coordinate");
      long long image = images ? integer(line, first_x + 3 + axis, "an image flag") : 0;
      wrap_into_box(line, axis, x, image);
      if (image < std::numeric_limits<int>::min() || image > std::numeric_limits<int>::max())
        fail(line.number, "atom " + std::to_string(id) + ": image flag " + std::to_string(image) +
                              " is outside the 32-bit range image flags are kept in");
      atoms.x.push_back(x);
      atoms.image.push_back(static_cast<int>(image));
      atoms.v.push_back(0.0);
    }
  }

  // As LAMMPS's Domain::remap: periodic images shift by the box length.
  void wrap_into_box(const Line& line, int axis, double& x, long long& image) const {
    const double lo = data_.box.lo[axis], hi = data_.box.hi[axis];
    if (x >= lo && x < hi) return;
    if (!data_.box.periodic[axis])
      fail(line.number,
           std::string("atom outside the box along the non-periodic ") + "xyz"[axis] + " axis");
    const double length = hi - lo;
    const double shift = std::floor((x - lo) / length);
    x -= shift * length;
    image += static_cast<long long>(shift);
    if (x >= hi) {
      x -= length;
      ++image;
    }
    if (x < lo) x = lo;
  }

  void velocity_line(const Line& line) {
    expect_words(line, 4, "id vx vy vz");
    const long long id = integer(line, 0, "the atom id");
    Velocity v{id, line.number, {}};
    for (int axis = 0; axis < 3; ++axis) v.v[axis] = number(line, 1 + axis, "a velocity");
    velocities_.push_back(v);
  }

  // Two atoms at one place have an infinite pair force: no run can start.
  void check_no_overlap() const {
    const std::vector<double>& x = data_.atoms.x;
    std::vector<std::size_t> order(data_.atoms.id.size());
    for (std::size_t a = 0; a < order.size(); ++a) order[a] = a;
    auto position = [&x](std::size_t a) {
      return std::make_tuple(x[3 * a], x[3 * a + 1], x[3 * a + 2]);
    };
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return position(a) < position(b); });
    for (std::size_t k = 1; k < order.size(); ++k) {
      const std::size_t a = order[k - 1], b = order[k];
      if (position(a) != position(b)) continue;
      const std::size_t later = std::max(a, b), earlier = std::min(a, b);
      fail(atom_lines_[later], "atom " + std::to_string(data_.atoms.id[later]) +
                                   " sits exactly on atom " +
                                   std::to_string(data_.atoms.id[earlier]) + " (line " +
                                   std::to_string(atom_lines_[earlier]) + ")");
    }
  }

  void finish() {
    if (atom_count_ > 0 && sections_seen_.count("Atoms") == 0)
      fail(line_number_, "the header announces " + std::to_string(atom_count_) +
                             " atoms but the file has no Atoms section");
    check_no_overlap();
    std::vector<long> velocity_line_of(data_.atoms.id.size(), 0);
    for (const Velocity& v : velocities_) {
      const auto found = index_of_id_.find(v.id);
      if (found == index_of_id_.end())
        fail(v.line,
             "velocity of atom " + std::to_string(v.id) + ", which the Atoms section lacks");
      long& seen = velocity_line_of[found->second];
      if (seen != 0)
        fail(v.line, "velocity of atom " + std::to_string(v.id) + " given twice (also at line " +
                         std::to_string(seen) + ")");
      seen = v.line;
      for (int axis = 0; axis < 3; ++axis) data_.atoms.v[3 * found->second + axis] = v.v[axis];
    }
    data_.has_velocities = !velocities_.empty();
    if (!data_.masses.empty())
      for (int type = 1; type <= data_.atom_types; ++type)
        if (data_.masses[type - 1] == 0.0)
          fail(sections_seen_["Masses"], "section Masses lacks type " + std::to_string(type));
  }

  struct Velocity {
    long long id;
    long line;
    double v[3];
  };

  std::string path_;
  std::ifstream in_;
  long line_number_ = 0;
  LammpsData data_;
  long long atom_count_ = 0;
  bool bounds_seen_[3] = {false, false, false};
  std::map<std::string, long> sections_seen_;
  std::unordered_map<long long, std::size_t> index_of_id_;
  std::vector<long> atom_lines_;
  std::vector<Velocity> velocities_;
};

// Rank 0: the data file text of `atoms` (sorted by id).
std::string format_data_file(const ParticleBox& box, const std::vector<double>& masses,
                             const HostParticles& atoms, const std::string& title) {
  std::string text = title + "\n\n";
  char line[256];
  const int types = static_cast<int>(masses.size());
  std::snprintf(line, sizeof line, "%zu atoms\n%d atom types\n\n", atoms.size(), types);
  text += line;
  const char* names[] = {"xlo xhi", "ylo yhi", "zlo zhi"};
  for (int axis = 0; axis < 3; ++axis) {
    std::snprintf(line, sizeof line, "%.17g %.17g %s\n", box.lo[axis], box.hi[axis], names[axis]);
    text += line;
  }
  text += "\nMasses\n\n";
  for (int type = 1; type <= types; ++type) {
    std::snprintf(line, sizeof line, "%d %.17g\n", type, masses[type - 1]);
    text += line;
  }
  text += std::string("\nAtoms # ") + style_name(atoms.style) + "\n\n";
  for (std::size_t a = 0; a < atoms.size(); ++a) {
    const double* x = &atoms.x[3 * a];
    const int* image = &atoms.image[3 * a];
    std::snprintf(line, sizeof line, "%lld ", static_cast<long long>(atoms.id[a]));
    text += line;
    if (atoms.style == AtomStyle::full) {
      std::snprintf(line, sizeof line, "%lld ", static_cast<long long>(atoms.molecule[a]));
      text += line;
    }
    std::snprintf(line, sizeof line, "%d ", atoms.type[a]);
    text += line;
    if (atoms.style != AtomStyle::atomic) {
      std::snprintf(line, sizeof line, "%.17g ", atoms.q[a]);
      text += line;
    }
    std::snprintf(line, sizeof line, "%.17g %.17g %.17g %d %d %d\n", x[0], x[1], x[2], image[0],
                  image[1], image[2]);
    text += line;
  }
  text += "\nVelocities\n\n";
  for (std::size_t a = 0; a < atoms.size(); ++a) {
    const double* v = &atoms.v[3 * a];
    std::snprintf(line, sizeof line, "%lld %.17g %.17g %.17g\n",
                  static_cast<long long>(atoms.id[a]), v[0], v[1], v[2]);
    text += line;
  }
  return text;
}

std::string write_text_file(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  std::FILE* file = std::fopen(temporary.c_str(), "w");
  if (file == nullptr) return "cannot create " + temporary + ": " + std::strerror(errno);
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    std::remove(temporary.c_str());
    return "cannot write " + temporary;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
    return "cannot rename " + temporary + ": " + std::strerror(errno);
  return "";
}

}  // namespace

const char* style_name(AtomStyle style) {
  return style == AtomStyle::atomic ? "atomic" : style == AtomStyle::charge ? "charge" : "full";
}

LammpsData read_lammps_data(const std::string& path, const Bool3& periodic, AtomStyle style) {
  return DataFileParser(path, periodic, style).parse();
}

void write_lammps_data(const std::string& path, MPI_Comm comm, const ParticleBox& box,
                       const std::vector<double>& masses, const HostParticles& owned,
                       const std::string& title) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const AtomTable all = detail::gather_sorted_by_id(comm, {owned, {}, {}});
  std::string error;
  if (rank == 0) error = write_text_file(path, format_data_file(box, masses, all.atoms, title));
  error = detail::first_error(comm, error);
  if (!error.empty()) throw RunError(path + ": cannot write the LAMMPS data file: " + error);
}

}  // namespace cb::io
