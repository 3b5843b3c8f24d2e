#include "solvers/md/pppm_sum.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <string>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
using Policy3 = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>;
namespace kmd = kernels::md;

}  // namespace

PppmSum::PppmSum(const Params& params, const Decomposition& decomposition, const LocalBox& box,
                 const CommOptions& comm_options)
    : params_(params),
      decomposition_(decomposition),
      box_(box),
      comm_options_(comm_options),
      qqrd2e_(params.units.qqr2e / params.dielectric),
      coeff_(kmd::pppm_assignment_coeff(params.kspace_order)) {}

PppmSum::~PppmSum() = default;

double PppmSum::setup(const Atoms& atoms, std::int64_t natoms,
                      const std::optional<ChargeSums>& given) {
  const ChargeSums charges = sum_charges(atoms, sums_, decomposition_.comm(), given);
  qsum_ = charges.sum;
  qsqsum_ = charges.square_sum;
  if (!(qsqsum_ > 0.0)) throw InputError("md: kspace pppm: every charge is zero");

  try {
    parameters_ = kmd::pppm_parameters(pppm_settings(params_, natoms, qsqsum_));
  } catch (const std::exception& e) {
    throw InputError(std::string("md: kspace pppm: ") + e.what());
  }
  make_bricks();
  influence_function();
  reserve_atoms(atoms.nlocal);
  return parameters_.g_ewald;
}

kmd::PppmSettings pppm_settings(const Params& params, std::int64_t natoms, double qsqsum) {
  kmd::PppmSettings s;
  s.accuracy_relative = params.kspace_accuracy;
  s.two_charge_force = params.units.qqr2e;  // qelectron = angstrom = 1 in real, metal, lj
  s.natoms = natoms;
  s.q2 = qsqsum * (params.units.qqr2e / params.dielectric);
  for (int d = 0; d < 3; ++d) {
    s.prd[d] = params.box.hi[d] - params.box.lo[d];
    s.mesh[d] = params.kspace_mesh[d];
  }
  s.cutoff = params.coulomb_cutoff;
  s.order = params.kspace_order;
  s.g_ewald = params.kspace_g_ewald;
  s.coul_table_bits = 0;  // the real-space erfc is exact (LAMMPS pair_modify table 0)
  s.slab_volfactor = params.kspace_slab;
  return s;
}

// LAMMPS PPPM::set_grid_local: the owned brick from the sub-box's place in
// the rank grid, the out brick from the mesh points around which an atom of
// the sub-box, moved by up to skin / 2, centres its stencil.
void PppmSum::place_bricks(Brick& in, Brick& out) {
  const kmd::PppmStencil st = kmd::pppm_stencil(parameters_.order);
  const double reach = 0.5 * params_.skin;
  const Int3 mesh{parameters_.mesh[0], parameters_.mesh[1], parameters_.mesh[2]};
  for (int a = 0; a < 3; ++a) {
    const long long n = mesh[a], cells = params_.geometry.cells[a];
    const long long first = decomposition_.offset()[a];
    const long long last = first + decomposition_.local_cells()[a];
    in.lo[a] = static_cast<int>(first * n / cells);
    in.hi[a] = static_cast<int>(last * n / cells);
    delinv_[a] = mesh[a] / kspace_length(a);
    const int nlo = static_cast<int>((box_.sublo[a] - reach - box_.lo[a]) * delinv_[a] + st.shift) -
                    kmd::pppm_grid_offset;
    const int nhi = static_cast<int>((box_.subhi[a] + reach - box_.lo[a]) * delinv_[a] + st.shift) -
                    kmd::pppm_grid_offset;
    out.lo[a] = std::min(nlo + st.nlower, in.lo[a]);
    out.hi[a] = std::max(nhi + st.nupper + 1, in.hi[a]);
    if (a == 2 && params_.slab()) slab_bricks(first, last, in, out);
    centre_lo_[a] = out.lo[a] - st.nlower;
    centres_[a] = out.hi[a] - st.nupper - centre_lo_[a];
  }
}

void PppmSum::make_bricks() {
  const Int3 mesh{parameters_.mesh[0], parameters_.mesh[1], parameters_.mesh[2]};
  Brick in, out;
  place_bricks(in, out);
  grid_ = std::make_unique<PppmGrid>(decomposition_, mesh, in, out, 3, comm_options_);
  fft_ = std::make_unique<DistributedFft3d>(decomposition_.comm(), mesh, in, comm_options_);
  density_ = grid_->make_field("md::pppm_density", 1);
  field_ = grid_->make_field("md::pppm_field", 3);
  brick_ = fft_->make_brick_view("md::pppm_brick");
  rho_hat_ = fft_->make_spectrum_view("md::pppm_rho_hat");
  work_ = fft_->make_spectrum_view("md::pppm_work");
  const Int3 e = fft_->spectrum().extent();
  greens_ = decltype(greens_)("md::pppm_greens", e[0], e[1], e[2]);
  cell_start_ =
      decltype(cell_start_)("md::pppm_cell_start", centres_[0] * centres_[1] * centres_[2] + 1);
  cell_fill_ = decltype(cell_fill_)("md::pppm_cell_fill", centres_[0] * centres_[1] * centres_[2]);
}

