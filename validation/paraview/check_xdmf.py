# Opens a cloudburst XDMF file in each of ParaView's readers for .xmf and
# checks what ParaView sees against the HDF5 datasets (read with h5py): the
# time steps, cell and point counts, array names, shapes and values at every
# step; then renders the last step off-screen to a PNG.
#
# Usage (under xvfb-run): pvbatch check_xdmf.py FILE.xmf grid|particles OUT.png
# Prints one line per reader and step; exits 1 on the first disagreement.
import os
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np
from paraview import servermanager
from paraview.simple import (ColorBy, GetActiveViewOrCreate, OpenDataFile, Render,
                             SaveScreenshot, Show, UpdatePipeline, XDMFReader,
                             Xdmf3ReaderS, Xdmf3ReaderT)
from vtk.numpy_interface import dataset_adapter as dsa

path, kind, picture = sys.argv[1], sys.argv[2], sys.argv[3]
base = os.path.dirname(os.path.abspath(path))


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def steps_of(xmf):
    """(time, {attribute: (file, dataset)}, file of x or None) per uniform grid."""
    steps = []
    for grid in ET.parse(xmf).getroot().iter("Grid"):
        if grid.get("GridType") != "Uniform":
            continue
        time = float(grid.find("Time").get("Value"))
        arrays = {}
        for attribute in grid.findall("Attribute"):
            file, dataset = attribute.find("DataItem").text.strip().split(":")
            arrays[attribute.get("Name")] = (os.path.join(base, file), dataset)
        steps.append((time, arrays))
    return steps


def expected(arrays, name):
    file, dataset = arrays[name]
    with h5py.File(file, "r") as h5:
        return np.asarray(h5[dataset][...])


def check_step(reader_name, data, arrays):
    attributes = data.PointData if kind == "particles" else data.CellData
    for name in arrays:
        values = expected(arrays, name)
        count = values.shape[0] if kind == "particles" else values.size
        if name not in attributes.keys():
            fail("%s: no array %s (has %s)" % (reader_name, name, list(attributes.keys())))
        seen = np.asarray(attributes[name])
        # Grid fields are stored (z, y, x); VTK numbers cells with x fastest too.
        want = values.reshape(count, -1) if values.ndim > 1 and kind == "particles" else values.ravel()
        if seen.shape[0] != count:
            fail("%s: %s has %d tuples, HDF5 %d" % (reader_name, name, seen.shape[0], count))
        if not np.array_equal(seen.reshape(want.shape), want):
            fail("%s: %s differs from the HDF5 dataset" % (reader_name, name))
    if kind == "particles":
        n = expected(arrays, "id").shape[0]
        if data.GetNumberOfPoints() != n or data.GetNumberOfCells() != n:
            fail("%s: %d points and %d cells for %d atoms" %
                 (reader_name, data.GetNumberOfPoints(), data.GetNumberOfCells(), n))
    return data.GetNumberOfPoints(), data.GetNumberOfCells()


steps = steps_of(path)
if not steps:
    fail("no uniform grids in " + path)
for reader_name, make in (("Xdmf3ReaderS", Xdmf3ReaderS), ("Xdmf3ReaderT", Xdmf3ReaderT),
                          ("XDMFReader", XDMFReader)):
    try:  # the XDMF 3 readers take FileName, the legacy one FileNames
        reader = make(FileName=[path])
    except AttributeError:
        reader = make(FileNames=[path])
    times = list(reader.TimestepValues) if reader.TimestepValues else [0.0]
    if len(times) != len(steps):
        fail("%s: %d time steps, the file %d" % (reader_name, len(times), len(steps)))
    for time, arrays in steps:
        reader.UpdatePipeline(time)
        data = dsa.WrapDataObject(servermanager.Fetch(reader))
        points, cells = check_step(reader_name, data, arrays)
        print("%s t = %g: %d points, %d cells, arrays %s agree" %
              (reader_name, time, points, cells, ",".join(sorted(arrays))))

# One picture of the last step in the default reader, coloured by the first array.
reader = OpenDataFile(path)
reader.UpdatePipeline(steps[-1][0])
view = GetActiveViewOrCreate("RenderView")
view.ViewTime = steps[-1][0]
display = Show(reader, view)
first = sorted(steps[-1][1])[0]
ColorBy(display, ("POINTS" if kind == "particles" else "CELLS", first))
if kind == "particles":
    display.SetRepresentationType("Points")
    display.PointSize = 3
else:
    display.SetRepresentationType("Surface")
    # A 2-D field is one cell thick: look along that axis (Dimensions are z y x).
    nodes = [int(n) for n in ET.parse(path).getroot().find(".//Topology").get("Dimensions").split()]
    thin = 2 - nodes.index(min(nodes))
    position = [0.0, 0.0, 0.0]
    position[thin] = -1.0 if thin == 1 else 1.0
    view.CameraPosition = position
    view.CameraFocalPoint = [0.0, 0.0, 0.0]
    view.CameraViewUp = [0.0, 0.0, 1.0] if thin != 2 else [0.0, 1.0, 0.0]
view.ResetCamera()
Render(view)
SaveScreenshot(picture, view, ImageResolution=[480, 360])
print("picture " + picture)
