#include "solvers/md/params.hpp"

#include "core/error.hpp"
#include "io/lammps_data.hpp"
#include "kernels/md/integrate.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <type_traits>

namespace cb::md {
namespace {

namespace kmd = kernels::md;

std::string text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", x);
  return buffer;
}

// `mass = 1.0` (every type) or `mass = [m1, m2, ...]` (one per type).
std::optional<std::vector<double>> read_masses(io::CaseFile& file) {
  if (!file.has("md", "mass")) {
    file.allow("md", "mass");
    return std::nullopt;
  }
  try {
    if (auto one = file.find<double>("md", "mass", io::Bounds::positive())) {
      return std::vector<double>{*one};
    }
  } catch (const InputError&) {
    // not a number: try the per-type array below
  }
  return file.find<std::vector<double>>("md", "mass", io::Bounds::positive());
}

void read_lattice(io::CaseFile& file, Params& p) {
  const std::string style = file.choice("md", "lattice", {"fcc", "bcc", "sc"}, std::string("fcc"));
  p.lattice = style == "fcc"   ? kmd::LatticeStyle::fcc
              : style == "bcc" ? kmd::LatticeStyle::bcc
                               : kmd::LatticeStyle::sc;
  // As LAMMPS's `lattice` command: a reduced density in lj units, the
  // lattice constant (distance units) in the others.
  double a = 0.0;
  if (p.unit_style == kmd::UnitStyle::lj) {
    if (file.has("md", "lattice_constant")) {
      file.fail("md", "lattice_constant",
                "[md] lattice_constant: units = \"lj\" takes the reduced [md] density");
    }
    p.density = file.require<double>("md", "density", io::Bounds::positive());
    a = kmd::lattice_constant(p.lattice, p.density);
  } else {
    if (file.has("md", "density")) {
      file.fail("md", "density",
                "[md] density: units other than \"lj\" take [md] lattice_constant");
    }
    a = file.require<double>("md", "lattice_constant", io::Bounds::positive());
    p.density = kmd::basis_count(p.lattice) / (a * a * a);
  }
  p.lattice_cells = file.require<Int3>("md", "lattice_cells", io::Bounds::at_least(1));
  p.temperature = file.require<double>("md", "temperature", io::Bounds::non_negative());
  p.seed = file.get<int>("md", "seed", 87287, io::Bounds::closed(1, 2147483646));
  p.lattice_constant = a;
  for (int d = 0; d < 3; ++d) {
    p.box.lo[d] = 0.0;
    p.box.hi[d] = p.lattice_cells[d] * a;  // LAMMPS: region block 0 n in lattice units
  }
  p.geometry.cells = p.lattice_cells;
  p.atom_types = 1;
  if (p.unit_style == kmd::UnitStyle::lj) p.masses = {1.0};  // others: [md] mass required
}

void read_data_file(io::CaseFile& file, Params& p) {
  const std::string name = file.require<std::string>("md", "data_file");
  namespace fs = std::filesystem;
  fs::path path(name);
  if (path.is_relative()) path = fs::path(file.path()).parent_path() / path;
  p.data_file = path.string();
  for (const char* key :
       {"lattice", "density", "lattice_constant", "lattice_cells", "temperature", "seed"}) {
    if (file.has("md", key)) {
      file.fail("md", key,
                std::string("[md] ") + key + " belongs to a lattice start; " +
                    "data_file gives positions and velocities");
    }
  }
  const io::LammpsData data = io::read_lammps_data(p.data_file, p.box.periodic, p.atom_style);
  p.box = data.box;
  p.atom_types = data.atom_types;
  p.masses = data.masses;
  read_molecular(file, p, data);
  const double rneigh = 2.5;  // provisional; the grid only needs to be fine
  for (int d = 0; d < 3; ++d) {
    const double length = p.box.hi[d] - p.box.lo[d];
    p.geometry.cells[d] = std::max(1, static_cast<int>(std::floor(4.0 * length / rneigh)));
  }
}

// lj/cut/coul/cut and /long: the Coulomb part (its own cutoff, default the LJ
// one, and a dielectric constant), for atoms with charges.
void read_coulomb(io::CaseFile& file, Params& p, const std::string& style, double lj_cutoff) {
  if (!p.coulomb) {
    for (const char* key : {"coulomb_cutoff", "dielectric"}) {
      if (file.has("pair", key))
        file.fail("pair", key,
                  "[pair] " + std::string(key) + " belongs to style lj/cut/coul/cut or /long");
    }
    return;
  }
  if (p.atom_style == AtomStyle::atomic) {
    file.fail("pair", "style",
              "[pair] style = \"" + style +
                  "\" needs charges: [md] atom_style = \"charge\" or \"full\" with a data_file");
  }
  p.coulomb_cutoff = file.get<double>("pair", "coulomb_cutoff", lj_cutoff, io::Bounds::positive());
  p.dielectric = file.get<double>("pair", "dielectric", 1.0, io::Bounds::positive());
}

// One type pair's coefficients: [epsilon, sigma] or with the LJ cutoff
// (lj/cut styles), or with epsilon_14 and sigma_14 (lj/charmm/coul/long).
struct PairCoeff {
  kmd::LjParams lj, lj14;
};

std::optional<PairCoeff> pair_coeff_of(const std::vector<double>& v, const Params& p, double cutoff,
                                       std::string& error) {
  const bool charmm = p.charmm;
  if (v.size() != 2 && v.size() != (charmm ? 4u : 3u)) {
    error = charmm ? "[epsilon, sigma] or [epsilon, sigma, epsilon_14, sigma_14]"
                   : "[epsilon, sigma] or [epsilon, sigma, cutoff]";
    return std::nullopt;
  }
  for (double x : v) {
    if (!(x >= 0.0)) error = "no negative values";
  }
  if (!(v[1] > 0.0) || (v.size() > 2 && !(v.back() > 0.0))) error = "sigma and cutoff positive";
  if (!error.empty()) return std::nullopt;
  PairCoeff c;
  c.lj = {v[0], v[1], !charmm && v.size() == 3 ? v[2] : cutoff};
  c.lj14 = charmm && v.size() == 4 ? kmd::LjParams{v[2], v[3], cutoff} : c.lj;
  return c;
}

void read_pair_style(io::CaseFile& file, Params& p, const std::string& style) {
  p.pair_style = style;
  p.coulomb = style != "lj";
  p.charmm = style == "lj/charmm/coul/long";
  p.coulomb_long = style == "lj/cut/coul/long" || p.charmm || style == "coul/long";
  if (!p.charmm) {
    if (file.has("pair", "inner_cutoff"))
      file.fail("pair", "inner_cutoff", "[pair] inner_cutoff belongs to style lj/charmm/coul/long");
    return;
  }
  p.charmm_inner = file.require<double>("pair", "inner_cutoff", io::Bounds::positive());
}

// The coefficients of each type pair: coeff_i_j in [pair], else the data
// file's Pair Coeffs (diagonal), else the defaults; off-diagonal pairs mixed.
// LAMMPS pair_style coul/long: the real-space Coulomb within `cutoff` alone.
void read_coulomb_only(io::CaseFile& file, Params& p) {
  for (const char* key : {"epsilon", "sigma", "mixing", "shift", "tail", "coulomb_cutoff"}) {
    if (file.has("pair", key))
      file.fail("pair", key,
                "[pair] " + std::string(key) +
                    ": style = \"coul/long\" has no LJ; its one cutoff is [pair] cutoff");
  }
  if (p.atom_style == AtomStyle::atomic)
    file.fail("pair", "style",
              "[pair] style = \"coul/long\" needs charges: [md] atom_style = \"charge\" or "
              "\"full\" with a data_file");
  p.coulomb_cutoff = file.require<double>("pair", "cutoff", io::Bounds::positive());
  p.dielectric = file.get<double>("pair", "dielectric", 1.0, io::Bounds::positive());
  p.pair.assign(p.atom_types * p.atom_types, kmd::LjParams{0.0, 1.0, 0.0});
}

void read_pair(io::CaseFile& file, Params& p) {
  const std::string style =
      file.choice("pair", "style",
                  {"lj", "lj/cut/coul/cut", "lj/cut/coul/long", "lj/charmm/coul/long", "coul/long"},
                  std::string("lj"));
  read_pair_style(file, p, style);
  if (style == "coul/long") {
    read_coulomb_only(file, p);
    return;
  }
  // Reduced defaults (cutoff 2.5, epsilon = sigma = 1) in lj units only;
  // in the others epsilon and sigma are needed for types without coefficients.
  const bool reduced = p.unit_style == kmd::UnitStyle::lj;
  kmd::LjParams base;
  base.cutoff = reduced ? file.get<double>("pair", "cutoff", 2.5, io::Bounds::positive())
                        : file.require<double>("pair", "cutoff", io::Bounds::positive());
  if (p.charmm && !(p.charmm_inner < base.cutoff))
    file.fail("pair", "inner_cutoff", "[pair] inner_cutoff must be below cutoff");
  const std::optional<double> epsilon =
      reduced ? file.get<double>("pair", "epsilon", 1.0, io::Bounds::non_negative())
              : file.find<double>("pair", "epsilon", io::Bounds::non_negative());
  const std::optional<double> sigma =
      reduced ? file.get<double>("pair", "sigma", 1.0, io::Bounds::positive())
              : file.find<double>("pair", "sigma", io::Bounds::positive());
  base.epsilon = epsilon.value_or(1.0);
  base.sigma = sigma.value_or(1.0);
  read_coulomb(file, p, style, base.cutoff);
  // LAMMPS's default mixing: geometric, arithmetic for the charmm styles.
  const std::string mixing = file.choice("pair", "mixing", {"geometric", "arithmetic"},
                                         std::string(p.charmm ? "arithmetic" : "geometric"));
  const kmd::Mixing rule = mixing == "geometric" ? kmd::Mixing::geometric : kmd::Mixing::arithmetic;
  p.shift = file.get<bool>("pair", "shift", false);
  p.tail = file.get<bool>("pair", "tail", false);
  if (p.charmm && (p.shift || p.tail))
    file.fail("pair", p.shift ? "shift" : "tail",
              "[pair] style = \"lj/charmm/coul/long\" switches LJ off smoothly: no shift or tail");
  const int n = p.atom_types;
  std::vector<PairCoeff> own(n, PairCoeff{base, base});
  std::vector<std::optional<PairCoeff>> given(n * n);
  const CoeffRows& data = p.molecule.pair_coeffs;
  for (int i = 1; i <= n; ++i) {
    bool diagonal = false;
    for (int j = i; j <= n; ++j) {
      const std::string key = "coeff_" + std::to_string(i) + "_" + std::to_string(j);
      auto v = file.find<std::vector<double>>("pair", key);
      if (!v) continue;
      std::string error;
      const auto c = pair_coeff_of(*v, p, base.cutoff, error);
      if (!c) file.fail("pair", key, "[pair] " + key + " = " + error);
      given[(i - 1) * n + (j - 1)] = given[(j - 1) * n + (i - 1)] = c;
      if (i == j) own[i - 1] = *c, diagonal = true;
    }
    if (!diagonal && !data.empty()) {
      std::string error;
      const auto c = pair_coeff_of(data.rows[i - 1], p, base.cutoff, error);
      if (!c)
        throw InputError(p.data_file + ":" + std::to_string(data.lines[i - 1]) +
                         ": Pair Coeffs of type " + std::to_string(i) + " for [pair] style " +
                         style + ": expected " + error);
      own[i - 1] = *c;
      diagonal = true;
    }
    if (!reduced && !diagonal && !(epsilon && sigma)) {
      file.fail_missing("pair", epsilon ? "sigma" : "epsilon",
                        std::string(epsilon ? "sigma" : "epsilon") +
                            "' (units other than \"lj\" have no default) or 'coeff_" +
                            std::to_string(i) + "_" + std::to_string(i));
    }
  }
  p.pair.resize(n * n);
  p.pair14.resize(p.charmm ? n * n : 0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const auto& g = given[i * n + j];
      p.pair[i * n + j] = g ? g->lj : kmd::mix(own[i].lj, own[j].lj, rule);
      if (p.charmm) p.pair14[i * n + j] = g ? g->lj14 : kmd::mix(own[i].lj14, own[j].lj14, rule);
    }
  }
}

