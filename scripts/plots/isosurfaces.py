#!/usr/bin/env python3
"""Iso-surfaces of the Q criterion from vortex-body's field files, as pictures.

    scripts/plots/isosurfaces.py OUT [--q LEVEL] [--size W H] [--step STEP ...] [--stack PNG]

For every OUT/field-<step>.vtk (vortex-body --projections K --field-grid N), or the steps given,
writes OUT/isosurfaces-<step>.png: the surface Q = LEVEL (default: 5 % of the largest Q in the
fluid) coloured by the height z, and the body in grey, seen from above and from below, both
oblique, as the founding paper's Figure 10 shows the discoid's wake. --stack also writes the
pictures one above the other, the earliest on top, into one PNG. OUT/isosurfaces.csv gets, per
step, the level and the area-weighted centre of the largest connected piece of the surface (on
the discoid, the loop of the starting vortex), a path of the wake's main structure. Needs VTK's Python module
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
    return actor, contour.GetOutput()


def largest_piece_centre(surface):
    """The area-weighted centre of the largest connected piece of a triangulated surface."""
    pieces = vtk.vtkPolyDataConnectivityFilter()
    pieces.SetInputData(surface)
    pieces.SetExtractionModeToLargestRegion()
    pieces.Update()
    clean = vtk.vtkCleanPolyData()
    clean.SetInputConnection(pieces.GetOutputPort())
    clean.Update()
    poly = clean.GetOutput()
    if poly.GetNumberOfCells() == 0:
        return None, 0.0
    points = numpy_support.vtk_to_numpy(poly.GetPoints().GetData())
    cells = numpy_support.vtk_to_numpy(poly.GetPolys().GetData()).reshape(-1, 4)[:, 1:]
    a, b, c = points[cells[:, 0]], points[cells[:, 1]], points[cells[:, 2]]
    area = 0.5 * np.linalg.norm(np.cross(b - a, c - a), axis=1)
    centre = ((a + b + c) / 3 * area[:, None]).sum(axis=0) / area.sum()
    return centre, area.sum()


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
        return None
    wake, surface = surface_actor(data, "Q", q, level, True)
    cells = surface.GetNumberOfCells()
    centre, area = largest_piece_centre(surface)
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
        renderer.ResetCamera()  # the wake and the body fill the view from this direction
        camera.Zoom(1.15)
        renderer.ResetCameraClippingRange()
        text = vtk.vtkTextActor()
        label = "from above" if k == 0 else "from below"
        text.SetInput(f"{title_of(path)}: Q = {level:.4g}, {label}" if k == 0 else label)
        text.GetTextProperty().SetColor(0, 0, 0)
        text.GetTextProperty().SetFontSize(16)
        text.SetPosition(10, size[1] - 30)
        renderer.AddActor2D(text)
        window.AddRenderer(renderer)
    window.Render()
    shot = vtk.vtkWindowToImageFilter()
    shot.SetInput(window)
    shot.Update()
    write_png(shot.GetOutput(), png)
    print(f"{png}: Q = {level:.4g} ({cells} triangles; largest Q in the fluid {q_max:.4g})")
    picture = vtk.vtkImageData()
    picture.DeepCopy(shot.GetOutput())
    return picture, level, centre, area


def write_png(image, png):
    writer = vtk.vtkPNGWriter()
    writer.SetFileName(png)
    writer.SetInputData(image)
    writer.Write()


def stack(pictures, png):
    """The pictures one above the other, the first on top (an image's rows go up in VTK)."""
    append = vtk.vtkImageAppend()
    append.SetAppendAxis(1)
    for picture in reversed(pictures):
        append.AddInputData(picture)
    append.Update()
    write_png(append.GetOutput(), png)
    print(f"{png}: {len(pictures)} pictures")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="vortex-body's output folder")
    parser.add_argument("--q", type=float, default=None, help="the level of Q (default: 5 %% of the largest)")
    parser.add_argument("--size", type=int, nargs=2, default=(1400, 600), metavar=("W", "H"))
    parser.add_argument("--step", type=int, nargs="*", default=None, help="steps to draw (default: all)")
    parser.add_argument("--stack", default=None, help="also the pictures one above the other in this PNG")
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
    pictures, rows = [], ["step,t,q_level,largest_x,largest_y,largest_z,largest_area"]
    for path in files:
        step = re.search(r"field-(\d+)\.vtk$", path).group(1)
        drawn = render(path, os.path.join(args.out, f"isosurfaces-{step}.png"), args.q,
                       tuple(args.size))
        if drawn is None:
            continue
        picture, level, centre, area = drawn
        pictures.append(picture)
        if centre is not None:
            t = re.search(r"t = (\S+)", title_of(path)).group(1)
            rows.append(f"{int(step)},{t},{level:.6g},{centre[0]:.6g},{centre[1]:.6g},"
                        f"{centre[2]:.6g},{area:.6g}")
    with open(os.path.join(args.out, "isosurfaces.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    if args.stack and pictures:
        stack(pictures, args.stack)


if __name__ == "__main__":
    main()
