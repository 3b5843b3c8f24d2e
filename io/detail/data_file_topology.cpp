#include "io/detail/data_file_topology.hpp"

#include <algorithm>
#include <utility>

namespace cb::io::detail {
namespace {

struct KindNames {
  const char* singular;
  const char* plural;  // the header keyword
  const char* section;
  const char* coeffs;
  const char* layout;
};

constexpr KindNames kind_names[term_kinds] = {
    {"bond", "bonds", "Bonds", "Bond Coeffs", "id type atom1 atom2"},
    {"angle", "angles", "Angles", "Angle Coeffs", "id type atom1 atom2 atom3"},
    {"dihedral", "dihedrals", "Dihedrals", "Dihedral Coeffs", "id type atom1 atom2 atom3 atom4"},
    {"improper", "impropers", "Impropers", "Improper Coeffs", "id type atom1 atom2 atom3 atom4"}};

const char* const extra_keywords[] = {"extra bond per atom", "extra angle per atom",
                                      "extra dihedral per atom", "extra improper per atom",
                                      "extra special per atom"};
const char* const body_keywords[] = {"ellipsoids", "lines", "triangles", "bodies"};
const char* const class2_sections[] = {"BondBond Coeffs",          "BondAngle Coeffs",
                                       "MiddleBondTorsion Coeffs", "EndBondTorsion Coeffs",
                                       "AngleTorsion Coeffs",      "AngleAngleTorsion Coeffs",
                                       "BondBond13 Coeffs",        "AngleAngle Coeffs"};

constexpr long long max_types = 1000000;

}  // namespace

DataFileTopology::DataFileTopology(DataFileLines& lines, AtomStyle style, Topology& topology,
                                   DataCoeffs& coeffs)
    : lines_(lines), style_(style), topology_(topology), coeffs_(coeffs) {}

long long DataFileTopology::header_count(const DataLine& line, const std::string& keyword) const {
  const long long count = lines_.integer(line, 0, keyword.c_str());
  if (count < 0) lines_.fail(line.number, "'" + keyword + "' must not be negative");
  if (count != 0 && style_ != AtomStyle::full)
    lines_.fail(line.number, "'" + keyword + "': atom_style " + style_name(style_) +
                                 " has no molecular topology; use atom_style full");
  return count;
}

bool DataFileTopology::header_line(const DataLine& line) {
  const std::string keyword = join_words(line.words, 1);
  for (int k = 0; k < term_kinds; ++k) {
    if (keyword == kind_names[k].plural) {
      counts_[k] = header_count(line, keyword);
      return true;
    }
    if (keyword == std::string(kind_names[k].singular) + " types") {
      const long long types = header_count(line, keyword);
      if (types > max_types) lines_.fail(line.number, "'" + keyword + "': too many types");
      topology_.types[k] = static_cast<int>(types);
      return true;
    }
  }
  for (const char* known : extra_keywords)
    if (keyword == known) {
      if (lines_.integer(line, 0, known) < 0)
        lines_.fail(line.number, "'" + keyword + "' must not be negative");
      return true;  // LAMMPS's storage hints; nothing to do here
    }
  for (const char* known : body_keywords)
    if (keyword == known) {
      if (lines_.integer(line, 0, known) != 0)
        lines_.fail(line.number, "'" + keyword + "': atom_style " + style_name(style_) +
                                     " has no ellipsoids, lines, triangles or bodies");
      return true;
    }
  return false;
}

bool DataFileTopology::section(const std::string& name, const DataLine& header, int atom_types) {
  for (int k = 0; k < term_kinds; ++k) {
    if (name == kind_names[k].section) {
      read_terms(static_cast<TermKind>(k), name, header);
      return true;
    }
    if (name == kind_names[k].coeffs) {
      read_coeffs(coeffs_.terms[k], name, header, topology_.types[k],
                  std::string(kind_names[k].singular) + " type");
      return true;
    }
  }
  if (name == "Pair Coeffs") {
    read_coeffs(coeffs_.pair, name, header, atom_types, "atom type");
    return true;
  }
  for (const char* class2 : class2_sections)
    if (name == class2)
      lines_.fail(header.number, "section '" + name + "' (class2 force fields) is not supported");
  return false;
}

void DataFileTopology::read_terms(TermKind kind, const std::string& name, const DataLine& header) {
  const int k = static_cast<int>(kind);
  if (style_ != AtomStyle::full)
    lines_.fail(header.number, "section '" + name + "': atom_style " + style_name(style_) +
                                   " has no molecular topology; use atom_style full");
  if (counts_[k] == 0)
    lines_.fail(header.number, "section '" + name + "', but the header announces no " +
                                   kind_names[k].plural + " (an 'N " + kind_names[k].plural +
                                   "' line)");
  section_lines_[k] = header.number;
  lines_.read_entries(name, counts_[k], [&](const DataLine& line) { term_line(kind, line); });
}

void DataFileTopology::term_line(TermKind kind, const DataLine& line) {
  const int k = static_cast<int>(kind);
  const std::string singular = kind_names[k].singular;
  const std::size_t atoms = static_cast<std::size_t>(atoms_per_term(kind));
  lines_.expect_words(line, 2 + atoms, kind_names[k].layout);
  const long long id = lines_.integer(line, 0, (singular + " id").c_str());
  if (id < 1)
    lines_.fail(line.number, singular + " id " + std::to_string(id) + " must be positive");
  TermList& terms = topology_.of(kind);
  terms.type.push_back(static_cast<int>(lines_.integer_in(
      line, 1, singular + " type", 1, topology_.types[k], " (header '" + singular + " types')")));
  const std::size_t first = terms.atoms.size();
  for (std::size_t j = 0; j < atoms; ++j) {
    const long long atom = lines_.integer(line, 2 + j, "an atom id");
    if (atom < 1) lines_.fail(line.number, "atom id " + std::to_string(atom) + " must be positive");
    if (std::find(terms.atoms.begin() + first, terms.atoms.end(), atom) != terms.atoms.end())
      lines_.fail(line.number, singular + " " + std::to_string(id) + " names atom " +
                                   std::to_string(atom) + " twice");
    terms.atoms.push_back(atom);
  }
  term_lines_[k].push_back(line.number);
}

void DataFileTopology::read_coeffs(CoeffRows& coeffs, const std::string& name,
                                   const DataLine& header, int types,
                                   const std::string& type_name) {
  if (types == 0)
    lines_.fail(header.number,
                "section '" + name + "', but the header has no '" + type_name + "s' line");
  coeffs.style = header.comment;
  coeffs.line = header.number;
  coeffs.rows.assign(static_cast<std::size_t>(types), {});
  coeffs.lines.assign(static_cast<std::size_t>(types), 0);
  lines_.read_entries(name, types,
                      [&](const DataLine& line) { coeff_line(coeffs, line, types, type_name); });
}

void DataFileTopology::coeff_line(CoeffRows& coeffs, const DataLine& line, int types,
                                  const std::string& type_name) {
  if (line.words.size() < 2)
    lines_.fail(line.number, "expected 'type coefficient ...', got 1 value");
  const long long type =
      lines_.integer_in(line, 0, type_name, 1, types, " (header '" + type_name + "s')");
  long& seen = coeffs.lines[static_cast<std::size_t>(type - 1)];
  if (seen != 0)
    lines_.fail(line.number, "the coefficients of " + type_name + " " + std::to_string(type) +
                                 " are given twice (also at line " + std::to_string(seen) + ")");
  seen = line.number;
  std::vector<double>& row = coeffs.rows[static_cast<std::size_t>(type - 1)];
  for (std::size_t j = 1; j < line.words.size(); ++j)
    row.push_back(lines_.number(line, j, "a coefficient"));
}

void DataFileTopology::finish(const std::unordered_map<long long, std::size_t>& index_of_id) const {
  for (int k = 0; k < term_kinds; ++k)
    if (counts_[k] > 0 && section_lines_[k] == 0)
      lines_.fail(lines_.line_number(), "the header announces " + std::to_string(counts_[k]) + " " +
                                            kind_names[k].plural + " but the file has no " +
                                            kind_names[k].section + " section");
  for (int k = 0; k < term_kinds; ++k) {
    const TermList& terms = topology_.terms[k];
    const std::size_t atoms = static_cast<std::size_t>(atoms_per_term(static_cast<TermKind>(k)));
    for (std::size_t t = 0; t < terms.size(); ++t)
      for (std::size_t j = 0; j < atoms; ++j) {
        const long long atom = terms.atoms[t * atoms + j];
        if (index_of_id.count(atom) == 0)
          lines_.fail(term_lines_[k][t], std::string(kind_names[k].singular) + " names atom " +
                                             std::to_string(atom) +
                                             ", which the Atoms section lacks");
      }
  }
  // Every type once: a section of `types` lines without repeats has them all.
  const std::pair<const char*, const CoeffRows*> sections[] = {
      {"Pair Coeffs", &coeffs_.pair},
      {kind_names[0].coeffs, &coeffs_.terms[0]},
      {kind_names[1].coeffs, &coeffs_.terms[1]},
      {kind_names[2].coeffs, &coeffs_.terms[2]},
      {kind_names[3].coeffs, &coeffs_.terms[3]}};
  for (const auto& [name, coeffs] : sections)
    for (std::size_t t = 0; t < coeffs->lines.size(); ++t)
      if (coeffs->lines[t] == 0)
        lines_.fail(coeffs->line,
                    "section '" + std::string(name) + "' lacks type " + std::to_string(t + 1));
}

}  // namespace cb::io::detail