constexpr bool serial_backend() {
#ifdef KOKKOS_ENABLE_SERIAL
  return std::is_same_v<ExecSpace, Kokkos::Serial>;
#else
  return false;
#endif
}

void read_neighbor(io::CaseFile& file, Params& p) {
  p.skin = file.get<double>("neighbor", "skin", p.units.skin, io::Bounds::non_negative());
  p.every = file.get<int>("neighbor", "every", 1, io::Bounds::at_least(1));
  p.delay = file.get<int>("neighbor", "delay", 0, io::Bounds::non_negative());
  p.check = file.get<bool>("neighbor", "check", true);
  // Half lists (newton on) halve the pair work, but scatter each reaction
  // onto the partner atom: in a fixed order only on one thread (Serial). On
  // threads and GPUs that order follows the schedule, so full lists are the
  // default there: each atom sums its own row, the same on every thread count
  // (docs/solvers/md.md, docs/performance.md).
  const std::string list = file.choice("neighbor", "list", {"half", "full"},
                                       std::string(serial_backend() ? "half" : "full"));
  p.list = list == "half" ? ListKind::half : ListKind::full;
}

void read_thermostat(io::CaseFile& file, Params& p) {
  const std::string style =
      file.choice("thermostat", "style", {"none", "langevin", "nose_hoover", "berendsen", "csvr"},
                  std::string("none"));
  ThermostatParams& t = p.thermostat;
  t.style = style == "langevin"      ? ThermostatStyle::langevin
            : style == "nose_hoover" ? ThermostatStyle::nose_hoover
            : style == "berendsen"   ? ThermostatStyle::berendsen
            : style == "csvr"        ? ThermostatStyle::csvr
                                     : ThermostatStyle::none;
  if (t.style == ThermostatStyle::none) {
    for (const char* key : {"temperature", "damp", "seed", "chain"}) {
      if (file.has("thermostat", key)) {
        file.fail("thermostat", key, "[thermostat] style = \"none\" takes no " + std::string(key));
      }
    }
    return;
  }
  t.temperature = file.require<double>("thermostat", "temperature", io::Bounds::positive());
  t.damp = file.require<double>("thermostat", "damp", io::Bounds::positive());
  if (t.style == ThermostatStyle::langevin || t.style == ThermostatStyle::csvr) {
    t.seed = file.get<long>("thermostat", "seed", 1, io::Bounds::at_least(1));
  } else if (file.has("thermostat", "seed")) {
    file.fail("thermostat", "seed",
              "[thermostat] seed is for style = \"langevin\" or \"csvr\" only");
  }
  if (t.style == ThermostatStyle::nose_hoover) {
    t.chain =
        file.get<int>("thermostat", "chain", 3, io::Bounds::closed(1, kernels::md::max_chain));
  } else if (file.has("thermostat", "chain")) {
    file.fail("thermostat", "chain", "[thermostat] chain is for style = \"nose_hoover\" only");
  }
}

