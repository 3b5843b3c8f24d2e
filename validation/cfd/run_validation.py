#!/usr/bin/python3
"""Validation of the CFD solver (docs/solvers/cfd.md); writes the "CFD" section of validation/report.md.

    validation/cfd/run_validation.py [--quick] [--build-dir DIR] [--work-dir DIR]
        [--reuse] [--ranks N] [--only GROUP ...] [--tgv SCHEME:CELLS:END[:CFL] ...]
        [--cavity RE:CELLS:END ...] [--partial RUN ...] [--note TEXT]

Runs the case files of cases/cfd with `cloudburst run` (grids and times set
with --set, under mpiexec when --ranks > 1), reads the checkpoints (/fields/*)
and diagnostics.csv, and compares with
  riemann  Sod, Lax, Toro's 123 and blast problems against the exact Riemann
           solution (validation/cfd/exact_riemann.hpp through the
           cfd_exact_riemann program): L1(rho) against resolution, star
           pressure and velocity on the plateau (1%), shock position (2 cells);
  vortex   the isentropic vortex after one period against its initial state:
           L2(rho) and the observed order, MUSCL (no limiter), WENO5, and
           WENO5 with fourth-order averages (at CFL 0.4 and with dt ~ dx^(5/3));
  tgv      Taylor-Green vortex at Re 1600: Ek(t) and -dEk/dt against the 512^3
           spectral DNS of van Rees et al. (2011)
           (validation/reference/tgv_re1600_spectral_512_sampled.csv, and the
           full curve from ../shared/reference when it is there);
  cavity   lid-driven cavity at Re 100 (and 1000 when asked):
           centreline u(y), v(x) against Ghia, Ghia & Shin (1982)
           (validation/reference/ghia1982_centrelines.csv).
Figures go to validation/figures/cfd_*.png. Only what ran is reported; the
report says which groups, grids and end times were run.

Needs Debian's /usr/bin/python3 with h5py, numpy and matplotlib.
"""
import argparse
import datetime
import math
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from cfd_plots import plot_cavity, plot_riemann, plot_tgv, plot_vortex  # noqa: E402
from cfd_measure import (CASES, FIGURES, REPO, RIEMANN, VALIDATION, checkpoints,  # noqa: E402
                         diagnostics, exact_riemann, measure_cavity, measure_riemann, measure_tgv,
                         measure_vortex)
from run_log import run_seconds  # noqa: E402

BEGIN = "<!-- CFD section: written by validation/cfd/run_validation.py; edits below are lost -->"
END = "<!-- end of the CFD section -->"


@dataclass
class Run:
    name: str
    case: str                # case file stem in cases/cfd
    cells: tuple
    end_time: float
    group: str
    sets: list = field(default_factory=list)
    wall_s: float = 0.0
    failed: str = ""          # the end of the output when the run failed
    reused: bool = False
    drop_limiter: bool = False  # run a copy of the case file without its limiter line


