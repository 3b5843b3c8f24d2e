// [barostat]: isotropic pressure control (docs/solvers/md.md).
//   style = "none" | "berendsen" | "c_rescale" | "mtk"
//   pressure = P0 (pressure units of [md] units); damp = relaxation time
//   berendsen: modulus = bulk modulus B (default 10, as LAMMPS fix press/berendsen)
//   c_rescale: compressibility = beta_T; temperature (default the
//   thermostat's); seed
//   mtk: chain (the barostat's Nose-Hoover chain, default 3); coupling =
//   "iso" (default) | "aniso"; needs the nose_hoover thermostat
#include "core/error.hpp"
#include "kernels/md/mtk.hpp"
#include "solvers/md/params.hpp"

#include <string>
#include <vector>

namespace cb::md {
namespace {

// What the box change does not follow yet (non-periodic axes, MSD), refused
// by name.
void refuse_unsupported(io::CaseFile& file, const Params& p) {
  static const char* axis_name[3] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    if (!p.box.periodic[d])
      file.fail("barostat", "style",
                std::string("[barostat] needs a periodic box; the box is fixed along ") +
                    axis_name[d] + " ([md] boundary)");
  }
  if (p.compute.msd_every > 0)
    file.fail("barostat", "style",
              "[barostat] with [compute] msd_every: the displacement is not defined in a "
              "changing box");
}

// The keys a style takes besides pressure and damp, in the order checked.
struct StyleKeys {
  BarostatStyle style;
  const char* name;
  std::vector<const char*> keys;
};
const std::vector<StyleKeys> style_keys = {
    {BarostatStyle::berendsen, "berendsen", {"modulus"}},
    {BarostatStyle::c_rescale, "c_rescale", {"compressibility", "temperature", "seed"}},
    {BarostatStyle::mtk, "mtk", {"chain", "coupling"}}};

// A key of another style than `style` is refused, naming the style it is for
// (no key belongs to two styles).
void refuse_other_styles_keys(io::CaseFile& file, BarostatStyle style) {
  for (const StyleKeys& other : style_keys) {
    if (other.style == style) continue;
    for (const char* key : other.keys) {
      if (file.has("barostat", key))
        file.fail("barostat", key,
                  "[barostat] " + std::string(key) + " is for style = \"" + other.name + "\" only");
    }
  }
}

// C-rescale's noise temperature (default the thermostat's).
void read_c_rescale(io::CaseFile& file, const Params& p, BarostatParams& b) {
  b.compressibility = file.require<double>("barostat", "compressibility", io::Bounds::positive());
  const bool thermostat = p.thermostat.style != ThermostatStyle::none;
  b.temperature = thermostat
                      ? file.get<double>("barostat", "temperature", p.thermostat.temperature,
                                         io::Bounds::positive())
                      : file.require<double>("barostat", "temperature", io::Bounds::positive());
  b.seed = file.get<long>("barostat", "seed", 1, io::Bounds::at_least(1));
}

// MTK is LAMMPS fix npt: the thermostat's Nose-Hoover chain and its T0 go with it.
void read_mtk(io::CaseFile& file, const Params& p, BarostatParams& b) {
  if (p.thermostat.style != ThermostatStyle::nose_hoover)
    file.fail("barostat", "style",
              "[barostat] style = \"mtk\" needs [thermostat] style = \"nose_hoover\" (as "
              "LAMMPS fix npt: the two chains are integrated together)");
  b.temperature = p.thermostat.temperature;
  b.chain =
      file.get<int>("barostat", "chain", 3, io::Bounds::closed(1, kernels::md::max_barostat_chain));
  b.aniso = file.choice("barostat", "coupling", {"iso", "aniso"}, std::string("iso")) == "aniso";
}

}  // namespace

void read_barostat(io::CaseFile& file, Params& p) {
  const std::string style = file.choice(
      "barostat", "style", {"none", "berendsen", "c_rescale", "mtk"}, std::string("none"));
  BarostatParams& b = p.barostat;
  b.style = style == "berendsen"   ? BarostatStyle::berendsen
            : style == "c_rescale" ? BarostatStyle::c_rescale
            : style == "mtk"       ? BarostatStyle::mtk
                                   : BarostatStyle::none;
  const char* keys[] = {"pressure",    "damp", "modulus", "compressibility",
                        "temperature", "seed", "chain",   "coupling"};
  if (b.style == BarostatStyle::none) {
    for (const char* key : keys) {
      if (file.has("barostat", key))
        file.fail("barostat", key, "[barostat] style = \"none\" takes no " + std::string(key));
    }
    return;
  }
  refuse_unsupported(file, p);
  b.pressure = file.require<double>("barostat", "pressure");
  b.damp = file.require<double>("barostat", "damp", io::Bounds::positive());
  refuse_other_styles_keys(file, b.style);
  if (b.style == BarostatStyle::berendsen)
    b.modulus = file.get<double>("barostat", "modulus", 10.0, io::Bounds::positive());
  if (b.style == BarostatStyle::c_rescale) read_c_rescale(file, p, b);
  if (b.style == BarostatStyle::mtk) read_mtk(file, p, b);
}

}  // namespace cb::md
