#!/usr/bin/env bash
# The supercell studies of docs/solvers/weather.md §13, run and plotted in one go:
#   resolution  cases/weather/supercell_3d.toml at 4, 2, 1 and 0.5 km (hv_beta 0.01), 2 h;
#   hv          at matched hyperviscosity nu4 = hv_beta dx^4 / (16 dt) (dt is fixed by the
#               500 m vertical spacing, so matching nu4 across a grid doubling means hv_beta
#               x 16): 4 km with 2 km's and 1 km's nu4 to 60 min, 2 km with 4 km's and 1 km's
#               to 40 min.
# Usage: validation/weather/supercell_runs.sh BUILD_DIR OUT_ROOT [resolution|hv ...]
#   STORM_RANKS (default 1) ranks per run; SUPERCELL_SPACINGS (default "4 2 1 0.5") in km;
#   PYTHON (default /usr/bin/python3, Debian's: h5py and matplotlib) for the figures.
# A study's figures go to validation/figures (storm_plots.py), its numbers to stdout.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:?usage: supercell_runs.sh BUILD_DIR OUT_ROOT [resolution|hv ...]}"
out="${2:?usage: supercell_runs.sh BUILD_DIR OUT_ROOT [resolution|hv ...]}"
shift 2
studies=("$@")
if [[ ${#studies[@]} -eq 0 ]]; then studies=(resolution hv); fi
exe="$build/apps/cloudburst"
case_file="$root/cases/weather/supercell_3d.toml"
python="${PYTHON:-/usr/bin/python3}"
source "$root/scripts/mpi-env"

# storm NAME CELLS HV_BETA END_TIME: one run into OUT_ROOT/NAME (resumed if it was cut short)
storm() {
  echo "supercell_runs: $1 (cells $2, hv_beta $3, to $4 s)"
  mpirun -n "${STORM_RANKS:-1}" "$exe" run "$case_file" --set "grid.cells=$2" \
    --set "weather.hv_beta=$3" --set "run.end_time=$4" --output-dir "$out/$1" \
    --restart auto | grep -E "^(finished|microphysics):"
}

cells_at() {  # horizontal spacing in km -> the grid for 168 km x 168 km x 20 km
  awk -v km="$1" 'BEGIN { n = 168 / km; printf "[%d,%d,40]", n, n }'
}

for study in "${studies[@]}"; do
  case $study in
    resolution)
      plots=()
      for km in ${SUPERCELL_SPACINGS:-4 2 1 0.5}; do
        storm "${km}km" "$(cells_at "$km")" 0.01 7200.0
        plots+=("${km}km:$out/${km}km")
      done
      "$python" "$root/validation/weather/storm_plots.py" supercell "${plots[@]}" ;;
    hv)
      storm 4km_hv0.000625 "$(cells_at 4)" 0.000625 3600.0
      storm 4km_hv3.90625e-5 "$(cells_at 4)" 3.90625e-5 3600.0
      storm 2km_hv0.16 "$(cells_at 2)" 0.16 2400.0
      storm 2km_hv0.000625 "$(cells_at 2)" 0.000625 2400.0
      labels=()
      for km in 4 2 1; do
        if [[ -d "$out/${km}km" ]]; then labels+=("${km}km hv0.01:$out/${km}km"); fi
      done
      "$python" "$root/validation/weather/storm_plots.py" supercell_hv "${labels[@]}" \
        "4km hv0.000625:$out/4km_hv0.000625" "4km hv3.9e-5:$out/4km_hv3.90625e-5" \
        "2km hv0.16:$out/2km_hv0.16" "2km hv0.000625:$out/2km_hv0.000625" ;;
    *) echo "supercell_runs: unknown study $study (resolution, hv)" >&2; exit 2 ;;
  esac
done