void read_compute(io::CaseFile& file, Params& p) {
  ComputeParams& c = p.compute;
  c.rdf_bins = file.get<int>("compute", "rdf_bins", 0, io::Bounds::closed(0, 100000));
  c.rdf_cutoff = file.get<double>("compute", "rdf_cutoff", p.max_cutoff(), io::Bounds::positive());
  c.rdf_every = file.get<long>("compute", "rdf_every", 100, io::Bounds::at_least(1));
  c.rdf_start = file.get<long>("compute", "rdf_start", 0, io::Bounds::non_negative());
  c.msd_every = file.get<long>("compute", "msd_every", 0, io::Bounds::non_negative());
  c.ke_by_type = file.get<bool>("compute", "ke_by_type", false);
  c.rdf_pairs = file.get<std::vector<int>>("compute", "rdf_pairs", {});
  const bool types_ok = std::all_of(c.rdf_pairs.begin(), c.rdf_pairs.end(),
                                    [&](int t) { return t >= 1 && t <= p.atom_types; });
  if (c.rdf_pairs.size() % 2 != 0 || c.rdf_pairs.size() > 2 * max_rdf_pairs || !types_ok) {
    file.fail("compute", "rdf_pairs",
              "[compute] rdf_pairs lists up to " + std::to_string(max_rdf_pairs) +
                  " pairs of atom types (i1, j1, i2, j2, ...), each in [1, " +
                  std::to_string(p.atom_types) + "]");
  }
  if (c.rdf_cutoff > p.max_cutoff() * (1 + 1e-12)) {
    file.fail("compute", "rdf_cutoff",
              "[compute] rdf_cutoff = " + text(c.rdf_cutoff) + " exceeds the pair cutoff " +
                  text(p.max_cutoff()) + " (g(r) uses the force neighbour list)");
  }
}

