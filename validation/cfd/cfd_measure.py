"""Reading and measuring the CFD validation runs (for validation/cfd/run_validation.py):
checkpoints, diagnostics.csv and field files of a run, the exact Riemann
solutions, and the measures the report tabulates."""
import csv
import os
import re
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from run_log import run_seconds  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(REPO, "cases", "cfd")
VALIDATION = os.path.join(REPO, "validation")
FIGURES = os.path.join(VALIDATION, "figures")
REFERENCE = os.path.join(VALIDATION, "reference")
SHARED_TGV = os.path.join(os.path.dirname(REPO), "shared", "reference",
                          "tgv_re1600_spectral_512.gdiag")
GAMMA = 1.4

# The 1-D problems (Toro 2009 Table 4.1 tests 1-3; Lax 1954): left and right
# (rho, u, p), the end time, the velocity scale for u* = 0 (as
# tests/test_cfd_validation.cpp) and a pressure scale (0 everywhere: p* is
# held to 1% of itself, which toro123 does not reach at 400 cells).
RIEMANN = {
    "sod_x": ((1.0, 0.0, 1.0), (0.125, 0.0, 0.1), 0.2, 0.0, 0.0),
    "lax": ((0.445, 0.698, 3.528), (0.5, 0.0, 0.571), 0.14, 0.0, 0.0),
    "toro123": ((1.0, -2.0, 0.4), (1.0, 2.0, 0.4), 0.15, 2.0, 0.0),
    "blast": ((1.0, 0.0, 1000.0), (1.0, 0.0, 0.01), 0.012, 0.0, 0.0),
}


def checkpoints(outdir):
    folder = os.path.join(outdir, "checkpoints")
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".h5"))


# ---------------------------------------------------------------- reading

def diagnostics(outdir):
    with open(os.path.join(outdir, "diagnostics.csv")) as f:
        rows = list(csv.DictReader(f))
    return {key: np.array([float(r[key]) for r in rows]) for key in rows[0]}


def primitives(path):
    """rho, (u, v, w), p and the time of a checkpoint; arrays [nz][ny][nx]."""
    with h5py.File(path, "r") as f:
        rho = f["/fields/rho"][...]
        mom = [f[f"/fields/mom_{c}"][...] for c in "xyz"]
        energy = f["/fields/energy"][...]
        t = float(f.attrs["time"])
    vel = [m / rho for m in mom]
    p = (GAMMA - 1.0) * (energy - 0.5 * sum(m * v for m, v in zip(mom, vel)))
    return rho, vel, p, t


def field_series(outdir, name):
    """(time, values) of `name` in every fields file, in step order."""
    folder = os.path.join(outdir, "fields")
    series = []
    for f in sorted(os.listdir(folder)):
        if f.startswith("fields_") and f.endswith(".h5"):
            with h5py.File(os.path.join(folder, f), "r") as h:
                series.append((float(h.attrs["time"]), h[name][...]))
    return series


def exact_riemann(program, problem, t, cells):
    left, right = RIEMANN[problem][:2]
    command = [program, "--left", ",".join(map(repr, left)), "--right",
               ",".join(map(repr, right)), "--time", repr(t), "--cells", str(cells)]
    text = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True).stdout
    star = re.search(r"p_star (\S+) u_star (\S+) rho_star_left (\S+) rho_star_right (\S+)", text)
    data = np.loadtxt(text.splitlines(), comments="#")
    return data, tuple(float(v) for v in star.groups())


# ---------------------------------------------------------------- measuring

def measure_riemann(runs, outdirs, exact_program):
    """Per problem: rows (cells, L1, plateau p, u, shock error in cells), and profiles."""
    results = {}
    for problem, (left, right, end, u_scale, p_scale) in RIEMANN.items():
        rows, profiles = [], {}
        for run in (r for r in runs if r.case == problem and r.group == "riemann"):
            if not outdirs.get(run.name):
                continue
            n = run.cells[0]
            rho, vel, p, t = primitives(checkpoints(outdirs[run.name])[-1])
            rho, u, p = rho.ravel(), vel[0].ravel(), p.ravel()
            exact, (ps, us, _, rs_right) = exact_riemann(exact_program, problem, t, n)
            dx = 1.0 / n
            l1 = float(np.abs(rho - exact[:, 1]).sum() * dx)
            in_star = (np.abs(exact[:, 3] - ps) <= 1e-9 * ps) & (np.abs(exact[:, 2] - us) <=
                                                                  1e-9 * max(abs(us), 1.0))
            margin = 4
            plateau = np.array([in_star[max(0, i - margin):i + margin + 1].all() and
                                i - margin >= 0 and i + margin < n for i in range(n)])
            p_mean = float(p[plateau].mean()) if plateau.any() else float("nan")
            u_mean = float(u[plateau].mean()) if plateau.any() else float("nan")
            shock = float("nan")
            if ps > right[2]:
                shock = (shock_position(exact[:, 0], rho, rs_right, right[0]) -
                         exact_shock(left, right, ps, t)) / dx
            diag = diagnostics(outdirs[run.name])
            rows.append(dict(cells=n, l1=l1, p=p_mean, u=u_mean, plateau=int(plateau.sum()),
                             p_err=abs(p_mean - ps) / ps,
                             p_err_scaled=abs(p_mean - ps) / max(ps, p_scale),
                             u_err=abs(u_mean - us) / max(abs(us), u_scale),
                             shock_cells=shock, min_rho=float(diag["min_rho"].min()),
                             min_p=float(diag["min_p"].min()), time=t,
                             fallback=float(diag.get("fallback_faces", np.zeros(1)).max())))
            profiles[n] = (exact[:, 0], rho, u, p)
        if rows:
            results[problem] = dict(rows=sorted(rows, key=lambda r: r["cells"]),
                                    profiles=profiles, star=(ps, us))
    return results


