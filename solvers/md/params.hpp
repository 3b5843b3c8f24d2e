// Parameters of the molecular-dynamics solver, read from the case file
// (docs/solvers/md.md): [md], [pair], [neighbor], [thermo],
// [thermostat], [barostat], [compute] and [time] dt. Reading validates everything; nothing
// is allocated.
#pragma once

#include "core/particle_solver.hpp"
#include "io/case_file.hpp"
#include "io/lammps_data.hpp"
#include "kernels/md/lattice.hpp"
#include "kernels/md/lj.hpp"
#include "kernels/md/units.hpp"
#include "solvers/md/shake_clusters.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cb::md {

enum class ListKind : int { half, full };
enum class ThermostatStyle : int { none, langevin, nose_hoover, berendsen, csvr };

struct ThermostatParams {
  ThermostatStyle style = ThermostatStyle::none;
  double temperature = 1.0;
  double damp = 1.0;  // relaxation time (time units)
  long seed = 1;      // Langevin and CSVR random streams
  int chain = 3;      // Nose-Hoover chain length (LAMMPS fix nvt tchain)
  kernels::md::Units units;
};

// [barostat] (docs/solvers/md.md; kernels/md/barostat.hpp, mtk.hpp): isotropic
// pressure control by rescaling the box and the positions once per step
// (berendsen, c_rescale) or by the MTK equations of motion of the box (mtk).
enum class BarostatStyle : int { none, berendsen, c_rescale, mtk };

struct BarostatParams {
  BarostatStyle style = BarostatStyle::none;
  double pressure = 0.0;         // target P0 (pressure units)
  double damp = 1.0;             // Berendsen damp, C-rescale tau_p, MTK Pdamp (time units)
  double modulus = 10.0;         // Berendsen bulk modulus B (LAMMPS default 10)
  double compressibility = 0.0;  // C-rescale beta_T (1 / pressure units)
  double temperature = 0.0;      // C-rescale: the noise's; MTK: the thermostat's T0
  long seed = 1;                 // C-rescale random stream
  int chain = 3;                 // MTK: length of the barostat's chain (LAMMPS pchain)
  bool aniso = false;            // MTK: each axis its own box velocity and pressure
};

// [constraints] style = "shake" (LAMMPS fix shake tol iter N b ... a ... t ...
// m ...): the clusters' selection, the tolerance on the change of a multiplier
// between iterations (LAMMPS's test) and the iteration limit. style =
// "rattle" (LAMMPS fix rattle): the same, with RATTLE's velocity stage. style =
// "settle": the same selection, every cluster a rigid water (3 atoms, frozen
// angle), solved exactly by SETTLE (no tolerance, no iterations).
enum class ConstraintStyle : int { none, shake, rattle, settle };

struct ConstraintParams {
  ConstraintStyle style = ConstraintStyle::none;
  double tolerance = 1.0e-4;
  int max_iterations = 10;
  ShakeSelection selection;
};

constexpr int max_rdf_pairs = 16;

struct ComputeParams {
  int rdf_bins = 0;  // 0: g(r) off
  double rdf_cutoff = 0.0;
  long rdf_every = 0;
  long rdf_start = 0;  // first step sampled (skip the equilibration)
  // Type pairs (i1, j1, i2, j2, ...) as LAMMPS compute rdf lists them; empty:
  // one g(r) over all atoms.
  std::vector<int> rdf_pairs;
  long msd_every = 0;       // 0: MSD off
  bool ke_by_type = false;  // diagnostics ke_type_<t>: kinetic energy of each atom type
};

// Molecular topology (atom_style full with bonded terms): the style of each
// kind (bond, angle, dihedral, improper; "" when the data file has none) and
// the numbers of the data file's Coeffs section by type, with their lines
// for error messages. LAMMPS special_bonds: factors of 1-2, 1-3, 1-4 pairs
// (index 1-3; index 0 is an ordinary pair).
struct MolecularParams {
  int types[term_kinds] = {0, 0, 0, 0};
  std::string style[term_kinds];
  std::vector<std::vector<double>> coeffs[term_kinds];
  std::vector<long> coeff_lines[term_kinds];
  CoeffRows pair_coeffs;  // the data file's Pair Coeffs
  double special_lj[4] = {1.0, 0.0, 0.0, 0.0};
  double special_coul[4] = {1.0, 0.0, 0.0, 0.0};
};

