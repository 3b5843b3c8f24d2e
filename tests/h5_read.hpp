// Reading (and spoiling) whole HDF5 datasets in the tests (checkpoint and field files).
#pragma once

#include <hdf5.h>

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace cb::test {

// All values of `dataset` in `file`, converted to double.
inline std::vector<double> read_field(const std::string& file, const std::string& dataset) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  const hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  REQUIRE(d >= 0);
  const hid_t space = H5Dget_space(d);
  std::vector<double> values(static_cast<size_t>(H5Sget_simple_extent_npoints(space)));
  REQUIRE(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
  H5Sclose(space);
  H5Dclose(d);
  H5Fclose(f);
  return values;
}

// Per-atom arrays of a particle checkpoint (`/particles/<name>`), reordered by atom id.
inline std::vector<double> by_id(const std::string& file, const std::string& name) {
  const std::vector<double> id = read_field(file, "/particles/id");
  const std::vector<double> values = read_field(file, "/particles/" + name);
  const std::size_t width = values.size() / id.size();
  std::vector<std::size_t> order(id.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return id[a] < id[b]; });
  std::vector<double> sorted;
  for (std::size_t k : order)
    for (std::size_t c = 0; c < width; ++c) sorted.push_back(values[k * width + c]);
  return sorted;
}

// Overwrites element `index` of `dataset` in `file` with `value` (HDF5
// converts it to the dataset's type): how the tests spoil a checkpoint.
inline void overwrite_value(const std::string& file, const std::string& dataset, std::size_t index,
                            double value) {
  std::vector<double> values = read_field(file, dataset);
  values.at(index) = value;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  REQUIRE(f >= 0);
  const hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  REQUIRE(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
  H5Dclose(d);
  H5Fclose(f);
}

inline bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace cb::test
