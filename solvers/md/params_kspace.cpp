// [md] boundary (LAMMPS `boundary`) and [kspace] (LAMMPS kspace_style and
// kspace_modify, with the slab correction of Yeh & Berkowitz 1999).
#include "core/error.hpp"
#include "solvers/md/params.hpp"

#include <string>
#include <vector>

namespace cb::md {

// [md] boundary = ["p", "p", "f"]: LAMMPS's boundary letters per axis, p
// (periodic) or f (fixed, non-periodic: an atom leaving the box is lost).
// Default: periodic on every axis.
void read_boundary(io::CaseFile& file, Params& p) {
  const auto letters = file.find<std::vector<std::string>>("md", "boundary");
  if (!letters) return;
  if (letters->size() != 3) {
    file.fail("md", "boundary",
              "[md] boundary takes one letter per axis, e.g. [\"p\", \"p\", \"f\"], got " +
                  std::to_string(letters->size()) + " entries");
  }
  for (int a = 0; a < 3; ++a) {
    const std::string& letter = (*letters)[a];
    if (letter != "p" && letter != "f") {
      file.fail("md", "boundary",
                "[md] boundary: \"" + letter + "\" along " + "xyz"[a] +
                    " is not supported; use \"p\" (periodic) or \"f\" (fixed, non-periodic)");
    }
    p.box.periodic[a] = letter == "p";
  }
}

namespace {

// [kspace] slab = <volume factor> (LAMMPS kspace_modify slab): needs a
// k-space style, a box periodic in x and y and fixed in z, and a factor of at
// least 2 (LAMMPS's lower limit).
void read_slab(io::CaseFile& file, Params& p) {
  const auto slab = file.find<double>("kspace", "slab", io::Bounds::at_least(2.0));
  const bool periodic = p.box.periodic[0] && p.box.periodic[1] && p.box.periodic[2];
  if (!slab) {
    if (p.kspace() && !periodic) {
      file.fail("kspace", "style",
                "[kspace] style = \"" + std::string(p.ewald ? "ewald" : "pppm") +
                    "\" needs a periodic box ([md] boundary = [\"p\", \"p\", \"p\"]), or "
                    "boundary [\"p\", \"p\", \"f\"] with [kspace] slab");
    }
    return;
  }
  if (!p.kspace()) file.fail("kspace", "slab", "[kspace] slab needs style = \"ewald\" or \"pppm\"");
  if (!p.box.periodic[0] || !p.box.periodic[1] || p.box.periodic[2]) {
    file.fail("kspace", "slab",
              "[kspace] slab needs [md] boundary = [\"p\", \"p\", \"f\"] (periodic in x and y, "
              "fixed in z)");
  }
  p.kspace_slab = *slab;
}

void read_pppm(io::CaseFile& file, Params& p) {
  p.kspace_accuracy = file.require<double>("kspace", "accuracy", io::Bounds::closed(1e-12, 0.1));
  p.kspace_order = file.get<int>("kspace", "order", 5, io::Bounds::closed(2, 7));
  if (const auto mesh = file.find<Int3>("kspace", "mesh", io::Bounds::at_least(1)))
    p.kspace_mesh = *mesh;
  p.kspace_g_ewald = file.get<double>("kspace", "g_ewald", 0.0, io::Bounds::positive());
}

void read_ewald(io::CaseFile& file, Params& p) {
  const auto g = file.find<double>("kspace", "g_ewald", io::Bounds::positive());
  const auto kmax = file.find<int>("kspace", "kmax", io::Bounds::closed(1, 200));
  if (g.has_value() != kmax.has_value()) {
    file.fail("kspace", g ? "g_ewald" : "kmax", "[kspace] g_ewald and kmax go together");
  }
  if (g) {
    p.kspace_g_ewald = *g;
    p.kspace_kmax = *kmax;
    if (file.has("kspace", "accuracy"))
      file.fail("kspace", "accuracy", "[kspace] accuracy or g_ewald and kmax, not both");
  } else {
    p.kspace_accuracy = file.require<double>("kspace", "accuracy", io::Bounds::closed(1e-12, 0.1));
  }
}

}  // namespace

// [kspace] style = "ewald" (LAMMPS kspace_style ewald): the relative force
// `accuracy`, or `g_ewald` and `kmax` (kspace_modify gewald, kmax/ewald).
// style = "pppm" (LAMMPS kspace_style pppm): the relative force `accuracy`,
// optional `order` (kspace_modify order), `mesh` (kspace_modify mesh) and
// `g_ewald` (kspace_modify gewald). lj/cut/coul/long and lj/charmm/coul/long
// need one of them, and they need one of those. Either takes `slab`.
void read_kspace(io::CaseFile& file, Params& p) {
  const std::string style =
      file.choice("kspace", "style", {"none", "ewald", "pppm"}, std::string("none"));
  p.ewald = style == "ewald";
  p.pppm = style == "pppm";
  if (p.kspace() && !p.coulomb_long) {
    file.fail("kspace", "style",
              "[kspace] style = \"" + style +
                  "\" needs [pair] style = \"lj/cut/coul/long\", \"lj/charmm/coul/long\" or "
                  "\"coul/long\"");
  }
  if (p.coulomb_long && !p.kspace()) {
    file.fail(
        "pair", "style",
        "[pair] style = \"" + p.pair_style + "\" needs [kspace] style = \"ewald\" or \"pppm\"");
  }
  read_slab(file, p);
  if (p.pppm) read_pppm(file, p);
  if (p.ewald) read_ewald(file, p);
}

}  // namespace cb::md
