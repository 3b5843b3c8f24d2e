// What `cloudburst check` says about an MD case beyond the resolved keys: the
// unit system, the atoms and topology, the pair and bonded styles, and the
// k-space parameters the run will choose (LAMMPS's estimates, from the data
// file's charges).
#include "kernels/md/ewald.hpp"
#include "solvers/md/params.hpp"
#include "solvers/md/pppm_sum.hpp"

#include <cmath>
#include <cstdio>

namespace cb::md {
namespace {

namespace kmd = kernels::md;

std::string format(const char* pattern, double a, double b = 0.0, double c = 0.0) {
  char text[200];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

const char* unit_summary(kmd::UnitStyle style) {
  switch (style) {
    case kmd::UnitStyle::real:
      return "real (Angstrom, fs, kcal/mol, g/mol, K, atm)";
    case kmd::UnitStyle::metal:
      return "metal (Angstrom, ps, eV, g/mol, K, bar)";
    default:
      return "lj (reduced: sigma, tau, epsilon, m)";
  }
}

std::string topology_line(const Params& p, const io::LammpsData& data) {
  const char* names[term_kinds] = {"bonds", "angles", "dihedrals", "impropers"};
  std::string line = "topology:", separator = " ";
  for (int kind = 0; kind < term_kinds; ++kind) {
    const std::size_t n = data.atoms.topology.terms[kind].size();
    if (n == 0) continue;
    const std::string& style = p.molecule.style[kind];
    line += separator + std::to_string(n) + " " + names[kind] + " (" +
            (style.empty() ? "none" : style) + ")";
    separator = ", ";
  }
  line += format("; special_bonds lj %g %g %g", p.molecule.special_lj[1], p.molecule.special_lj[2],
                 p.molecule.special_lj[3]);
  line += format(", coul %g %g %g", p.molecule.special_coul[1], p.molecule.special_coul[2],
                 p.molecule.special_coul[3]);
  return line;
}

std::string pair_line(const Params& p) {
  std::string line = "pair: ";
  if (p.charmm) {
    line += format("lj/charmm/coul/long, LJ switched off between %g and %g", p.charmm_inner,
                   p.max_lj_cutoff());
  } else if (p.pair_style == "coul/long") {
    line += "coul/long (no LJ)";
  } else {
    line += p.pair_style + format(", LJ cutoff %g", p.max_lj_cutoff());
  }
  if (p.coulomb) line += format(", Coulomb cutoff %g", p.coulomb_cutoff);
  return line + format("; neighbour list to %g (cutoff + skin)", p.neighbor_cutoff());
}

// Ewald's g and kmax as the run will choose them (EwaldSum::setup).
std::string ewald_line(const Params& p, const io::LammpsData& data) {
  if (p.kspace_g_ewald > 0.0)
    return format("kspace: ewald, g_ewald = %.8g, kmax = %g (given)", p.kspace_g_ewald,
                  p.kspace_kmax);
  double q2 = 0.0;
  for (double q : data.atoms.q) q2 += q * q;
  double prd[3];
  for (int d = 0; d < 3; ++d) prd[d] = p.box.hi[d] - p.box.lo[d];
  const kmd::EwaldParameters e = kmd::ewald_parameters(
      p.kspace_accuracy, p.units.qqr2e, double(data.atoms.size()), p.coulomb_cutoff, prd,
      q2 * p.units.qqr2e / p.dielectric, p.kspace_slab);
  return format("kspace: ewald, accuracy %g -> g_ewald = %.8g", p.kspace_accuracy, e.g_ewald) +
         format(", kmax = %g %g %g (LAMMPS's estimates)", e.kmax[0], e.kmax[1], e.kmax[2]);
}

// PPPM's g and mesh as the run will choose them (PppmSum::setup).
std::string pppm_line(const Params& p, const io::LammpsData& data) {
  double q2 = 0.0;
  for (double q : data.atoms.q) q2 += q * q;
  const kmd::PppmParameters e =
      kmd::pppm_parameters(pppm_settings(p, std::int64_t(data.atoms.size()), q2));
  return format("kspace: pppm, g_ewald = %.8g, mesh %g", e.g_ewald, e.mesh[0]) +
         format(" %g %g", e.mesh[1], e.mesh[2]) +
         format(", order %g, estimated relative force accuracy %.7g", e.order,
                e.estimated_relative_accuracy);
}

}  // namespace

std::vector<std::string> describe(const Params& p) {
  std::vector<std::string> lines = {std::string("md: units ") + unit_summary(p.unit_style) +
                                    ", atom_style " + io::style_name(p.atom_style)};
  io::LammpsData data;
  if (p.from_data_file) {
    data = io::read_lammps_data(p.data_file, p.box.periodic, p.atom_style);
    lines.push_back("atoms: " + std::to_string(data.atoms.size()) + " of " +
                    std::to_string(p.atom_types) + " types from " + p.data_file);
    if (p.molecular()) lines.push_back(topology_line(p, data));
  }
  lines.push_back(pair_line(p));
  if (p.ewald) lines.push_back(ewald_line(p, data));
  if (p.pppm) lines.push_back(pppm_line(p, data));
  if (p.slab()) {
    lines.push_back(format("kspace slab: k-space box %g times the box along z", p.kspace_slab) +
                    " (empty above the atoms), dipole correction (Yeh & Berkowitz 1999)");
  }
  const BarostatParams& b = p.barostat;
  if (b.style == BarostatStyle::berendsen) {
    lines.push_back(format("barostat: berendsen, P0 = %g", b.pressure) +
                    format(", damp %g", b.damp) + format(", modulus %g", b.modulus) +
                    " (isotropic, as LAMMPS fix press/berendsen iso)");
  } else if (b.style == BarostatStyle::c_rescale) {
    lines.push_back(format("barostat: c_rescale, P0 = %g", b.pressure) +
                    format(", tau_p %g", b.damp) +
                    format(", compressibility %g", b.compressibility) +
                    format(", T %g", b.temperature) + " (isotropic; Bernetti & Bussi 2020)");
  } else if (b.style == BarostatStyle::mtk) {
    lines.push_back(format("barostat: mtk, P0 = %g", b.pressure) + format(", damp %g", b.damp) +
                    format(", chain %g", b.chain) +
                    (b.aniso ? std::string(" (anisotropic") : std::string(" (isotropic")) +
                    " Martyna-Tobias-Klein with the Nose-Hoover thermostat, as LAMMPS fix npt " +
                    (b.aniso ? "aniso)" : "iso)"));
  }
  if (!(p.box.periodic[0] && p.box.periodic[1] && p.box.periodic[2])) {
    std::string letters;
    for (int a = 0; a < 3; ++a) letters += p.box.periodic[a] ? " p" : " f";
    lines.push_back("boundary" + letters + " (an atom leaving along f is lost: the run stops)");
  }
  return lines;
}

}  // namespace cb::md