def shock_position(x, rho, behind, ahead):
    half = 0.5 * (behind + ahead)
    for i in range(len(x) - 1, 0, -1):
        if (rho[i - 1] - half) * (rho[i] - half) <= 0 and rho[i - 1] != rho[i]:
            return x[i - 1] + (x[1] - x[0]) * (rho[i - 1] - half) / (rho[i - 1] - rho[i])
    return float("nan")


def exact_shock(left, right, p_star, t):
    a = np.sqrt(GAMMA * right[2] / right[0])
    q, z = (GAMMA + 1) / (2 * GAMMA), (GAMMA - 1) / (2 * GAMMA)
    return 0.5 + t * (right[1] + a * np.sqrt(q * p_star / right[2] + z))


def measure_vortex(runs, outdirs):
    """scheme -> rows (cells, L1, L2, Linf of rho against the initial state)."""
    results = {}
    for run in (r for r in runs if r.group == "vortex" and outdirs.get(r.name)):
        series = field_series(outdirs[run.name], "rho")
        (_, first), (t1, last) = series[0], series[-1]
        diff = (last - first).ravel()
        scheme = run.name[len("vortex_"):].rsplit("_", 1)[0]
        results.setdefault(scheme, []).append(dict(
            cells=run.cells[0], time=t1, l1=float(np.abs(diff).mean()),
            l2=float(np.sqrt((diff ** 2).mean())), linf=float(np.abs(diff).max()),
            wall=run_seconds(outdirs[run.name])))
    for rows in results.values():
        rows.sort(key=lambda r: r["cells"])
        for coarse, fine in zip(rows, rows[1:]):
            fine["order"] = np.log(coarse["l2"] / fine["l2"]) / np.log(fine["cells"] /
                                                                       coarse["cells"])
    return results


def load_tgv_reference():
    """(t, Ek, -dEk/dt): the full shared curve when present, else the sampled table."""
    if os.path.isfile(SHARED_TGV):
        data = np.loadtxt(SHARED_TGV, comments="#")
        return data[:, 0], data[:, 1], data[:, 2], "../shared/reference (full, dt = 0.01)"
    data = np.loadtxt(os.path.join(REFERENCE, "tgv_re1600_spectral_512_sampled.csv"),
                      delimiter=",", comments="#", skiprows=8)
    return data[:, 0], data[:, 1], data[:, 2], "validation/reference (sampled)"


def measure_tgv(runs, outdirs):
    t_ref, ek_ref, eps_ref, source = load_tgv_reference()
    results = {}
    for run in (r for r in runs if r.group == "tgv" and outdirs.get(r.name)):
        d = diagnostics(outdirs[run.name])
        t, ek = d["time"], d["kinetic_energy"]
        dissipation = -np.gradient(ek, t)
        ref_at = np.interp(t, t_ref, ek_ref)
        err = np.abs(ek - ref_at) / ref_at
        early = t <= 4.0 + 1e-9
        peak = int(np.argmax(dissipation))
        results[run.name] = dict(
            cells=run.cells[0], scheme=run.name.split("_")[1], t=t, ek=ek, eps=dissipation,
            end=float(t[-1]), max_err_4=float(err[early].max()) if early.any() else float("nan"),
            max_err_all=float(err.max()), peak=float(dissipation[peak]),
            peak_t=float(t[peak]), wall=run_seconds(outdirs[run.name]))
    return results, (t_ref, ek_ref, eps_ref, source)


def load_ghia():
    rows = []
    with open(os.path.join(REFERENCE, "ghia1982_centrelines.csv")) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            rows.append({k: float(v) for k, v in row.items()})
    return rows


def measure_cavity(runs, outdirs):
    ghia = load_ghia()
    results = {}
    for run in (r for r in runs if r.group == "cavity" and outdirs.get(r.name)):
        re_number = run.case.replace("cavity_re", "")
        rho, vel, p, t = primitives(checkpoints(outdirs[run.name])[-1])
        u, v = vel[0][0], vel[1][0]  # [ny][nx]
        n = u.shape[1]
        centre = (np.arange(n) + 0.5) / n
        # x = 0.5 and y = 0.5 are cell faces for even n: average the two cells.
        u_line = 0.5 * (u[:, n // 2 - 1] + u[:, n // 2]) if n % 2 == 0 else u[:, n // 2]
        v_line = 0.5 * (v[n // 2 - 1, :] + v[n // 2, :]) if n % 2 == 0 else v[n // 2, :]
        y_all = np.concatenate(([0.0], centre, [1.0]))
        u_all = np.concatenate(([0.0], u_line, [1.0]))  # the walls: no slip, lid u = 1
        v_all = np.concatenate(([0.0], v_line, [0.0]))
        ys = np.array([r["y"] for r in ghia])
        xs = np.array([r["x"] for r in ghia])
        u_ref = np.array([r[f"u_re{re_number}"] for r in ghia])
        v_ref = np.array([r[f"v_re{re_number}"] for r in ghia])
        u_err = np.abs(np.interp(ys, y_all, u_all) - u_ref)
        v_err = np.abs(np.interp(xs, y_all, v_all) - v_ref)
        d = diagnostics(outdirs[run.name])
        results.setdefault(re_number, []).append(dict(cells=n, time=t, u_err=float(u_err.max()),
                                  v_err=float(v_err.max()), line=(y_all, u_all, v_all),
                                  ref=(ys, u_ref, xs, v_ref), max_mach=float(d["max_mach"][-1]),
                                  wall=run_seconds(outdirs[run.name])))
    for rows in results.values():
        rows.sort(key=lambda r: r["cells"])
    return results
