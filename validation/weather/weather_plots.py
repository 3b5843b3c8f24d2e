"""Figures of the weather validation report: theta' fields and the Straka surface."""
import glob
import os

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

from weather_measure import VALIDATION, centres, field_at  # noqa: E402

FIGURES = os.path.join(VALIDATION, "figures")


def plot_theta(outdir, title, path, xlim=None, levels=None):
    data, attrs = field_at(outdir, None, ["theta_pert"])
    theta = data["theta_pert"][:, 0, :]
    x, _ = centres(attrs, 0)
    z, _ = centres(attrs, 2)
    if xlim is not None:
        keep = (x >= xlim[0]) & (x <= xlim[1])
        x, theta = x[keep], theta[:, keep]
    aspect = (z[-1] - z[0]) / (x[-1] - x[0])
    width = 8.0 if aspect <= 1.0 else 4.8
    height = max(2.2, min(5.5, (width - 1.5) * aspect + 1.0))
    fig, ax = plt.subplots(figsize=(width, height), dpi=90)
    bound = np.abs(theta).max()
    image = ax.pcolormesh(x / 1000, z / 1000, theta, cmap="RdBu_r", vmin=-bound, vmax=bound,
                          shading="nearest", rasterized=True)
    if levels is not None:
        ax.contour(x / 1000, z / 1000, theta, levels=levels, colors="k", linewidths=0.5)
    fig.colorbar(image, ax=ax, label="theta' (K)", shrink=0.9)
    ax.set_xlabel("x (km)")
    ax.set_ylabel("z (km)")
    ax.set_aspect("equal")
    ax.set_title(f"{title}, t = {float(attrs['time']):.0f} s", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def plot_straka_surface(measures, reference_front, path):
    fig, ax = plt.subplots(figsize=(7, 3), dpi=90)
    for name, m in measures:
        x, surface = m["surface"]
        ax.plot(x / 1000, surface, label=f"{m['spacing']:.0f} m")
    ax.axhline(-1.0, color="gray", lw=0.8, ls="--")
    ax.axvline(reference_front, color="k", lw=0.8, ls=":", label="Straka et al. front")
    ax.set_xlim(0, 20)
    ax.set_xlabel("x (km)")
    ax.set_ylabel("surface theta' (K)")
    ax.set_title("Straka density current, lowest cell row, t = 900 s", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def make_figures(runs, outdirs, measures, reference_front):
    os.makedirs(FIGURES, exist_ok=True)
    for old in glob.glob(os.path.join(FIGURES, "*_theta.png")) + \
            [os.path.join(FIGURES, "straka_surface.png")]:
        if os.path.isfile(old):
            os.remove(old)
    by_name = {run.name: run for run in runs}
    for name, title in (("thermal_2d", "Rising thermal"), ("collision_2d", "Colliding thermals"),
                        ("robert_2d", "Robert (1993) thermal")):
        run = by_name[name]
        plot_theta(outdirs[name], f"{title}, {run.cells[0]} x {run.cells[2]}",
                   os.path.join(FIGURES, f"{name}_theta.png"))
    for name, m in measures:
        plot_theta(outdirs[name], f"Straka density current, {m['spacing']:.0f} m",
                   os.path.join(FIGURES, f"{name}_theta.png"), xlim=(0.0, 19200.0),
                   levels=np.arange(-16.5, 0.0, 1.0))
    plot_straka_surface(measures, reference_front, os.path.join(FIGURES, "straka_surface.png"))
