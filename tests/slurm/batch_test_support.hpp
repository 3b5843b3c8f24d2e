// Helpers shared by tests/test_batch.cpp and tests/test_slurm.cpp: shell
// commands, shell quoting, polling with a time bound, and checkpoint fields
// read back for bitwise comparison.
#pragma once

#include "../cli_runner.hpp"

#include <hdf5.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace cb::test {

using ShellResult = CliResult;

inline ShellResult shell(const std::string& command) {
  return run_shell(command);
}

// One single-quoted shell word.
inline std::string quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Polls `done` every 0.2 s for at most `seconds`; true if it became true.
inline bool wait_for(const std::function<bool()>& done, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return done();
}

// chk_*.h5 files in `dir` (sorted; *.partial excluded).
inline std::vector<std::string> checkpoint_files(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& e : std::filesystem::directory_iterator(dir, error)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("chk_", 0) == 0 && name.size() > 3 && name.substr(name.size() - 3) == ".h5") {
      files.push_back(name);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Every dataset under /fields of a checkpoint, as raw bytes, by name.
inline std::vector<std::pair<std::string, std::vector<char>>> checkpoint_fields(
    const std::string& file) {
  std::vector<std::pair<std::string, std::vector<char>>> fields;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) throw std::runtime_error("cannot open " + file);
  const hid_t group = H5Gopen2(f, "/fields", H5P_DEFAULT);
  H5G_info_t info{};
  H5Gget_info(group, &info);
  for (hsize_t n = 0; n < info.nlinks; ++n) {
    char name[256] = {};
    H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, n, name, sizeof name, H5P_DEFAULT);
    const hid_t d = H5Dopen2(group, name, H5P_DEFAULT);
    const hid_t space = H5Dget_space(d);
    std::vector<char> bytes(static_cast<size_t>(H5Sget_simple_extent_npoints(space)) *
                            sizeof(double));
    H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data());
    H5Sclose(space);
    H5Dclose(d);
    fields.emplace_back(name, std::move(bytes));
  }
  H5Gclose(group);
  H5Fclose(f);
  return fields;
}

}  // namespace cb::test