def runs_for(args):
    quick = args.quick
    runs = []
    for name, (_, _, end, _, _) in RIEMANN.items():
        grids = (100, 200, 400) if quick else (100, 200, 400, 800)
        if name == "toro123" and not quick:
            grids += (1600, 3200)  # how its plateau pressure converges
        for n in grids:
            runs.append(Run(f"{name}_{n}", name, (n, 1, 1), end, "riemann",
                            ["diagnostics.every_steps=1"]))
    vortex_end = case_end_time("isentropic_vortex")
    weno5 = ["cfd.reconstruction=\"weno5\""]
    fourth = weno5 + ["cfd.fourth_order=true"]
    finite_difference = weno5 + ["cfd.finite_difference=true"]
    # (label, settings, p): CFL 0.4 (32 / n)^p; p = 2/3 makes dt ~ dx^(5/3), so
    # that RK3's O(dt^3) error falls as fast as a fifth-order spatial one.
    muscl = ["cfd.reconstruction=\"muscl\"", "cfd.limiter=\"none\""]
    for scheme, sets, p in (("muscl", muscl, 0), ("weno5", weno5, 0), ("weno5-fo", fourth, 0),
                            ("weno5-fo-dt", fourth, 2.0 / 3.0),
                            ("weno5-fd", finite_difference, 0),
                            ("weno5-fd-dt", finite_difference, 2.0 / 3.0)):
        grids = (32, 64) if quick else (32, 64, 128, 256)
        if scheme == "weno5-fo-dt" and not quick:
            grids = (32, 64, 128)  # 256^2 would take 40 min on one core
        for n in grids:
            runs.append(Run(f"vortex_{scheme}_{n}", "isentropic_vortex", (n, n, 1), vortex_end,
                            "vortex", sets + ["cfd.integrator=\"ssp_rk3\"",
                                              f"time.cfl={0.4 * (32 / n) ** p!r}",
                                              f"output.every_time={vortex_end}",
                                              "output.fields=[\"rho\"]"],
                            drop_limiter=scheme != "muscl"))
    for spec in args.tgv or (["muscl:32:2", "weno5:32:2"] if quick else
                             ["muscl:64:10", "weno5:64:10"]):
        scheme, n, end, *cfl = spec.split(":")  # an optional CFL number last
        n = int(n)
        runs.append(Run(f"tgv_{scheme}_{n}", "taylor_green", (n, n, n), float(end), "tgv",
                        [f"cfd.reconstruction=\"{scheme}\"", "diagnostics.every_steps=5"]
                        + [f"time.cfl={c}" for c in cfl], drop_limiter=scheme == "weno5"))
    for spec in args.cavity or (["100:64:10"] if quick else ["100:128:30"]):
        re_number, n, end = spec.split(":")
        n = int(n)
        runs.append(Run(f"cavity_re{re_number}_{n}", f"cavity_re{re_number}", (n, n, 1),
                        float(end), "cavity", ["diagnostics.every_steps=200"]))
    if args.only:
        runs = [r for r in runs if r.group in args.only or r.name in args.only]
    return runs


def case_end_time(stem):
    try:
        with open(os.path.join(CASES, stem + ".toml")) as f:
            match = re.search(r"^end_time\s*=\s*([0-9.eE+-]+)", f.read(), re.M)
        return float(match.group(1)) if match else float("nan")
    except OSError:
        return float("nan")


# ---------------------------------------------------------------- running

def find_program(build_dir, relative):
    path = os.path.join(build_dir, relative)
    if not os.access(path, os.X_OK):
        sys.exit(f"run_validation.py: no {path}; build it (cmake --build {build_dir} "
                 f"--target {os.path.basename(relative)}) or pass --build-dir")
    return path


def done_time(outdir):
    files = checkpoints(outdir)
    if not files:
        return None
    with h5py.File(files[-1], "r") as f:
        return float(f.attrs["time"])


def execute(run, program, work_dir, ranks, reuse, partial=()):
    outdir = os.path.join(work_dir, run.name)
    if run.name in partial and os.path.isfile(os.path.join(outdir, "diagnostics.csv")):
        run.reused = True
        run.end_time = float(diagnostics(outdir)["time"][-1])
        run.failed = ""
        print(f"  {run.name}: taking the run as it stands (t = {run.end_time:g})", flush=True)
        return outdir
    if reuse and os.path.isfile(os.path.join(outdir, "diagnostics.csv")):
        t = done_time(outdir)
        if t is not None and abs(t - run.end_time) <= 1e-9 * max(1.0, run.end_time):
            run.reused = True
            print(f"  {run.name}: reusing {outdir}", flush=True)
            return outdir
    case_file = os.path.join(CASES, run.case + ".toml")
    if run.drop_limiter:  # [cfd] limiter is refused unless the reconstruction is MUSCL
        with open(case_file) as f:
            text = "".join(line for line in f if not line.startswith("limiter"))
        case_file = os.path.join(work_dir, run.case + "_no_limiter.toml")
        with open(case_file, "w") as f:
            f.write(text)
    command = [program, "run", case_file, "--output-dir", outdir,
               "--set", "grid.cells=[%d,%d,%d]" % run.cells,
               "--set", f"run.end_time={run.end_time!r}"]
    for s in run.sets:
        command += ["--set", s]
    if ranks > 1:
        command = ["mpiexec", "--oversubscribe", "-n", str(ranks)] + command
    subprocess.run(["rm", "-rf", outdir], check=True)
    print(f"  {run.name}: {' '.join(shlex.quote(c) for c in command)}", flush=True)
    start = time.time()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    run.wall_s = time.time() - start
    if result.returncode != 0:
        run.failed = f"exit {result.returncode}: " + result.stdout[-600:].strip()
        print(f"    FAILED ({run.failed})", flush=True)
        return None
    print(f"    done in {run.wall_s:.1f} s", flush=True)
    return outdir


# ---------------------------------------------------------------- report

