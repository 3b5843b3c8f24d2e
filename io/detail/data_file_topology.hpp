// The molecular part of a LAMMPS data file (atom_style full): header counts
// (`N bonds`, `N bond types`, ...), the Bonds, Angles, Dihedrals and Impropers
// sections, and the Coeffs sections (Pair, Bond, Angle, Dihedral, Improper).
// Not part of the public io API.
#pragma once

#include "core/particle_solver.hpp"
#include "io/detail/data_file_lines.hpp"
#include "io/lammps_data.hpp"

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace cb::io::detail {

class DataFileTopology {
 public:
  DataFileTopology(DataFileLines& lines, AtomStyle style, Topology& topology, DataCoeffs& coeffs);

  // A header line `N keyword` about topology (or extra/ellipsoid counts);
  // false when the keyword is none of these.
  bool header_line(const DataLine& line);
  // Reads section `name` (its keyword line `header`) when it is a topology or
  // Coeffs section; false when it is neither.
  bool section(const std::string& name, const DataLine& header, int atom_types);
  // After the last section: every section the header announces was read, and
  // every term names atoms of the Atoms section (`index_of_id`).
  void finish(const std::unordered_map<long long, std::size_t>& index_of_id) const;

 private:
  long long header_count(const DataLine& line, const std::string& keyword) const;
  void read_terms(TermKind kind, const std::string& name, const DataLine& header);
  void term_line(TermKind kind, const DataLine& line);
  void read_coeffs(CoeffRows& coeffs, const std::string& name, const DataLine& header, int types,
                   const std::string& type_name);
  void coeff_line(CoeffRows& coeffs, const DataLine& line, int types, const std::string& type_name);

  DataFileLines& lines_;
  AtomStyle style_;
  Topology& topology_;
  DataCoeffs& coeffs_;
  long long counts_[term_kinds] = {0, 0, 0, 0};    // from the header
  long section_lines_[term_kinds] = {0, 0, 0, 0};  // 0 until the section is read
  std::vector<long> term_lines_[term_kinds];
};

}  // namespace cb::io::detail
