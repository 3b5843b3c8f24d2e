#!/usr/bin/python3
"""The Mach 3 forward-facing step (Woodward & Colella 1984, JCP 54:115) at t = 4:
density on the 240 x 80 grid of h = 0.0125 that OpenFOAM's rhoCentralFoam
tutorial `forwardStep` uses (3 x 1 channel, step of height 0.2 from x = 0.6),
and the x positions of the shocks along horizontal lines.

    forward_step.py openfoam CASE_DIR OUT.npz    # read a finished rhoCentralFoam run
    forward_step.py cloudburst RUN_DIR OUT.npz   # the last checkpoint of a cloudburst run
    forward_step.py shocks OUT.npz [...]        # shock positions of one or more runs
    forward_step.py plot PNG OUT.npz [...]      # density contours, one panel per run

Run by validation/cfd/forward_step_openfoam.sh. Needs Debian's python3-numpy
and python3-matplotlib (/usr/bin/python3).
"""
import os
import re
import sys

import numpy as np

NX, NY, H = 240, 80, 0.0125
STEP_X, STEP_Y = 0.6, 0.2
# Rows (cell centres) along which shocks are located: under the step's top,
# just above it, mid-channel and near the channel's upper wall.
LINES_Y = (0.10625, 0.20625, 0.50625, 0.90625)


def read_foam_list(path):
    """The internalField of an ASCII OpenFOAM volScalarField or volVectorField."""
    text = open(path).read()
    m = re.search(r"internalField\s+nonuniform\s+List<(\w+)>\s*(\d+)\s*\(", text)
    if not m:
        raise SystemExit(f"{path}: no nonuniform internalField")
    count, start = int(m.group(2)), m.end()
    body = text[start:text.index("\n)", start)]
    if m.group(1) == "vector":
        values = np.array(re.findall(r"\(([^)]*)\)", body)[:count])
        return np.array([[float(v) for v in row.split()] for row in values])
    return np.array(body.split()[:count], dtype=float)


def openfoam_to_grid(case_dir, time="4"):
    """rho at `time` on the uniform grid; NaN inside the step."""
    rho = read_foam_list(os.path.join(case_dir, time, "rho"))
    centres = read_foam_list(os.path.join(case_dir, time, "C"))
    grid = np.full((NY, NX), np.nan)
    i = np.floor(centres[:, 0] / H).astype(int)
    j = np.floor(centres[:, 1] / H).astype(int)
    grid[j, i] = rho
    return grid


def cloudburst_to_grid(run_dir):
    """rho of the run's last checkpoint (cases/cfd/forward_step_mach3.toml at
    240 x 80); NaN inside the step, where the cut-cell solver leaves cells untouched."""
    import h5py
    folder = os.path.join(run_dir, "checkpoints")
    last = sorted(f for f in os.listdir(folder) if f.endswith(".h5"))[-1]
    with h5py.File(os.path.join(folder, last), "r") as f:
        rho = np.array(f["/fields/rho"][0], dtype=float)
        print(f"# {run_dir}: t = {float(f.attrs['time']):.4f}")
    if rho.shape != (NY, NX):
        raise SystemExit(f"{run_dir}: grid {rho.shape[::-1]}, expected {NX} x {NY}")
    x = (np.arange(NX) + 0.5) * H
    y = (np.arange(NY) + 0.5) * H
    rho[np.ix_(y < STEP_Y, x > STEP_X)] = np.nan
    return rho


def shock_positions(rho, y, jump=0.3):
    """x of the steepest rise or fall in each run of cells whose density
    changes by more than `jump` over two cells, along the row at height y."""
    row = rho[int(y / H)]
    x = (np.arange(NX) + 0.5) * H
    delta = np.abs(row[2:] - row[:-2])
    steep = np.nan_to_num(delta) > jump
    positions, k = [], 0
    while k < len(steep):
        if steep[k]:
            end = k
            while end + 1 < len(steep) and steep[end + 1]:
                end += 1
            best = k + int(np.argmax(delta[k:end + 1]))
            positions.append(x[best + 1])
            k = end + 1
        else:
            k += 1
    return positions


def print_shocks(paths):
    for path in paths:
        rho = np.load(path)["rho"]
        print(f"# {path}: rho in [{np.nanmin(rho):.3f}, {np.nanmax(rho):.3f}]")
        for y in LINES_Y:
            xs = ", ".join(f"{v:.3f}" for v in shock_positions(rho, y))
            print(f"  y = {y:.3f}: shocks at x = {xs}")


def plot(png, paths):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(paths), 1, figsize=(9, 3.2 * len(paths)), squeeze=False)
    x = (np.arange(NX) + 0.5) * H
    y = (np.arange(NY) + 0.5) * H
    levels = np.linspace(0.25, 6.5, 30)  # Woodward & Colella's 30 contours
    for ax, path in zip(axes[:, 0], paths):
        rho = np.load(path)["rho"]
        ax.contour(x, y, rho, levels=levels, colors="k", linewidths=0.5)
        ax.fill_between([STEP_X, 3.0], 0, STEP_Y, color="0.7")
        ax.set_aspect("equal")
        ax.set_title(f"{os.path.basename(path)}: density at t = 4")
    fig.tight_layout()
    fig.savefig(png, dpi=120)


def main(argv):
    if len(argv) == 4 and argv[1] == "openfoam":
        np.savez(argv[3], rho=openfoam_to_grid(argv[2]))
        print_shocks([argv[3]])
    elif len(argv) == 4 and argv[1] == "cloudburst":
        np.savez(argv[3], rho=cloudburst_to_grid(argv[2]))
        print_shocks([argv[3]])
    elif len(argv) >= 3 and argv[1] == "shocks":
        print_shocks(argv[2:])
    elif len(argv) >= 4 and argv[1] == "plot":
        plot(argv[2], argv[3:])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
