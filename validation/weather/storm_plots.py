"""Figures and numbers of the moist storm runs (docs/solvers/weather.md §13-14).

Usage (Debian's Python, for h5py and matplotlib):
  /usr/bin/python3 validation/weather/storm_plots.py supercell 4km:OUT4 2km:OUT2 ...
  /usr/bin/python3 validation/weather/storm_plots.py supercell_hv LABEL:OUT ...
  /usr/bin/python3 validation/weather/storm_plots.py squall OUT
  /usr/bin/python3 validation/weather/storm_plots.py bubble LABEL:OUT ...

OUT is a run's output directory (diagnostics.csv, fields/). `supercell` plots max w against
time for each resolution and, per resolution, the accumulated surface rain and the 5 km
updraft at 1 h and 2 h (the split into right- and left-moving storms); `supercell_hv` plots
max w alone (supercell_hv_max_w.png), for runs of any length; `squall` plots max w and the cold pool
against time and an x-z section of theta' and rain at the last output. Each prints, every
10 minutes, the numbers the docs quote. `bubble` takes Bryan & Fritsch runs (dry and moist,
any resolution): theta' (dry) or theta_e' (moist) and w at the last output, side by side, and
max w against time; it prints max w, where it is, and the top of the
thermal (the highest point of the 0.1 K contour of theta' or theta_e' on the centre line).
"""
import os
import sys

import h5py
import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

from weather_measure import (VALIDATION, all_diagnostics, centres, field_at,  # noqa: E402
                             fields_files)

FIGURES = os.path.join(VALIDATION, "figures")


def series(outdir, name):
    rows = all_diagnostics(outdir)
    return (np.array([float(r["time"]) for r in rows]) / 60.0,
            np.array([float(r[name]) for r in rows]))


def print_every_10_minutes(label, outdir, names):
    rows = all_diagnostics(outdir)
    print(f"{label}: t [min] " + " ".join(names))
    for r in rows:
        minutes = float(r["time"]) / 60.0
        if abs(minutes - round(minutes)) < 1e-6 and round(minutes) % 10 == 0:
            print(f"  {minutes:5.0f} " + " ".join(f"{float(r[n]):.4g}" for n in names))


def supercell(runs):
    max_w_figure(runs, "supercell_max_w.png", "DCMIP2016 supercell, Cartesian, Kessler: max w")
    for label, outdir in runs:
        try:
            storm_maps(label, outdir)
        except LookupError as missing:  # a run cut short: its max w still counts
            print(f"{label}: no maps ({missing})")


def supercell_hv(runs):
    """Max w only: runs at several grids and hyperviscosities (no 1 h / 2 h maps needed)."""
    max_w_figure(runs, "supercell_hv_max_w.png",
                 "supercell: max w at matched hyperviscosity nu4 = hv_beta dx^4 / (16 dt)")


def max_w_figure(runs, name, title):
    fig, ax = plt.subplots(figsize=(6.5, 3.6), dpi=90)
    for label, outdir in runs:
        t, w = series(outdir, "w_max")
        ax.plot(t, w, label=label)
        print_every_10_minutes(label, outdir, ["w_max", "qr_max", "precip_rate_max", "d_water"])
    ax.set_xlabel("t (min)")
    ax.set_ylabel("max w (m/s)")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(FIGURES, name))
    plt.close(fig)


