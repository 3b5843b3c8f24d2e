#include "lmp_compare.hpp"

#include "cli_runner.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cb::test {

bool lmp_with(const std::string& data_file) {
  return std::filesystem::exists(data_file) && run_shell("command -v lmp").code == 0;
}

std::vector<std::map<std::string, double>> lmp_thermo_rows(const std::string& dir,
                                                           const std::string& input) {
  write_text(dir + "/in.lmp", input);
  const CliResult r = run_shell("cd " + dir + " && lmp -in in.lmp -log none -echo none");
  INFO(r.output);
  REQUIRE(r.code == 0);
  std::istringstream lines(r.output);
  std::vector<std::string> names;
  std::vector<std::map<std::string, double>> rows;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    if (line.rfind("Step", 0) == 0) {
      names.clear();
      rows.clear();
      for (std::string name; words >> name;) names.push_back(name);
      continue;
    }
    std::map<std::string, double> row;
    double value = 0.0;
    for (const std::string& name : names) {
      if (!(words >> value)) break;
      row[name] = value;
    }
    if (!names.empty() && row.size() == names.size()) rows.push_back(row);
  }
  REQUIRE(!rows.empty());
  REQUIRE(rows.front().count("Step") == 1);
  return rows;
}

std::map<std::string, double> lmp_thermo(const std::string& dir, const std::string& input) {
  return lmp_thermo_rows(dir, input).front();
}

const std::map<std::string, std::string> thermo_columns = {
    {"PotEng", "pe"},        {"E_vdwl", "evdwl"},   {"E_coul", "ecoul"},   {"E_long", "elong"},
    {"E_bond", "ebond"},     {"E_angle", "eangle"}, {"E_dihed", "edihed"}, {"E_impro", "eimp"},
    {"Press", "press"},      {"TotEng", "tot_eng"}, {"Volume", "vol"},     {"Density", "density"},
    {"Enthalpy", "enthalpy"}};

const std::map<std::string, std::string> npt_columns = {
    {"Temp", "temp"},   {"PotEng", "pe"},  {"TotEng", "tot_eng"},
    {"Press", "press"}, {"Volume", "vol"}, {"Density", "density"}};

const std::map<std::string, std::string> npt_tensor_columns = [] {
  std::map<std::string, std::string> columns = npt_columns;
  columns.insert({{"Pxx", "pxx"},
                  {"Pyy", "pyy"},
                  {"Pzz", "pzz"},
                  {"Pxy", "pxy"},
                  {"Pxz", "pxz"},
                  {"Pyz", "pyz"}});
  return columns;
}();

std::string lmp_melt_input(const std::string& pair_extra, const std::string& neighbor,
                           const std::string& fixes, const std::string& keywords, int every,
                           int steps) {
  return "units lj\natom_style atomic\nlattice fcc 0.8442\n"
         "region box block 0 10 0 10 0 10\ncreate_box 1 box\n"
         "create_atoms 1 box\nmass 1 1.0\nvelocity all create 3.0 87287 loop geom\n"
         "pair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0 2.5\n" +
         pair_extra + "neighbor 0.3 bin\n" + neighbor + fixes + "thermo_style custom " + keywords +
         "\nthermo_modify format float %.15g\nthermo " + std::to_string(every) + "\nrun " +
         std::to_string(steps) + "\n";
}

std::string peptide_bench_input(const std::string& fixes, const std::string& keywords, int every) {
  std::string input =
      read_text(std::string(CLOUDBURST_SOURCE_DIR) + "/validation/md/in.peptide_bench");
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"fix             1 all nve", fixes},
        {"thermo_style    ${thermo_style}",
         "thermo_style custom " + keywords + "\nthermo_modify format float %.15g"},
        {"thermo          ${thermo_every}", "thermo " + std::to_string(every)}}) {
    REQUIRE(input.find(from) != std::string::npos);
    input.replace(input.find(from), from.size(), to);
  }
  return input;
}

void check_relative(double ours, double reference, double tolerance, const std::string& what) {
  INFO(what << ": cloudburst " << ours << ", lmp " << reference);
  CHECK(std::abs(ours - reference) <= tolerance * std::abs(reference));
}

std::map<std::string, double> compare_rows(const std::string& out,
                                           const std::vector<std::map<std::string, double>>& lmp,
                                           const std::map<std::string, std::string>& columns,
                                           double tolerance, const std::string& what) {
  std::map<std::string, double> worst;
  const std::vector<double> steps = csv_column(out + "/diagnostics.csv", "step");
  REQUIRE(steps.size() == lmp.size());
  for (const auto& [keyword, column] : columns) {
    const std::vector<double> ours = csv_column(out + "/diagnostics.csv", column);
    for (std::size_t k = 0; k < steps.size(); ++k) {
      REQUIRE(steps[k] == lmp[k].at("Step"));
      const double reference = lmp[k].at(keyword);
      const double scale = std::abs(reference) > 0.0 ? std::abs(reference) : 1.0;
      worst[keyword] = std::max(worst[keyword], std::abs(ours[k] - reference) / scale);
      check_relative(ours[k], reference, tolerance,
                     what + " " + keyword + " at step " + std::to_string(std::lround(steps[k])));
    }
  }
  for (const auto& [keyword, difference] : worst)
    UNSCOPED_INFO(what << " " << keyword << ": largest relative difference " << difference);
  return worst;
}

