// [barostat]: isotropic pressure control (docs/solvers/md.md).
//   style = "none" | "berendsen" | "c_rescale"
//   pressure = P0 (pressure units of [md] units); damp = relaxation time
//   berendsen: modulus = bulk modulus B (default 10, as LAMMPS fix press/berendsen)
//   c_rescale: compressibility = beta_T; temperature (default the
//   thermostat's); seed
#include "core/error.hpp"
#include "solvers/md/params.hpp"

#include <string>

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

}  // namespace

void read_barostat(io::CaseFile& file, Params& p) {
  const std::string style =
      file.choice("barostat", "style", {"none", "berendsen", "c_rescale"}, std::string("none"));
  BarostatParams& b = p.barostat;
  b.style = style == "berendsen"   ? BarostatStyle::berendsen
            : style == "c_rescale" ? BarostatStyle::c_rescale
                                   : BarostatStyle::none;
  const char* keys[] = {"pressure", "damp", "modulus", "compressibility", "temperature", "seed"};
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
  const bool berendsen = b.style == BarostatStyle::berendsen;
  for (const char* key : {berendsen ? "compressibility" : "modulus"}) {
    if (file.has("barostat", key))
      file.fail("barostat", key,
                "[barostat] " + std::string(key) + " is for style = \"" +
                    (berendsen ? "c_rescale" : "berendsen") + "\" only");
  }
  if (berendsen) {
    b.modulus = file.get<double>("barostat", "modulus", 10.0, io::Bounds::positive());
    for (const char* key : {"temperature", "seed"}) {
      if (file.has("barostat", key))
        file.fail("barostat", key,
                  "[barostat] " + std::string(key) + " is for style = \"c_rescale\" only");
    }
    return;
  }
  b.compressibility = file.require<double>("barostat", "compressibility", io::Bounds::positive());
  const bool thermostat = p.thermostat.style != ThermostatStyle::none;
  b.temperature = thermostat
                      ? file.get<double>("barostat", "temperature", p.thermostat.temperature,
                                         io::Bounds::positive())
                      : file.require<double>("barostat", "temperature", io::Bounds::positive());
  b.seed = file.get<long>("barostat", "seed", 1, io::Bounds::at_least(1));
}

}  // namespace cb::md