def storm_maps(label, outdir):
    """Accumulated rain and w at 5 km at 1 h and 2 h: the split into two storms."""
    fig, axes = plt.subplots(2, 2, figsize=(8.4, 7.2), dpi=90)
    for col, seconds in enumerate((3600.0, 7200.0)):
        data, attrs = field_at(outdir, seconds, ["rain_accumulated", "w"])
        x, _ = centres(attrs, 0)
        y, _ = centres(attrs, 1)
        z, _ = centres(attrs, 2)
        rain = data["rain_accumulated"][0]  # kg/m^2 = mm of water
        level = int(np.argmin(np.abs(z - 5000.0)))
        w5 = data["w"][level]
        minutes = float(attrs["time"]) / 60.0
        top = axes[0][col].pcolormesh(x / 1000, y / 1000, rain, cmap="Blues", shading="nearest")
        fig.colorbar(top, ax=axes[0][col], label="rain (mm)", shrink=0.85)
        axes[0][col].set_title(f"{label}: accumulated rain, {minutes:.0f} min", fontsize=9)
        bound = max(np.abs(w5).max(), 1e-6)
        bottom = axes[1][col].pcolormesh(x / 1000, y / 1000, w5, cmap="RdBu_r", vmin=-bound,
                                         vmax=bound, shading="nearest")
        fig.colorbar(bottom, ax=axes[1][col], label="w (m/s)", shrink=0.85)
        axes[1][col].set_title(f"{label}: w at z = {z[level] / 1000:.2f} km, {minutes:.0f} min",
                               fontsize=9)
        for ax in (axes[0][col], axes[1][col]):
            ax.set_aspect("equal")
            ax.set_xlabel("x (km)")
            ax.set_ylabel("y (km)")
        print(f"{label}: {minutes:.0f} min, rain max {rain.max():.3g} mm, "
              f"w at {z[level]:.0f} m in [{w5.min():.3g}, {w5.max():.3g}] m/s, "
              f"updraft cells (w > 5 m/s; x km, y km, max w) {updraft_cells(x, y, w5)}")
    fig.tight_layout()
    fig.savefig(os.path.join(FIGURES, f"supercell_{label}_rain_w5km.png"))
    plt.close(fig)


def updraft_cells(x, y, w5, threshold=5.0):
    """(x, y) in km of the strongest point of each connected region with w > threshold."""
    inside = w5 > threshold
    seen = np.zeros_like(inside)
    cells = []
    for start in zip(*np.nonzero(inside)):
        if seen[start]:
            continue
        seen[start] = True
        stack, best = [start], start
        while stack:
            j, i = stack.pop()
            if w5[j, i] > w5[best]:
                best = (j, i)
            for dj, di in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                n = (j + dj, i + di)
                if 0 <= n[0] < w5.shape[0] and 0 <= n[1] < w5.shape[1] and inside[n] \
                        and not seen[n]:
                    seen[n] = True
                    stack.append(n)
        cells.append((round(float(x[best[1]]) / 1000), round(float(y[best[0]]) / 1000),
                      round(float(w5[best]), 1)))
    return sorted(cells, key=lambda c: c[1])


def squall(outdir):
    print_every_10_minutes("squall line", outdir,
                           ["w_max", "theta_pert_min", "qr_max", "precip_rate_max", "d_water"])
    fig, axes = plt.subplots(1, 2, figsize=(9.0, 3.2), dpi=90)
    t, w = series(outdir, "w_max")
    _, cold = series(outdir, "theta_pert_min")
    axes[0].plot(t, w)
    axes[0].set_ylabel("max w (m/s)")
    axes[1].plot(t, cold)
    axes[1].set_ylabel("min theta' (K)")
    for ax in axes:
        ax.set_xlabel("t (min)")
        ax.grid(alpha=0.3)
    fig.suptitle("2-D squall line, 1 km x 500 m", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(FIGURES, "squall_line_series.png"))
    plt.close(fig)

    data, attrs = field_at(outdir, None, ["theta_pert", "qr"])
    x, _ = centres(attrs, 0)
    z, _ = centres(attrs, 2)
    theta, rain = data["theta_pert"][:, 0, :], data["qr"][:, 0, :] * 1000.0
    fig, ax = plt.subplots(figsize=(9.0, 3.0), dpi=90)
    bound = np.abs(theta).max()
    image = ax.pcolormesh(x / 1000, z / 1000, theta, cmap="RdBu_r", vmin=-bound, vmax=bound,
                          shading="nearest", rasterized=True)
    ax.contour(x / 1000, z / 1000, rain, levels=[0.1, 1.0, 3.0], colors="k", linewidths=0.6)
    fig.colorbar(image, ax=ax, label="theta' (K)")
    ax.set_xlabel("x (km)")
    ax.set_ylabel("z (km)")
    ax.set_title(f"theta' and rain (0.1, 1, 3 g/kg), t = {float(attrs['time']) / 60:.0f} min",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(FIGURES, "squall_line_section.png"))
    plt.close(fig)
    surface = theta[0]
    cold = x[surface < -1.0]
    if cold.size:
        print(f"cold pool (theta' < -1 K at the ground) from x = {cold.min() / 1000:.0f} to "
              f"{cold.max() / 1000:.0f} km, min {surface.min():.2f} K")


