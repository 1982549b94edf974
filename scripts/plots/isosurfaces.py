#!/usr/bin/env python3
"""Iso-surfaces of the Q criterion from vortex-body's field files, as pictures.

    scripts/plots/isosurfaces.py OUT [--q LEVEL] [--size W H] [--step STEP ...]

For every OUT/field-<step>.vtk (vortex-body --projections K --field-grid N), or the steps given,
writes OUT/isosurfaces-<step>.png: the surface Q = LEVEL (default: 5 % of the largest Q in the
fluid) coloured by the height z, and the body in grey, seen from above and from below, both
oblique, as the founding paper's Figure 10 shows the discoid's wake. Needs VTK's Python module
(Debian: python3-vtk9) and a display; on a machine without one, run it under xvfb-run.
"""
import argparse
import glob
import os
import re
import sys

try:
    import numpy as np
    import vtk
    from vtk.util import numpy_support
except ImportError as e:  # pragma: no cover - a missing module is the user's to install
    sys.exit(f"isosurfaces.py: {e} (Debian: apt install python3-vtk9 python3-numpy)")


def read_field(path):
    reader = vtk.vtkStructuredPointsReader()
    reader.SetFileName(path)
    reader.ReadAllScalarsOn()
    reader.ReadAllVectorsOn()
    reader.Update()
    data = reader.GetOutput()
    if data.GetNumberOfPoints() == 0:
        sys.exit(f"isosurfaces.py: {path}: no grid points (not a vortex-body field file?)")
    point_data = data.GetPointData()
    for name in ("Q", "wall_distance"):
        if point_data.GetArray(name) is None:
            sys.exit(f"isosurfaces.py: {path}: no array '{name}'")
    return data


def fluid_q(data):
    """Q with the body's points set below every level, so that no surface closes inside it."""
    q = numpy_support.vtk_to_numpy(data.GetPointData().GetArray("Q")).astype(np.float64)
    inside = numpy_support.vtk_to_numpy(data.GetPointData().GetArray("wall_distance")) < 0
    if not np.all(np.isfinite(q)):
        sys.exit("isosurfaces.py: the field holds values that are not finite")
    fluid = q[~inside]
    floor = min(q.min(), 0.0) - 1.0
    q[inside] = floor
    return q, (fluid.max() if fluid.size else 0.0)


def surface_actor(data, name, values, level, colour_by_height):
    grid = vtk.vtkImageData()
    grid.CopyStructure(data)
    array = numpy_support.numpy_to_vtk(values, deep=1)
    array.SetName(name)
    grid.GetPointData().SetScalars(array)
    contour = vtk.vtkFlyingEdges3D()
    contour.SetInputData(grid)
    contour.SetValue(0, level)
    contour.ComputeNormalsOn()
    contour.Update()
    mapper = vtk.vtkPolyDataMapper()
    actor = vtk.vtkActor()
    if colour_by_height:
        poly = contour.GetOutput()
        z = numpy_support.vtk_to_numpy(poly.GetPoints().GetData())[:, 2].copy()
        heights = numpy_support.numpy_to_vtk(z, deep=1)
        heights.SetName("z")
        poly.GetPointData().SetScalars(heights)
        mapper.SetInputData(poly)
        mapper.SetScalarRange(*(z.min(), z.max()) if z.size else (0, 1))
        lut = vtk.vtkLookupTable()
        lut.SetHueRange(0.66, 0.0)
        lut.Build()
        mapper.SetLookupTable(lut)
    else:
        mapper.SetInputConnection(contour.GetOutputPort())
        mapper.ScalarVisibilityOff()
        actor.GetProperty().SetColor(0.55, 0.55, 0.55)
    actor.SetMapper(mapper)
    return actor, contour.GetOutput().GetNumberOfCells()


def title_of(path):
    with open(path, "rb") as f:
        f.readline()
        return f.readline().decode("ascii", "replace").strip()


def render(path, png, level, size):
    data = read_field(path)
    q, q_max = fluid_q(data)
    if level is None:
        level = 0.05 * q_max
    if not level > 0:
        print(f"isosurfaces.py: {path}: no positive Q in the fluid, nothing drawn")
        return False
    wake, cells = surface_actor(data, "Q", q, level, True)
    wall = numpy_support.vtk_to_numpy(data.GetPointData().GetArray("wall_distance"))
    body, _ = surface_actor(data, "wall_distance", wall.astype(np.float64), 0.0, False)
    window = vtk.vtkRenderWindow()
    window.SetOffScreenRendering(1)
    window.SetSize(*size)
    centre = np.array(data.GetCenter())
    extent = np.array(data.GetBounds()).reshape(3, 2)
    radius = 0.5 * np.linalg.norm(extent[:, 1] - extent[:, 0])
    # From above and from below, both oblique (the paper's Figure 10, top and bottom).
    for k, (elevation, viewport) in enumerate(((35, (0, 0, 0.5, 1)), (-35, (0.5, 0, 1, 1)))):
        renderer = vtk.vtkRenderer()
        renderer.SetViewport(*viewport)
        renderer.SetBackground(1, 1, 1)
        renderer.AddActor(wake)
        renderer.AddActor(body)
        camera = renderer.GetActiveCamera()
        camera.SetFocalPoint(*centre)
        camera.SetPosition(*(centre + np.array([0, -2.6 * radius, 0])))
        camera.SetViewUp(0, 0, 1)
        camera.Azimuth(-30)
        camera.Elevation(elevation)
        camera.OrthogonalizeViewUp()
        renderer.ResetCameraClippingRange()
        text = vtk.vtkTextActor()
        label = "from above" if k == 0 else "from below"
        text.SetInput(f"{title_of(path)}: Q = {level:.4g}, {label}" if k == 0 else label)
        text.GetTextProperty().SetColor(0, 0, 0)
        text.GetTextProperty().SetFontSize(16)
        text.SetPosition(10, 10)
        renderer.AddActor2D(text)
        window.AddRenderer(renderer)
    window.Render()
    shot = vtk.vtkWindowToImageFilter()
    shot.SetInput(window)
    shot.Update()
    writer = vtk.vtkPNGWriter()
    writer.SetFileName(png)
    writer.SetInputConnection(shot.GetOutputPort())
    writer.Write()
    print(f"{png}: Q = {level:.4g} ({cells} triangles; largest Q in the fluid {q_max:.4g})")
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="vortex-body's output folder")
    parser.add_argument("--q", type=float, default=None, help="the level of Q (default: 5 %% of the largest)")
    parser.add_argument("--size", type=int, nargs=2, default=(1400, 600), metavar=("W", "H"))
    parser.add_argument("--step", type=int, nargs="*", default=None, help="steps to draw (default: all)")
    args = parser.parse_args()
    if args.q is not None and not args.q > 0:
        sys.exit("isosurfaces.py: --q must be positive")
    if not (16 <= args.size[0] <= 8192 and 16 <= args.size[1] <= 8192):
        sys.exit("isosurfaces.py: --size must be within 16..8192 pixels")
    files = sorted(glob.glob(os.path.join(args.out, "field-*.vtk")))
    if args.step is not None:
        wanted = {f"field-{s:06d}.vtk" for s in args.step}
        files = [f for f in files if os.path.basename(f) in wanted]
    if not files:
        sys.exit(f"isosurfaces.py: no field-<step>.vtk in {args.out} (vortex-body --field-grid N)")
    for path in files:
        step = re.search(r"field-(\d+)\.vtk$", path).group(1)
        render(path, os.path.join(args.out, f"isosurfaces-{step}.png"), args.q, tuple(args.size))


if __name__ == "__main__":
    main()