def git_commit():
    out = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return out.stdout.strip() or "unknown"


def yes(ok):
    return "yes" if ok else "**no**"


def riemann_lines(results):
    lines = ["### 1-D Riemann problems against the exact solution", "",
             "Exact solution: validation/cfd/exact_riemann.hpp (Toro 2009, ch. 4; its star "
             "states reproduce Toro's Table 4.3 in test_cfd_validation). Defaults of the case "
             "files: MUSCL with the van Leer limiter, HLLC, SSP-RK3, CFL 0.4. Plateau: mean over "
             "the cells whose exact state, and that of 4 neighbours on each side, is the star "
             "state; tolerance 1% at 400 cells (for toro123's u* = 0: 1% of |u_L| = 2; its "
             "p* = 0.0019, 0.5% of the data's pressure, is not reached within 1% at 400 cells: "
             "the near-vacuum is smeared over the plateau). Shock: where rho crosses "
             "halfway between the star and the right density, in cells from the exact position "
             "(tolerance 2 cells at 400 cells). min rho, min p: over every step.", "",
             "| problem | cells | L1(rho) | plateau p (err) | plateau u (err) | shock (cells) | "
             "min rho | min p | within |", "|---|---|---|---|---|---|---|---|---|"]
    for problem, res in results.items():
        ps, us = res["star"]
        l1 = [r["l1"] for r in res["rows"]]
        for r in res["rows"]:
            ok = r["min_rho"] > 0 and r["min_p"] > 0
            if r["cells"] == 400:
                ok = ok and r["p_err_scaled"] <= 0.01 and r["u_err"] <= 0.01
                ok = ok and (np.isnan(r["shock_cells"]) or abs(r["shock_cells"]) <= 2)
            shock = "-" if np.isnan(r["shock_cells"]) else f"{r['shock_cells']:+.2f}"
            lines.append(f"| {problem} (p* {ps:.5g}, u* {us:.5g}) | {r['cells']} | "
                         f"{r['l1']:.3e} | {r['p']:.5g} ({100 * r['p_err']:.2f}%) | "
                         f"{r['u']:.5g} ({100 * r['u_err']:.2f}%) | {shock} | "
                         f"{r['min_rho']:.3g} | {r['min_p']:.3g} | {yes(ok)} |")
        falling = all(b < a for a, b in zip(l1, l1[1:]))
        orders = [np.log2(a / b) for a, b in zip(l1, l1[1:])]
        lines.append(f"| {problem}: L1 falls with resolution: {yes(falling)} (observed orders "
                     + ", ".join(f"{o:.2f}" for o in orders) + ") | | | | | | | | |")
    lines.append("")
    for problem in results:
        lines += [f"![{problem}](figures/cfd_riemann_{problem}.png)", ""]
    return lines


def vortex_lines(results):
    lines = ["### Isentropic vortex: order of accuracy", "",
             "Shu's vortex (strength 5, free stream (1, 1)) on the periodic [-10, 10]^2, one "
             "period (t = 20), SSP-RK3; error = rho after one period minus rho at t = 0 (the "
             "exact solution is the translation). Schemes: `muscl` (no limiter) and `weno5` "
             "(primitive reconstruction, one Riemann flux per face, point-value initial data), "
             "`weno5-fo` (`[cfd] fourth_order`: cell-average initial data, fourth-order "
             "average/point conversions; docs/solvers/cfd.md §2), all at CFL 0.4, and "
             "`weno5-fo-dt` with CFL 0.4 (32/n)^(2/3), i.e. dt ~ dx^(5/3), so that RK3's "
             "error falls at fifth order; `weno5-fd` and `weno5-fd-dt` (`[cfd] "
             "finite_difference`: point values, Lax-Friedrichs split fluxes reconstructed by "
             "WENO5, Jiang & Shu 1996) at CFL 0.4 and with that dt. Required: MUSCL order 2 +/- 0.2, WENO5 at "
             "fixed CFL order >= 3, near 5 with dt ~ dx^(5/3). At fixed CFL RK3 limits the "
             "asymptotic order to 3; the one-point face flux limits `weno5` to 2 in 2-D, the "
             "fourth-order conversions limit `weno5-fo` to 4.", "",
             "| scheme | cells | L1 | L2 | Linf | order (L2) | run (s) |",
             "|---|---|---|---|---|---|---|"]
    for scheme, rows in results.items():
        for r in rows:
            order = f"{r['order']:.2f}" if "order" in r else "-"
            lines.append(f"| {scheme} | {r['cells']}^2 | {r['l1']:.3e} | {r['l2']:.3e} | "
                         f"{r['linf']:.3e} | {order} | {r['wall']:.1f} |")
    lines += ["", "![vortex convergence](figures/cfd_vortex_convergence.png)", ""]
    return lines