def bubble(runs):
    fig, axes = plt.subplots(len(runs), 2, figsize=(9.0, 2.6 * len(runs)), dpi=90, squeeze=False)
    for row, (label, outdir) in enumerate(runs):
        name = "theta_e_pert" if has_field(outdir, "theta_e_pert") else "theta_pert"
        data, attrs = field_at(outdir, None, [name, "w"])
        x, _ = centres(attrs, 0)
        z, _ = centres(attrs, 2)
        theta, w = data[name][:, 0, :], data["w"][:, 0, :]
        for col, (values, title, step) in enumerate(((theta, name, 0.4), (w, "w (m/s)", 2.0))):
            bound = max(np.abs(values).max(), 1e-6)
            ax = axes[row][col]
            ax.pcolormesh(x / 1000, z / 1000, values, cmap="RdBu_r", vmin=-bound, vmax=bound,
                          shading="nearest", rasterized=True)
            levels = [v for v in np.arange(-20, 20.01, step) if abs(v) > 1e-9]
            ax.contour(x / 1000, z / 1000, values, levels=levels, colors="k", linewidths=0.5)
            ax.set_aspect("equal")
            ax.set_title(f"{label}: {title}, t = {float(attrs['time']):.0f} s, "
                         f"contours every {step:g}", fontsize=9)
            ax.set_xlabel("x (km)")
            ax.set_ylabel("z (km)")
        centre = int(np.argmin(np.abs(x - 10000.0)))
        warm = z[theta[:, centre] > 0.1]
        k, i = np.unravel_index(int(np.argmax(w)), w.shape)
        print(f"{label}: t = {float(attrs['time']):.0f} s, max w {w.max():.2f} m/s at "
              f"x = {x[i] / 1000:.2f} km, z = {z[k] / 1000:.2f} km; {name} in "
              f"[{theta.min():.2f}, {theta.max():.2f}] K; 0.1 K top on the centre line "
              f"{warm.max() / 1000 if warm.size else float('nan'):.2f} km")
    fig.tight_layout()
    fig.savefig(os.path.join(FIGURES, "bryan_fritsch_fields.png"))
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6.0, 3.4), dpi=90)
    for label, outdir in runs:
        t, w = series(outdir, "w_max")
        ax.plot(t * 60.0, w, label=label)
    ax.set_xlabel("t (s)")
    ax.set_ylabel("max w (m/s)")
    ax.set_title("Bryan & Fritsch bubbles: max w", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(FIGURES, "bryan_fritsch_max_w.png"))
    plt.close(fig)


def has_field(outdir, name):
    with h5py.File(sorted(fields_files(outdir).items())[-1][1], "r") as f:
        return name in f


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "supercell":
        supercell([tuple(arg.split(":", 1)) for arg in sys.argv[2:]])
    elif len(sys.argv) >= 3 and sys.argv[1] == "supercell_hv":
        supercell_hv([tuple(arg.split(":", 1)) for arg in sys.argv[2:]])
    elif len(sys.argv) >= 3 and sys.argv[1] == "bubble":
        bubble([tuple(arg.split(":", 1)) for arg in sys.argv[2:]])
    elif len(sys.argv) == 3 and sys.argv[1] == "squall":
        squall(sys.argv[2])
    else:
        sys.exit(__doc__)
