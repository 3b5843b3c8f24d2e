#!/usr/bin/env bash
# Reference energies and forces of the bonded styles of kernels/md/bonded.hpp
# and dihedral.hpp, computed by LAMMPS (`lmp`, Debian's package): one run 0
# per style on an 11-atom molecule (units real, atom_style molecular, no pair
# forces, every other bonded kind set to style zero), energy from thermo at
# %.15g, per-atom forces from a dump at %.15g.
# Writes the CSV (default validation/reference/bonded_lmp.csv) read by
# tests/test_md_bonded.cpp. Usage: validation/lammps/bonded_terms.sh [out.csv]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$(dirname "$here")/reference/bonded_lmp.csv}
lmp=${LMP:-lmp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Atoms: id x y z (A). A bent, twisted chain 1-2-3-4-5 with atom 6 off 3;
# 7-8-9 nearly straight (179.97 deg) and 8-7-10-11 nearly planar (0.03 deg),
# where LAMMPS bounds 1 / sin of the angle (angle and improper styles).
atoms="1 0.1732050808 -0.2236067977 0.0523598776
2 1.5196152423 0.1414213562 -0.1047197551
3 2.0915026221 1.4594519070 0.3141592654
4 3.6055512755 1.3856406461 0.7071067812
5 4.0926769833 2.6457513111 1.6180339887
6 1.7320508076 2.2360679775 -0.9899494937
7 10.0 0.0 0.0
8 11.2 0.1 0.0
9 12.4 0.2006 0.0
10 9.5 1.3 0.0
11 10.3 2.4 0.0009"

# Terms of each run: name, kind, style, then "atoms | coefficients" lines.
# Coefficients are the data-file numbers, in LAMMPS's order.
declare -A terms
runs=(bond_harmonic angle_harmonic angle_charmm dihedral_charmm dihedral_harmonic
      dihedral_opls improper_harmonic)
terms[bond_harmonic]="1 2|350.0 1.53
2 3|280.5 1.41
3 6|410.0 1.09"
terms[angle_harmonic]="1 2 3|63.0 114.2
2 3 4|41.5 100.0
6 3 4|35.0 121.7
7 8 9|63.0 114.2"
terms[angle_charmm]="1 2 3|33.5 110.1 22.53 2.179
2 3 4|51.0 107.5 0.0 0.0
6 3 4|26.5 118.0 11.16 2.561
7 8 9|40.0 170.0 11.16 2.361"
terms[dihedral_charmm]="1 2 3 4|1.4 3 0 0.0
2 3 4 5|0.65 1 180 0.0
6 3 4 5|0.2 2 90 0.0
1 2 3 6|0.35 0 180 0.0"
terms[dihedral_harmonic]="1 2 3 4|2.2 1 2
2 3 4 5|0.8 -1 3
6 3 4 5|1.1 -1 1"
terms[dihedral_opls]="1 2 3 4|1.3 -0.05 0.2 0.1
2 3 4 5|0.7 1.2 -0.3 0.45"
terms[improper_harmonic]="3 2 4 6|40.0 0.0
2 1 3 6|12.5 35.0
8 7 10 11|20.0 10.0"

kind_of() { echo "${1%%_*}"; }
style_of() { echo "${1#*_}"; }

# A data file holding only the terms of one run (types 1..n, one per term).
write_data() {
  local kind=$1 lines=$2 file=$3 n
  n=$(printf '%s\n' "$lines" | wc -l)
  {
    echo "bonded terms: $kind"
    echo
    echo "$(printf '%s\n' "$atoms" | wc -l) atoms"
    echo "1 atom types"
    echo "$n ${kind}s"
    echo "$n ${kind} types"
    echo
    echo "-20.0 20.0 xlo xhi"
    echo "-20.0 20.0 ylo yhi"
    echo "-20.0 20.0 zlo zhi"
    echo
    echo "Masses"
    echo
    echo "1 12.011"
    echo
    echo "Atoms # molecular"
    echo
    printf '%s\n' "$atoms" | awk '{print $1, 1, 1, $2, $3, $4}'
    echo
    echo "${kind^}s"
    echo
    printf '%s\n' "$lines" | awk -F'|' '{print NR, NR, $1}'
  } >"$file"
}

{
  echo "# Reference bonded energies and forces from LAMMPS, written by validation/lammps/bonded_terms.sh"
  echo "# LAMMPS: $("$lmp" -h | sed -n '/^Large-scale/{s/^Large-scale Atomic\/Molecular Massively Parallel Simulator - //;p;q}') ($lmp); date: $(date -u +%Y-%m-%d)"
  echo "# units real, newton_bond on, one run 0 per style; energies: thermo at %.15g (kcal/mol), forces: dump at %.15g (kcal/mol/A)"
  echo "# rows: atom,id,x,y,z | term,run,kind,style,atoms (space separated),coefficients (data-file numbers) | energy,run,E | force,run,id,fx,fy,fz"
  printf '%s\n' "$atoms" | awk '{print "atom," $1 "," $2 "," $3 "," $4}'
  for run in "${runs[@]}"; do
    kind=$(kind_of "$run")
    style=$(style_of "$run")
    printf '%s\n' "${terms[$run]}" | awk -F'|' -v run="$run" -v kind="$kind" -v style="$style" \
      '{print "term," run "," kind "," style "," $1 "," $2}'

    write_data "$kind" "${terms[$run]}" "$work/$run.data"
    {
      echo "units real"
      echo "atom_style molecular"
      for k in bond angle dihedral improper; do
        if [ "$k" = "$kind" ]; then echo "${k}_style $style"; else echo "${k}_style zero"; fi
      done
      echo "read_data $work/$run.data"
      printf '%s\n' "${terms[$run]}" | awk -F'|' -v kind="$kind" '{print kind "_coeff", NR, $2}'
      echo "pair_style zero 5.0"
      echo "pair_coeff * *"
      echo "thermo_style custom step ebond eangle edihed eimp"
      echo "thermo_modify format float %.15g"
      echo "dump 1 all custom 1 $work/$run.dump id fx fy fz"
      echo "dump_modify 1 format float %.15g sort id"
      echo "run 0"
    } >"$work/in.$run"
    "$lmp" -in "$work/in.$run" -log "$work/$run.log" -screen none -echo none

    column=$(case $kind in bond) echo 2 ;; angle) echo 3 ;; dihedral) echo 4 ;; *) echo 5 ;; esac)
    awk -v run="$run" -v col="$column" \
      '$1 == "Step" {getline; print "energy," run "," $col; exit}' "$work/$run.log"
    awk -v run="$run" 'f && NF == 4 {print "force," run "," $1 "," $2 "," $3 "," $4}
      /^ITEM: ATOMS/ {f = 1}' "$work/$run.dump"
  done
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
