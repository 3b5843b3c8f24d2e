#!/usr/bin/python3
"""cloudburst MD side by side with LAMMPS (Debian's `lmp`), on the same inputs.

  thermo     lj_bench and lj_melt from their case files against LAMMPS's own
             inputs (in.lj_bench, in.lj_melt): every printed thermo digit
             (LAMMPS's 8-digit layout) must match; the full-precision values
             (cloudburst's diagnostics.csv, LAMMPS at 15 digits) are reported.
  roundtrip  LAMMPS writes a data file after 200 steps of lj_melt on 2 ranks
             (in.write_data: rank-chunked, unsorted, image flags, velocities);
             both codes run it 100 steps (cases/md/lj_from_lammps.toml,
             in.read_data); thermo must agree to 1e-8 relative. Then
             cloudburst's own write_data of the final state is read by LAMMPS,
             whose step-0 thermo must agree with cloudburst's last row to 1e-8.

Usage: compare_lammps.py [thermo|roundtrip|all] [--build DIR] [--ranks 1 2]
Exit status 0 when every comparison passes. Needs `lmp` and mpiexec.
"""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
COLUMNS = ["temp", "e_pair", "e_mol", "tot_eng", "press"]  # after Step
TOLERANCE = 1e-8  # relative, required for the data-file round trip
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS="1")


def mpirun(ranks, command, cwd):
    full = ["mpiexec", "-n", str(ranks)] + command if ranks > 1 else command
    done = subprocess.run(full, cwd=cwd, env=MPI_ENV, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (done.returncode, " ".join(full), done.stdout[-3000:]))
    return done.stdout


def thermo_rows(text):
    """{step: [the 5 values as printed]} of every 'Step Temp E_pair ...' table in `text`."""
    rows, inside = {}, False
    for line in text.splitlines():
        words = line.split()
        if words[:2] == ["Step", "Temp"]:
            inside = True
        elif words[:2] == ["Loop", "time"]:
            inside = False
        elif inside and len(words) == 6 and re.fullmatch(r"-?\d+", words[0]):
            rows[int(words[0])] = words[1:]  # other lines (progress, diagnostics) in between
    return rows


def loop_time(text):
    found = re.search(r"Loop time of ([0-9.eE+-]+) on (\d+) procs for (\d+) steps with (\d+) atoms", text)
    return float(found.group(1)) if found else None


def run_lammps(script, ranks, work, variables):
    command = ["lmp", "-in", os.path.join(HERE, script), "-log", "none"]
    for name, value in variables.items():
        command += ["-var", name, str(value)]
    out = mpirun(ranks, command, work)
    return thermo_rows(out), loop_time(out), out


def run_cloudburst(exe, case, ranks, work, sets):
    out_dir = tempfile.mkdtemp(prefix="cb_", dir=work)
    command = [exe, "run", case, "--output-dir", out_dir]
    for s in sets:
        command += ["--set", s]
    out = mpirun(ranks, command, work)
    full = {}
    with open(os.path.join(out_dir, "diagnostics.csv")) as table:
        for row in csv.DictReader(table):
            full[int(row["step"])] = [float(row[c]) for c in COLUMNS]
    return thermo_rows(out), full, out_dir


def relative(a, b):
    return abs(a - b) / max(abs(b), 1e-300) if a != b else 0.0


def compare_full(cloudburst, lammps_rows, label, tolerance=None):
    """Largest relative difference over common steps and columns (E_mol skipped: 0 in both)."""
    worst, where = 0.0, None
    for step in sorted(set(cloudburst) & set(lammps_rows)):
        for c, (ours, theirs) in enumerate(zip(cloudburst[step], lammps_rows[step])):
            if COLUMNS[c] == "e_mol":
                continue
            r = relative(ours, float(theirs))
            if r > worst:
                worst, where = r, (step, COLUMNS[c], ours, float(theirs))
    steps = len(set(cloudburst) & set(lammps_rows))
    verdict = "" if tolerance is None else ("PASS" if worst <= tolerance else "FAIL")
    print("  %-44s %3d rows  max rel diff %.2e %s%s" % (
        label, steps, worst, verdict, "" if where is None else "  (step %d %s: %.15g vs %.15g)" % where))
    return steps > 0 and (tolerance is None or worst <= tolerance)