void check_against_lmp(const std::string& dir, const std::string& case_text,
                       const std::map<std::string, double>& reference,
                       const std::vector<int>& rank_counts, const std::string& summary,
                       double tolerance) {
  write_text(dir + "/case.toml", case_text);
  for (int ranks : rank_counts) {
    const std::string out = dir + "/np" + std::to_string(ranks);
    const std::string args = "run " + dir + "/case.toml --output-dir " + out;
    const CliResult r = ranks == 1 ? run_cloudburst(args) : run_cloudburst_mpi(ranks, args);
    INFO(r.output);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.output, Catch::Matchers::ContainsSubstring(summary));
    for (const auto& [keyword, column] : thermo_columns) {
      if (reference.count(keyword) == 0) continue;
      check_relative(csv_column(out + "/diagnostics.csv", column).at(0), reference.at(keyword),
                     tolerance, keyword + " on " + std::to_string(ranks) + " rank(s)");
    }
  }
}

std::string peptide_case(const std::string& data, const std::string& kspace, int steps) {
  return R"([run]
solver = "md"
case = "data_file"
steps = )" +
         std::to_string(steps) +
         R"(

[time]
dt = 1.0

[md]
units = "real"
atom_style = "full"
data_file = ")" +
         data + R"("

[pair]
style = "lj/charmm/coul/long"
inner_cutoff = 8.0
cutoff = 10.0

[bonded]
bond_style = "harmonic"
angle_style = "charmm"
dihedral_style = "charmm"
improper_style = "harmonic"

[special_bonds]
preset = "charmm"

[kspace]
)" + kspace +
         R"(
[neighbor]
skin = 2.0

[output]
fields = ["fx", "fy", "fz"]
write_data = true

[dump]
every_steps = 1000
)";
}

std::map<long, std::vector<double>> dump_by_id(const std::string& path,
                                               const std::vector<std::string>& names) {
  std::istringstream lines(read_text(path));
  std::string line;
  std::vector<std::string> header;
  std::map<long, std::vector<double>> rows;
  while (std::getline(lines, line)) {
    if (line.rfind("ITEM: ATOMS", 0) == 0) {
      std::istringstream words(line.substr(11));
      header.clear();
      rows.clear();
      for (std::string word; words >> word;) header.push_back(word);
      continue;
    }
    if (header.empty() || line.rfind("ITEM:", 0) == 0) {
      header.clear();
      continue;
    }
    std::istringstream words(line);
    std::map<std::string, double> row;
    for (const std::string& name : header) words >> row[name];
    std::vector<double>& values = rows[long(row.at("id"))];
    for (const std::string& name : names) {
      if (row.count(name) == 0) throw std::runtime_error(path + ": no dump column " + name);
      values.push_back(row.at(name));
    }
  }
  return rows;
}

std::string lmp_peptide_input(int steps, int every, const std::string& extra,
                              const std::string& constraint_fix) {
  std::string input = read_text(lammps_examples + "peptide/in.peptide");
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{
            "read_data\tdata.peptide", "read_data\t" + lammps_examples + "peptide/data.peptide"},
        {"kspace_style\tpppm 0.0001", "kspace_style\tpppm 0.0001\n" + extra},
        {"all shake 0.0001", "all " + constraint_fix + " 0.0001"},
        {"thermo_style\tmulti", ""},
        {"thermo\t\t50", "thermo " + std::to_string(every)},
        {"run\t\t300",
         "thermo_style custom step temp pe etotal press ebond eangle elong f_1\n"
         "thermo_modify format float %.15g\nrun " +
             std::to_string(steps)}}) {
    REQUIRE(input.find(from) != std::string::npos);
    input.replace(input.find(from), from.size(), to);
  }
  return input;
}

const std::map<std::string, std::string> peptide_columns = {
    {"Temp", "temp"},    {"PotEng", "pe"},      {"TotEng", "tot_eng"}, {"Press", "press"},
    {"E_bond", "ebond"}, {"E_angle", "eangle"}, {"E_long", "elong"},   {"f_1", "ecouple"}};

std::string lmp_spce_water_input(const std::string& constraint_fix) {
  return R"(units real
atom_style full
read_data )" +
         lammps_examples +
         R"(HEAT/data.spce
pair_style lj/cut/coul/long 10.0
pair_coeff * * 0.0 1.0
pair_coeff 2 2 0.15535 3.166
pair_modify table 0
kspace_style pppm 1.0e-4
bond_style harmonic
angle_style harmonic
bond_coeff 1 1000.0 1.0
angle_coeff 1 100.0 109.47
neighbor 2.0 bin
timestep 2.0
fix 1 all nve
fix 2 all )" +
         constraint_fix +
         R"( 0.0001 10 0 b 1 a 1
thermo_style custom step temp pe etotal press ebond eangle elong
thermo_modify format float %.15g
thermo 10
run 40
)";
}

std::string spce_water_case(const std::string& constraint_style) {
  const std::string path = std::string(CLOUDBURST_SOURCE_DIR) + "/cases/md/spce_water_nve.toml";
  std::string text = read_text(path);
  const auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    if (at == std::string::npos) throw std::runtime_error(path + " has no '" + from + "'");
    text.replace(at, from.size(), to);
  };
  replace("steps = 5000\n", "steps = 40\n");
  replace("style = \"settle\"\n", "style = \"" + constraint_style + "\"\n");
  return text;
}

}  // namespace cb::test
