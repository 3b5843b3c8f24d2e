#!/usr/bin/python3
"""NVE with constraints for validation/report.md (docs/solvers/md.md, issue 19).

Rigid SPC/E water (cases/md/spce_water_nve.toml: LAMMPS's examples/HEAT/data.spce,
1024 molecules, 3072 atoms, lj/cut/coul/long 10 A, no tail, no shift, PPPM 1e-4,
skin 2 A), NVE:

  settle_2fs  SETTLE at 2 fs       settle_1fs  SETTLE at 1 fs
  shake_2fs   SHAKE 1e-4 (LAMMPS's multiplier test, 10 iterations) at 2 fs
  lmp_2fs     Debian lmp, fix nve + fix shake 0.0001 10 0 b 1 a 1 at 2 fs (the reference)

For each: the drift of the total energy in kcal/mol per ns per atom (least-squares
slope of tot_eng against time over 10 block means, with its standard error from
the fit's residuals), the RMS of tot_eng about that line, and (ours) the largest
constraint_dev (max over clusters of |r - d| / d) over every sampled step.

Usage: constraints_nve.py [--build DIR] [--ps PS] [--runs a,b,...] [--figures DIR]
Prints a markdown section; writes validation/figures/md_constraints_nve.png.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = "/usr/share/lammps/examples/HEAT/data.spce"
ATOMS = 3072
EVERY = 10  # sampling interval, steps

CASE = os.path.join(ROOT, "cases", "md", "spce_water_nve.toml")

LMP = """units real
atom_style full
read_data %(data)s
pair_style lj/cut/coul/long 10.0
pair_coeff * * 0.0 1.0
pair_coeff 2 2 0.15535 3.166
pair_modify table 0
kspace_style pppm 1.0e-4
bond_style harmonic
angle_style harmonic
bond_coeff 1 1000.0 1.0
angle_coeff 1 100.0 109.47
neighbor 2.0 bin
timestep %(dt)r
fix 1 all nve
fix 2 all shake 0.0001 10 0 b 1 a 1
thermo_style custom step etotal
thermo_modify format float %%.15g
thermo %(every)d
run %(steps)d
"""

RUNS = {"settle_2fs": ("settle", 2.0), "settle_1fs": ("settle", 1.0),
        "shake_2fs": ("shake", 2.0), "lmp_2fs": ("lmp", 2.0)}


def run_ours(exe, work, name, style, dt, steps):
    out = os.path.join(work, name)
    settings = {"run.steps": steps, "time.dt": dt, "constraints.style": '"%s"' % style,
                "diagnostics.every_steps": EVERY}
    command = [exe, "run", CASE, "--output-dir", out]
    for key, value in settings.items():
        command += ["--set", "%s=%s" % (key, value)]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.exit("%s failed:\n%s" % (name, done.stdout[-3000:]))
    rows = list(csv.DictReader(open(os.path.join(out, "diagnostics.csv"))))
    step = np.array([float(r["step"]) for r in rows])
    return step * dt * 1e-6, np.array([float(r["tot_eng"]) for r in rows]), \
        np.array([float(r["constraint_dev"]) for r in rows])


def run_lmp(work, dt, steps):
    path = os.path.join(work, "in.nve")
    with open(path, "w") as f:
        f.write(LMP % dict(data=DATA, dt=dt, every=EVERY, steps=steps))
    done = subprocess.run(["lmp", "-in", path, "-log", os.path.join(work, "log.lammps")],
                          cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.exit("lmp failed:\n" + done.stdout[-3000:])
    step, energy, rows = [], [], False
    for line in done.stdout.splitlines():
        words = line.split()
        if words[:2] == ["Step", "TotEng"]:
            rows = True
        elif rows and len(words) == 2 and words[0].isdigit():
            step.append(float(words[0]))
            energy.append(float(words[1]))
        elif rows:
            rows = False
    return np.array(step) * dt * 1e-6, np.array(energy), None


def drift(t, e, blocks=10):
    """Slope per atom (kcal/mol/ns/atom) of 10 block means, its standard error, the RMS about the line."""
    n = len(t) // blocks * blocks
    tb, eb = t[:n].reshape(blocks, -1).mean(axis=1), e[:n].reshape(blocks, -1).mean(axis=1)
    (slope, icpt), cov = np.polyfit(tb, eb, 1, cov=True)
    rms = np.sqrt(np.mean((e - (slope * t + icpt)) ** 2))
    return slope / ATOMS, np.sqrt(cov[0, 0]) / ATOMS, rms


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    parser.add_argument("--ps", type=float, default=20.0, help="length of each run, ps")
    parser.add_argument("--runs", default=",".join(RUNS))
    parser.add_argument("--figures", default=os.path.join(ROOT, "validation", "figures"))
    args = parser.parse_args()
    exe = os.path.join(args.build, "apps", "cloudburst")
    results = {}
    with tempfile.TemporaryDirectory(prefix="cb_constraints_nve_") as work:
        for name in args.runs.split(","):
            style, dt = RUNS[name]
            steps = int(round(args.ps * 1000.0 / dt))
            if style == "lmp":
                results[name] = run_lmp(work, dt, steps)
            else:
                results[name] = run_ours(exe, work, name, style, dt, steps)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6.4, 5.6), sharex=True)
    print("| run | ps | drift (kcal/mol/ns/atom) | RMS of E_tot about the fit (kcal/mol) | largest constraint_dev |")
    print("|---|---|---|---|---|")
    for name, (t, e, dev) in results.items():
        slope, error, rms = drift(t, e)
        largest = "" if dev is None else "%.2e" % dev.max()
        print("| %s | %.1f | %+.2e +- %.1e | %.3f | %s |" % (name, t[-1] * 1e3, slope, error, rms, largest))
        top.plot(t * 1e3, (e - e[0]) / ATOMS, lw=0.7, label=name)
        if dev is not None:
            bottom.semilogy(t * 1e3, np.maximum(dev, 1e-17), lw=0.7, label=name)
    top.set_ylabel("(E_tot - E_tot(0)) / N  (kcal/mol)")
    top.set_title("SPC/E, 3072 atoms, NVE, PPPM 1e-4, rc 10 A")
    top.legend(fontsize=7)
    bottom.set_xlabel("time (ps)")
    bottom.set_ylabel("max |r - d| / d")
    bottom.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(args.figures, "md_constraints_nve.png"), dpi=120)


if __name__ == "__main__":
    main()
