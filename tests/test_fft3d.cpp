// Distributed 3-D FFT (core/fft3d.hpp): the spectrum against a direct DFT,
// backward(forward(x)) = N x, the same bits on every rank count and brick
// split (empty bricks included), and bad bricks refused. Runs at 1-4 ranks.
#include "core/decomposition.hpp"
#include "core/fft3d.hpp"
#include "core/run_context.hpp"

#include <catch2/catch_test_macros.hpp>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Grid = std::vector<std::complex<double>>;  // global, index x + nx (y + ny z)

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}
int size_of(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}
std::size_t at(const cb::Int3& n, int x, int y, int z) {
  return std::size_t(x) + std::size_t(n[0]) * (std::size_t(y) + std::size_t(n[1]) * z);
}
long long points(const cb::Int3& n) {
  return 1LL * n[0] * n[1] * n[2];
}

Grid random_grid(const cb::Int3& n) {
  std::mt19937_64 engine(20240611);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Grid grid(points(n));
  for (auto& value : grid) value = {uniform(engine), uniform(engine)};
  return grid;
}

// X(k) = sum_r x(r) exp(-2 pi i k.r / n), term by term in long double.
Grid direct_dft(const Grid& x, const cb::Int3& n) {
  std::vector<std::complex<long double>> w[3];
  for (int a = 0; a < 3; ++a)
    for (int m = 0; m < n[a]; ++m)
      w[a].push_back(std::polar(1.0L, -2.0L * 3.141592653589793238462643383279L * m / n[a]));
  Grid spectrum(x.size());
  for (int kz = 0; kz < n[2]; ++kz)
    for (int ky = 0; ky < n[1]; ++ky)
      for (int kx = 0; kx < n[0]; ++kx) {
        std::complex<long double> sum = 0;
        for (int z = 0; z < n[2]; ++z)
          for (int y = 0; y < n[1]; ++y) {
            const auto wyz = w[1][(ky * y) % n[1]] * w[2][(kz * z) % n[2]];
            for (int xi = 0; xi < n[0]; ++xi) {
              const auto v = x[at(n, xi, y, z)];
              sum += std::complex<long double>(v.real(), v.imag()) * (wyz * w[0][(kx * xi) % n[0]]);
            }
          }
        spectrum[at(n, kx, ky, kz)] = {double(sum.real()), double(sum.imag())};
      }
  return spectrum;
}

// Bricks of a 3-D rank grid from MPI_Dims_create.
cb::Brick cartesian_brick(MPI_Comm comm, const cb::Int3& n) {
  int dims[3] = {0, 0, 0};
  MPI_Dims_create(size_of(comm), 3, dims);
  const int r = rank_of(comm);
  const int c[3] = {r % dims[0], (r / dims[0]) % dims[1], r / (dims[0] * dims[1])};
  cb::Brick b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = cb::Decomposition::block_offset(n[a], dims[a], c[a]);
    b.hi[a] = cb::Decomposition::block_offset(n[a], dims[a], c[a] + 1);
  }
  return b;
}

// x slabs of widths growing with the rank (T(r) = r (r + 1) / 2); small grids
// leave the first ranks empty.
cb::Brick uneven_brick(MPI_Comm comm, const cb::Int3& n) {
  const long long p = size_of(comm), r = rank_of(comm);
  const auto edge = [&](long long q) { return int(n[0] * (q * (q + 1) / 2) / (p * (p + 1) / 2)); };
  return {{edge(r), 0, 0}, {edge(r + 1), n[1], n[2]}};
}

// z slabs over all ranks but the last, which owns nothing.
cb::Brick last_empty_brick(MPI_Comm comm, const cb::Int3& n) {
  const int p = size_of(comm), r = rank_of(comm);
  if (p == 1) return {{0, 0, 0}, n};
  if (r == p - 1) return {};
  return {{0, 0, cb::Decomposition::block_offset(n[2], p - 1, r)},
          {n[0], n[1], cb::Decomposition::block_offset(n[2], p - 1, r + 1)}};
}

