#!/usr/bin/python3
"""The Schäfer & Turek (1996) confined-cylinder figures of a run of
cases/cfd/schaefer_turek_2d1.toml or schaefer_turek_2d2.toml against the
benchmark's intervals.

    schaefer_turek.py RUN_DIR {2d1,2d2} [--from T]

2d1 (steady, Re 20): the means of C_D, C_L and the pressure difference dp
over the window and their ranges there (the acoustic waves of the impulsive
start ring in the closed channel), and the recirculation length L_a (from the rear
point x = 0.25 to where u on y = 0.2 turns positive, linear between cell
centres) from the last checkpoint. 2d2 (periodic, Re 100): the largest C_D and
C_L and the mean dp over the window (the benchmark's dp is taken half a
period after the lift's maximum; the Strouhal number is in the run summary). The window is t >= T, default the second half of the run.

Intervals of Schäfer, Turek, Durst, Krause & Rannacher (1996), Benchmark
computations of laminar flow around a cylinder, Notes Numer. Fluid Mech. 52,
as quoted in the Basilisk test cylinder-confined.c (tortotubus/PacIFiC,
src/Octree/MovingCutCell/test-navier-stokes/) and, for L_a, dp and St, in
musubi's FlowAroundCylinder2D_Bench reference files.
"""
import argparse
import csv
import glob
import os
import tomllib

import h5py
import numpy as np

INTERVALS = {
    "2d1": {"C_D": (5.57, 5.59), "C_L": (0.0104, 0.0110), "L_a": (0.0842, 0.0852),
            "dp": (0.1172, 0.1176)},
    "2d2": {"C_D max": (3.22, 3.24), "C_L max": (0.99, 1.01), "dp mean": (2.46, 2.50)},
}
CENTER, RADIUS = (0.2, 0.2), 0.05


def read_columns(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return {name: np.array([float(r[name]) for r in rows]) for name in rows[0]}


def recirculation_length(run):
    """L_a from the last checkpoint: u = mom_x / rho on the line y = 0.2."""
    last = sorted(glob.glob(os.path.join(run, "checkpoints", "chk_*.h5")))[-1]
    with h5py.File(last, "r") as f:
        u = (f["fields/mom_x"][0] / f["fields/rho"][0])  # (y, x)
        case = tomllib.loads(f.attrs["case_text"].decode())
    grid = case["grid"]
    nx, ny = grid["cells"][0], grid["cells"][1]
    hx = (grid["hi"][0] - grid["lo"][0]) / nx
    hy = (grid["hi"][1] - grid["lo"][1]) / ny
    y = grid["lo"][1] + (np.arange(ny) + 0.5) * hy
    x = grid["lo"][0] + (np.arange(nx) + 0.5) * hx
    # u on y = CENTER[1], linear between the two rows around it
    j = np.searchsorted(y, CENTER[1]) - 1
    w = (CENTER[1] - y[j]) / hy
    line = (1 - w) * u[j] + w * u[j + 1]
    rear = CENTER[0] + RADIUS
    behind = np.nonzero(x > rear + hx)[0]
    for a, b in zip(behind[:-1], behind[1:]):
        if line[a] < 0.0 <= line[b]:
            x0 = x[a] - line[a] * (x[b] - x[a]) / (line[b] - line[a])
            return x0 - rear
    return float("nan")


def verdict(value, bounds):
    lo, hi = bounds
    if lo <= value <= hi:
        return "inside"
    gap = value - (hi if value > hi else lo)
    return f"{'above' if gap > 0 else 'below'} by {abs(gap) / (lo if gap < 0 else hi):.1%}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run")
    parser.add_argument("case", choices=sorted(INTERVALS))
    parser.add_argument("--from", dest="start", type=float, default=None)
    args = parser.parse_args()
    d = read_columns(os.path.join(args.run, "diagnostics.csv"))
    t = d["time"]
    window = t >= (args.start if args.start is not None else 0.5 * t[-1])
    if args.case == "2d1":
        figures = {"C_D": d["cd"][window].mean(), "C_L": d["cl"][window].mean(),
                   "L_a": recirculation_length(args.run), "dp": d["dp"][window].mean()}
        drift = {k: np.ptp(d[c][window]) for k, c in (("C_D", "cd"), ("C_L", "cl"), ("dp", "dp"))}
    else:
        figures = {"C_D max": d["cd"][window].max(), "C_L max": d["cl"][window].max(),
                   "dp mean": d["dp"][window].mean()}
        drift = {}
    print(f"{args.run}: t = {t[window][0]:.3f} .. {t[-1]:.3f}")
    for name, value in figures.items():
        lo, hi = INTERVALS[args.case][name]
        extra = f", range over the window {drift[name]:.3g}" if name in drift else ""
        print(f"  {name:8s} {value:.4f}  interval [{lo}, {hi}]: {verdict(value, (lo, hi))}{extra}")


if __name__ == "__main__":
    main()