// With a slab (LAMMPS set_grid_local): the z points owned as if the mesh
// covered only the box, [first, last) cells of `cells` over nz / s points,
// except that the top ranks own everything up to nz, the empty part of the
// k-space box; no ghost points above the mesh there or anywhere (the atoms
// are inside the box). So charge from below flows up into the empty region,
// and field values come back down, never the other way round.
void PppmSum::slab_bricks(long long first, long long last, Brick& in, Brick& out) const {
  const int n = parameters_.mesh[2];
  const double cells = params_.geometry.cells[2], s = params_.kspace_slab;
  in.lo[2] = static_cast<int>(first / cells * n / s);
  in.hi[2] = static_cast<int>(last / cells * n / s);
  if (decomposition_.coords()[2] == decomposition_.dims()[2] - 1) in.hi[2] = out.hi[2] = n;
  out.lo[2] = std::min(out.lo[2], in.lo[2]);
  out.hi[2] = std::min(std::max(out.hi[2], in.hi[2]), n);
}

// The length of the k-space box along `axis`: the box's, z times the slab
// volume factor (LAMMPS zprd_slab).
double PppmSum::kspace_length(int axis) const {
  return axis == 2 ? box_.length(2) * params_.kspace_slab : box_.length(axis);
}

// G(k) of kernels/md/pppm.hpp on this rank's part of the spectrum.
// G on this rank's spectrum, from tables of its per-axis factors (the same
// numbers as pppm_greens_ik, with sin and exp per mesh line instead of per
// point: with a barostat G is rebuilt every step).
void PppmSum::influence_function() {
  double prd[3];
  for (int d = 0; d < 3; ++d) prd[d] = box_.length(d);
  const kmd::PppmGreensIk p = kmd::pppm_greens_ik_setup(parameters_.mesh, prd, parameters_.g_ewald,
                                                        parameters_.order, params_.kspace_slab);
  const Brick sp = fft_->spectrum();
  const Int3 e = sp.extent();
  if (e[0] == 0) return;
  const int longest = std::max({p.n[0], p.n[1], p.n[2]});
  const int aliases = 2 * std::max({p.nb[0], p.nb[1], p.nb[2]}) + 1;
  if (static_cast<int>(axis_terms_.extent(1)) < longest ||
      static_cast<int>(axis_terms_.extent(2)) < aliases) {
    axis_terms_ = decltype(axis_terms_)("md::pppm_axis_terms", 3, longest, aliases);
    axis_sin_sq_ = decltype(axis_sin_sq_)("md::pppm_axis_sin_sq", 3, longest);
  }
  const auto terms = axis_terms_;
  const auto sin_sq = axis_sin_sq_;
  Kokkos::parallel_for(
      "md::pppm_axis_terms", Policy3({0, 0, 0}, {3, longest, aliases}),
      KOKKOS_LAMBDA(int d, int i, int a) {
        if (i >= p.n[d] || a > 2 * p.nb[d]) return;
        const int per = kmd::pppm_signed_index(i, p.n[d]);
        terms(d, i, a) = kmd::pppm_axis_term(p, d, per, a - p.nb[d]);
        if (a == 0) sin_sq(d, i) = kmd::pppm_axis_sin_sq(p, d, per);
      });
  const int lx = sp.lo[0], ly = sp.lo[1], lz = sp.lo[2];
  const auto greens = greens_;
  Kokkos::parallel_for(
      "md::pppm_influence_function", Policy3({0, 0, 0}, {e[0], e[1], e[2]}),
      KOKKOS_LAMBDA(int i, int j, int k) {
        const int index[3] = {i + lx, j + ly, k + lz};
        const int per[3] = {kmd::pppm_signed_index(index[0], p.n[0]),
                            kmd::pppm_signed_index(index[1], p.n[1]),
                            kmd::pppm_signed_index(index[2], p.n[2])};
        const double sn[3] = {sin_sq(0, index[0]), sin_sq(1, index[1]), sin_sq(2, index[2])};
        greens(i, j, k) =
            kmd::pppm_greens_of(p, per, sn, [&](int d, int a) { return terms(d, index[d], a); });
      });
}

