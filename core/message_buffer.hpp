// A message buffer in device memory and, unless MPI takes device memory
// (gpu_aware_mpi), the host mirror its messages are staged through: the one
// place that decides which memory MPI sees. Used by the grid halo exchange and
// by the particle ghost exchange and migration.
#pragma once

#include "core/run_context.hpp"
#include "core/types.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace cb {

template <class T>
class MessageBuffer {
 public:
  using DeviceView = Kokkos::View<T*, MemSpace>;

  MessageBuffer() = default;
  MessageBuffer(const std::string& label, std::size_t size, const CommOptions& options)
      : label_(label), options_(options) {
    resize(size);
  }

  // Reallocates for `size` elements (contents are not kept).
  void resize(std::size_t size) {
    device_ = DeviceView(label_, size);
    if (!options_.gpu_aware_mpi) host_ = Kokkos::create_mirror_view(device_);
  }
  // Grows to at least `size` elements, keeping the contents.
  void reserve(std::size_t size) {
    if (size <= device_.extent(0)) return;
    Kokkos::resize(device_, size);
    if (!options_.gpu_aware_mpi) host_ = Kokkos::create_mirror_view(device_);
  }
  std::size_t size() const { return device_.extent(0); }
  const DeviceView& device() const { return device_; }

  // The memory MPI sends the first `count` elements from: the device buffer
  // itself, or its host mirror after a copy. Counts the message (when not empty).
  const T* outgoing(std::size_t count) {
    if (options_.counters && count > 0)
      options_.counters->count(options_.gpu_aware_mpi, static_cast<long long>(count * sizeof(T)));
    if (options_.gpu_aware_mpi) return device_.data();
    const auto used = std::make_pair(std::size_t(0), count);
    Kokkos::deep_copy(Kokkos::subview(host_, used), Kokkos::subview(device_, used));
    return host_.data();
  }
  // The memory MPI receives into; call received() once the message is in.
  T* incoming() { return options_.gpu_aware_mpi ? device_.data() : host_.data(); }
  // Moves `count` received elements to the device buffer (no-op when GPU-aware).
  void received(std::size_t count) {
    if (options_.gpu_aware_mpi) return;
    const auto used = std::make_pair(std::size_t(0), count);
    Kokkos::deep_copy(Kokkos::subview(device_, used), Kokkos::subview(host_, used));
  }

 private:
  std::string label_;
  CommOptions options_;
  DeviceView device_;
  typename DeviceView::host_mirror_type host_;
};

}  // namespace cb
