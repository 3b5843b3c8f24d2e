#include "solvers/md/barostat.hpp"

#include "kernels/md/barostat.hpp"
#include "kernels/md/random.hpp"

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

constexpr std::int64_t stream_key = -1;

}  // namespace

Barostat::Barostat(const BarostatParams& params, const kernels::md::Units& units)
    : params_(params), units_(units) {}

double Barostat::dilation(double pressure, double volume, long step, double dt) const {
  const BarostatParams& b = params_;
  if (b.style == BarostatStyle::berendsen) {
    return kmd::berendsen_dilation(b.pressure, pressure, dt, b.damp, b.modulus);
  }
  if (b.style != BarostatStyle::c_rescale) return 1.0;
  kmd::CounterStream stream{static_cast<std::uint64_t>(b.seed), stream_key, step, 0};
  const double xi = kmd::gaussian(stream);
  return kmd::c_rescale_dilation(b.pressure, pressure, dt, b.damp, b.compressibility,
                                 units_.boltz * b.temperature, volume, units_.nktv2p, xi);
}

ParticleBox dilated_box(const ParticleBox& box, double mu) {
  ParticleBox out = box;
  for (int d = 0; d < 3; ++d)
    kmd::dilate_about_centre(box.lo[d], box.hi[d], mu, out.lo[d], out.hi[d]);
  return out;
}

double volume_of(const ParticleBox& box) {
  return (box.hi[0] - box.lo[0]) * (box.hi[1] - box.lo[1]) * (box.hi[2] - box.lo[2]);
}

void remap_positions(const Atoms& atoms, const ParticleBox& from, const ParticleBox& to) {
  const auto x = atoms.x;
  Kokkos::Array<double, 3> lo, inv_length, new_lo, new_length;
  for (int d = 0; d < 3; ++d) {
    lo[d] = from.lo[d];
    inv_length[d] = 1.0 / (from.hi[d] - from.lo[d]);  // LAMMPS h_inv
    new_lo[d] = to.lo[d];
    new_length[d] = to.hi[d] - to.lo[d];
  }
  Kokkos::parallel_for(
      "md::remap_positions", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        for (int d = 0; d < 3; ++d)
          x(i, d) = kmd::remap_coordinate(x(i, d), lo[d], inv_length[d], new_lo[d], new_length[d]);
      });
}

}  // namespace cb::md
