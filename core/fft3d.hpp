// Distributed 3-D complex FFT of a global nx x ny x nz grid whose real-space
// data is split into bricks, one per rank (docs/architecture.md, "Distributed
// FFT"). As LAMMPS's fft3d and heFFTe: remap the bricks to x pencils (whole x
// lines on one rank), FFT along x, remap to y pencils, FFT along y, remap to z
// pencils, FFT along z; backward reverses. Physics-free; built for PPPM.
#pragma once

#include "core/fft_backend.hpp"
#include "core/fft_remap.hpp"
#include "core/message_buffer.hpp"
#include "core/run_context.hpp"
#include "core/types.hpp"

#include <mpi.h>

#include <string>
#include <vector>

namespace cb {

// Both indexed (z, y, x) -> (k, j, i) relative to the brick, i contiguous:
// a brick of real-space points.
using FftBrickView = Kokkos::View<FftComplex***, Kokkos::LayoutRight, MemSpace>;
// The spectrum this rank holds, indexed (kx - lo[0], ky - lo[1], kz - lo[2])
// of spectrum(), kz contiguous. Index k in [0, n) is the wave number k for
// k < n/2 and k - n above, as FFTW orders it.
using FftSpectrumView = Kokkos::View<FftComplex***, Kokkos::LayoutRight, MemSpace>;

class DistributedFft3d {
 public:
  // Collective over `comm` (any communicator; it must outlive this object).
  // Rank r owns `mine` (global indices [lo, hi) per axis); the bricks of all
  // ranks tile the grid exactly, and may be empty. `comm_options` says how MPI
  // sees the buffers (staged through host mirrors unless gpu_aware_mpi), as
  // for the halo exchange.
  // Throws std::invalid_argument on every rank when the bricks do not tile the
  // grid, std::runtime_error when the build has no FFT library for its memory.
  DistributedFft3d(MPI_Comm comm, const Int3& global, const Brick& mine,
                   const CommOptions& comm_options = {});

  // X(kx, ky, kz) = sum over (x, y, z) of x(x, y, z) exp(-2 pi i (kx x / nx +
  // ky y / ny + kz z / nz)), unnormalised. Collective; `in` is left unchanged.
  void forward(const FftBrickView& in, const FftSpectrumView& out);
  // The same with exp(+...): backward(forward(x)) = nx ny nz x, as FFTW.
  void backward(const FftSpectrumView& in, const FftBrickView& out);

  const Int3& global() const { return global_; }
  const Brick& brick() const { return brick_; }        // the real-space points here
  const Brick& spectrum() const { return spectrum_; }  // the (kx, ky, kz) held here
  // Views of the right shape for forward/backward.
  FftBrickView make_brick_view(const std::string& label) const;
  FftSpectrumView make_spectrum_view(const std::string& label) const;
  // The 1-D FFT library in use (FftLines::library()).
  static const char* library() { return FftLines::library(); }

 private:
  void check_view(const FftBrickView& view, const Int3& extents, const char* what) const;
  void transform_lines(FftLines& lines, const FftPoints& points, FftDirection direction);

  MPI_Comm comm_;
  Int3 global_;
  Brick brick_, spectrum_;
  std::vector<FftRemap> remaps_;  // brick->x, x->y, y->z, z->y, y->x, x->brick
  std::vector<FftLines> lines_;   // along x, y, z
  FftPoints x_pencils_, y_pencils_, z_pencils_;
  MessageBuffer<FftComplex> send_, recv_;
};

// Pencils along `axis` for `ranks` ranks: whole lines along `axis`; the other
// two axes split into the blocks of a 2-D rank grid p1 x p2 (MPI_Dims_create,
// p1 >= p2), rank r at (r % p1, r / p1). x pencils split (y, z), y pencils
// (x, z), z pencils (x, y) over (p1, p2), so that x->y remaps stay within
// ranks of one z block and y->z within ranks of one x block. Deterministic.
std::vector<Brick> pencil_bricks(const Int3& global, int ranks, int axis);

}  // namespace cb
