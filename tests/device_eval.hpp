// on_device(kernel): runs `kernel()`, a KOKKOS_LAMBDA without arguments that returns a trivially
// copyable value, once on the default execution space and returns that value on the host.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <utility>

namespace cb::test {

namespace detail {

// The result wrapped in a struct of its own, so that a View of it is a plain rank-0 View whatever
// R is (Kokkos gives Views of a bare Kokkos::Array a special layout).
template <class R>
struct DeviceResult {
  R value;
};

}  // namespace detail

// R is a defaulted template parameter, not a deduced return type: nvcc rejects an extended
// lambda inside a function whose return type is deduced.
template <class Kernel, class R = std::decay_t<decltype(std::declval<const Kernel&>()())>>
R on_device(const Kernel& kernel) {
  static_assert(std::is_trivially_copyable<R>::value,
                "on_device returns trivially copyable values");
  Kokkos::View<detail::DeviceResult<R>> result("test::on_device_result");
  Kokkos::parallel_for(
      "test::on_device", Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>(0, 1),
      KOKKOS_LAMBDA(int) { result().value = kernel(); });
  Kokkos::fence();
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), result);
  return host().value;
}

}  // namespace cb::test