void PppmSum::reserve_atoms(int n) {
  if (static_cast<int>(centre_.extent(0)) >= n) return;
  const int capacity = n + n / 8 + 64;
  centre_ = decltype(centre_)("md::pppm_centre", capacity);
  weights_ = decltype(weights_)("md::pppm_weights", capacity);
  cell_of_ = decltype(cell_of_)("md::pppm_cell_of", capacity);
  sorted_ = decltype(sorted_)("md::pppm_sorted", capacity);
}

void PppmSum::box_changed(const LocalBox& box) {
  box_ = box;
  if (!grid_) return;  // not set up yet: setup() takes box_
  Brick in, out;
  place_bricks(in, out);
  try {  // a mesh the ranks cannot cover any more stops the run (exit 3)
    if (!(in == grid_->in() && out == grid_->out())) make_bricks();
  } catch (const InputError& e) {
    throw RunError(std::string("md: after the box changed: ") + e.what());
  }
  influence_function();
}

void PppmSum::atoms_rebuilt(const Atoms& atoms) {
  reserve_atoms(atoms.nlocal);
}

void PppmSum::add_forces(Atoms& atoms, const NeighborList& /*list*/) {
  forces(atoms, nullptr);
}

EnergyVirial PppmSum::add_forces_and_energy(Atoms& atoms, const NeighborList& /*list*/) {
  EnergyVirial energy;
  forces(atoms, &energy);
  return energy;
}

// One density transform for the forces and, when asked, the energy and virial (LAMMPS
// PPPM::compute with eflag and vflag).
void PppmSum::forces(Atoms& atoms, EnergyVirial* energy) {
  Kokkos::Profiling::pushRegion("md::pppm");
  transform_density(atoms);
  if (energy) *energy = spectrum_energy_virial();
  compute_field();
  interpolate_forces(atoms);
  Kokkos::Profiling::popRegion();
}

// rho_hat from the owned atoms: assignment, ghost sums, forward FFT.
void PppmSum::transform_density(const Atoms& atoms) {
  reserve_atoms(atoms.nlocal);
  map_atoms(atoms);
  assign_charges(atoms);
  grid_->reverse(density_);
  const Brick in = grid_->in(), out = grid_->out();
  const Int3 e = in.extent();
  const int ox = in.lo[0] - out.lo[0], oy = in.lo[1] - out.lo[1], oz = in.lo[2] - out.lo[2];
  const auto density = density_;
  const auto brick = brick_;
  Kokkos::parallel_for(
      "md::pppm_density_to_fft", Policy3({0, 0, 0}, {e[2], e[1], e[0]}),
      KOKKOS_LAMBDA(int k, int j, int i) {
        brick(k, j, i) = FftComplex(density(0, k + oz, j + oy, i + ox), 0.0);
      });
  charge(Part::kspace);
  fft_->forward(brick_, rho_hat_);
  charge(Part::fft);
}

// E_d = -FFT^-1(i k_d scaleinv G rho_hat) on the owned brick (LAMMPS
// poisson_ik, which keeps +i k_d and subtracts at the interpolation), then to
// the ghost points.
void PppmSum::compute_field() {
  const Brick sp = fft_->spectrum();
  const Int3 se = sp.extent();
  const int mesh[3] = {parameters_.mesh[0], parameters_.mesh[1], parameters_.mesh[2]};
  const double scaleinv = kmd::pppm_scaleinv(mesh);
  const auto rho_hat = rho_hat_;
  const auto work = work_;
  const auto greens = greens_;
  const auto brick = brick_;
  const auto field = field_;
  const Brick in = grid_->in(), out = grid_->out();
  const Int3 be = in.extent();
  const int ox = in.lo[0] - out.lo[0], oy = in.lo[1] - out.lo[1], oz = in.lo[2] - out.lo[2];
  for (int d = 0; d < 3; ++d) {
    const int lo = sp.lo[d], n = mesh[d];
    const double unitk = 2.0 * cb::math::pi / kspace_length(d);
    if (se[0] > 0) {
      Kokkos::parallel_for(
          "md::pppm_gradient", Policy3({0, 0, 0}, {se[0], se[1], se[2]}),
          KOKKOS_LAMBDA(int i, int j, int k) {
            const int index[3] = {i, j, k};
            const double fk = kmd::pppm_wave_number(index[d] + lo, n, unitk);
            const double scale = scaleinv * greens(i, j, k);
            const double re = rho_hat(i, j, k).real() * scale;
            const double im = rho_hat(i, j, k).imag() * scale;
            work(i, j, k) = FftComplex(-fk * im, fk * re);
          });
    }
    charge(Part::kspace);
    fft_->backward(work_, brick_);
    charge(Part::fft);
    if (be[0] > 0) {
      Kokkos::parallel_for(
          "md::pppm_field_from_fft", Policy3({0, 0, 0}, {be[2], be[1], be[0]}),
          KOKKOS_LAMBDA(int k, int j, int i) {
            field(d, k + oz, j + oy, i + ox) = brick(k, j, i).real();
          });
    }
  }
  grid_->forward(field_);
}

