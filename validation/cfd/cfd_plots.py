"""Figures of validation/cfd/run_validation.py (validation/figures/cfd_*.png)."""
import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)


def plot_riemann(problem, result, exact_fine, path):
    """Profiles of rho, u, p at every resolution; exact_fine(t) -> rows x, rho, u, p."""
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.2), dpi=90)
    t = result["rows"][-1]["time"]
    for n, (x, rho, u, p) in sorted(result["profiles"].items()):
        for ax, values in zip(axes, (rho, u, p)):
            ax.plot(x, values, ".", ms=2.5 if n >= 400 else 4, label=f"{n} cells")
    fine = exact_fine(t)
    for ax, column, name in zip(axes, (1, 2, 3), ("density", "velocity", "pressure")):
        ax.plot(fine[:, 0], fine[:, column], "k-", lw=0.8, label="exact")
        ax.set_xlabel("x")
        ax.set_title(name, fontsize=10)
    axes[0].legend(fontsize=7)
    fig.suptitle(f"{problem} at t = {t:g}: MUSCL (van Leer) + HLLC + SSP-RK3 vs exact",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_vortex(results, path):
    fig, ax = plt.subplots(figsize=(5.5, 4.2), dpi=90)
    for scheme, rows in results.items():
        n = np.array([r["cells"] for r in rows], float)
        e = np.array([r["l2"] for r in rows])
        ax.loglog(n, e, "o-", label=scheme)
    first = next(iter(results.values()))
    n0, e0 = float(first[0]["cells"]), first[0]["l2"]
    n = np.array([n0, max(r["cells"] for rows in results.values() for r in rows)], float)
    for order, style in ((2, ":"), (3, "--"), (5, "-.")):
        ax.loglog(n, e0 * (n0 / n) ** order, "k" + style, lw=0.7, label=f"order {order}")
    ax.set_xlabel("cells per side")
    ax.set_ylabel("L2(rho - rho_0)")
    ax.set_title("isentropic vortex after one period", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_tgv(results, reference, path):
    t_ref, ek_ref, eps_ref, _ = reference
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), dpi=90)
    end = max(r["end"] for r in results.values())
    keep = t_ref <= end + 0.5
    axes[0].plot(t_ref[keep], ek_ref[keep], "k-", lw=1.2, label="DNS 512^3 (van Rees 2011)")
    axes[1].plot(t_ref[keep], eps_ref[keep], "k-", lw=1.2, label="DNS 512^3 (van Rees 2011)")
    for name, r in results.items():
        label = f"{r['scheme']} {r['cells']}^3"
        axes[0].plot(r["t"], r["ek"], label=label)
        axes[1].plot(r["t"], r["eps"], label=label)
    axes[0].set_ylabel("Ek")
    axes[1].set_ylabel("-dEk/dt")
    for ax in axes:
        ax.set_xlabel("t")
        ax.legend(fontsize=7)
    fig.suptitle("Taylor-Green vortex, Re 1600, Mach 0.1", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_cavity(re_number, rows, path):
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8), dpi=90)
    for r in rows:
        y_all, u_all, v_all = r["line"]
        axes[0].plot(u_all, y_all, "-", label=f"cloudburst {r['cells']}^2, t = {r['time']:g}")
        axes[1].plot(y_all, v_all, "-", label=f"cloudburst {r['cells']}^2, t = {r['time']:g}")
    ys, u_ref, xs, v_ref = rows[0]["ref"]
    axes[0].plot(u_ref, ys, "ko", ms=4, mfc="none", label="Ghia et al. 1982")
    axes[0].set_xlabel("u(x = 0.5, y)")
    axes[0].set_ylabel("y")
    axes[1].plot(xs, v_ref, "ko", ms=4, mfc="none", label="Ghia et al. 1982")
    axes[1].set_xlabel("x")
    axes[1].set_ylabel("v(x, y = 0.5)")
    for ax in axes:
        ax.legend(fontsize=8)
    fig.suptitle(f"lid-driven cavity, Re {re_number}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