def compare_printed(ours, theirs, label):
    """Every printed digit: the 8-digit tokens of both codes' thermo tables."""
    common = sorted(set(ours) & set(theirs))
    bad = [s for s in common if [float(x) for x in ours[s]] != [float(x) for x in theirs[s]]]
    print("  %-44s %3d rows  %s" % (label, len(common), "all digits match" if not bad and common
                                    else "DIFFER at steps %s" % bad[:5]))
    for s in bad[:3]:
        print("      step %d: cloudburst %s\n               lammps     %s" % (s, " ".join(ours[s]), " ".join(theirs[s])))
    return bool(common) and not bad


def thermo_check(exe, ranks_list, work):
    ok = True
    for case, script, every in [("lj_bench", "in.lj_bench", 10), ("lj_melt", "in.lj_melt", 50)]:
        lmp_rows, lmp_loop, _ = run_lammps(script, 1, work, {"thermo_every": every})
        lmp_full, _, _ = run_lammps(script, 1, work, {"thermo_every": every, "precise": 1})
        print("%s: LAMMPS loop time %.3f s on 1 rank" % (case, lmp_loop))
        for ranks in ranks_list:
            sets = ["thermo.every_steps=%d" % every, "diagnostics.every_steps=%d" % every]
            printed, full, _ = run_cloudburst(exe, os.path.join(ROOT, "cases/md/%s.toml" % case), ranks, work, sets)
            ok &= compare_printed(printed, lmp_rows, "%s, %d rank(s), printed thermo" % (case, ranks))
            ok &= compare_full(full, lmp_full, "%s, %d rank(s), full precision" % (case, ranks))
    return ok


def roundtrip_check(exe, ranks_list, work):
    ok = True
    data = os.path.join(work, "lj_melt_step200.data")
    mpirun(2, ["lmp", "-in", os.path.join(HERE, "in.write_data"), "-var", "out", data,
               "-log", "none", "-screen", "none"], work)
    lmp_full, lmp_loop, _ = run_lammps("in.read_data", 1, work, {"data": data})
    print("data-file round trip: LAMMPS wrote %s (%d bytes); LAMMPS loop time %.3f s" % (
        os.path.basename(data), os.path.getsize(data), lmp_loop))
    case = os.path.join(ROOT, "cases/md/lj_from_lammps.toml")
    for ranks in ranks_list:
        _, full, out_dir = run_cloudburst(exe, case, ranks, work, [
            "md.data_file=\"%s\"" % data, "diagnostics.every_steps=10", "output.write_data=true"])
        ok &= compare_full(full, lmp_full, "LAMMPS data file, %d rank(s), 100 steps" % ranks, TOLERANCE)
        # ... and back: LAMMPS reads cloudburst's write_data of the final state.
        back, _, _ = run_lammps("in.read_data", 1, work, {"data": os.path.join(out_dir, "final.data"), "steps": 0})
        last = max(full)
        ok &= compare_full({0: full[last]}, {0: back[0]},
                           "cloudburst data file read by LAMMPS, %d rank(s)" % ranks, TOLERANCE)
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="?", default="all", choices=["thermo", "roundtrip", "all"])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"), help="cloudburst build directory")
    parser.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    exe = os.path.join(args.build, "apps", "cloudburst")
    if not shutil.which("lmp"):
        sys.exit("lmp not found: apt-get install lammps")
    if not os.access(exe, os.X_OK):
        sys.exit("no cloudburst at %s (--build DIR)" % exe)
    work = tempfile.mkdtemp(prefix="cb_md_validation_")
    ok = True
    if args.what in ("thermo", "all"):
        ok &= thermo_check(exe, args.ranks, work)
    if args.what in ("roundtrip", "all"):
        ok &= roundtrip_check(exe, args.ranks, work)
    shutil.rmtree(work, ignore_errors=True)
    print("MD vs LAMMPS: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