// F_i += qqrd2e q_i E(x_i), E(x_i) = -sum_m W(x_i - m) (gradient at m) in
// LAMMPS fieldforce_ik's order of operations.
void PppmSum::interpolate_forces(Atoms& atoms) {
  const kmd::PppmStencil st = kmd::pppm_stencil(parameters_.order);
  const int order = st.order, nlower = st.nlower;
  const Brick out = grid_->out();
  const int ox = out.lo[0], oy = out.lo[1], oz = out.lo[2];
  const auto centre = centre_;
  const auto weights = weights_;
  const auto field = field_;
  const auto q = atoms.q;
  const auto f = atoms.f;
  const double qqrd2e = qqrd2e_;
  Kokkos::parallel_for(
      "md::pppm_forces", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        double ek[3] = {0.0, 0.0, 0.0};
        const int x0 = centre(i, 0) + nlower - ox, y0 = centre(i, 1) + nlower - oy;
        const int z0 = centre(i, 2) + nlower - oz;
        for (int n = 0; n < order; ++n) {
          const double wz = weights(i, 2, n);
          for (int m = 0; m < order; ++m) {
            const double wzy = wz * weights(i, 1, m);
            for (int l = 0; l < order; ++l) {
              const double w = wzy * weights(i, 0, l);
              for (int d = 0; d < 3; ++d) ek[d] -= w * field(d, z0 + n, y0 + m, x0 + l);
            }
          }
        }
        const double qfactor = qqrd2e * q(i);
        for (int d = 0; d < 3; ++d) f(i, d) += qfactor * ek[d];
      });
}

EnergyVirial PppmSum::energy_virial(const Atoms& atoms, const NeighborList& /*list*/) {
  transform_density(atoms);
  return spectrum_energy_virial();
}

// The energy sum_k s2 G |rho_hat|^2 and its virial tensor over this
// rank's spectrum, summed over ranks; rank 0 reports the whole (LAMMPS
// PPPM::compute with the self and background terms).
EnergyVirial PppmSum::spectrum_energy_virial() {
  const Brick sp = fft_->spectrum();
  const Int3 se = sp.extent();
  const int mesh[3] = {parameters_.mesh[0], parameters_.mesh[1], parameters_.mesh[2]};
  const double s2 = kmd::pppm_scaleinv(mesh) * kmd::pppm_scaleinv(mesh);
  const double g = parameters_.g_ewald;
  double unitk[3];
  for (int d = 0; d < 3; ++d) unitk[d] = 2.0 * cb::math::pi / kspace_length(d);
  const double ux = unitk[0], uy = unitk[1], uz = unitk[2];
  const int lx = sp.lo[0], ly = sp.lo[1], lz = sp.lo[2], nx = mesh[0], ny = mesh[1], nz = mesh[2];
  const int ey = se[1], ez = se[2];
  const auto rho_hat = rho_hat_;
  const auto greens = greens_;
  const Sums<7> mine = sums_.sum<7>(
      "md::pppm_energy_sums", se[0] * se[1] * se[2], KOKKOS_LAMBDA(int c, double* s) {
        const int i = c / (ey * ez), j = (c / ez) % ey, k = c % ez;
        const double re = rho_hat(i, j, k).real(), im = rho_hat(i, j, k).imag();
        const double eng = kmd::pppm_energy_term(greens(i, j, k), re, im, s2);
        double vg[6];
        kmd::pppm_virial_coeff(kmd::pppm_wave_number(i + lx, nx, ux),
                               kmd::pppm_wave_number(j + ly, ny, uy),
                               kmd::pppm_wave_number(k + lz, nz, uz), g, vg);
        s[0] += eng;
        for (int c = 0; c < 6; ++c) s[1 + c] += eng * vg[c];
      });
  double sums[7] = {};
  MPI_Allreduce(mine.value, sums, 7, MPI_DOUBLE, MPI_SUM, decomposition_.comm());
  EnergyVirial ev;
  if (decomposition_.rank() == 0) {
    const double volume = kspace_length(0) * kspace_length(1) * kspace_length(2);
    ev.energy[Energy::kspace] = kmd::pppm_energy(sums[0], volume, g, qsqsum_, qsum_, qqrd2e_);
    for (int c = 0; c < 6; ++c)
      ev.virial_tensor[c] = kmd::pppm_virial(sums[1 + c], volume, qqrd2e_);
    for (int a = 0; a < 3; ++a) ev.virial += ev.virial_tensor[a];
  }
  return ev;
}

}  // namespace cb::md