def tgv_lines(results, reference):
    source = reference[3]
    lines = ["### Taylor-Green vortex, Re 1600", "",
             "Reference: 512^3 spectral DNS of van Rees et al. (2011), HiOCFD case C3.5 "
             f"(read from {source}; sampled copy in "
             "validation/reference/tgv_re1600_spectral_512_sampled.csv). -dEk/dt of the runs: "
             "centred differences of the diagnostics series. Required at 64^3: Ek "
             "within 2% for t <= 4 with MUSCL, 1% with WENO5; reference dissipation peak 0.012858 "
             "at t = 8.97.", "",
             "| run | end time | max rel. err. Ek, t <= 4 | tolerance | max rel. err. Ek, all t | "
             "peak -dEk/dt (at t) | run (s) |", "|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        tol = 0.02 if r["scheme"] == "muscl" else 0.01
        within = f"{100 * tol:.0f}% ({yes(r['max_err_4'] <= tol)})" if r["cells"] == 64 else \
            "(not a validation grid)"
        peak = f"{r['peak']:.6f} (t = {r['peak_t']:.2f})" if r["end"] >= 10.0 else \
            f"not reached (run ends at t = {r['end']:g}); max so far {r['peak']:.6f}"
        wall = "-" if math.isnan(r["wall"]) else f"{r['wall']:.0f}"  # a run still going
        lines.append(f"| {r['scheme']} {r['cells']}^3 | {r['end']:g} | "
                     f"{100 * r['max_err_4']:.3f}% | {within} | {100 * r['max_err_all']:.3f}% | "
                     f"{peak} | {wall} |")
    lines += ["", "![TGV](figures/cfd_tgv.png)", ""]
    return lines


def cavity_lines(results):
    lines = ["### Lid-driven cavity against Ghia, Ghia & Shin (1982)", "",
             "Centreline u(x = 0.5, y) and v(x, y = 0.5) (the mean of the two cell columns or "
             "rows next to the centreline, wall values added, linear interpolation to Ghia's "
             "points); largest absolute difference over the 17 published points. Tolerance: "
             "0.02 at Re 100, 0.04 at Re 1000.", "",
             "| Re | grid | end time | max abs. err. u | max abs. err. v | tolerance | "
             "max Mach | run (s) |", "|---|---|---|---|---|---|---|---|"]
    for re_number, rows in results.items():
        tol = 0.02 if re_number == "100" else 0.04
        for r in rows:
            ok = r["u_err"] <= tol and r["v_err"] <= tol
            lines.append(f"| {re_number} | {r['cells']}^2 | {r['time']:g} | {r['u_err']:.4f} | "
                         f"{r['v_err']:.4f} | {tol} ({yes(ok)}) | {r['max_mach']:.3f} | "
                         f"{r['wall']:.0f} |")
    lines.append("")
    for re_number in results:
        lines += [f"![cavity Re {re_number}](figures/cfd_cavity_re{re_number}.png)", ""]
    return lines


def command_line():
    """The script's arguments without the --note texts (they are listed at the end)."""
    words, skip = [], False
    for word in sys.argv[1:]:
        if skip or word == "--note":
            skip = word == "--note"
            continue
        words.append(word)
    return words


def write_section(args, runs, measured):
    ran = [r for r in runs if not r.failed]
    lines = [BEGIN, "", "## CFD", "",
             f"Produced by `validation/cfd/run_validation.py {' '.join(command_line())}`".rstrip()
             + f"` on {datetime.date.today().isoformat()} (repository at `{git_commit()}`), "
             f"{args.ranks} MPI rank(s), {os.cpu_count()} CPU cores ({platform.machine()}), "
             f"{'quick' if args.quick else 'full'} mode. Equations and numerics: "
             "[docs/solvers/cfd.md](../docs/solvers/cfd.md). Fast versions of these checks run "
             "in CTest (`tests/test_cfd_validation.cpp`, `tests/test_cfd_vortex.cpp`, label "
             "`validation`).", ""]
    lines = [line.replace("``", "`") for line in lines]
    riemann, vortex, tgv, cavity = measured
    if riemann:
        lines += riemann_lines(riemann)
    if vortex:
        lines += vortex_lines(vortex)
    if tgv[0]:
        lines += tgv_lines(*tgv)
    if cavity:
        lines += cavity_lines(cavity)
    lines += ["### What ran", "", "| run | case | grid | end time | wall time (s) |",
              "|---|---|---|---|---|"]
    for r in runs:
        loop = run_seconds(os.path.join(args.work_dir_used, r.name))
        if r.failed:
            wall = "failed: " + r.failed.replace("\n", " ")[:200]
        elif r.name in args.partial:
            wall = f"partial: taken as it stood at t = {r.end_time:g}"
        else:
            wall = f"{loop:.0f} (time loop{', earlier run' if r.reused else ''})"
        lines.append(f"| {r.name} | {r.case} | {'x'.join(map(str, r.cells))} | "
                     f"{r.end_time:g} | {wall} |")
    lines += [""] + [f"- {note}" for note in args.note] + ["", END, ""]
    path = os.path.join(VALIDATION, "report.md")
    text = open(path).read() if os.path.isfile(path) else ""
    section = "\n".join(lines)
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + section + rest.split(END, 1)[1].lstrip("\n")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(path, "w") as f:
        f.write(text)
    print(f"run_validation.py: wrote the CFD section of {path} ({len(ran)} runs)")


def main():
    global EXACT_PROGRAM
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="coarse grids")
    parser.add_argument("--build-dir", default=os.path.join(REPO, "build", "release"),
                        help="the CMake build directory (apps/cloudburst, validation/"
                        "cfd_exact_riemann)")
    parser.add_argument("--work-dir", help="where runs write (default output/validation/cfd)")
    parser.add_argument("--reuse", action="store_true",
                        help="keep runs whose last checkpoint is at their end time")
    parser.add_argument("--ranks", type=int, default=1, help="MPI ranks per run (mpiexec)")
    parser.add_argument("--only", nargs="*", help="groups (riemann vortex tgv cavity) or runs")
    parser.add_argument("--tgv", nargs="*", metavar="SCHEME:CELLS:END[:CFL]",
                        help="TGV runs (default muscl:64:10 weno5:64:10; quick 32^3 to t = 2)")
    parser.add_argument("--cavity", nargs="*", metavar="RE:CELLS:END",
                        help="cavity runs (default 100:128:30; quick 100:64:10)")
    parser.add_argument("--note", action="append", default=[], help="a line for the report")
    parser.add_argument("--no-report", action="store_true", help="run only")
    parser.add_argument("--partial", nargs="*", default=[],
                        help="runs to take as they stand (diagnostics so far; e.g. a long TGV "
                        "run still going or stopped), reported with the time they reached")
    args = parser.parse_args()

    program = find_program(args.build_dir, "apps/cloudburst")
    EXACT_PROGRAM = find_program(args.build_dir, "validation/cfd_exact_riemann")
    work_dir = args.work_dir or os.path.join(REPO, "output", "validation", "cfd")
    args.work_dir_used = work_dir
    os.makedirs(work_dir, exist_ok=True)
    runs = runs_for(args)
    print(f"run_validation.py: {len(runs)} runs with {program} in {work_dir}", flush=True)
    outdirs = {run.name: execute(run, program, work_dir, args.ranks, args.reuse, args.partial)
               for run in runs}
    if args.no_report:
        return
    measured = (measure_riemann(runs, outdirs, EXACT_PROGRAM), measure_vortex(runs, outdirs),
                measure_tgv(runs, outdirs), measure_cavity(runs, outdirs))
    os.makedirs(FIGURES, exist_ok=True)
    for problem, result in measured[0].items():
        def exact_fine(t, problem=problem):
            return exact_riemann(EXACT_PROGRAM, problem, t, 4000)[0]
        plot_riemann(problem, result, exact_fine,
                     os.path.join(FIGURES, f"cfd_riemann_{problem}.png"))
    if measured[1]:
        plot_vortex(measured[1], os.path.join(FIGURES, "cfd_vortex_convergence.png"))
    if measured[2][0]:
        plot_tgv(measured[2][0], measured[2][1], os.path.join(FIGURES, "cfd_tgv.png"))
    for re_number, rows in measured[3].items():
        plot_cavity(re_number, rows, os.path.join(FIGURES, f"cfd_cavity_re{re_number}.png"))
    write_section(args, runs, measured)


EXACT_PROGRAM = None

if __name__ == "__main__":
    main()
