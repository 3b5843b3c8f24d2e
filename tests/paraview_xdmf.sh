#!/usr/bin/env bash
# ParaView opens what cloudburst writes: runs a 2-D weather case, a 3-D CFD
# case, an LJ MD case, a charged MD case and, where lammps-examples is
# installed, SPC/E water with bonds on 2 ranks (short, with field or particle
# output every step or two), then validation/paraview/check_xdmf.py under
# pvbatch checks each .xmf in ParaView's three XDMF readers against the HDF5
# datasets and renders one picture per kind into the output directory.
# Usage: paraview_xdmf.sh CLOUDBURST_EXE SOURCE_DIR WORK_DIR
# Exits 4 (skipped) when pvbatch, xvfb-run or ParaView's Python are missing.
set -euo pipefail
exe="$1" source="$2" work="$3"
if ! command -v pvbatch >/dev/null || ! command -v xvfb-run >/dev/null; then
  echo "paraview_xdmf: pvbatch or xvfb-run is not installed (paraview, python3-paraview, xvfb)"
  exit 4
fi
# One X server for every pvbatch below: starting one per call raced with the
# previous one's shutdown ("bad X server connection"). -noreset: by default
# Xvfb resets when its last client leaves, and a pvbatch connecting during
# the reset is refused the same way.
if [[ -z "${PARAVIEW_XDMF_IN_XVFB:-}" ]]; then
  export PARAVIEW_XDMF_IN_XVFB=1
  exec xvfb-run -a -s "-screen 0 1024x768x24 -noreset" "$0" "$@"
fi
rm -rf "$work" && mkdir -p "$work"
cases="$source/cases"
run() {
  local name="$1"
  shift
  ${launch:-} "$exe" run "$@" --output-dir "$work/$name" >"$work/$name.log" 2>&1 || {
    cat "$work/$name.log"
    exit 1
  }
}
run weather_2d "$cases/weather/collision_2d.toml" --set run.steps=4 --set output.every_steps=2 \
  --set 'grid.cells=[40,1,20]'
run cfd_3d "$cases/cfd/taylor_green.toml" --set run.steps=2 --set output.every_steps=1 \
  --set 'grid.cells=[8,8,8]'
run md_lj "$cases/md/lj_melt.toml" --set run.steps=20 --set output.every_steps=10
run md_salt "$cases/md/salt_coul_cut.toml" --set run.steps=4 --set output.every_steps=2
entries="weather_2d/fields.xmf:grid cfd_3d/fields.xmf:grid md_lj/particles.xmf:particles
  md_salt/particles.xmf:particles"
# Molecules: SPC/E water with 2048 bonds, on 2 ranks so that bonds join atoms
# of both ranks' rows.
water=/usr/share/lammps/examples/HEAT/data.spce
if [[ -f $water ]] && command -v mpiexec >/dev/null; then
  launch="mpiexec -n 2" run md_water "$source/validation/paraview/water_bonds.toml"
  entries="$entries md_water/particles.xmf:particles"
else
  echo "paraview_xdmf: no bonds checked ($water or mpiexec is missing)"
fi
# Checks one .xmf; a pvbatch refused by the X server (seen on a machine
# loaded 5x over its cores) is tried again, twice at most: the check is of
# the files, not of the X server.
check() {
  local xmf="$1" kind="$2" log="$work/check.log"
  for attempt in 1 2 3; do
    if pvbatch "$source/validation/paraview/check_xdmf.py" "$xmf" "$kind" \
      "$(dirname "$xmf").png" >"$log" 2>&1; then
      grep -v "^$" "$log"
      return 0
    fi
    grep -q "bad X server connection" "$log" || break
    echo "(pvbatch refused by the X server, attempt $attempt)"
    sleep 2
  done
  grep -v "^$" "$log"
  return 1
}
status=0
for entry in $entries; do
  xmf="$work/${entry%%:*}" kind="${entry##*:}"
  echo "== $xmf ($kind)"
  check "$xmf" "$kind" || status=1
done
exit $status
