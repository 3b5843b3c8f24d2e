#include "core/fft_backend.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#if defined(CLOUDBURST_FFT_CUFFT)
#include <cuda_runtime.h>
#include <cufft.h>
#elif defined(CLOUDBURST_FFT_HIPFFT)
#include <hip/hip_runtime.h>
#if __has_include(<hipfft/hipfft.h>)
#include <hipfft/hipfft.h>
#else
#include <hipfft.h>
#endif
#elif defined(CLOUDBURST_FFT_FFTW)
#include <fftw3.h>
#endif

namespace cb {
namespace {

[[noreturn, maybe_unused]] void fail(const std::string& what, int code) {
  throw std::runtime_error(std::string("FFT (") + FftLines::library() + "): " + what +
                           " failed with code " + std::to_string(code));
}

}  // namespace

#if defined(CLOUDBURST_FFT_FFTW)

// One in-place plan for a single line, executed line by line: every line of
// a given length goes through the same plan whatever the batch, so a spectrum
// does not depend on how the lines are shared among ranks (bitwise). Lines
// whose alignment differs from the plan's are transformed in the aligned
// scratch line (fftw_execute_dft needs the planned alignment).
struct FftLines::Plan {
  fftw_complex* scratch = nullptr;
  fftw_plan forward = nullptr, backward = nullptr;
  explicit Plan(int length) {
    scratch = fftw_alloc_complex(static_cast<std::size_t>(length));
    if (!scratch) fail("fftw_alloc_complex", 0);
    // FFTW's planner is not thread-safe; plans are made on the host thread.
    forward = fftw_plan_dft_1d(length, scratch, scratch, FFTW_FORWARD, FFTW_ESTIMATE);
    backward = fftw_plan_dft_1d(length, scratch, scratch, FFTW_BACKWARD, FFTW_ESTIMATE);
    if (!forward || !backward) fail("fftw_plan_dft_1d", length);
  }
  ~Plan() {
    if (forward) fftw_destroy_plan(forward);
    if (backward) fftw_destroy_plan(backward);
    fftw_free(scratch);
  }
  void execute(std::complex<double>* data, int length, int count, FftDirection direction) {
    const fftw_plan plan = direction == FftDirection::forward ? forward : backward;
    const int aligned = fftw_alignment_of(reinterpret_cast<double*>(scratch));
    const std::size_t bytes = sizeof(fftw_complex) * static_cast<std::size_t>(length);
    for (int line = 0; line < count; ++line) {
      auto* points = reinterpret_cast<fftw_complex*>(data + std::size_t(line) * length);
      if (fftw_alignment_of(reinterpret_cast<double*>(points)) == aligned) {
        fftw_execute_dft(plan, points, points);
      } else {
        std::memcpy(scratch, points, bytes);
        fftw_execute_dft(plan, scratch, scratch);
        std::memcpy(points, scratch, bytes);
      }
    }
  }
};
const char* FftLines::library() {
  return fftw_version;
}
bool FftLines::host_memory() {
  return true;
}

#elif defined(CLOUDBURST_FFT_CUFFT) || defined(CLOUDBURST_FFT_HIPFFT)

#if defined(CLOUDBURST_FFT_CUFFT)
using GpuFftHandle = cufftHandle;
using GpuFftComplex = cufftDoubleComplex;
constexpr auto gpu_fft_success = CUFFT_SUCCESS;
constexpr auto gpu_fft_z2z = CUFFT_Z2Z;
constexpr int gpu_fft_forward = CUFFT_FORWARD, gpu_fft_backward = CUFFT_INVERSE;
#define CB_GPU_FFT(name) cufft##name
inline int gpu_synchronize() {
  return static_cast<int>(cudaDeviceSynchronize());
}
const char* FftLines::library() {
  return "cuFFT";
}
#else
using GpuFftHandle = hipfftHandle;
using GpuFftComplex = hipfftDoubleComplex;
constexpr auto gpu_fft_success = HIPFFT_SUCCESS;
constexpr auto gpu_fft_z2z = HIPFFT_Z2Z;
constexpr int gpu_fft_forward = HIPFFT_FORWARD, gpu_fft_backward = HIPFFT_BACKWARD;
#define CB_GPU_FFT(name) hipfft##name
inline int gpu_synchronize() {
  return static_cast<int>(hipDeviceSynchronize());
}
const char* FftLines::library() {
  return "hipFFT";
}
#endif
bool FftLines::host_memory() {
  return false;
}

// One batched Z2Z plan over all lines, on the default stream; the device is
// synchronised after each transform, so callers need no stream handling.
struct FftLines::Plan {
  GpuFftHandle handle{};
  explicit Plan(int length, int count) {
    int n = length;
    const auto status = CB_GPU_FFT(PlanMany)(&handle, 1, &n, nullptr, 1, length, nullptr, 1, length,
                                             gpu_fft_z2z, count);
    if (status != gpu_fft_success) fail("PlanMany", static_cast<int>(status));
  }
  ~Plan() { CB_GPU_FFT(Destroy)(handle); }
  void execute(std::complex<double>* data, int, int, FftDirection direction) {
    auto* points = reinterpret_cast<GpuFftComplex*>(data);
    const int sign = direction == FftDirection::forward ? gpu_fft_forward : gpu_fft_backward;
    const auto status = CB_GPU_FFT(ExecZ2Z)(handle, points, points, sign);
    if (status != gpu_fft_success) fail("ExecZ2Z", static_cast<int>(status));
    if (const int error = gpu_synchronize()) fail("device synchronisation", error);
  }
};
#undef CB_GPU_FFT

#else  // no FFT library

struct FftLines::Plan {
  void execute(std::complex<double>*, int, int, FftDirection) {}
};
const char* FftLines::library() {
  return "none";
}
bool FftLines::host_memory() {
  return false;
}

#endif

bool FftLines::available() {
  return std::strcmp(library(), "none") != 0;
}

void FftLines::require_library() {
  if (available()) return;
  throw std::runtime_error(
      "no FFT library: cloudburst was configured without one; install libfftw3-dev (CPU "
      "builds), or the CUDA toolkit's cuFFT / ROCm's hipfft for GPU builds, and reconfigure");
}

FftLines::FftLines(int length, int count) : length_(length), count_(count) {
  require_library();
  if (length < 1 || count < 0) {
    throw std::invalid_argument("FftLines: need length >= 1 and count >= 0, got " +
                                std::to_string(length) + ", " + std::to_string(count));
  }
#if defined(CLOUDBURST_FFT_FFTW)
  if (count > 0) plan_ = std::make_unique<Plan>(length);
#elif defined(CLOUDBURST_FFT_CUFFT) || defined(CLOUDBURST_FFT_HIPFFT)
  if (count > 0) plan_ = std::make_unique<Plan>(length, count);
#endif
}

FftLines::~FftLines() = default;
FftLines::FftLines(FftLines&&) noexcept = default;
FftLines& FftLines::operator=(FftLines&&) noexcept = default;

void FftLines::transform(std::complex<double>* data, FftDirection direction) {
  if (plan_) plan_->execute(data, length_, count_, direction);
}

}  // namespace cb
