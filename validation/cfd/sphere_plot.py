#!/usr/bin/python3
"""Steady flow past a sphere: C_D over time, the last field's velocity on the
wake axis and the recirculation length, for one or more runs of
cases/cfd/sphere_re100.toml (a sphere of diameter 1 at the origin, stream
along +x, a grid symmetric about y = 0 and z = 0).

    sphere_plot.py OUT.png LABEL:RUN_DIR [LABEL:RUN_DIR ...] [--window T]

Prints per run: C_D at the end, its change over the last T time units (the
approach to the steady state), the mean |C_L| (the lateral force, zero for
an exactly symmetric discretisation), the recirculation length L / D (where
u on the axis changes sign behind the sphere) and C_D against the Clift,
Grace & Weber (1978) correlation C_D = 24 / Re (1 + 0.1935 Re^0.6305)
(20 <= Re <= 260; 1.0886 at Re 100).
"""
import argparse
import csv
import glob
import os

import h5py
import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt

REYNOLDS = 100.0
CLIFT_CD = 24.0 / REYNOLDS * (1.0 + 0.1935 * REYNOLDS**0.6305)


def read_columns(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return {name: np.array([float(r[name]) for r in rows]) for name in rows[0]}


def case_extent(run):
    """Domain bounds from the run's XDMF (origin and spacing of the grid)."""
    with open(os.path.join(run, "fields.xmf")) as f:
        text = f.read()
    blocks = text.split("<DataItem")
    numbers = [b.split(">", 1)[1].split("<", 1)[0].split() for b in blocks[1:3]]
    origin = [float(v) for v in numbers[0]][::-1]  # XDMF lists z, y, x
    spacing = [float(v) for v in numbers[1]][::-1]
    return np.array(origin), np.array(spacing)


def axis_velocity(run):
    """x of the cell centres behind the sphere and u on the axis (the mean of
    the four cells around y = z = 0) in the last field file."""
    last = sorted(glob.glob(os.path.join(run, "fields", "fields_*.h5")))[-1]
    with h5py.File(last, "r") as f:
        u = f["u"][...]  # (z, y, x)
    origin, h = case_extent(run)
    nz, ny, nx = u.shape
    j, k = ny // 2, nz // 2
    on_axis = 0.25 * (u[k - 1, j - 1] + u[k - 1, j] + u[k, j - 1] + u[k, j])
    x = origin[0] + (np.arange(nx) + 0.5) * h[0]
    behind = x > 0.5 + h[0]  # cells wholly behind the sphere's rear point
    return x[behind], on_axis[behind]


def recirculation_length(x, u):
    """Distance from the rear point x = 0.5 to the first sign change of u."""
    for i in range(len(u) - 1):
        if u[i] < 0.0 <= u[i + 1]:
            return x[i] - u[i] * (x[i + 1] - x[i]) / (u[i + 1] - u[i]) - 0.5
    return float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("png")
    parser.add_argument("runs", nargs="+", metavar="LABEL:RUN_DIR")
    parser.add_argument("--window", type=float, default=5.0)
    args = parser.parse_args()
    fig, (ax_cd, ax_u) = plt.subplots(1, 2, figsize=(11, 4))
    print("| run | C_D at the end (t) | change over the last %g | mean abs C_L | L / D "
          "| C_D / Clift - 1 |" % args.window)
    print("|---|---|---|---|---|---|")
    for item in args.runs:
        label, run = item.split(":", 1)
        c = read_columns(os.path.join(run, "diagnostics.csv"))
        t, cd = c["time"], c["cd"]
        earlier = np.searchsorted(t, t[-1] - args.window)
        x, u = axis_velocity(run)
        length = recirculation_length(x, u)
        print("| %s | %.4f (%.1f) | %+.2e | %.1e | %.3f | %+.2f %% |" %
              (label, cd[-1], t[-1], cd[-1] - cd[earlier], np.mean(np.abs(c["cl"][t > 5])),
               length, 100.0 * (cd[-1] / CLIFT_CD - 1.0)))
        shown = t > 1.0
        ax_cd.plot(t[shown], cd[shown], lw=0.9, label=label)
        ax_u.plot(x, u, lw=0.9, label="%s (L/D %.2f)" % (label, length))
    ax_cd.axhline(CLIFT_CD, color="k", ls="--", lw=0.8, label="Clift et al. (1978)")
    ax_cd.set_xlabel("t U / D")
    ax_cd.set_ylabel("C_D")
    ax_cd.legend(fontsize=8)
    ax_cd.grid(alpha=0.3)
    ax_u.axhline(0.0, color="k", lw=0.5)
    ax_u.set_xlabel("x / D on the axis (rear point at 0.5)")
    ax_u.set_ylabel("u / U at the end")
    ax_u.legend(fontsize=8)
    ax_u.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.png, dpi=120)


if __name__ == "__main__":
    main()
