#!/usr/bin/python3
"""Plot a 2-D slice of one field from a cloudburst output directory.

    plot_field.py OUTDIR FIELD [--step N|latest] [--axis x|y|z --index K] [-o out.png]

Reads OUTDIR/fields/fields_<step>.h5 (datasets /<field>, shape [nz][ny][nx];
attributes step, time, cells, lo, hi). A 2-D run is shown in its own plane; a
3-D run is cut normal to z through the middle unless --axis/--index say
otherwise. Writes a PNG (default OUTDIR/<field>_<step>.png) and prints its path.
Needs Debian's python3-h5py, python3-matplotlib and python3-numpy.
"""
import argparse
import glob
import os
import re
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from mpl_toolkits.axes_grid1 import make_axes_locatable  # noqa: E402

AXES = {"x": 0, "y": 1, "z": 2}


def fields_files(outdir):
    """{step: path} of every fields file in OUTDIR/fields."""
    files = {}
    for path in glob.glob(os.path.join(outdir, "fields", "fields_*.h5")):
        match = re.fullmatch(r"fields_(\d+)\.h5", os.path.basename(path))
        if match:
            files[int(match.group(1))] = path
    return files


def pick_step(files, wanted):
    if not files:
        sys.exit("plot_field.py: no fields/fields_*.h5 files found")
    if wanted == "latest":
        return max(files)
    try:
        step = int(wanted)
    except ValueError:
        sys.exit(f"plot_field.py: --step wants a number or 'latest', got '{wanted}'")
    if step not in files:
        sys.exit(f"plot_field.py: no output at step {step}; steps: {sorted(files)}")
    return step


def default_cut(cells):
    """(axis, index) of the natural plane: the unused axis of a 2-D run, else z."""
    for name in ("z", "y", "x"):
        if cells[AXES[name]] == 1:
            return name, 0
    return "z", cells[2] // 2


def cut(data, axis, index):
    """2-D slice (rows, columns), the horizontal and vertical axis names."""
    if axis == "z":
        return data[index, :, :], "x", "y"
    if axis == "y":
        return data[:, index, :], "x", "z"
    return data[:, :, index], "y", "z"


def read_field(path, field):
    with h5py.File(path, "r") as f:
        names = [name for name in f if isinstance(f[name], h5py.Dataset)]
        if field not in names:
            sys.exit(f"plot_field.py: {path} has no field '{field}'; fields: {', '.join(names)}")
        data = f[field][...]
        nz, ny, nx = data.shape
        cells = [int(c) for c in f.attrs.get("cells", (nx, ny, nz))]
        lo = [float(v) for v in f.attrs.get("lo", (0.0, 0.0, 0.0))]
        hi = [float(v) for v in f.attrs.get("hi", cells)]
        time = float(f.attrs.get("time", float("nan")))
    return data, cells, lo, hi, time


def render(sliced, lo, hi, label, title):
    plane, horizontal, vertical = sliced
    h, v = AXES[horizontal], AXES[vertical]
    extent = (lo[h], hi[h], lo[v], hi[v])
    ratio = (extent[3] - extent[2]) / (extent[1] - extent[0])
    figure, axes = plt.subplots(figsize=(7, 5.5))
    image = axes.imshow(plane, origin="lower", extent=extent, interpolation="nearest",
                        aspect="equal" if 0.05 < ratio < 20 else "auto", cmap="viridis")
    bar_axes = make_axes_locatable(axes).append_axes("right", size="4%", pad=0.1)
    figure.colorbar(image, cax=bar_axes, label=label)
    axes.set_xlabel(horizontal)
    axes.set_ylabel(vertical)
    axes.set_title(title)
    return figure


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", help="the run's output directory (holds fields/)")
    parser.add_argument("field", help="field name, e.g. rho")
    parser.add_argument("--step", default="latest", help="output step or 'latest' (default)")
    parser.add_argument("--axis", choices=sorted(AXES), help="axis normal to the slice")
    parser.add_argument("--index", type=int, help="cell index of the slice along --axis")
    parser.add_argument("-o", "--output", help="PNG to write")
    args = parser.parse_args()

    files = fields_files(args.outdir)
    step = pick_step(files, args.step)
    data, cells, lo, hi, time = read_field(files[step], args.field)
    axis, index = default_cut(cells)
    if args.axis:
        axis, index = args.axis, cells[AXES[args.axis]] // 2
    if args.index is not None:
        index = args.index
    if not 0 <= index < cells[AXES[axis]]:
        sys.exit(f"plot_field.py: --index {index} outside 0..{cells[AXES[axis]] - 1} along {axis}")

    title = f"{args.field}  step {step}  t = {time:.6g}"
    if cells[AXES[axis]] > 1:
        a = AXES[axis]
        title += f", {axis} = {lo[a] + (index + 0.5) * (hi[a] - lo[a]) / cells[a]:.4g}"
    figure = render(cut(data, axis, index), lo, hi, args.field, title)
    output = args.output or os.path.join(args.outdir, f"{args.field}_{step:08d}.png")
    figure.savefig(output, dpi=120, bbox_inches="tight")
    print(output)


if __name__ == "__main__":
    main()
