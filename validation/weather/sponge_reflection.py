"""Gravity waves under a rigid 10 km top, with and without the absorbing layer
(docs/solvers/weather.md §15), against the same waves under a 30 km top.

Usage (Debian's Python, for h5py and matplotlib):
  /usr/bin/python3 validation/weather/sponge_reflection.py BUILD_DIR OUT_ROOT

Runs cases/weather/gravity_waves_2d.toml at 200 m to 3000 s (max_speed 500 m/s, so every
top runs at the same dt) with the top at 10 km (no layer; layers of 2.5, 5 and 7.5 km at
several rates), 20 km and 30 km, two runs at a time, each into OUT_ROOT/NAME (skipped when
its last output exists). Prints, every 500 s, the RMS difference of w over the lowest 2.4 km
from the 30 km run's, relative to its RMS, and plots it against time
(validation/figures/sponge_reflection.png).
"""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

from weather_measure import VALIDATION, fields_files, read_fields  # noqa: E402

ROOT = os.path.dirname(VALIDATION)
CASE = os.path.join(ROOT, "cases", "weather", "gravity_waves_2d.toml")
TIMES = [500.0 * n for n in range(1, 7)]
ROWS = 12  # the lowest 2.4 km, below every layer


def runs():
    table = {"top_30km": (30000, None, None), "top_20km": (20000, None, None),
             "lid": (10000, None, None)}
    for depth in (2500, 5000, 7500):
        for rate in (0.005, 0.01, 0.02, 0.05):
            table[f"layer_{depth}_{rate}"] = (10000, depth, rate)
    table["layer_5000_0.2"] = (10000, 5000, 0.2)
    return table


def run(exe, out, name, spec):
    top, depth, rate = spec
    outdir = os.path.join(out, name)
    if os.path.exists(os.path.join(outdir, "fields", "fields_00005000.h5")):
        return
    args = [exe, "run", CASE, "--set", f"grid.cells=[100,1,{top // 200}]",
            "--set", f"grid.hi=[20000.0,20000.0,{top:.1f}]", "--set", "weather.max_speed=500.0",
            "--set", "run.end_time=3000.0", "--set", "output.every_time=500.0",
            "--output-dir", outdir]
    if depth:
        args += ["--set", f"weather.sponge_depth={depth:.1f}", "--set", f"weather.sponge_rate={rate}"]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def low_w(outdir, time):
    """w of the lowest rows at the output nearest `time` (outputs fall on whole steps)."""
    outputs = [read_fields(path, ["w"]) for _, path in sorted(fields_files(outdir).items())]
    data, _ = min(outputs, key=lambda output: abs(float(output[1]["time"]) - time))
    return data["w"][:ROWS, 0, :]


def main():
    build, out = sys.argv[1], sys.argv[2]
    exe = os.path.join(build, "apps", "cloudburst")
    table = runs()
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda item: run(exe, out, *item), table.items()))
    reference = {t: low_w(os.path.join(out, "top_30km"), t) for t in TIMES}
    errors = {}
    for name in table:
        if name == "top_30km":
            continue
        errors[name] = [np.sqrt(np.mean((low_w(os.path.join(out, name), t) - reference[t]) ** 2) /
                                np.mean(reference[t] ** 2)) for t in TIMES]
    print("relative RMS difference of w from the 30 km top's, lowest 2.4 km")
    print("run                  " + " ".join(f"{t:7.0f}" for t in TIMES))
    for name, e in errors.items():
        print(f"{name:20s} " + " ".join(f"{x:7.3f}" for x in e))
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for name in ("lid", "top_20km", "layer_5000_0.01", "layer_7500_0.01", "layer_2500_0.02",
                 "layer_5000_0.2"):
        ax.plot(TIMES, errors[name], marker="o", label=name.replace("_", " "))
    ax.set_xlabel("t (s)")
    ax.set_ylabel("RMS(w - w_30km) / RMS(w_30km), z < 2.4 km")
    ax.set_title("gravity_waves, 200 m: reflection from a 10 km top")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(VALIDATION, "figures", "sponge_reflection.png"), dpi=110)


if __name__ == "__main__":
    main()
