#!/usr/bin/python3
"""MD validation runs for validation/report.md (docs/solvers/md.md): energy drift, g(r), EOS.

  drift  NVE, shifted LJ (cutoff 2.5), 4000 atoms (fcc 0.8442 melted from T 3.0),
         dt 0.005 for 100 tau: the slope of the total energy per atom against time
         (least squares, after the 2-tau melt) must stay below 1e-5 per tau.
  rdf    NVT (Nose-Hoover, damp 0.5) at rho 0.8442, T 0.722, 4000 atoms: melted at
         T 3.0 first (the lattice start), a checkpoint, then a restart that samples
         g(r) (cutoff 2.5, 250 bins). First peak near r = 1.08 sigma, height about 3.
  eos    NVT at rho 0.8, T 2.0, cutoff 4.0 with tail corrections, 2048 atoms: mean
         pressure and potential energy per atom with block-average standard errors,
         against Johnson, Zollweg & Gubbins, Mol. Phys. 78, 591 (1993) at this state
         point (the required reference values): P = 5.312, U = -4.760.

Usage: md_validation.py [--build DIR] [--ranks N] [--quick] [--figures DIR]
Prints a markdown section; writes PNG figures. Needs /usr/bin/python3 with numpy
and matplotlib, and mpiexec.
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
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS="1")
JZG_P, JZG_U = 5.312, -4.760  # Johnson, Zollweg & Gubbins (1993), rho 0.8, T 2.0


def case_text(cells, density, temperature, steps, cutoff, extra, pair=""):
    return """[run]
