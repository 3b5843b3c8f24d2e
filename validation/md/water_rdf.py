#!/usr/bin/python3
"""SPC/E water's g_OO(r): cloudburst beside GROMACS on the same system (docs/solvers/md.md).

cloudburst's side is the "rdf r g" table a run prints (its run.log; [compute] rdf_bins,
rdf_pairs = [2, 2] for O-O in HEAT/data.spce). GROMACS's side is run here: HEAT/data.spce
through gromacs/spce_from_lammps.py, gromacs/spce_production.mdp (v-rescale 298 K,
C-rescale 1 atm, PME, SETTLE) with positions saved every 0.5 ps, then `gmx rdf` for OW-OW
after --skip ps (and `gmx energy`'s averages over the same time). Prints each curve's first peak (position and height, a parabola through
the highest bin and its neighbours) and the largest and rms differences between the
curves on the common bins; writes a figure.

Usage: water_rdf.py RUN_LOG [--gmx-steps N] [--skip PS] [--work DIR] [--figure PNG]
Needs /usr/bin/python3 with numpy (and matplotlib for the figure), and gmx.
"""
import argparse
import os
import re
import subprocess
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = "/usr/share/lammps/examples/HEAT/data.spce"


def read_ours(run_log):
    """r (A) and g from the last rdf table of a cloudburst run log."""
    rows = []
    for line in open(run_log):
        if line.startswith("rdf: "):
            rows = []
        elif re.match(r"rdf [0-9.]+ ", line):
            rows.append([float(w) for w in line.split()[1:3]])
    if not rows:
        raise SystemExit("%s: no 'rdf r g' table" % run_log)
    table = np.array(rows)
    return table[:, 0], table[:, 1]


def run_gromacs(work, steps, skip_ps):
    """GROMACS's OW-OW g(r) (r in A) after skip_ps of a run of `steps` steps (an rdf.xvg
    already in `work` is read again rather than run)."""
    if not os.path.exists(os.path.join(work, "rdf.xvg")):
        gromacs_rdf(work, steps, skip_ps)
    rows = [line.split() for line in open(os.path.join(work, "rdf.xvg"))
            if line.strip() and line[0] not in "#@"]
    table = np.array(rows, dtype=float)
    return table[:, 0] * 10.0, table[:, 1]


def run_gmx(work, *args, stdin=None):
    """Runs `gmx args` in `work`; its output (stops the script on a failure)."""
    done = subprocess.run(["gmx", "-quiet", *args], cwd=work, input=stdin, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        raise SystemExit("gmx %s failed:\n%s" % (args[0], done.stdout[-3000:]))
    return done.stdout


def gromacs_rdf(work, steps, skip_ps):
    """Runs GROMACS in `work`, leaving rdf.xvg there."""
    def gmx(*args, stdin=None):
        return run_gmx(work, *args, stdin=stdin)

    subprocess.run(["/usr/bin/python3", os.path.join(HERE, "gromacs", "spce_from_lammps.py"),
                    DATA, os.path.join(work, "spce")], check=True)
    mdp = open(os.path.join(HERE, "gromacs", "spce_production.mdp")).read()
    mdp = re.sub(r"(?m)^nsteps\s*=.*$", "nsteps = %d" % steps, mdp)
    mdp = re.sub(r"(?m)^nstxout-compressed\s*=.*$", "nstxout-compressed = 250", mdp)
    with open(os.path.join(work, "rdf.mdp"), "w") as f:
        f.write(mdp)
    gmx("grompp", "-f", "rdf.mdp", "-c", "spce.gro", "-p", "spce.top", "-o", "spce.tpr")
    gmx("mdrun", "-s", "spce.tpr", "-ntmpi", "1", "-ntomp", "1", "-deffnm", "spce")
    gmx("rdf", "-f", "spce.xtc", "-s", "spce.tpr", "-ref", "name OW", "-sel", "name OW",
        "-b", str(skip_ps), "-bin", "0.002", "-rmax", "1.0", "-o", "rdf.xvg")
    averages = gmx("energy", "-f", "spce.edr", "-b", str(skip_ps), "-o", "energy.xvg",
                   stdin="Density\nPotential\nTemperature\nPressure\n")
    with open(os.path.join(work, "energy.txt"), "w") as f:
        f.write(averages)


def first_peak(r, g):
    """Position and height of the highest value, refined by a parabola through three bins."""
    k = int(np.argmax(g))
    if 0 < k < len(g) - 1:
        y0, y1, y2 = g[k - 1], g[k], g[k + 1]
        curvature = y0 - 2.0 * y1 + y2
        shift = 0.5 * (y0 - y2) / curvature if curvature != 0.0 else 0.0
        width = r[k + 1] - r[k]
        return r[k] + shift * width, y1 - 0.25 * (y0 - y2) * shift
    return r[k], g[k]


def figure(curves, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for label, (r, g) in curves.items():
        ax.plot(r, g, lw=1.0, label=label)
    ax.set_xlim(2.0, 10.0)
    ax.set_xlabel("r (A)")
    ax.set_ylabel("g_OO(r)")
    ax.set_title("SPC/E water, 298 K, 1 atm: oxygen-oxygen g(r)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_log")
    parser.add_argument("--gmx-steps", type=int, default=50000)
    parser.add_argument("--skip", type=float, default=20.0, help="GROMACS equilibration (ps)")
    parser.add_argument("--work", default="")
    parser.add_argument("--figure", default="")
    args = parser.parse_args()

    work = args.work or tempfile.mkdtemp(prefix="cb_water_rdf_")
    os.makedirs(work, exist_ok=True)
    theirs = run_gromacs(work, args.gmx_steps, args.skip)
    ours = read_ours(args.run_log)
    for label, (r, g) in (("cloudburst", ours), ("GROMACS", theirs)):
        position, height = first_peak(r, g)
        print("%-11s first peak r = %.3f A, g = %.3f (%d bins of %.3f A)"
              % (label, position, height, len(r), r[1] - r[0]))
    upper = min(ours[0][-1], theirs[0][-1])
    grid = ours[0][(ours[0] >= 2.0) & (ours[0] <= upper)]
    difference = np.interp(grid, *ours) - np.interp(grid, *theirs)
    print("g difference over %.2f-%.2f A: largest %.3f, rms %.4f"
          % (grid[0], grid[-1], np.abs(difference).max(), np.sqrt(np.mean(difference ** 2))))
    energy = os.path.join(work, "energy.txt")
    if os.path.exists(energy):  # gmx energy's averages after --skip (kJ/mol, kg/m^3)
        print("".join(line for line in open(energy)
                      if line.split()[:1] in (["Density"], ["Potential"], ["Temperature"],
                                              ["Pressure"])), end="")
    print("GROMACS work directory:", work)
    if args.figure:
        figure({"cloudburst": ours, "GROMACS 2022.5": theirs}, args.figure)
        print("figure:", args.figure)


if __name__ == "__main__":
    main()