struct Params {
  std::string case_name;
  kernels::md::UnitStyle unit_style = kernels::md::UnitStyle::lj;
  kernels::md::Units units;
  // Initial state: a lattice with loop-geom velocities, or a LAMMPS data file.
  bool from_data_file = false;
  std::string data_file;                     // resolved relative to the case file
  AtomStyle atom_style = AtomStyle::atomic;  // charge and full: atoms carry q (and molecule)
  kernels::md::LatticeStyle lattice = kernels::md::LatticeStyle::fcc;
  double density = 0.8442;        // atoms per volume (lj: the reduced density given)
  double lattice_constant = 0.0;  // from the density (lj) or given
  Int3 lattice_cells{10, 10, 10};
  double temperature = 1.0;
  int seed = 87287;
  // Atoms and box.
  int atom_types = 1;
  std::vector<double> masses;  // index type - 1
  ParticleBox box;
  GridGeometry geometry;  // the grid the Decomposition splits (docs/solvers/md.md)
  // Pair style lj/cut (and lj/cut/coul/cut).
  std::vector<kernels::md::LjParams> pair;  // atom_types^2, (i - 1) * atom_types + (j - 1)
  bool shift = false;
  bool tail = false;
  // lj/cut/coul/cut and lj/cut/coul/long: Coulomb between charges within
  // coulomb_cutoff (long: screened by erfc(g r), the rest in [kspace]).
  std::string pair_style = "lj";  // as [pair] style names it
  bool coulomb = false;
  bool coulomb_long = false;  // lj/cut/coul/long, lj/charmm/coul/long, coul/long
  // lj/charmm/coul/long: LJ switched off between charmm_inner and the cutoff;
  // epsilon_14 and sigma_14 for the 1-4 pairs of charmm dihedrals (pair14,
  // laid out as pair).
  bool charmm = false;
  double charmm_inner = 0.0;
  std::vector<kernels::md::LjParams> pair14;
  // [kspace] style = "ewald": g and kmax from the accuracy, or both given.
  // style = "pppm": g and the mesh from the accuracy (either may be given),
  // the assignment order.
  bool ewald = false;
  bool pppm = false;
  bool kspace() const { return ewald || pppm; }
  double kspace_accuracy = 0.0;
  double kspace_g_ewald = 0.0;
  int kspace_kmax = 0;
  int kspace_order = 5;
  Int3 kspace_mesh{0, 0, 0};  // all 0: chosen
  // [kspace] slab (LAMMPS kspace_modify slab): the k-space sum runs over a box
  // kspace_slab times as long along z, plus the dipole correction (1: none).
  double kspace_slab = 1.0;
  bool slab() const { return kspace_slab > 1.0; }
  double coulomb_cutoff = 0.0;
  double dielectric = 1.0;
  MolecularParams molecule;
  bool molecular() const {
    for (int types : molecule.types)
      if (types > 0) return true;
    return false;
  }
  // Neighbour lists.
  double skin = 0.3;
  int every = 1;
  int delay = 0;
  bool check = true;
  ListKind list = ListKind::half;
  // Time stepping and output.
  double dt = 0.005;
  long steps = 0;  // [run] steps (0 when the run ends by time)
  long thermo_every = 0;
  bool thermo_multi = false;  // [thermo] style = "multi" (LAMMPS thermo_style multi)
  ThermostatParams thermostat;
  BarostatParams barostat;
  ConstraintParams constraints;
  ComputeParams compute;

  double max_cutoff() const;
  double max_lj_cutoff() const;
  double neighbor_cutoff() const { return max_cutoff() + skin; }
  const kernels::md::LjParams& pair_of(int i, int j) const {
    return pair[(i - 1) * atom_types + (j - 1)];
  }
};

Params read_params(io::CaseFile& file);

// [bonded] and [special_bonds] with the topology and Coeffs sections of the
// data file (params_molecular.cpp).
void read_molecular(io::CaseFile& file, Params& p, const io::LammpsData& data);
// [md] boundary (before the atoms are read) and [kspace] with its slab
// correction (after [pair]; params_kspace.cpp).
void read_boundary(io::CaseFile& file, Params& p);
void read_kspace(io::CaseFile& file, Params& p);
// [constraints] (after the masses and the molecular topology;
// params_constraints.cpp).
void read_constraints(io::CaseFile& file, Params& p);
// [barostat] (after [kspace], [constraints], [compute] and [thermostat];
// params_barostat.cpp).
void read_barostat(io::CaseFile& file, Params& p);
// Charmm dihedrals with 1-4 weights need the charmm pair style (after [pair]).
void check_charmm_weights(io::CaseFile& file, const Params& p);

// Refuses a box shorter than cutoff + skin along a periodic axis (ghost atoms
// come from one periodic image at most; sub-boxes may be thinner, the ghost
// exchange then takes several hops). Throws InputError.
void check_box_covers_cutoff(const Params& params);

// Lines `cloudburst check` prints: units, atoms and topology, styles, k-space
// parameters (describe.cpp).
std::vector<std::string> describe(const Params& params);

// Bytes of atom data per rank (for `cloudburst check`).
double memory_bytes(const Params& params, int ranks);

}  // namespace cb::md