void read_masses_into(io::CaseFile& file, Params& p) {
  const auto masses = read_masses(file);
  if (masses) {
    if (masses->size() == 1) {
      p.masses.assign(p.atom_types, masses->front());
    } else if (static_cast<int>(masses->size()) == p.atom_types) {
      p.masses = *masses;
    } else {
      file.fail("md", "mass",
                "[md] mass has " + std::to_string(masses->size()) + " values for " +
                    std::to_string(p.atom_types) + " atom types");
    }
  }
  if (static_cast<int>(p.masses.size()) != p.atom_types) {
    file.fail_missing("md", "mass",
                      p.from_data_file
                          ? "mass' (the data file has no Masses section) or 'mass"
                          : "mass' (units other than \"lj\" have no default) or 'mass");
  }
}

}  // namespace

double Params::max_lj_cutoff() const {
  double rc = 0.0;
  for (const auto& c : pair) rc = std::max(rc, c.cutoff);
  return rc;
}

double Params::max_cutoff() const {
  return coulomb ? std::max(max_lj_cutoff(), coulomb_cutoff) : max_lj_cutoff();
}

Params read_params(io::CaseFile& file) {
  Params p;
  const std::string units = file.choice("md", "units", {"lj", "real", "metal"}, std::string("lj"));
  p.unit_style = units == "real"    ? kmd::UnitStyle::real
                 : units == "metal" ? kmd::UnitStyle::metal
                                    : kmd::UnitStyle::lj;
  p.units = kmd::units_of(p.unit_style);
  p.thermostat.units = p.units;
  const bool data = file.has("md", "data_file");
  const std::string style =
      file.choice("md", "atom_style", {"atomic", "charge", "full"}, std::string("atomic"));
  p.atom_style = style == "charge" ? AtomStyle::charge
                 : style == "full" ? AtomStyle::full
                                   : AtomStyle::atomic;
  p.case_name = file.choice("run", "case", {"lattice", "data_file"},
                            std::string(data ? "data_file" : "lattice"));
  p.from_data_file = p.case_name == "data_file";
  read_boundary(file, p);
  if (p.from_data_file) {
    read_data_file(file, p);
  } else {
    if (data) file.fail("md", "data_file", "[run] case = \"lattice\" takes no [md] data_file");
    file.allow("md", "data_file");
    if (p.atom_style != AtomStyle::atomic) {
      file.fail("md", "atom_style",
                "[md] atom_style = \"" + style +
                    "\": charges come from a data_file; a lattice "
                    "start is atom_style \"atomic\"");
    }
    read_lattice(file, p);
    read_molecular(file, p, io::LammpsData{});
  }
  read_masses_into(file, p);
  read_pair(file, p);
  check_charmm_weights(file, p);
  read_kspace(file, p);
  read_neighbor(file, p);
  p.dt = file.get<double>("time", "dt", p.units.dt, io::Bounds::positive());
  // The run stops at whichever of steps and end_time comes first.
  const auto steps = file.find<long>("run", "steps", io::Bounds::non_negative());
  const auto end = file.find<double>("run", "end_time", io::Bounds::positive());
  if (end) p.steps = std::lround(*end / p.dt);
  if (steps) p.steps = end ? std::min(*steps, p.steps) : *steps;
  p.thermo_every = file.get<long>("thermo", "every_steps", 0, io::Bounds::non_negative());
  p.thermo_multi = file.choice("thermo", "style", {"one", "multi"}, std::string("one")) == "multi";
  read_thermostat(file, p);
  read_constraints(file, p);
  read_compute(file, p);
  read_barostat(file, p);
  p.geometry.lo = p.box.lo;
  p.geometry.hi = p.box.hi;
  p.geometry.periodic = p.box.periodic;
  return p;
}

void check_box_covers_cutoff(const Params& params) {
  static const char* axis_name[3] = {"x", "y", "z"};
  const double rneigh = params.neighbor_cutoff();
  for (int d = 0; d < 3; ++d) {
    const double length = params.geometry.cells[d] * params.geometry.spacing(d);
    // Ghosts come from as many ranks along an axis as cutoff + skin spans,
    // but from one periodic image of the box at most.
    if (params.geometry.periodic[d] && length < rneigh)
      throw InputError("md: the box is " + text(length) + " long along " + axis_name[d] +
                       ", shorter than cutoff + skin = " + text(rneigh) +
                       " (ghost atoms come from one periodic image at most); use a larger box");
  }
}

double memory_bytes(const Params& params, int ranks) {
  double atoms = 1.0;
  for (int d = 0; d < 3; ++d) atoms *= params.box.hi[d] - params.box.lo[d];
  atoms *= params.from_data_file ? 1.0 : params.density;
  // x, v, f, x at rebuild (3 doubles each), id, type, image, ~40 neighbours.
  const double per_atom = 12 * 8 + 8 + 4 + 12 + 40 * 4;
  return 2.0 * atoms / ranks * per_atom;
}

}  // namespace cb::md
