// Reading LAMMPS data files: the layout LAMMPS's read_data documents (a title
// line, a header of "value keyword" lines, then sections introduced by a
// keyword line, each of a fixed number of entries). The molecular sections are
// io/detail/data_file_topology.cpp.
#include "core/error.hpp"
#include "io/detail/data_file_lines.hpp"
#include "io/detail/data_file_topology.hpp"
#include "io/lammps_data.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

namespace cb::io {
namespace {

using detail::DataLine;
using detail::join_words;

// The columns of an Atoms line before the image flags.
std::string atom_layout(AtomStyle style) {
  return style == AtomStyle::atomic   ? "id type x y z"
         : style == AtomStyle::charge ? "id type q x y z"
                                      : "id molecule type q x y z";
}

class DataFileParser {
 public:
  DataFileParser(const std::string& path, const Bool3& periodic, AtomStyle style)
      : lines_(path), topology_(lines_, style, data_.atoms.topology, data_.coeffs) {
    data_.box.periodic = periodic;
    data_.atoms.style = style;
  }

  LammpsData parse() {
    data_.title = lines_.title();
    DataLine line;
    bool more = read_header(line);
    check_header();
    while (more) {
      read_section(line);
      more = lines_.next(line);
    }
    finish();
    return std::move(data_);
  }

 private:
  [[noreturn]] void fail(long line, const std::string& message) const {
    lines_.fail(line, message);
  }
  double number(const DataLine& line, std::size_t at, const char* what) const {
    return lines_.number(line, at, what);
  }
  long long integer(const DataLine& line, std::size_t at, const char* what) const {
    return lines_.integer(line, at, what);
  }

  // Header lines until the first section keyword (left in `line`); false at the end.
  bool read_header(DataLine& line) {
    while (lines_.next(line)) {
      if (!detail::is_number(line.words[0])) return true;
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
      } else if (w.size() == 6 && join_words(w, 3) == "xy xz yz") {
        fail(line.number, "a triclinic (tilted) box is not supported; only orthogonal boxes");
      } else if (join_words(w, 1) == "atoms") {
        atom_count_ = integer(line, 0, "atoms");
        if (atom_count_ < 1) fail(line.number, "the atom count must be at least 1");
      } else if (join_words(w, 1) == "atom types") {
        const long long types = integer(line, 0, "atom types");
        if (types < 1 || types > 1000000) fail(line.number, "atom types must be at least 1");
        data_.atom_types = static_cast<int>(types);
      } else if (!topology_.header_line(line)) {
        fail(line.number, "unknown header line '" + join_words(line.words, 0) + "'");
      }
    }
    return false;
  }

  void check_header() const {
    const char* names[] = {"xlo xhi", "ylo yhi", "zlo zhi"};
    for (int axis = 0; axis < 3; ++axis)
      if (!bounds_seen_[axis])
        fail(lines_.line_number(), std::string("header has no '") + names[axis] + "' line");
    if (data_.atom_types < 1) fail(lines_.line_number(), "header has no 'atom types' line");
  }

  void read_section(const DataLine& header) {
    const std::string name = join_words(header.words, 0);
    if (detail::is_number(header.words[0]))
      fail(header.number, "expected a section name, got '" + name +
                              "' (has the section before more entries than the header "
                              "announces?)");
    if (!sections_seen_.emplace(name, header.number).second)
      fail(header.number, "section '" + name + "' appears twice (first at line " +
                              std::to_string(sections_seen_[name]) + ")");
    const long long types = data_.atom_types;
    if (name == "Masses") {
      lines_.read_entries(name, types, [&](const DataLine& l) { mass_line(l); });
    } else if (name == "Atoms") {
      const std::string style = style_name(data_.atoms.style);
      if (!header.comment.empty() && header.comment != style)
        fail(header.number, "Atoms section of style '" + header.comment +
                                "', but [md] atom_style is \"" + style + "\"");
      lines_.read_entries(name, atom_count_, [&](const DataLine& l) { atom_line(l); });
    } else if (name == "Velocities") {
      lines_.read_entries(name, atom_count_, [&](const DataLine& l) { velocity_line(l); });
    } else if (name == "PairIJ Coeffs") {
      // the case file's [pair] rules
      lines_.read_entries(name, types * (types + 1) / 2, [](const DataLine&) {});
    } else if (!topology_.section(name, header, data_.atom_types)) {
      fail(header.number, "section '" + name +
                              "' is not supported (the reader knows Masses, Atoms, Velocities, "
                              "Bonds, Angles, Dihedrals, Impropers, Pair Coeffs, PairIJ Coeffs, "
                              "Bond Coeffs, Angle Coeffs, Dihedral Coeffs, Improper Coeffs)");
    }
  }

  int atom_type(const DataLine& line, std::size_t at) const {
    const long long type = integer(line, at, "the atom type");
    if (type < 1 || type > data_.atom_types)
      fail(line.number, "atom type " + std::to_string(type) + " is outside 1.." +
                            std::to_string(data_.atom_types) + " (header 'atom types')");
    return static_cast<int>(type);
  }

  void mass_line(const DataLine& line) {
    lines_.expect_words(line, 2, "type mass");
    const int type = atom_type(line, 0);
    const double mass = number(line, 1, "the mass");
    if (!(mass > 0.0))
      fail(line.number, "the mass of type " + std::to_string(type) + " must be positive");
    if (data_.masses.empty()) data_.masses.assign(data_.atom_types, 0.0);
    if (data_.masses[type - 1] != 0.0)
      fail(line.number, "the mass of type " + std::to_string(type) + " is given twice");
    data_.masses[type - 1] = mass;
  }

  void atom_line(const DataLine& line) {
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
  void wrap_into_box(const DataLine& line, int axis, double& x, long long& image) const {
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

  void velocity_line(const DataLine& line) {
    lines_.expect_words(line, 4, "id vx vy vz");
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
      fail(lines_.line_number(), "the header announces " + std::to_string(atom_count_) +
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
    topology_.finish(index_of_id_);
  }

  struct Velocity {
    long long id;
    long line;
    double v[3];
  };

  detail::DataFileLines lines_;
  LammpsData data_;
  detail::DataFileTopology topology_;
  long long atom_count_ = 0;
  bool bounds_seen_[3] = {false, false, false};
  std::map<std::string, long> sections_seen_;
  std::unordered_map<long long, std::size_t> index_of_id_;
  std::vector<long> atom_lines_;
  std::vector<Velocity> velocities_;
};

}  // namespace

LammpsData read_lammps_data(const std::string& path, const Bool3& periodic, AtomStyle style) {
  return DataFileParser(path, periodic, style).parse();
}

}  // namespace cb::io
