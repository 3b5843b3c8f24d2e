// Writing LAMMPS data files in the layout of LAMMPS write_data (the reader is
// io/lammps_data_reader.cpp).
#include "io/lammps_data.hpp"

#include "core/error.hpp"
#include "io/detail/h5_fields.hpp"
#include "io/detail/particle_arrays.hpp"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace cb::io {
namespace {

struct KindText {
  const char* plural;
  const char* types;
  const char* section;
  const char* coeffs;
};
constexpr KindText kind_text[term_kinds] = {
    {"bonds", "bond types", "Bonds", "Bond Coeffs"},
    {"angles", "angle types", "Angles", "Angle Coeffs"},
    {"dihedrals", "dihedral types", "Dihedrals", "Dihedral Coeffs"},
    {"impropers", "improper types", "Impropers", "Improper Coeffs"}};

// Appends printf-formatted text (one line of a data file, under 256 characters).
void append(std::string& text, const char* format, ...) {
  char line[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof line, format, args);
  va_end(args);
  text += line;
}

bool has_topology(const HostParticles& atoms, const Topology& topology, int k) {
  return atoms.style == AtomStyle::full && topology.types[k] > 0;
}

void format_header(std::string& text, const ParticleBox& box, int atom_types,
                   const HostParticles& atoms, const Topology& topology) {
  append(text, "%zu atoms\n%d atom types\n", atoms.size(), atom_types);
  for (int k = 0; k < term_kinds; ++k)
    if (has_topology(atoms, topology, k))
      append(text, "%zu %s\n%d %s\n", topology.terms[k].size(), kind_text[k].plural,
             topology.types[k], kind_text[k].types);
  text += "\n";
  const char* names[] = {"xlo xhi", "ylo yhi", "zlo zhi"};
  for (int axis = 0; axis < 3; ++axis)
    append(text, "%.17g %.17g %s\n", box.lo[axis], box.hi[axis], names[axis]);
}

void format_coeffs(std::string& text, const char* section, const CoeffRows& coeffs) {
  if (coeffs.empty()) return;
  text += std::string("\n") + section + (coeffs.style.empty() ? "" : " # " + coeffs.style) + "\n\n";
  for (std::size_t t = 0; t < coeffs.rows.size(); ++t) {
    append(text, "%zu", t + 1);
    for (double value : coeffs.rows[t]) append(text, " %.17g", value);
    text += "\n";
  }
}

void format_atoms(std::string& text, const HostParticles& atoms) {
  text += std::string("\nAtoms # ") + style_name(atoms.style) + "\n\n";
  for (std::size_t a = 0; a < atoms.size(); ++a) {
    const double* x = &atoms.x[3 * a];
    const int* image = &atoms.image[3 * a];
    append(text, "%lld ", static_cast<long long>(atoms.id[a]));
    if (atoms.style == AtomStyle::full)
      append(text, "%lld ", static_cast<long long>(atoms.molecule[a]));
    append(text, "%d ", atoms.type[a]);
    if (atoms.style != AtomStyle::atomic) append(text, "%.17g ", atoms.q[a]);
    append(text, "%.17g %.17g %.17g %d %d %d\n", x[0], x[1], x[2], image[0], image[1], image[2]);
  }
  text += "\nVelocities\n\n";
  for (std::size_t a = 0; a < atoms.size(); ++a) {
    const double* v = &atoms.v[3 * a];
    append(text, "%lld %.17g %.17g %.17g\n", static_cast<long long>(atoms.id[a]), v[0], v[1], v[2]);
  }
}

// Term ids 1..n in the order given.
void format_terms(std::string& text, TermKind kind, const TermList& terms) {
  if (terms.size() == 0) return;
  const std::size_t width = static_cast<std::size_t>(atoms_per_term(kind));
  text += std::string("\n") + kind_text[static_cast<int>(kind)].section + "\n\n";
  for (std::size_t t = 0; t < terms.size(); ++t) {
    append(text, "%zu %d", t + 1, terms.type[t]);
    for (std::size_t j = 0; j < width; ++j)
      append(text, " %lld", static_cast<long long>(terms.atoms[t * width + j]));
    text += "\n";
  }
}

// Why `coeffs` do not fit the types, or "".
std::string coeff_mismatch(const DataCoeffs& coeffs, int atom_types, const Topology& topology,
                           bool full) {
  auto check = [](const CoeffRows& rows, const char* section, int types) -> std::string {
    if (!rows.empty() && rows.rows.size() != std::size_t(types))
      return std::string(section) + " has " + std::to_string(rows.rows.size()) + " rows for " +
             std::to_string(types) + " types";
    for (std::size_t t = 0; t < rows.rows.size(); ++t)
      if (rows.rows[t].empty())
        return std::string(section) + ": type " + std::to_string(t + 1) + " has no coefficients";
    return "";
  };
  std::string error = check(coeffs.pair, "Pair Coeffs", atom_types);
  for (int k = 0; k < term_kinds && error.empty(); ++k)
    error = check(coeffs.terms[k], kind_text[k].coeffs, full ? topology.types[k] : 0);
  return error;
}

// Rank 0: the data file text of `atoms` (sorted by id) and `topology` (sorted).
std::string format_data_file(const ParticleBox& box, const std::vector<double>& masses,
                             const HostParticles& atoms, const Topology& topology,
                             const std::string& title, const DataCoeffs& coeffs) {
  std::string text = title + "\n\n";
  const int types = static_cast<int>(masses.size());
  format_header(text, box, types, atoms, topology);
  text += "\nMasses\n\n";
  for (int type = 1; type <= types; ++type) append(text, "%d %.17g\n", type, masses[type - 1]);
  format_coeffs(text, "Pair Coeffs", coeffs.pair);
  for (int k = 0; k < term_kinds; ++k)
    if (has_topology(atoms, topology, k)) format_coeffs(text, kind_text[k].coeffs, coeffs.terms[k]);
  format_atoms(text, atoms);
  for (int k = 0; k < term_kinds; ++k)
    if (has_topology(atoms, topology, k))
      format_terms(text, static_cast<TermKind>(k), topology.terms[k]);
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

void write_lammps_data(const std::string& path, MPI_Comm comm, const ParticleBox& box,
                       const std::vector<double>& masses, const HostParticles& owned,
                       const std::string& title, const DataCoeffs& coeffs) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const AtomTable all = detail::gather_sorted_by_id(comm, {owned, {}, {}});
  const Topology topology = detail::gather_topology(comm, owned.topology);
  const bool full = owned.style == AtomStyle::full;
  std::string mismatch;
  if (rank == 0) mismatch = coeff_mismatch(coeffs, int(masses.size()), topology, full);
  mismatch = detail::first_error(comm, mismatch);
  if (!mismatch.empty()) throw std::invalid_argument("write_lammps_data: " + mismatch);
  std::string error;
  if (rank == 0)
    error =
        write_text_file(path, format_data_file(box, masses, all.atoms, topology, title, coeffs));
  error = detail::first_error(comm, error);
  if (!error.empty()) throw RunError(path + ": cannot write the LAMMPS data file: " + error);
}

}  // namespace cb::io
