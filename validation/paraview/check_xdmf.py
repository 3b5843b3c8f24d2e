# Opens a cloudburst XDMF file in each of ParaView's readers for .xmf and
# checks what ParaView sees against the HDF5 datasets (read with h5py): the
# time steps, cell and point counts, array names, shapes and values at every
# step, and for a molecular run the bonds block (one Polyline cell per bond on
# the bonded atoms' rows, bond_type per cell); then renders the last step
# off-screen to a PNG.
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


def steps_of(xmf, collection=0):
    """(time, {attribute: (file, dataset)}) per uniform grid of the domain's
    `collection`-th temporal collection (particles: 0 atoms, 1 bonds)."""
    collections = ET.parse(xmf).getroot().find("Domain").findall("Grid")
    if collection >= len(collections):
        return []
    steps = []
    for grid in collections[collection].findall("Grid"):
        if grid.get("GridType") != "Uniform":
            continue
        time = float(grid.find("Time").get("Value"))
        arrays = {}
        for attribute in grid.findall("Attribute"):
            file, dataset = attribute.find("DataItem").text.strip().split(":")
            arrays[attribute.get("Name")] = (os.path.join(base, file), dataset)
        topology = grid.find("Topology").find("DataItem")
        if topology is not None and grid.find("Topology").get("TopologyType") == "Polyline":
            file, dataset = topology.text.strip().split(":")
            arrays["connectivity"] = (os.path.join(base, file), dataset)
        steps.append((time, arrays))
    return steps


def leaves(data):
    """The datasets of a composite (atoms, then bonds), or [data]."""
    if not data.IsA("vtkCompositeDataSet"):
        return [data]
    found = []
    iterator = data.NewIterator()
    iterator.InitTraversal()
    while not iterator.IsDoneWithTraversal():
        found.append(iterator.GetCurrentDataObject())
        iterator.GoToNextItem()
    return found


def check_bonds(reader_name, data, arrays, atoms):
    """The Polyline block: a cell per bond on the bonded atoms' rows, bond_type per cell."""
    connectivity = expected(arrays, "connectivity")
    if data.GetNumberOfCells() != connectivity.shape[0] or data.GetNumberOfPoints() != atoms:
        fail("%s: bonds block has %d cells and %d points for %d bonds and %d atoms" %
             (reader_name, data.GetNumberOfCells(), data.GetNumberOfPoints(),
              connectivity.shape[0], atoms))
    seen = np.array([[data.GetCell(c).GetPointId(k) for k in range(data.GetCell(c).GetNumberOfPoints())]
                     for c in range(data.GetNumberOfCells())])
    if not np.array_equal(seen, connectivity):
        fail("%s: the bond cells differ from the HDF5 connectivity" % reader_name)
    types = dsa.WrapDataObject(data).CellData["bond_type"]
    if not np.array_equal(np.asarray(types).ravel(), expected(arrays, "bond_type").ravel()):
        fail("%s: bond_type differs from the HDF5 dataset" % reader_name)
    return data.GetNumberOfCells()


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


def bonded_ids(data, ids):
    """The bonds as a set of (id, id) of the atoms they join."""
    return set((int(ids[data.GetCell(c).GetPointId(0)]), int(ids[data.GetCell(c).GetPointId(1)]))
               for c in range(data.GetNumberOfCells()))


bonded_ids_first = {}
steps = steps_of(path)
if not steps:
    fail("no uniform grids in " + path)
bond_steps = steps_of(path, 1) if kind == "particles" else []
if bond_steps and [t for t, _ in bond_steps] != [t for t, _ in steps]:
    fail("the bonds' time steps differ from the atoms'")
for reader_name, make in (("Xdmf3ReaderS", Xdmf3ReaderS), ("Xdmf3ReaderT", Xdmf3ReaderT),
                          ("XDMFReader", XDMFReader)):
    try:  # the XDMF 3 readers take FileName, the legacy one FileNames
        reader = make(FileName=[path])
    except AttributeError:
        reader = make(FileNames=[path])
    times = list(reader.TimestepValues) if reader.TimestepValues else [0.0]
    if len(times) != len(steps):
        fail("%s: %d time steps, the file %d" % (reader_name, len(times), len(steps)))
    for n, (time, arrays) in enumerate(steps):
        reader.UpdatePipeline(time)
        blocks = leaves(servermanager.Fetch(reader))
        if len(blocks) != (2 if bond_steps else 1):
            fail("%s: %d blocks at t = %g" % (reader_name, len(blocks), time))
        atoms = dsa.WrapDataObject(blocks[0])
        points, cells = check_step(reader_name, atoms, arrays)
        bonds = check_bonds(reader_name, blocks[1], bond_steps[n][1], points) if bond_steps else 0
        if bond_steps:
            # the rows change from step to step, the bonded atoms' ids do not
            joined = bonded_ids(blocks[1], np.asarray(atoms.PointData["id"]))
            if joined != bonded_ids_first.setdefault(reader_name, joined):
                fail("%s: at t = %g the bonds join other atoms than at t = %g" %
                     (reader_name, time, steps[0][0]))
        print("%s t = %g: %d points, %d cells, %d bond cells, arrays %s agree" %
              (reader_name, time, points, cells, bonds, ",".join(sorted(arrays))))

# One picture of the last step in the default reader, coloured by the first array.
reader = OpenDataFile(path)
reader.UpdatePipeline(steps[-1][0])
view = GetActiveViewOrCreate("RenderView")
view.ViewTime = steps[-1][0]
display = Show(reader, view)
first = sorted(steps[-1][1])[0]
ColorBy(display, ("POINTS" if kind == "particles" else "CELLS", first))
if kind == "particles":
    # Surface draws the vertices as points and the bonds as lines
    display.SetRepresentationType("Surface" if bond_steps else "Points")
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