solver = "md"
case = "lattice"
steps = %d
[time]
dt = 0.005
[md]
lattice = "fcc"
density = %r
lattice_cells = [%d, %d, %d]
temperature = %r
seed = 87287
[pair]
cutoff = %r
%s[neighbor]
skin = 0.3
every = 1
check = true
[checkpoint]
at_end = true
%s""" % (steps, density, cells, cells, cells, temperature, cutoff, pair, extra)


def run(exe, ranks, work, name, text, restart=None):
    path = os.path.join(work, name + ".toml")
    with open(path, "w") as f:
        f.write(text)
    out = os.path.join(work, name)
    command = ["mpiexec", "-n", str(ranks), exe, "run", path, "--output-dir", out]
    if restart:
        command += ["--restart", restart]
    done = subprocess.run(command, env=MPI_ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.exit("%s failed:\n%s" % (" ".join(command), done.stdout[-3000:]))
    rows = list(csv.DictReader(open(os.path.join(out, "diagnostics.csv"))))
    table = {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}
    return table, done.stdout, out


def block_mean(values, blocks=10):
    """Mean and its standard error from `blocks` block averages."""
    n = len(values) // blocks * blocks
    means = values[:n].reshape(blocks, -1).mean(axis=1)
    return means.mean(), means.std(ddof=1) / np.sqrt(blocks)


def drift(exe, ranks, work, quick, figures):
    steps = 2000 if quick else 20000  # 100 tau at dt 0.005
    text = case_text(10, 0.8442, 3.0, steps, 2.5, "[diagnostics]\nevery_steps = 100\n", "shift = true\n")
    table, _, _ = run(exe, ranks, work, "drift", text)
    t, e = table["time"], table["tot_eng"]
    settled = t >= 2.0  # the lattice melts in the first 2 tau: a transient, not drift
    slope = np.polyfit(t[settled], e[settled], 1)[0]
    e_settled = e[settled][0]
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.figure(figsize=(6, 3.2))
    plt.plot(t, e - e_settled, lw=0.8)
    plt.axvline(2.0, color="grey", lw=0.5, ls="--")
    plt.xlabel("time (tau)")
    plt.ylabel("E_tot(t) - E_tot(2 tau) per atom")
    plt.title("NVE, 4000 atoms, shifted LJ rc 2.5, dt 0.005")
    plt.tight_layout()
    plt.savefig(os.path.join(figures, "md_energy_drift.png"), dpi=120)
    plt.close()
    return {"steps": steps, "tau": t[-1], "slope": slope, "e0": e_settled,
            "max_dev": np.max(np.abs(e[settled] - e_settled)), "transient": e_settled - e[0]}


def rdf(exe, ranks, work, quick, figures):
    melt, sample = (500, 1000) if quick else (2000, 6000)
    thermostat = "[thermostat]\nstyle = \"nose_hoover\"\ntemperature = 0.722\ndamp = 0.5\nchain = 1\n"
    diag = "[diagnostics]\nevery_steps = 100\n"
    _, _, first = run(exe, ranks, work, "rdf_melt", case_text(10, 0.8442, 3.0, melt, 2.5, thermostat + diag))
    checkpoint = os.path.join(first, "checkpoints", "chk_%08d.h5" % melt)
    compute = "[compute]\nrdf_bins = 250\nrdf_cutoff = 2.5\nrdf_every = 10\n"
    table, out, _ = run(exe, ranks, work, "rdf_sample",
                        case_text(10, 0.8442, 3.0, melt + sample, 2.5, thermostat + diag + compute), checkpoint)
    r, g = [], []
    for line in out.splitlines():
        words = line.split()
        if len(words) == 3 and words[0] == "rdf":
            r.append(float(words[1]))
            g.append(float(words[2]))
    r, g = np.array(r), np.array(g)
    peak = int(np.argmax(g))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.figure(figsize=(6, 3.2))
    plt.plot(r, g, lw=1)
    plt.axvline(1.08, color="grey", lw=0.5, ls="--")
    plt.xlabel("r (sigma)")
    plt.ylabel("g(r)")
    plt.title("LJ liquid, rho 0.8442, T 0.722 (NVT), 4000 atoms")
    plt.tight_layout()
    plt.savefig(os.path.join(figures, "md_rdf.png"), dpi=120)
    plt.close()
    temp = table["temp"][table["step"] > melt]
    return {"melt": melt, "sample": sample, "peak_r": r[peak], "peak_g": g[peak],
            "temp": temp.mean(), "restart": checkpoint}


def eos(exe, ranks, work, quick):
    equilibrate, production = (500, 2000) if quick else (2000, 20000)
    extra = ("[thermostat]\nstyle = \"nose_hoover\"\ntemperature = 2.0\ndamp = 0.5\nchain = 1\n"
             "[diagnostics]\nevery_steps = 10\n")
    text = case_text(8, 0.8, 2.0, equilibrate + production, 4.0, extra, "tail = true\n")
    table, _, _ = run(exe, ranks, work, "eos", text)
    keep = table["step"] > equilibrate
    p, p_err = block_mean(table["press"][keep])
    u, u_err = block_mean(table["e_pair"][keep])
    return {"atoms": 4 * 8 ** 3, "equilibrate": equilibrate, "production": production,
            "p": p, "p_err": p_err, "u": u, "u_err": u_err, "temp": table["temp"][keep].mean()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="10x fewer steps (a smoke test)")
    parser.add_argument("--figures", default=os.path.join(ROOT, "validation", "figures"))
    parser.add_argument("--only", nargs="+", default=["drift", "rdf", "eos"])
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    exe = os.path.join(args.build, "apps", "cloudburst")
    os.makedirs(args.figures, exist_ok=True)
    work = tempfile.mkdtemp(prefix="cb_md_report_")
    print("MD validation runs on %d rank(s)%s (work dir %s)\n" % (args.ranks, ", QUICK" if args.quick else "", work))
    if "drift" in args.only:
        d = drift(exe, args.ranks, work, args.quick, args.figures)
        print("### Energy conservation (NVE)\n")
        print("4000 atoms, shifted LJ (cutoff 2.5, skin 0.3, list checked every step), dt 0.005, "
              "%d steps = %.0f tau from the fcc lattice at T 3.0. The lattice melts in the first "
              "2 tau (E_tot changes by %.2e per atom while it does, the integration error of the "
              "violent start); the drift is the least-squares slope of E_tot per atom from 2 tau "
              "to the end, sampled every 100 steps.\n" % (d["steps"], d["tau"], d["transient"]))
        print("| E_tot(2 tau) per atom | drift per atom per tau | max abs(E - E(2 tau)) per atom | limit | within |")
        print("|---|---|---|---|---|")
        print("| %.6f | %.2e | %.2e | 1e-5 | %s |\n" % (d["e0"], d["slope"], d["max_dev"], "yes" if abs(d["slope"]) < 1e-5 else "NO"))
        print("![Energy drift](figures/md_energy_drift.png)\n")
    if "rdf" in args.only:
        g = rdf(exe, args.ranks, work, args.quick, args.figures)
        print("### Radial distribution function near the triple point\n")
        print("4000 atoms, rho 0.8442, Nose-Hoover T 0.722 (damp 0.5): %d steps melting from the lattice "
              "at T 3.0 under the thermostat, a checkpoint, then a restart from it sampling g(r) every "
              "10 steps for %d steps (mean T %.4f).\n" % (g["melt"], g["sample"], g["temp"]))
        print("| first peak r (sigma) | g(r) at the peak | expected |")
        print("|---|---|---|")
        print("| %.3f | %.3f | r about 1.08, g about 3.0 |\n" % (g["peak_r"], g["peak_g"]))
        print("![g(r)](figures/md_rdf.png)\n")
    if "eos" in args.only:
        e = eos(exe, args.ranks, work, args.quick)
        print("### Equation of state against Johnson, Zollweg & Gubbins (1993)\n")
        print("%d atoms, rho 0.8, Nose-Hoover T 2.0 (damp 0.5), cutoff 4.0 with the long-range tail "
              "corrections, %d steps of equilibration then %d sampled every 10 steps; errors are "
              "standard errors of 10 block averages. Mean T %.4f.\n" % (e["atoms"], e["equilibrate"], e["production"], e["temp"]))
        print("| quantity | cloudburst | JZG 1993 | difference | difference / error |")
        print("|---|---|---|---|---|")
        for name, value, err, ref in [("P", e["p"], e["p_err"], JZG_P), ("U per atom", e["u"], e["u_err"], JZG_U)]:
            print("| %s | %.4f ± %.4f | %.3f | %+.4f | %.1f |" % (name, value, err, ref, value - ref, abs(value - ref) / err))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
