// The long-range Coulomb part by particle-particle particle-mesh Ewald (LAMMPS
// kspace_style pppm, ik differentiation; the steps and signs of
// kernels/md/pppm.hpp), as a force term beside the real-space part of the pair
// style lj/cut/coul/long or lj/charmm/coul/long. Per force evaluation:
//   assign       rho(m) = sum_i q_i delvolinv W(x_i - m) on the out brick
//                (pppm_grid.hpp), ghost points then added into their owners
//   solve        rho_hat = FFT(rho) over the owned bricks (core/fft3d.hpp);
//                E_d = -FFT^-1(i k_d scaleinv G rho_hat), one per axis
//   interpolate  owned field values to the ghost points; F_i = qqrd2e q_i sum_m
//                W(x_i - m) E(m)
//   energy       pppm_energy (with the self and background terms), r.f the
//                trace of LAMMPS's virial.
// The assignment gathers instead of scattering: owned atoms are sorted by
// their stencil centre (counting sort, then index order within a centre) and
// each mesh point sums its atoms in that fixed order, so the forces are the
// same bits on every thread count (no atomics on the mesh).
// With [kspace] slab = s the mesh covers the box extended to Lz s along z, the
// top ranks owning the empty part (slab_bricks; slab_correction.hpp adds the
// dipole term).
// Parameters (g, mesh) come from the atoms and the case's box at setup,
// nothing is checkpointed.
// The per-atom energy output (pe) leaves this part out.
#pragma once

#include "core/decomposition.hpp"
#include "core/fft3d.hpp"
#include "core/ordered_sum.hpp"
#include "kernels/md/pppm.hpp"
#include "solvers/md/force_field.hpp"
#include "solvers/md/pppm_grid.hpp"

#include <memory>

namespace cb::md {

// What LAMMPS's PPPM estimates start from: the case's accuracy, order, mesh
// and g, the box, and the charges (natoms, sum of q^2).
kernels::md::PppmSettings pppm_settings(const Params& params, std::int64_t natoms, double qsqsum);

class PppmSum : public ForceTerm {
 public:
  PppmSum(const Params& params, const Decomposition& decomposition, const LocalBox& box,
          const CommOptions& comm_options);
  ~PppmSum() override;

  // Collective, once the atoms are loaded: g and the mesh from the accuracy,
  // the atom count and the charges (as LAMMPS), this rank's bricks, the FFT
  // and the influence function (the charge sums `given` by a checkpoint, else
  // summed here). Returns g.
  double setup(const Atoms& atoms, std::int64_t natoms, const std::optional<ChargeSums>& given);
  ChargeSums charge_sums() const { return {qsum_, qsqsum_}; }

  void add_forces(Atoms& atoms, const NeighborList& list) override;
  EnergyVirial energy_virial(const Atoms& atoms, const NeighborList& list) override;
  EnergyVirial add_forces_and_energy(Atoms& atoms, const NeighborList& list) override;
  void add_per_atom_energy(const Atoms&, const NeighborList&, const Vec3View&) override {}
  void atoms_rebuilt(const Atoms& atoms) override;
  // The box changed size (a barostat), as LAMMPS's PPPM::setup after fix
  // press/berendsen's remap: g and the mesh stay; the mesh spacing, the ghost
  // mesh layers (rebuilt only when they change) and G(k) follow the box.
  void box_changed(const LocalBox& box) override;
  Part part() const override { return Part::kspace; }

  const kernels::md::PppmParameters& parameters() const { return parameters_; }

  // Public for the CUDA extended-lambda rule; not part of the interface.
  void map_atoms(const Atoms& atoms);
  void assign_charges(const Atoms& atoms);
  void transform_density(const Atoms& atoms);
  void compute_field();
  void interpolate_forces(Atoms& atoms);
  void influence_function();
  // The energy and virial of the rho_hat transform_density left.
  EnergyVirial spectrum_energy_virial();

 private:
  void make_bricks();
  // The forces of one step; with `energy`, also the energy and virial of its transform.
  void forces(Atoms& atoms, EnergyVirial* energy);
  // The owned and out bricks of the current box (and delinv_, centre_lo_,
  // centres_).
  void place_bricks(Brick& in, Brick& out);
  void slab_bricks(long long first, long long last, Brick& in, Brick& out) const;
  double kspace_length(int axis) const;
  void reserve_atoms(int n);

  Params params_;
  const Decomposition& decomposition_;
  LocalBox box_;
  CommOptions comm_options_;
  double qqrd2e_;
  kernels::md::PppmParameters parameters_;
  kernels::md::PppmAssignmentCoeff coeff_;
  double qsqsum_ = 0.0, qsum_ = 0.0;
  double delinv_[3] = {0.0, 0.0, 0.0};
  std::unique_ptr<PppmGrid> grid_;
  std::unique_ptr<DistributedFft3d> fft_;
  OrderedSum sums_;
  // Stencil centres: the out brick less the stencil's reach, [lo, lo + n).
  int centre_lo_[3] = {0, 0, 0}, centres_[3] = {0, 0, 0};
  PppmField density_;  // 1 component on the out brick
  PppmField field_;    // E_x, E_y, E_z on the out brick
  FftBrickView brick_;
  FftSpectrumView rho_hat_, work_;
  Kokkos::View<double***, Kokkos::LayoutRight, MemSpace> greens_;  // G on the spectrum
  // G's per-axis factors (axis, mesh index, alias) and sin^2 (axis, mesh index)
  Kokkos::View<kernels::md::PppmAxisTerm***, MemSpace> axis_terms_;
  Kokkos::View<double**, MemSpace> axis_sin_sq_;
  // Per owned atom: stencil centre, weights per axis, and the sort by centre.
  Kokkos::View<int* [3], Kokkos::LayoutRight, MemSpace> centre_;
  Kokkos::View<double* [3][kernels::md::pppm_max_order], Kokkos::LayoutRight, MemSpace> weights_;
  Kokkos::View<int*, MemSpace> cell_of_, sorted_, cell_start_, cell_fill_;
};

}  // namespace cb::md
