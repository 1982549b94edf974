"""Opens vortex's outputs in ParaView as a user would, with pvbatch (paraview.simple): a particle
file of vortex-eval, and vortex-body's series of particles and surface (.pvd). Reads every array a
user colours by, by name, checks its components and that its values are finite, and renders one
picture of each. Exits 1 naming what is missing.

    xvfb-run -a pvbatch scripts/dev/paraview_check.py OUT_DIR EVAL.vtp BODY_DIR
"""
import math
import sys

from paraview import servermanager
from paraview.simple import (ColorBy, CreateView, GetActiveViewOrCreate, PVDReader, ResetCamera,
                             SaveScreenshot, Show, XMLPolyDataReader)

failures = []


def check_arrays(name, data, wanted, points):
    """wanted: {array: components}; data: a reader's PointData or CellData."""
    present = data.keys()
    for array, components in wanted.items():
        if array not in present:
            failures.append(f"{name}: no array '{array}' (has {sorted(present)})")
            continue
        info = data[array]
        if info.GetNumberOfComponents() != components:
            failures.append(f"{name}: '{array}' has {info.GetNumberOfComponents()} components,"
                            f" not {components}")
        ranges = [info.GetRange(k) for k in range(info.GetNumberOfComponents())]
        if not all(math.isfinite(v) for r in ranges for v in r):
            failures.append(f"{name}: '{array}' has values that are not finite: {ranges}")
        print(f"  {array:18s} {components} components, ranges {ranges}")
    if points <= 0:
        failures.append(f"{name}: empty")


def render(source, association, array, path):
    view = CreateView("RenderView")
    view.ViewSize = [800, 600]
    display = Show(source, view)
    ColorBy(display, (association, array, "Magnitude"))
    display.RescaleTransferFunctionToDataRange(True)
    ResetCamera(view)
    SaveScreenshot(path, view, ImageResolution=[800, 600])
    print(f"  picture {path}")


def main():
    out, eval_vtp, body = sys.argv[1], sys.argv[2], sys.argv[3]
    particle_arrays = {"circulation": 3, "radius": 1, "velocity": 3, "velocity_gradient": 9,
                       "vorticity": 3}

    print(f"vortex-eval particles: {eval_vtp}")
    reader = XMLPolyDataReader(FileName=[eval_vtp])
    reader.UpdatePipeline()
    n = reader.GetDataInformation().GetNumberOfPoints()
    print(f"  {n} points")
    check_arrays("vortex-eval .vtp", reader.PointData, particle_arrays, n)
    render(reader, "POINTS", "vorticity", f"{out}/paraview-eval-vorticity.png")

    for series, association, wanted, colour in (
            ("particles", "POINTS", particle_arrays, "vorticity"),
            ("surface", "CELLS", {"gamma": 3, "slip": 3, "normal_velocity": 1}, "gamma")):
        path = f"{body}/{series}.pvd"
        reader = PVDReader(FileName=path)
        times = list(reader.TimestepValues) if reader.TimestepValues else [0.0]
        print(f"vortex-body {series}: {path}, {len(times)} time steps, t = {times[0]} .. {times[-1]}")
        if len(times) < 2:
            failures.append(f"{path}: {len(times)} time step(s), a series needs 2 or more")
        reader.UpdatePipeline(times[-1])
        info = reader.GetDataInformation()
        count = info.GetNumberOfPoints() if association == "POINTS" else info.GetNumberOfCells()
        print(f"  {count} {'points' if association == 'POINTS' else 'cells'} at t = {times[-1]}")
        data = reader.PointData if association == "POINTS" else reader.CellData
        check_arrays(path, data, wanted, count)
        view = GetActiveViewOrCreate("RenderView")
        view.ViewTime = times[-1]
        render(reader, association, colour, f"{out}/paraview-body-{series}.png")

    if failures:
        for f in failures:
            print("paraview_check: " + f, file=sys.stderr)
        sys.exit(1)
    print(f"paraview_check: every file opened, every array present and finite "
          f"(ParaView {servermanager.vtkSMProxyManager.GetParaViewSourceVersion()})")


main()
