// Running Debian's lmp next to the `cloudburst` program in tests: its thermo
// and dumps, and the comparisons the MD validation tests share.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace cb::test {

// Debian's lammps-examples.
inline const std::string lammps_examples = "/usr/share/lammps/examples/";

// lmp input lines that read in.peptide (its force field with
// lj/charmm/coul/charmm instead of k-space) and SPC/E water (HEAT/data.spce,
// harmonic bond at 1 A, angle at 109.47 deg, O-O Lennard-Jones) from `data`:
// enough for `run 0`.
inline std::string lmp_peptide_setup(const std::string& data = lammps_examples +
                                                               "peptide/data.peptide") {
  return "units real\natom_style full\npair_style lj/charmm/coul/charmm 8.0 10.0\n"
         "bond_style harmonic\nangle_style charmm\ndihedral_style charmm\n"
         "improper_style harmonic\nread_data " +
         data + "\n";
}
inline std::string lmp_spce_setup(const std::string& data = lammps_examples + "HEAT/data.spce") {
  return "units real\natom_style full\npair_style lj/cut 10.0\nbond_style harmonic\n"
         "angle_style harmonic\nread_data " +
         data +
         "\npair_coeff * * 0.0 1.0\npair_coeff 2 2 0.15535 3.166\n"
         "bond_coeff 1 1000.0 1.0\nangle_coeff 1 100.0 109.47\n";
}

// Whether `data_file` exists and lmp is on the PATH.
bool lmp_with(const std::string& data_file);

// Runs `input` with lmp in `dir`; its thermo values in the first row after the
// last header (thermo_style custom; the last `run`), by keyword.
std::map<std::string, double> lmp_thermo(const std::string& dir, const std::string& input);
// Every thermo row of that last run, in order.
std::vector<std::map<std::string, double>> lmp_thermo_rows(const std::string& dir,
                                                           const std::string& input);

// LAMMPS thermo keyword -> diagnostics.csv column.
extern const std::map<std::string, std::string> thermo_columns;
// The columns an NPT comparison reads: Temp, PotEng, TotEng, Press, Volume, Density.
extern const std::map<std::string, std::string> npt_columns;
// ... and the pressure tensor: Pxx, Pyy, Pzz, Pxy, Pxz, Pyz (thermo pxx ... pyz).
extern const std::map<std::string, std::string> npt_tensor_columns;

// LAMMPS's examples/melt (4000 atoms, lj units, from T 3.0, velocity seed 87287, lj/cut 2.5)
// with `pair_extra` after its pair_coeff, `neighbor` after neighbor 0.3 bin, then `fixes`,
// thermo `keywords` printed with %.15g every `every` steps, `steps` steps.
std::string lmp_melt_input(const std::string& pair_extra, const std::string& neighbor,
                           const std::string& fixes, const std::string& keywords, int every,
                           int steps);

// validation/md/in.peptide_bench (in.peptide's force field, Ewald 1e-4, 1 fs, no SHAKE) with
// `fixes` in place of its fix nve, thermo `keywords` printed with %.15g every `every` steps.
std::string peptide_bench_input(const std::string& fixes, const std::string& keywords, int every);

// CHECKs |ours - reference| <= tolerance |reference|, naming `what`.
void check_relative(double ours, double reference, double tolerance, const std::string& what);

// Every row of diagnostics.csv in `out` against lmp's rows of the same steps
// (in order), each LAMMPS keyword of `columns` within `tolerance` (relative);
// returns the largest relative difference of each keyword.
std::map<std::string, double> compare_rows(const std::string& out,
                                           const std::vector<std::map<std::string, double>>& lmp,
                                           const std::map<std::string, std::string>& columns,
                                           double tolerance, const std::string& what);

// Runs `case_text` on each rank count and checks every thermo term of
// diagnostics.csv's first row against lmp's within `tolerance` (relative),
// and that the output says `summary`. Run r's output is in dir/np<r>.
void check_against_lmp(const std::string& dir, const std::string& case_text,
                       const std::map<std::string, double>& reference,
                       const std::vector<int>& rank_counts, const std::string& summary,
                       double tolerance);

// in.peptide's force field (lammps-examples' peptide/data.peptide at `data`)
// as a case file; `kspace` the body of its [kspace] section; `steps`
// steps of NVE at 1 fs; forces dumped at the first and last step, and a data
// file of the last.
std::string peptide_case(const std::string& data, const std::string& kspace, int steps = 0);

// lmp's in.peptide (NVT, fix shake, PPPM 1e-4, 2 fs) with thermo rows of
// `steps` steps every `every`, `extra` lines after kspace_style and fix
// `constraint_fix` ("shake" or "rattle") in place of fix shake.
std::string lmp_peptide_input(int steps, int every, const std::string& extra,
                              const std::string& constraint_fix = "shake");
// Its thermo keywords -> diagnostics.csv columns.
extern const std::map<std::string, std::string> peptide_columns;

// SPC/E water (HEAT/data.spce) with rigid molecules: O-H 1.0 A, H-O-H
// 109.47 degrees (fix `constraint_fix` b 1 a 1, "shake" or "rattle"),
// lj/cut/coul/long 10 A with PPPM 1e-4 and exact Coulomb, NVE at 2 fs, 40
// steps, thermo every 10: the lmp side of cases/md/spce_water_nve.toml.
std::string lmp_spce_water_input(const std::string& constraint_fix = "shake");

// cases/md/spce_water_nve.toml (rigid SPC/E water in NVE at 2 fs, PPPM 1e-4,
// diagnostics every 10 steps) with 40 steps and its molecules held by
// `constraint_style` ("shake", "rattle" or "settle").
std::string spce_water_case(const std::string& constraint_style);

// The `names` columns of the last snapshot of a LAMMPS text dump (dump
// custom), by atom id. Throws when a column is missing.
std::map<long, std::vector<double>> dump_by_id(const std::string& path,
                                               const std::vector<std::string>& names);

}  // namespace cb::test
