#!/usr/bin/env bash
# Reference PPPM parameters chosen by LAMMPS (`lmp`, Debian's package): for
# each case one `run 0` with kspace_style pppm, and from the log the lines
# "G vector (1/distance)", "grid", "stencil order", "estimated absolute RMS
# force accuracy" and "estimated relative force accuracy" (printed at %.8g).
# Cases: LAMMPS's peptide example (data.peptide, lj/charmm/coul/long 8 10 10),
# the SPC/E water of the HEAT example (data.spce, lj/cut/coul/long 11.0 12.6314)
# and cloudburst's rock salt (cases/md/data/salt_charge.data, lj/cut/coul/long
# 10.0) at several accuracies, orders, units, Coulomb tables and with a given
# g_ewald or mesh. Inputs are written to a temporary directory.
# Writes the CSV (default validation/reference/pppm_lmp.csv) read by
# tests/test_md_pppm_kernels.cpp. Usage: validation/lammps/pppm_parameters.sh [out.csv]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$(dirname "$here")")
out=${1:-$root/validation/reference/pppm_lmp.csv}
lmp=${LMP:-lmp}
examples=${LAMMPS_EXAMPLES:-/usr/share/lammps/examples}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The force field lines of each system (everything but the kspace lines).
system_lines() {
  case $1 in
    peptide)
      cat <<EOF
atom_style full
pair_style lj/charmm/coul/long 8.0 10.0 10.0
bond_style harmonic
angle_style charmm
dihedral_style charmm
improper_style harmonic
read_data $examples/peptide/data.peptide
EOF
      ;;
    spce)
      cat <<EOF
atom_style full
pair_style lj/cut/coul/long 11.0 12.6314
bond_style harmonic
angle_style harmonic
read_data $examples/HEAT/data.spce
pair_coeff 1 1 0.0 0.0
pair_coeff 1 2 0.0 0.0
pair_coeff 2 2 0.15535 3.166
bond_coeff 1 450 1.05
angle_coeff 1 55 104.52
EOF
      ;;
    salt)
      cat <<EOF
atom_style charge
pair_style lj/cut/coul/long 10.0
read_data $root/cases/md/data/salt_charge.data
pair_coeff 1 1 0.1 2.5
pair_coeff 2 2 0.1 4.4
EOF
      ;;
  esac
}

# Where the test finds each system's data file, the column of the charge in
# its Atoms lines (0-based) and its Coulomb cutoff.
data_of() {
  case $1 in
    peptide) echo "examples:peptide/data.peptide,3,10.0" ;;
    spce) echo "examples:HEAT/data.spce,3,12.6314" ;;
    salt) echo "repo:cases/md/data/salt_charge.data,2,10.0" ;;
  esac
}

# Cases: name|system|units|accuracy|order|g_ewald (0: chosen)|mesh (0 0 0:
# chosen)|Coulomb table bits (LAMMPS's pair_modify table, default 12)
cases="peptide_1e-4|peptide|real|1.0e-4|5|0|0 0 0|12
spce_1e-5|spce|real|1.0e-5|5|0|0 0 0|12
salt_1e-4|salt|real|1.0e-4|5|0|0 0 0|12
salt_1e-5|salt|real|1.0e-5|5|0|0 0 0|12
salt_1e-5_table0|salt|real|1.0e-5|5|0|0 0 0|0
salt_1e-4_order2|salt|real|1.0e-4|2|0|0 0 0|12
salt_1e-5_order3|salt|real|1.0e-5|3|0|0 0 0|12
salt_1e-5_order4|salt|real|1.0e-5|4|0|0 0 0|12
salt_1e-5_order6|salt|real|1.0e-5|6|0|0 0 0|12
salt_1e-5_order7|salt|real|1.0e-5|7|0|0 0 0|12
salt_1e-5_gewald|salt|real|1.0e-5|5|0.3|0 0 0|12
salt_1e-4_mesh|salt|real|1.0e-4|5|0|14 20 27|12
salt_1e-4_gewald_mesh|salt|real|1.0e-4|5|0.25|16 16 16|12
salt_1e-5_metal|salt|metal|1.0e-5|5|0|0 0 0|12
salt_1e-4_lj|salt|lj|1.0e-4|5|0|0 0 0|12"

# The value after "= " on the log line that starts with $2.
log_value() { awk -v key="$2" 'index($0, key) == 1 {sub(/.*= /, ""); print; exit}' "$1"; }

{
  echo "# Reference PPPM parameters from LAMMPS, written by validation/lammps/pppm_parameters.sh"
  echo "# LAMMPS: $("$lmp" -h | sed -n '/^Large-scale/{s/^Large-scale Atomic\/Molecular Massively Parallel Simulator - //;p;q}') ($lmp); date: $(date -u +%Y-%m-%d)"
  echo "# one run 0 per case (kspace_style pppm <accuracy>, kspace_modify order/gewald/mesh as listed, pair_modify table <bits>, 1 MPI rank);"
  echo "# systems: peptide = $examples/peptide/data.peptide (units real, atom_style full, lj/charmm/coul/long 8.0 10.0 10.0);"
  echo "#   spce = $examples/HEAT/data.spce (units real, atom_style full, lj/cut/coul/long 11.0 12.6314);"
  echo "#   salt = cases/md/data/salt_charge.data (atom_style charge, lj/cut/coul/long 10.0)"
  echo "# data: examples:<path below LAMMPS's examples> or repo:<path in this repository>; q_column: 0-based column of q in the Atoms lines"
  echo "# g_ewald_given/mesh_given: 0 = chosen by LAMMPS; lmp_* columns: the values lmp printed (%.8g)"
  echo "case,system,data,q_column,cutoff,units,accuracy,order,g_ewald_given,mesh_given,table_bits,lmp_g_ewald,lmp_nx,lmp_ny,lmp_nz,lmp_order,lmp_abs_accuracy,lmp_rel_accuracy"
  while IFS='|' read -r name system units accuracy order gewald mesh bits; do
    input=$work/in.$name
    log=$work/$name.log
    {
      echo "units $units"
      system_lines "$system"
      echo "pair_modify table $bits"
      echo "kspace_style pppm $accuracy"
      echo "kspace_modify order $order"
      if [ "$gewald" != 0 ]; then echo "kspace_modify gewald $gewald"; fi
      if [ "$mesh" != "0 0 0" ]; then echo "kspace_modify mesh $mesh"; fi
      echo "run 0"
    } >"$input"
    (cd "$work" && "$lmp" -in "$input" -log "$log" -screen none -echo none -nocite)

    g=$(log_value "$log" "  G vector (1/distance)")
    read -r nx ny nz <<<"$(log_value "$log" "  grid")"
    stencil=$(log_value "$log" "  stencil order")
    abs=$(log_value "$log" "  estimated absolute RMS force accuracy")
    rel=$(log_value "$log" "  estimated relative force accuracy")
    echo "$name,$system,$(data_of "$system"),$units,$accuracy,$order,$gewald,$mesh,$bits,$g,$nx,$ny,$nz,$stencil,$abs,$rel"
  done <<<"$cases"
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
