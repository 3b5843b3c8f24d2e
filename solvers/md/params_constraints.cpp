// [constraints]: SHAKE (LAMMPS `fix ID all shake tol iter N b ... a ... t ...
// m ...`): style = "shake", tolerance, max_iterations, bond_types,
// angle_types, atom_types, masses; style = "rattle" (`fix ID all rattle`,
// the same keys); style = "settle" (rigid water, Miyamoto &
// Kollman 1992) takes the same selection and no tolerance or iterations. The
// selection is checked against the types here; the clusters themselves come
// with the atoms (constraints.hpp), where SETTLE refuses any cluster that is
// not a rigid water.
#include "core/error.hpp"
#include "solvers/md/params.hpp"

#include <iterator>
#include <string>
#include <vector>

namespace cb::md {
namespace {

// A list of 1-based types within 1..count; `what` names them in messages.
std::vector<int> read_types(io::CaseFile& file, const char* key, int count, const char* what) {
  const auto types = file.find<std::vector<int>>("constraints", key);
  if (!types) return {};
  for (int type : *types) {
    if (type < 1 || type > count) {
      file.fail("constraints", key,
                "[constraints] " + std::string(key) + ": " + std::to_string(type) + " is not a " +
                    what + " type (the data file has " + std::to_string(count) + ")");
    }
  }
  return *types;
}

}  // namespace

void read_constraints(io::CaseFile& file, Params& p) {
  const std::string style = file.choice("constraints", "style",
                                        {"none", "shake", "rattle", "settle"}, std::string("none"));
  ConstraintParams& c = p.constraints;
  const char* keys[] = {"tolerance",   "max_iterations", "bond_types",
                        "angle_types", "atom_types",     "masses"};
  constexpr int shake_only = 2;  // tolerance, max_iterations
  if (style == "none") {
    for (int k = 0; k < static_cast<int>(std::size(keys)); ++k) {
      if (file.has("constraints", keys[k]))
        file.fail("constraints", keys[k],
                  "[constraints] " + std::string(keys[k]) +
                      " needs style = \"shake\" or \"rattle\"" +
                      (k < shake_only ? "" : " or \"settle\""));
    }
    return;
  }
  const std::string named = "[constraints] style = \"" + style + "\"";
  for (int k = 0; k < shake_only && style == "settle"; ++k) {
    if (file.has("constraints", keys[k]))
      file.fail("constraints", keys[k],
                "[constraints] " + std::string(keys[k]) +
                    " is for style = \"shake\" or \"rattle\"; SETTLE is exact (no iterations)");
  }
  if (!p.molecular() || p.molecule.types[static_cast<int>(TermKind::bond)] == 0) {
    file.fail("constraints", "style",
              named + " needs molecules: a data_file with bonds and [md] atom_style = \"full\"");
  }
  c.style = style == "settle"   ? ConstraintStyle::settle
            : style == "rattle" ? ConstraintStyle::rattle
                                : ConstraintStyle::shake;
  c.tolerance = file.get<double>("constraints", "tolerance", 1.0e-4, io::Bounds::positive());
  c.max_iterations =
      file.get<int>("constraints", "max_iterations", 10, io::Bounds::closed(1, 1000000));
  const int bond = p.molecule.types[static_cast<int>(TermKind::bond)];
  const int angle = p.molecule.types[static_cast<int>(TermKind::angle)];
  c.selection.bond_types = read_types(file, "bond_types", bond, "bond");
  c.selection.angle_types = read_types(file, "angle_types", angle, "angle");
  c.selection.atom_types = read_types(file, "atom_types", p.atom_types, "atom");
  if (const auto masses = file.find<std::vector<double>>("constraints", "masses")) {
    for (double m : *masses) {
      if (!(m > 0.0)) file.fail("constraints", "masses", "[constraints] masses must be positive");
    }
    c.selection.masses = *masses;
  }
  const ShakeSelection& s = c.selection;
  if (s.bond_types.empty() && s.atom_types.empty() && s.masses.empty()) {
    file.fail("constraints", "style",
              named +
                  " constrains nothing: give bond_types, atom_types or masses (and "
                  "angle_types for rigid angles)");
  }
  if (!s.angle_types.empty() && p.molecule.style[static_cast<int>(TermKind::angle)].empty()) {
    file.fail("constraints", "angle_types",
              "[constraints] angle_types needs an angle style with theta0");
  }
  if (p.molecule.style[static_cast<int>(TermKind::bond)] != "harmonic") {
    file.fail("constraints", "style",
              named +
                  " takes its lengths from r0 of bond style \"harmonic\"; the bond style is \"" +
                  p.molecule.style[static_cast<int>(TermKind::bond)] + "\"");
  }
}

}  // namespace cb::md
