// [bonded] and [special_bonds]: the styles of a molecular system's bonded
// terms (their coefficients come from the data file's Coeffs sections) and
// LAMMPS's special_bonds factors (docs/solvers/md.md, "Molecules").
#include "core/error.hpp"
#include "kernels/md/bonded.hpp"
#include "solvers/md/params.hpp"

#include <stdexcept>

namespace cb::md {
namespace {

namespace kmd = kernels::md;

const char* const kind_names[term_kinds] = {"bond", "angle", "dihedral", "improper"};
const char* const section_names[term_kinds] = {"Bond Coeffs", "Angle Coeffs", "Dihedral Coeffs",
                                               "Improper Coeffs"};

std::vector<std::string> styles_of(int kind) {
  switch (kind) {
    case 0:
      return {"harmonic"};
    case 1:
      return {"harmonic", "charmm"};
    case 2:
      return {"charmm", "harmonic", "opls"};
    default:
      return {"harmonic"};
  }
}

// Throws std::invalid_argument when `numbers` are not a coefficient of the
// style (bonded.hpp says what each style takes).
void check_coeff(int kind, const std::string& style, const std::vector<double>& numbers) {
  if (kind == 0) kmd::bond_coeff(kmd::bond_style(style), numbers);
  if (kind == 1) kmd::angle_coeff(kmd::angle_style(style), numbers);
  if (kind == 2) kmd::dihedral_coeff(kmd::dihedral_style(style), numbers);
  if (kind == 3) kmd::improper_coeff(kmd::improper_style(style), numbers);
}

// Each type's numbers: `<kind>_coeff_<type>` in [bonded], else the data
// file's Coeffs line (LAMMPS: a bond_coeff command after read_data overrides).
void read_coeffs(io::CaseFile& file, Params& p, int kind, const CoeffRows& rows) {
  MolecularParams& m = p.molecule;
  const std::string style_key = std::string(kind_names[kind]) + "_style";
  if (!rows.empty() && !rows.style.empty() && rows.style != m.style[kind])
    file.fail("bonded", style_key,
              "[bonded] " + style_key + " = \"" + m.style[kind] + "\", but the data file's " +
                  section_names[kind] + " are for style " + rows.style);
  m.coeffs[kind].resize(m.types[kind]);
  m.coeff_lines[kind].assign(m.types[kind], 0);
  for (int t = 1; t <= m.types[kind]; ++t) {
    const std::string key = std::string(kind_names[kind]) + "_coeff_" + std::to_string(t);
    const auto given = file.find<std::vector<double>>("bonded", key);
    if (given) {
      m.coeffs[kind][t - 1] = *given;
      try {
        check_coeff(kind, m.style[kind], *given);
      } catch (const std::invalid_argument& error) {
        file.fail("bonded", key, "[bonded] " + key + ": " + error.what());
      }
    } else if (!rows.empty()) {
      m.coeffs[kind][t - 1] = rows.rows[t - 1];
      m.coeff_lines[kind][t - 1] = rows.lines[t - 1];
      try {
        check_coeff(kind, m.style[kind], rows.rows[t - 1]);
      } catch (const std::invalid_argument& error) {
        throw InputError(p.data_file + ":" + std::to_string(rows.lines[t - 1]) + ": " +
                         section_names[kind] + " type " + std::to_string(t) + ", " + style_key +
                         " " + m.style[kind] + ": " + error.what());
      }
    } else {
      file.fail_missing("bonded", key,
                        key + "' (the data file has no " + section_names[kind] + " section)");
    }
  }
}

void read_styles(io::CaseFile& file, Params& p, const io::LammpsData& data) {
  MolecularParams& m = p.molecule;
  for (int kind = 0; kind < term_kinds; ++kind) {
    const std::string key = std::string(kind_names[kind]) + "_style";
    m.types[kind] = data.atoms.topology.types[kind];
    const bool terms = data.atoms.topology.terms[kind].size() > 0;
    if (m.types[kind] == 0) {
      if (file.has("bonded", key))
        file.fail("bonded", key,
                  "[bonded] " + key + ": the data file has no " + kind_names[kind] + " types");
      continue;
    }
    std::vector<std::string> choices = styles_of(kind);
    if (!terms) choices.push_back("none");
    if (!file.has("bonded", key) && terms)
      file.fail_missing("bonded", key,
                        key + "' (the data file has " + kind_names[kind] + "s); one of " +
                            styles_of(kind).front());
    m.style[kind] = file.choice("bonded", key, choices, std::string("none"));
    if (m.style[kind] == "none") {
      m.style[kind].clear();
      continue;
    }
    read_coeffs(file, p, kind, data.coeffs.terms[kind]);
  }
}

// LAMMPS special_bonds: presets (lj/coul 0 0 0 by default; charmm the same;
// amber lj 0 0 0.5, coul 0 0 5/6) or explicit factors.
void read_special(io::CaseFile& file, Params& p) {
  MolecularParams& m = p.molecule;
  const std::string preset = file.choice("special_bonds", "preset", {"lj/coul", "charmm", "amber"},
                                         std::string("lj/coul"));
  double lj[3] = {0.0, 0.0, 0.0}, coul[3] = {0.0, 0.0, 0.0};
  if (preset == "amber") {
    lj[2] = 0.5;
    coul[2] = 5.0 / 6.0;
  }
  for (auto [key, factors] : {std::make_pair("lj", lj), std::make_pair("coul", coul)}) {
    const auto given =
        file.find<std::vector<double>>("special_bonds", key, io::Bounds::closed(0, 1));
    if (!given) continue;
    if (preset != "lj/coul")
      file.fail("special_bonds", key,
                std::string("[special_bonds] ") + key + " and preset = \"" + preset +
                    "\" both set the factors; give one");
    if (given->size() != 3)
      file.fail("special_bonds", key,
                std::string("[special_bonds] ") + key + " = [1-2, 1-3, 1-4] (three factors)");
    for (int level = 0; level < 3; ++level) factors[level] = (*given)[level];
  }
  for (int level = 1; level < 4; ++level) {
    m.special_lj[level] = lj[level - 1];
    m.special_coul[level] = coul[level - 1];
  }
}

}  // namespace

void check_charmm_weights(io::CaseFile& file, const Params& p) {
  const int dihedral = static_cast<int>(TermKind::dihedral);
  if (p.molecule.style[dihedral] != "charmm" || p.charmm) return;
  for (std::size_t t = 0; t < p.molecule.coeffs[dihedral].size(); ++t) {
    if (p.molecule.coeffs[dihedral][t].size() == 4 && p.molecule.coeffs[dihedral][t][3] > 0.0)
      file.fail("bonded", "dihedral_style",
                "[bonded] dihedral_style = \"charmm\": type " + std::to_string(t + 1) +
                    " has a 1-4 weight w > 0, whose pair needs epsilon_14 and sigma_14 of "
                    "[pair] style = \"lj/charmm/coul/long\" (or give w = 0)");
  }
}

void read_molecular(io::CaseFile& file, Params& p, const io::LammpsData& data) {
  p.molecule.pair_coeffs = data.coeffs.pair;
  read_styles(file, p, data);
  if (!p.molecular()) {
    for (const char* key : {"preset", "lj", "coul"}) {
      if (file.has("special_bonds", key))
        file.fail("special_bonds", key,
                  "[special_bonds] needs molecules: a data_file with atom_style \"full\" "
                  "and bonds");
    }
    return;
  }
  read_special(file, p);
}

}  // namespace cb::md
