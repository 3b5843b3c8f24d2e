#!/usr/bin/python3
"""Force coefficients and the probes' pressure difference of a CFD run with
bodies over time, from its diagnostics.csv (columns cd, cl and, with
[probes], dp), with a benchmark's interval for dp drawn as a band.

    shedding_plot.py OUT.png DIAGNOSTICS.csv [--dp-interval LO HI] [--from T]
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def read_columns(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return {name: [float(r[name]) for r in rows] for name in rows[0]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("png")
    parser.add_argument("csv")
    parser.add_argument("--dp-interval", nargs=2, type=float, metavar=("LO", "HI"))
    parser.add_argument("--from", dest="start", type=float, default=0.0,
                        help="first time shown (the start-up is off scale)")
    args = parser.parse_args()
    c = read_columns(args.csv)
    shown = [k for k, t in enumerate(c["time"]) if t >= args.start]
    time = [c["time"][k] for k in shown]
    panels = [("cd", "C_D"), ("cl", "C_L")] + ([("dp", "Δp")] if "dp" in c else [])
    fig, axes = plt.subplots(len(panels), 1, sharex=True, figsize=(7, 2.2 * len(panels)))
    for ax, (column, label) in zip(axes, panels):
        ax.plot(time, [c[column][k] for k in shown], lw=0.8)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
        if column == "dp" and args.dp_interval:
            ax.axhspan(*args.dp_interval, color="tab:green", alpha=0.25,
                       label="benchmark interval")
            ax.legend(loc="upper right", fontsize=8)
    axes[-1].set_xlabel("t")
    fig.tight_layout()
    fig.savefig(args.png, dpi=120)


if __name__ == "__main__":
    main()
