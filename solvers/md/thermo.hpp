// Thermodynamic output, LAMMPS thermo conventions (ComputeTemp, ComputePE,
// ComputePressure; conversions of units.hpp): Temp = mvv2e sum m v^2 /
// (dof k_B) with dof = 3N - 3 (degrees_of_freedom(), dynamics.hpp), E_pair = pair energy + E_tail,
// TotEng = E_pair + ke with ke = Temp dof k_B / 2, Press = nktv2p (dof k_B Temp + sum r.f) / (3V)
// (+ P_tail). Energies are per atom in lj units (thermo_modify norm yes, the
// LAMMPS default there) and totals in the others.
#pragma once

#include "kernels/md/lj.hpp"
#include "kernels/md/units.hpp"
#include "solvers/md/force_field.hpp"

#include <string>

namespace cb {
class Log;
}

namespace cb::md {

struct Thermo {
  long step = 0;
  double temp = 0.0;
  double ke = 0.0;      // per atom (lj) or total
  double pe = 0.0;      // potential energy with tail correction, per atom (lj) or total
  double e_pair = 0.0;  // van der Waals, Coulomb, k-space and tail (LAMMPS E_pair)
  double e_mol = 0.0;   // bonded terms (LAMMPS E_mol)
  double terms[Energy::terms] = {};  // each term, per atom (lj) or total
  double press = 0.0;                // virial pressure (with tail correction)
  double press_tensor[6] = {};       // its tensor: LAMMPS pxx, pyy, pzz, pxy, pxz, pyz
  double mv2_axes_energy = 0.0;  // sum_a m v_a^2 in energy units (the trace of LAMMPS's ke tensor)
  double msd = 0.0;              // mean squared displacement (when enabled)
  double volume = 0.0;
  double density = 0.0;   // total mass / volume, mv2d converted (LAMMPS density)
  double enthalpy = 0.0;  // TotEng + P V / nktv2p, V per atom in lj (LAMMPS enthalpy)
  double tot_eng() const { return ke + pe; }
};

// Global sums over the atoms (after MPI_Allreduce).
struct ThermoSums {
  double mv2 = 0.0;                   // sum m v^2
  double mass = 0.0;                  // sum m
  double energy[Energy::terms] = {};  // potential energy by term
  double virial = 0.0;                // sum r . f
  double mv2_tensor[6] = {};          // sum m v_a v_b: xx, yy, zz, xy, xz, yz
  double virial_tensor[6] = {};       // sum r_a f_b, the same order
  double squared_displacement = 0.0;
};

// The thermo quantities of `natoms` atoms in `volume`; `tail` is added when
// given (LAMMPS pair_modify tail yes: E += etail / V, P += ptail / V^2).
Thermo make_thermo(long step, const ThermoSums& sums, double natoms, double dof, double volume,
                   const kernels::md::TailTerms* tail, const kernels::md::Units& units);

// Thermo output on rank 0, through the run's log (else standard output), in
// the layouts of Debian's LAMMPS (29 Sep 2021): thermo_style one, rows of
// "%8d" and "%12.8g" each followed by a space, the header before the first;
// or thermo_style multi, a block per step with every energy term ("%-8s =
// %14.4f ", three to a line) under a "Step ... CPU = ..." rule, CPU being
// the wall time since the log was made.
class ThermoLog {
 public:
  enum class Style { one, multi };
  ThermoLog(long every, long last_step, int rank, Style style = Style::one);
  void attach(Log* log) { log_ = log; }

  bool header_printed() const { return header_printed_; }
  // Whether a row is due at `step` (at the start, every `every` steps, at the
  // last step; once per step).
  bool due(long step, bool start) const;
  void print(const Thermo& thermo);
  // After a restart: the header and the row of the current step again.
  void reset();

 private:
  void write(const std::string& text);

  void print_multi(const Thermo& thermo);

  long every_, last_step_;
  int rank_;
  Style style_;
  double started_ = 0.0;
  long printed_ = -1;
  bool header_printed_ = false;
  Log* log_ = nullptr;
};

}  // namespace cb::md