cb::FftBrickView brick_of(const cb::DistributedFft3d& fft, const Grid& grid) {
  auto view = fft.make_brick_view("test::fft::brick");
  auto host = Kokkos::create_mirror_view(view);
  const cb::Brick& b = fft.brick();
  for (int k = 0; k < int(host.extent(0)); ++k)
    for (int j = 0; j < int(host.extent(1)); ++j)
      for (int i = 0; i < int(host.extent(2)); ++i) {
        const auto v = grid[at(fft.global(), b.lo[0] + i, b.lo[1] + j, b.lo[2] + k)];
        host(k, j, i) = cb::FftComplex(v.real(), v.imag());
      }
  Kokkos::deep_copy(view, host);
  return view;
}

// The whole spectrum on rank 0 of `comm` (empty elsewhere).
Grid gather_spectrum(MPI_Comm comm, const cb::DistributedFft3d& fft,
                     const cb::FftSpectrumView& spectrum) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), spectrum);
  const cb::Brick& s = fft.spectrum();
  const int box[6] = {s.lo[0], s.lo[1], s.lo[2], s.hi[0], s.hi[1], s.hi[2]};
  const int size = size_of(comm), count = int(2 * host.size());
  std::vector<int> boxes(6 * size), counts(size), displs(size);
  MPI_Gather(box, 6, MPI_INT, boxes.data(), 6, MPI_INT, 0, comm);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<double> values(rank_of(comm) == 0 ? 2 * points(fft.global()) : 0);
  MPI_Gatherv(reinterpret_cast<double*>(host.data()), count, MPI_DOUBLE, values.data(),
              counts.data(), displs.data(), MPI_DOUBLE, 0, comm);
  if (rank_of(comm) != 0) return {};
  Grid grid(points(fft.global()), std::complex<double>(NAN, NAN));
  for (int r = 0; r < size; ++r) {
    const int* b = &boxes[6 * r];
    std::size_t p = displs[r] / 2;
    for (int x = b[0]; x < b[3]; ++x)  // the spectrum view is (kx, ky, kz), kz contiguous
      for (int y = b[1]; y < b[4]; ++y)
        for (int z = b[2]; z < b[5]; ++z, ++p)
          grid[at(fft.global(), x, y, z)] = {values[2 * p], values[2 * p + 1]};
  }
  return grid;
}

double max_abs(const Grid& g) {
  double m = 0;
  for (const auto& v : g) m = std::max(m, std::abs(v));
  return m;
}

using Split = cb::Brick (*)(MPI_Comm, const cb::Int3&);

}  // namespace

TEST_CASE("distributed FFT matches a direct DFT, bit for bit on every rank count") {
  if (!cb::FftLines::available()) {
    CHECK_THROWS_AS(cb::DistributedFft3d(MPI_COMM_WORLD, {4, 4, 4}, {{0, 0, 0}, {4, 4, 4}}),
                    std::runtime_error);
    return;
  }
  const std::vector<cb::Int3> grids = {{8, 6, 10}, {5, 7, 3}, {15, 15, 15},
                                       {3, 3, 3},  {1, 4, 2}, {64, 3, 5}};
  const std::map<std::string, Split> splits = {
      {"cartesian", cartesian_brick}, {"uneven", uneven_brick}, {"last_empty", last_empty_brick}};
  const MPI_Comm world = MPI_COMM_WORLD;
  for (const cb::Int3& n : grids) {
    const Grid x = random_grid(n);
    const bool root = rank_of(world) == 0;
    Grid exact, reference;
    if (root) {
      exact = direct_dft(x, n);
      cb::DistributedFft3d serial(MPI_COMM_SELF, n, {{0, 0, 0}, n});
      auto spectrum = serial.make_spectrum_view("test::fft::serial");
      serial.forward(brick_of(serial, x), spectrum);
      reference = gather_spectrum(MPI_COMM_SELF, serial, spectrum);
    }
    for (const auto& [name, split] : splits) {
      INFO("grid " << n[0] << "x" << n[1] << "x" << n[2] << ", " << name << " bricks, "
                   << size_of(world) << " ranks");
      cb::DistributedFft3d fft(world, n, split(world, n));
      const cb::FftBrickView in = brick_of(fft, x);
      auto spectrum = fft.make_spectrum_view("test::fft::spectrum");
      fft.forward(in, spectrum);
      const Grid gathered = gather_spectrum(world, fft, spectrum);

      // backward(forward(x)) = N x, checked on each rank's brick.
      auto back = fft.make_brick_view("test::fft::back");
      fft.backward(spectrum, back);
      auto back_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), back);
      auto in_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), in);
      double local_error = 0;
      const double scale = double(points(n));
      for (std::size_t p = 0; p < back_host.size(); ++p) {
        const auto d = back_host.data()[p] - scale * in_host.data()[p];
        local_error =
            std::max(local_error, std::abs(std::complex<double>(d.real(), d.imag())) / scale);
      }
      double error = 0;
      MPI_Allreduce(&local_error, &error, 1, MPI_DOUBLE, MPI_MAX, world);
      CHECK(error < 1e-12 * max_abs(x));
      if (!root) continue;

      double dft_error = 0;
      long long differing_bits = 0;
      for (std::size_t p = 0; p < gathered.size(); ++p) {
        dft_error = std::max(dft_error, std::abs(gathered[p] - exact[p]));
        differing_bits += std::memcmp(&gathered[p], &reference[p], sizeof(gathered[p])) != 0;
      }
      CHECK(dft_error < 1e-12 * max_abs(exact));
      CHECK(differing_bits == 0);
    }
  }
}

