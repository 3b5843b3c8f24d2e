#include "grid_runs.hpp"

#include "h5_read.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <filesystem>

namespace cb::test {
namespace fs = std::filesystem;

CliResult run_case(const std::string& dir, const std::string& name, const std::string& case_text,
                   int ranks, const std::string& args) {
  write_text(dir + "/" + name + ".toml", case_text);
  return run_cloudburst_mpi(
      ranks, "run " + dir + "/" + name + ".toml --output-dir " + dir + "/" + name + " " + args);
}

std::string last_checkpoint(const std::string& out) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(out + "/checkpoints"))
    if (e.path().extension() == ".h5") files.push_back(e.path().string());
  REQUIRE_FALSE(files.empty());
  std::sort(files.begin(), files.end());
  return files.back();
}

std::vector<std::string> checkpoint_field_names(const std::string& file) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  const hid_t group = H5Gopen2(f, "/fields", H5P_DEFAULT);
  REQUIRE(group >= 0);
  H5G_info_t info{};
  REQUIRE(H5Gget_info(group, &info) >= 0);
  std::vector<std::string> names;
  for (hsize_t n = 0; n < info.nlinks; ++n) {
    char name[256] = {};
    H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, n, name, sizeof name, H5P_DEFAULT);
    names.emplace_back(name);
  }
  H5Gclose(group);
  H5Fclose(f);
  return names;
}

std::string differing_fields(const std::string& file, const std::string& reference) {
  const std::vector<std::string> names = checkpoint_field_names(reference);
  std::string differ;
  if (checkpoint_field_names(file) != names) differ = "(other field names) ";
  for (const std::string& name : names) {
    if (!bitwise_equal(read_field(file, "/fields/" + name),
                       read_field(reference, "/fields/" + name)))
      differ += name + " ";
  }
  return differ;
}

int rank_count(const std::string& rank_grid) {
  int product = 1;
  for (char c : rank_grid)
    if (c >= '1' && c <= '9') product *= c - '0';
  return product;
}

void check_decomposition_invariance(const std::string& dir, const std::string& label,
                                    const std::string& case_text,
                                    const std::vector<std::string>& rank_grids,
                                    const std::vector<std::string>& exact_columns) {
  const CliResult serial = run_case(dir, label + "_serial", case_text, 1);
  INFO(label << " on 1 rank:\n" << serial.output);
  REQUIRE(serial.code == 0);
  const std::string reference = last_checkpoint(dir + "/" + label + "_serial");
  for (const std::string& grid : rank_grids) {
    std::string run = label + "_" + grid;
    run.erase(std::remove_if(run.begin(), run.end(), [](char c) { return c == '[' || c == ']'; }),
              run.end());
    std::replace(run.begin(), run.end(), ',', 'x');
    const CliResult r =
        run_case(dir, run, case_text, rank_count(grid), "--set parallel.ranks=" + grid);
    INFO(label << " on ranks " << grid << ":\n" << r.output);
    REQUIRE(r.code == 0);
    const std::string file = last_checkpoint(dir + "/" + run);
    CHECK(fs::path(file).filename() == fs::path(reference).filename());
    CHECK(differing_fields(file, reference) == "");
    for (const std::string& column : exact_columns) {
      INFO("diagnostics column " << column);
      const std::string csv = "/diagnostics.csv";
      CHECK(csv_column(dir + "/" + run + csv, column) ==
            csv_column(dir + "/" + label + "_serial" + csv, column));
    }
  }
}

void check_restart(const std::string& dir, const std::string& label, const std::string& case_text,
                   long first_steps, const std::vector<std::pair<int, int>>& rank_pairs) {
  const CliResult whole = run_case(dir, label + "_straight", case_text, 2);
  INFO(label << " straight:\n" << whole.output);
  REQUIRE(whole.code == 0);
  const std::string straight = last_checkpoint(dir + "/" + label + "_straight");
  for (const auto& [first, second] : rank_pairs) {
    const std::string run = label + "_" + std::to_string(first) + std::to_string(second);
    const CliResult half =
        run_case(dir, run, case_text, first, "--set run.steps=" + std::to_string(first_steps));
    INFO(run << " first part:\n" << half.output);
    REQUIRE(half.code == 0);
    const CliResult rest = run_case(dir, run, case_text, second, "--restart auto");
    INFO(run << " resumed:\n" << rest.output);
    REQUIRE(rest.code == 0);
    CHECK_THAT(rest.output, Catch::Matchers::ContainsSubstring("resuming from"));
    const std::string file = last_checkpoint(dir + "/" + run);
    CHECK(fs::path(file).filename() == fs::path(straight).filename());
    CHECK(differing_fields(file, straight) == "");
  }
}

}  // namespace cb::test
