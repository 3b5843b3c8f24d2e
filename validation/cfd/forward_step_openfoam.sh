#!/usr/bin/env bash
# Runs Debian OpenFOAM's rhoCentralFoam tutorial `forwardStep` (Mach 3 step of
# Woodward & Colella 1984; Kurganov-Tadmor central fluxes, 240 x 80 cells of
# 0.0125 in three blocks) to t = 4 as shipped, except that it writes only
# t = 1, 2, 3, 4, and prints its wall time per cell-step and the shock
# positions of validation/cfd/forward_step.py. Results go to DIR (default
# /tmp/cloudburst-forward-step): openfoam.npz (density on the uniform grid),
# forward_step_openfoam.png.
#   validation/cfd/forward_step_openfoam.sh [DIR]
# Needs Debian's openfoam and openfoam-examples (apt-get install openfoam).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-/tmp/cloudburst-forward-step}"
tutorial=/usr/share/doc/openfoam-examples/examples/compressible/rhoCentralFoam/forwardStep
[[ -d $tutorial ]] || { echo "needs Debian's openfoam-examples ($tutorial)" >&2; exit 2; }
rm -rf "$out/openfoam"
mkdir -p "$out"
cp -r "$tutorial" "$out/openfoam"
cd "$out/openfoam"
sed -i 's/^writeInterval .*/writeInterval   1;/' system/controlDict
# OpenFOAM's environment script reads unset variables and reports helpers
# that Debian does not ship; the solvers only need the variables it sets.
set +u
# shellcheck disable=SC1091
source /usr/share/openfoam/etc/bashrc >/dev/null 2>&1 || true
set -u
blockMesh > log.blockMesh
start=$(date +%s.%N)
rhoCentralFoam > log.rhoCentralFoam
end=$(date +%s.%N)
postProcess -func writeCellCentres -time 4 > log.writeCellCentres
cells=$(awk '/nCells:/ { print $2 }' log.blockMesh)
steps=$(grep -c '^Time = ' log.rhoCentralFoam)
awk -v c="$cells" -v s="$steps" -v t0="$start" -v t1="$end" 'BEGIN {
  printf "openfoam rhoCentralFoam: %d cells, %d steps to t = 4, %.1f s wall, %.3e cell-steps/s\n",
         c, s, t1 - t0, c * s / (t1 - t0) }'
/usr/bin/python3 "$root/validation/cfd/forward_step.py" openfoam "$out/openfoam" "$out/openfoam.npz"
/usr/bin/python3 "$root/validation/cfd/forward_step.py" plot "$out/forward_step_openfoam.png" \
  "$out/openfoam.npz"
