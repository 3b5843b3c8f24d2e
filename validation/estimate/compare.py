#!/usr/bin/python3
"""`cloudburst estimate` against the real run: predicted vs measured wall time,
checkpoints, field outputs, steps and output volume, one case per solver.

For each case and rank count it runs
    mpirun -n R cloudburst estimate CASE --set ... --json --scratch-dir TMP
and at once after it
    mpirun -n R cloudburst run CASE --set ... --output-dir TMP/run
and prints a Markdown table (the one in validation/report.md, section
"cloudburst estimate against the run"). Measured:
  - wall time: launch of `mpirun ... run` to its exit (the prediction counts
    from program start, so mpirun's own start is in the error);
  - steps: run.log's "finished: N steps";
  - checkpoints: run.log's "checkpoint: " lines;
  - output written: the bytes of every file in the output directory (run.log
    included) plus the checkpoints the run wrote and then removed (`keep`),
    each counted at the size of one that is kept.
Usage (from the repository root):
    validation/estimate/compare.py --cloudburst build/apps/cloudburst [--ranks 1 2]
        [--only weather,cfd,md] [--json results.json]
A measurement, not a test: on a shared machine the wall-time error is mostly
the machine's (the script prints the load average before and after).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# One case per solver, from cases/, shortened where stated (about 30-120 s on
# one core of the 2-core development machine).
CASES = {
    "weather": ("cases/weather/thermal_2d.toml", []),
    "cfd": ("cases/cfd/kelvin_helmholtz.toml", []),
    "md": ("cases/md/lj_melt.toml", ["run.steps=10000"]),
}


def mpi_environment():
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env["OMPI_MCA_rmaps_base_oversubscribe"] = "1"
    return env


def launch(ranks, program, words):
    return ["mpirun", "-n", str(ranks), "--oversubscribe", program] + words


def overrides(sets):
    words = []
    for s in sets:
        words += ["--set", s]
    return words


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def estimate(program, ranks, case, sets, scratch, env):
    words = ["estimate", case] + overrides(sets) + ["--json", "--scratch-dir", scratch]
    out = subprocess.run(launch(ranks, program, words), env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out[out.index("{"):])


def directory_bytes(path):
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            total += os.path.getsize(os.path.join(folder, name))
    return total


def checkpoint_files(path):
    found = []
    for folder, _, files in os.walk(path):
        found += [os.path.join(folder, n) for n in files if n.startswith("checkpoint") and
                  n.endswith(".h5")]
    return found


def run(program, ranks, case, sets, outdir, env):
    words = ["run", case] + overrides(sets) + ["--output-dir", outdir]
    begin = time.monotonic()
    subprocess.run(launch(ranks, program, words), env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - begin
    with open(os.path.join(outdir, "run.log")) as f:
        log = f.read()
    finished = re.findall(r"finished: step [0-9]+, t = \S+, ([0-9]+) steps in ([0-9.]+) s", log)
    steps = sum(int(n) for n, _ in finished)
    loop = sum(float(t) for _, t in finished)
    written = len(re.findall(r"checkpoint: \S+", log))
    kept = checkpoint_files(outdir)
    volume = directory_bytes(outdir)
    if kept and written > len(kept):
        volume += (written - len(kept)) * os.path.getsize(kept[0])
    return {"wall_seconds": wall, "loop_seconds": loop, "steps": steps, "checkpoints": written,
            "bytes_written": volume}


def percent(predicted, measured):
    return 100.0 * (predicted - measured) / measured if measured else float("nan")


def table(rows):
    lines = ["| solver | case (overrides) | ranks | dt | steps pred / meas | "
             "wall pred (s) | wall meas (s) | error | checkpoints pred / meas | "
             "output pred / meas (MB) | error |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        p, m = r["estimate"]["prediction"], r["run"]
        case = os.path.basename(r["case"]) + (" (" + ", ".join(r["sets"]) + ")"
                                              if r["sets"] else "")
        lines.append(
            f"| {r['solver']} | {case} | {r['ranks']} | {r['estimate']['measured']['dt']} | "
            f"{p['steps']} / {m['steps']} | {p['wall_seconds']:.1f} | "
            f"{m['wall_seconds']:.1f} | {percent(p['wall_seconds'], m['wall_seconds']):+.0f} % | "
            f"{p['checkpoints']} / {m['checkpoints']} | {p['bytes_written'] / 1e6:.2f} / "
            f"{m['bytes_written'] / 1e6:.2f} | "
            f"{percent(p['bytes_written'], m['bytes_written']):+.1f} % |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cloudburst", default=os.path.join(ROOT, "build/apps/cloudburst"))
    parser.add_argument("--ranks", type=int, nargs="+", default=[1])
    parser.add_argument("--only", default=",".join(CASES), help="solvers, comma-separated")
    parser.add_argument("--json", help="also write every estimate and run here")
    args = parser.parse_args()
    program = os.path.abspath(args.cloudburst)
    env = mpi_environment()
    rows = []
    print(f"load average before: {load_average()} ({os.cpu_count()} CPUs)", file=sys.stderr)
    for solver in args.only.split(","):
        case, sets = CASES[solver]
        for ranks in args.ranks:
            scratch = tempfile.mkdtemp(prefix="cb_compare_")
            try:
                e = estimate(program, ranks, os.path.join(ROOT, case), sets, scratch, env)
                m = run(program, ranks, os.path.join(ROOT, case), sets,
                        os.path.join(scratch, "run"), env)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            rows.append({"solver": solver, "case": case, "sets": sets, "ranks": ranks,
                         "estimate": e, "run": m, "load_average": load_average()})
            print(f"{solver} on {ranks} rank(s): predicted "
                  f"{e['prediction']['wall_seconds']:.1f} s, measured {m['wall_seconds']:.1f} s, "
                  f"load {rows[-1]['load_average']}", file=sys.stderr)
    print(f"load average after: {load_average()}", file=sys.stderr)
    print(table(rows))
    print()
    for r in rows:
        e, m = r["estimate"], r["run"]
        per_step = m["loop_seconds"] / m["steps"] if m["steps"] else float("nan")
        print(f"- {r['solver']}, {r['ranks']} rank(s) (load average {r['load_average']}): "
              f"estimate timed {e['measured']['steps']} steps at "
              f"{e['measured']['seconds_per_step']:.4g} s/step (start-up "
              f"{e['measured']['startup_seconds']:.2f} s); the run's time loop "
              f"{m['loop_seconds']:.1f} s, {per_step:.4g} s/step; "
              f"dt: {e['prediction']['dt_extrapolation']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
