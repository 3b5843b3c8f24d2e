// Batched 1-D complex FFTs, in place, on memory of the build's Kokkos memory
// space: the one place that talks to an FFT library (docs/architecture.md,
// "Distributed FFT"). FFTW 3 on host backends, cuFFT on CUDA, hipFFT on HIP,
// chosen at configure time (cmake/CloudburstDependencies.cmake). Kokkos-free,
// so that it compiles with the plain CUDA/HIP compiler.
#pragma once

#include <complex>
#include <memory>

namespace cb {

// Direction and sign of the exponent, as FFTW: forward exp(-2 pi i jk/n),
// backward exp(+2 pi i jk/n), both unnormalised.
enum class FftDirection { forward, backward };

class FftLines {
 public:
  // `count` lines of `length` contiguous points, line l at offset l * length.
  // Plans once; throws std::runtime_error when no FFT library was built in.
  FftLines(int length, int count);
  ~FftLines();
  FftLines(FftLines&&) noexcept;
  FftLines& operator=(FftLines&&) noexcept;

  // Transforms every line of `data` in place. The caller has finished every
  // kernel that writes `data`; on return the lines hold their transforms.
  void transform(std::complex<double>* data, FftDirection direction);

  int length() const { return length_; }
  int count() const { return count_; }

  // FFTW's fftw_version ("fftw-3.3.10-sse2-avx"), "cuFFT", "hipFFT" or "none".
  static const char* library();
  // Whether the library reads the memory of a host backend (FFTW) or of the
  // device (cuFFT, hipFFT); false without a library.
  static bool host_memory();
  static bool available();
  // Throws std::runtime_error saying what to install unless available().
  static void require_library();

 private:
  struct Plan;
  int length_ = 0;
  int count_ = 0;
  std::unique_ptr<Plan> plan_;
};

}  // namespace cb
