"""Reading and measuring the weather validation runs (fields/*.h5, diagnostics.csv):
Straka front and minimum, mirror and transpose symmetry."""
import csv
import glob
import os
import re

import h5py
import numpy as np

VALIDATION = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = os.path.join(VALIDATION, "reference", "straka1993.csv")


def fields_files(outdir):
    files = {}
    for path in glob.glob(os.path.join(outdir, "fields", "fields_*.h5")):
        match = re.fullmatch(r"fields_(\d+)\.h5", os.path.basename(path))
        if match:
            files[int(match.group(1))] = path
    return files


def read_fields(path, names):
    with h5py.File(path, "r") as f:
        data = {name: f[name][...] for name in names}
        attrs = {key: f.attrs[key] for key in ("time", "cells", "lo", "hi", "step")}
    return data, attrs


def final_time(outdir):
    files = fields_files(outdir)
    if not files:
        return None
    with h5py.File(files[max(files)], "r") as f:
        return float(f.attrs["time"])



def all_diagnostics(outdir):
    with open(os.path.join(outdir, "diagnostics.csv")) as f:
        return [{key: float(value) for key, value in row.items()} for row in csv.DictReader(f)]


def last_diagnostics(outdir):
    return all_diagnostics(outdir)[-1]


def field_at(outdir, time_wanted, names):
    """Fields of the output whose time is time_wanted (or the last one)."""
    chosen = None
    for step, path in sorted(fields_files(outdir).items()):
        with h5py.File(path, "r") as f:
            t = float(f.attrs["time"])
        if time_wanted is None or abs(t - time_wanted) < 1e-6:
            chosen = path
            if time_wanted is not None:
                break
    if chosen is None:
        raise LookupError(f"{outdir}: no field output at t = {time_wanted} s")
    return read_fields(chosen, names)


def centres(attrs, axis):
    lo, hi, n = float(attrs["lo"][axis]), float(attrs["hi"][axis]), int(attrs["cells"][axis])
    h = (hi - lo) / n
    return lo + (np.arange(n) + 0.5) * h, h


def straka_measure(outdir):
    """theta' minimum and front position (km) at the end time."""
    data, attrs = field_at(outdir, None, ["theta_pert"])
    theta = data["theta_pert"][:, 0, :]            # [nz][nx]
    x, h = centres(attrs, 0)
    surface = theta[0, :]
    right = x > 0
    xs, ts = x[right], surface[right]
    cold = np.nonzero(ts <= -1.0)[0]
    front, slope = float("nan"), float("nan")
    if cold.size:
        i = cold[-1]
        front = xs[i]
        if i + 1 < xs.size:  # linear interpolation to the -1 K crossing
            t0, t1 = ts[i], ts[i + 1]
            front = xs[i] + (-1.0 - t0) / (t1 - t0) * h
            slope = abs(t1 - t0)
    return {"theta_min": float(theta.min()), "front_km": front / 1000.0, "slope": slope,
            "front_cell_km": xs[cold[-1]] / 1000.0 if cold.size else float("nan"),
            "spacing": h, "time": float(attrs["time"]), "surface": (x, surface)}


def mirror_asymmetry(outdir, time_wanted):
    """Max |a(x) - a(-x)| / max |a| about the domain's centre for theta', w, u (u odd)."""
    data, attrs = field_at(outdir, time_wanted, ["theta_pert", "u", "w"])
    result = {"time": float(attrs["time"])}
    for name, sign in (("theta_pert", 1.0), ("w", 1.0), ("u", -1.0)):
        a = data[name][:, 0, :]
        scale = np.abs(a).max()
        result[name] = float(np.abs(a - sign * a[:, ::-1]).max() / scale) if scale > 0 else 0.0
    return result


def transpose_asymmetry(outdir):
    """3-D: max |theta'(x, y) - theta'(y, x)| (K) and relative to max |theta'|."""
    data, attrs = field_at(outdir, None, ["theta_pert"])
    theta = data["theta_pert"]                     # [nz][ny][nx]
    diff = np.abs(theta - np.transpose(theta, (0, 2, 1))).max()
    return {"max_diff": float(diff), "relative": float(diff / np.abs(theta).max()),
            "theta_max": float(theta.max()),
            "time": float(attrs["time"])}


def load_reference():
    rows = {}
    with open(REFERENCE) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            rows[row["quantity"]] = row
    return rows
