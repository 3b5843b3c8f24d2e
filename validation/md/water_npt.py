#!/usr/bin/python3
"""SPC/E water NPT averages from a run of cases/md/spce_water_npt.toml (docs/solvers/md.md).

Reads the run's diagnostics.csv and prints, over the production part (from --start ps):
density, potential energy per molecule, temperature and pressure with block-average
standard errors, and the isothermal compressibility from the volume fluctuations,
kappa_T = <dV^2> / (k_B T <V>) (Allen & Tildesley), with a jackknife error over the
blocks. Writes a figure of density and energy per molecule against time.

Yardsticks (issue 19, measured on this machine): LAMMPS 0.9951 g/cm^3, -11.146
kcal/mol; GROMACS 2022.5 1000.35 +- 3.7 kg/m^3, -11.22 kcal/mol. Compressibility:
water's measured 45.2e-6 /bar at 25 C (4.52e-10 /Pa, e.g. the CRC Handbook); SPC/E's
is close to it, about 46e-6 /bar (Vega & Abascal 2011, PCCP 13:19663; quoted, the
table was not available here to recheck).

With --lammps-log LOG, the same averages from the thermo rows of Debian's lmp running
validation/md/in.spce_production (columns step temp press pe density vol, 2 fs steps)
instead of a cloudburst run.

Usage: water_npt.py OUTPUT_DIR [--start PS] [--blocks N] [--molecules N] [--figure PNG]
       water_npt.py --lammps-log LOG [--start PS] [--blocks N] [--molecules N]
Needs /usr/bin/python3 with numpy (and matplotlib for the figure).
"""
import argparse
import csv
import os

import numpy as np

from md_validation import block_mean

BOLTZMANN = 1.380649e-23  # J/K
ANGSTROM3 = 1e-30         # m^3
PA_PER_BAR = 1e5


def read_table(output_dir):
    rows = list(csv.DictReader(open(os.path.join(output_dir, "diagnostics.csv"))))
    return {key: np.array([float(r[key]) for r in rows]) for key in rows[0]}


def read_lammps_log(path, dt_fs=2.0):
    """The thermo rows (step temp press pe density vol) of an lmp log, time in fs."""
    rows, columns = [], None
    for line in open(path):
        words = line.split()
        if words[:6] == ["Step", "Temp", "Press", "PotEng", "Density", "Volume"]:
            columns = words
            continue
        if columns and len(words) == len(columns):
            try:
                rows.append([float(w) for w in words])
            except ValueError:
                columns = None
        elif columns and words[:2] == ["Loop", "time"]:
            columns = None
    if not rows:
        raise SystemExit(path + ": no thermo rows 'Step Temp Press PotEng Density Volume'")
    data = np.array(rows)
    return {"time": data[:, 0] * dt_fs, "temp": data[:, 1], "press": data[:, 2],
            "pe": data[:, 3], "density": data[:, 4], "vol": data[:, 5]}


def compressibility_per_bar(volume, temperature):
    """kappa_T from the volume fluctuations at the mean temperature (1/bar)."""
    kt = BOLTZMANN * temperature.mean()
    return volume.var(ddof=1) * ANGSTROM3 / (kt * volume.mean()) * PA_PER_BAR


def jackknife_compressibility(volume, temperature, blocks):
    """kappa_T's jackknife standard error over `blocks` contiguous blocks left out in turn."""
    n = len(volume) // blocks * blocks
    groups = np.arange(n) // (n // blocks)
    leave_out = [compressibility_per_bar(volume[:n][groups != b], temperature[:n][groups != b])
                 for b in range(blocks)]
    return np.sqrt((blocks - 1) / blocks * np.sum((leave_out - np.mean(leave_out)) ** 2))


def figure(table, molecules, start_fs, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ps = table["time"] / 1000.0
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    top.plot(ps, table["density"], lw=0.8)
    top.axhspan(0.995, 1.000, color="tab:green", alpha=0.2, label="issue 19: 0.995-1.000")
    top.set_ylabel("density (g/cm$^3$)")
    top.legend(loc="lower right")
    bottom.plot(ps, table["pe"] / molecules, lw=0.8)
    bottom.axhspan(-11.2, -11.1, color="tab:green", alpha=0.2, label="issue 19: -11.2 to -11.1")
    bottom.set_ylabel("PE per molecule (kcal/mol)")
    bottom.set_xlabel("t (ps)")
    bottom.legend(loc="upper right")
    for ax in (top, bottom):
        ax.axvline(start_fs / 1000.0, color="k", lw=0.6, ls="--")
    top.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output_dir", nargs="?", default="")
    parser.add_argument("--lammps-log", default="", help="lmp log of in.spce_production")
    parser.add_argument("--start", type=float, default=20.0, help="production from (ps)")
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--molecules", type=int, default=1024)
    parser.add_argument("--figure", default="")
    parser.add_argument("--title", default="SPC/E water NPT, 298 K, 1 atm (CSVR + C-rescale, "
                        "SETTLE, PPPM)")
    args = parser.parse_args()

    if bool(args.output_dir) == bool(args.lammps_log):
        raise SystemExit("give a cloudburst OUTPUT_DIR or --lammps-log LOG")
    table = read_lammps_log(args.lammps_log) if args.lammps_log else read_table(args.output_dir)
    keep = table["time"] >= args.start * 1000.0
    if keep.sum() < 2 * args.blocks:
        raise SystemExit("only %d rows from %.1f ps on" % (keep.sum(), args.start))
    t0, t1 = table["time"][keep][[0, -1]] / 1000.0
    print("production %.1f-%.1f ps, %d rows, %d blocks" % (t0, t1, keep.sum(), args.blocks))
    for label, values in (("density (g/cm^3)", table["density"]),
                          ("PE per molecule (kcal/mol)", table["pe"] / args.molecules),
                          ("temperature (K)", table["temp"]),
                          ("pressure (atm)", table["press"])):
        mean, error = block_mean(values[keep], args.blocks)
        print("%-28s %.5f +- %.5f" % (label, mean, error))
    kappa = compressibility_per_bar(table["vol"][keep], table["temp"][keep])
    error = jackknife_compressibility(table["vol"][keep], table["temp"][keep], args.blocks)
    print("%-28s %.1f +- %.1f (jackknife over the blocks)"
          % ("kappa_T (1e-6 /bar)", kappa * 1e6, error * 1e6))
    if args.figure:
        figure(table, args.molecules, args.start * 1000.0, args.figure, args.title)
        print("figure:", args.figure)


if __name__ == "__main__":
    main()