TEST_CASE("distributed FFT gives the same bits with device buffers handed to MPI") {
  if (!cb::FftLines::available()) return;
  // An MPI library that cannot take device memory (e.g. Debian's Open MPI under CUDA) would
  // crash on the device buffers: the run refuses gpu_aware_mpi there (test_cli).
  if (!cb::gpu_aware_mpi_refusal().empty()) SKIP(cb::gpu_aware_mpi_refusal());
  const cb::Int3 n = {6, 5, 4};
  const Grid x = random_grid(n);
  const MPI_Comm world = MPI_COMM_WORLD;
  std::vector<cb::FftSpectrumView> spectra;
  for (const bool gpu_aware : {false, true}) {
    cb::DistributedFft3d fft(world, n, cartesian_brick(world, n), cb::CommOptions{gpu_aware});
    spectra.push_back(fft.make_spectrum_view("test::fft::spectrum"));
    fft.forward(brick_of(fft, x), spectra.back());
  }
  auto staged = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), spectra[0]);
  auto device = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), spectra[1]);
  CHECK(std::memcmp(staged.data(), device.data(), staged.size() * sizeof(cb::FftComplex)) == 0);
}

TEST_CASE("pencils hold whole lines and tile the grid") {
  const cb::Int3 n = {5, 7, 3};
  for (int ranks = 1; ranks <= 12; ++ranks)
    for (int axis = 0; axis < 3; ++axis) {
      long long covered = 0;
      for (const cb::Brick& b : cb::pencil_bricks(n, ranks, axis)) {
        if (!b.empty()) CHECK(b.hi[axis] - b.lo[axis] == n[axis]);
        covered += b.points();
      }
      CHECK(covered == points(n));
    }
}

TEST_CASE("bricks that do not tile the grid and views of the wrong shape are refused") {
  if (!cb::FftLines::available()) return;
  const cb::Int3 n = {4, 5, 6};
  const MPI_Comm world = MPI_COMM_WORLD;
  CHECK_THROWS_AS(cb::DistributedFft3d(world, n, {{0, 0, 0}, {4, 5, 7}}), std::invalid_argument);
  CHECK_THROWS_AS(cb::DistributedFft3d(world, n, {{0, 0, 0}, {4, 5, 5}}), std::invalid_argument);
  if (size_of(world) > 1) {  // every rank claims the whole grid: overlaps
    CHECK_THROWS_AS(cb::DistributedFft3d(world, n, {{0, 0, 0}, n}), std::invalid_argument);
  }
  cb::DistributedFft3d fft(world, n, cartesian_brick(world, n));
  CHECK(fft.library() != std::string("none"));
  const cb::FftBrickView wrong("test::fft::wrong", 1, 2, 3);
  CHECK_THROWS_AS(fft.forward(wrong, fft.make_spectrum_view("s")), std::invalid_argument);
  CHECK_THROWS_AS(fft.backward(fft.make_spectrum_view("s"), wrong), std::invalid_argument);
}
