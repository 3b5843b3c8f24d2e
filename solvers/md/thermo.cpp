#include "solvers/md/thermo.hpp"

#include "core/log.hpp"

#include <mpi.h>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <utility>

namespace cb::md {

Thermo make_thermo(long step, const ThermoSums& sums, double natoms, double dof, double volume,
                   const kernels::md::TailTerms* tail, const kernels::md::Units& units) {
  const double inv_volume = 1.0 / volume;
  const double per = units.per_atom_thermo ? natoms : 1.0;
  Thermo t;
  t.step = step;
  t.temp = kernels::md::temperature_of(sums.mv2, dof, units);
  t.ke = t.temp * 0.5 * dof * units.boltz / per;
  double pair = sums.energy[Energy::vdwl] + sums.energy[Energy::coul] + sums.energy[Energy::kspace];
  double molecular = 0.0;
  for (int e = Energy::bond; e <= Energy::improper; ++e) molecular += sums.energy[e];
  double virial = sums.virial;
  if (tail != nullptr) {
    pair += tail->etail / volume;
    virial += 3.0 * tail->ptail * inv_volume;
  }
  for (int e = 0; e < Energy::terms; ++e) t.terms[e] = sums.energy[e] / per;
  if (tail != nullptr) t.terms[Energy::vdwl] += tail->etail / volume / per;
  t.e_pair = pair / per;
  t.e_mol = molecular / per;
  t.pe = (pair + molecular) / per;
  t.press = (dof * units.boltz * t.temp + virial) / 3.0 * inv_volume * units.nktv2p;
  // LAMMPS compute pressure's vector: (m v_a v_b + r_a f_b) / V, no dof
  // correction; the tail correction on the diagonal.
  for (int c = 0; c < 6; ++c) {
    double w = sums.mv2_tensor[c] * units.mvv2e + sums.virial_tensor[c];
    if (c < 3) {
      t.mv2_axes_energy += sums.mv2_tensor[c] * units.mvv2e;
      if (tail != nullptr) w += tail->ptail * inv_volume;
    }
    t.press_tensor[c] = w * inv_volume * units.nktv2p;
  }
  t.msd = sums.squared_displacement / natoms;
  t.volume = volume;
  t.density = sums.mass / volume * units.mv2d;
  t.enthalpy = t.tot_eng() + t.press * (volume / per) / units.nktv2p;
  return t;
}

ThermoLog::ThermoLog(long every, long last_step, int rank, Style style)
    : every_(every), last_step_(last_step), rank_(rank), style_(style), started_(MPI_Wtime()) {}

bool ThermoLog::due(long step, bool start) const {
  const bool due = start || (every_ > 0 && step % every_ == 0) || step == last_step_;
  return due && printed_ != step;
}

void ThermoLog::print(const Thermo& t) {
  if (style_ == Style::multi) {
    print_multi(t);
    return;
  }
  printed_ = t.step;
  const bool header = !header_printed_;
  header_printed_ = true;
  if (rank_ != 0) return;
  if (header) write("Step Temp E_pair E_mol TotEng Press ");
  char line[160];
  std::snprintf(line, sizeof line, "%8ld %12.8g %12.8g %12.8g %12.8g %12.8g ", t.step, t.temp,
                t.e_pair, t.e_mol, t.tot_eng(), t.press);
  write(line);
}

void ThermoLog::print_multi(const Thermo& t) {
  printed_ = t.step;
  header_printed_ = true;
  if (rank_ != 0) return;
  char line[160];
  std::snprintf(line, sizeof line,
                "---------------- Step %8ld ----- CPU = %11.4f (sec) ----------------", t.step,
                MPI_Wtime() - started_);
  write(line);
  const std::pair<const char*, double> values[] = {{"TotEng", t.tot_eng()},
                                                   {"KinEng", t.ke},
                                                   {"Temp", t.temp},
                                                   {"PotEng", t.pe},
                                                   {"E_bond", t.terms[Energy::bond]},
                                                   {"E_angle", t.terms[Energy::angle]},
                                                   {"E_dihed", t.terms[Energy::dihedral]},
                                                   {"E_impro", t.terms[Energy::improper]},
                                                   {"E_vdwl", t.terms[Energy::vdwl]},
                                                   {"E_coul", t.terms[Energy::coul]},
                                                   {"E_long", t.terms[Energy::kspace]},
                                                   {"Press", t.press}};
  std::string text;
  for (std::size_t k = 0; k < std::size(values); ++k) {
    std::snprintf(line, sizeof line, "%-8s = %14.4f ", values[k].first, values[k].second);
    text += line;
    if (k % 3 == 2) {
      write(text);
      text.clear();
    }
  }
}

void ThermoLog::reset() {
  printed_ = -1;
  header_printed_ = false;
}

void ThermoLog::write(const std::string& text) {
  if (log_ != nullptr) {
    log_->line(text);
  } else {
    std::cout << text << '\n' << std::flush;
  }
}

}  // namespace cb::md
