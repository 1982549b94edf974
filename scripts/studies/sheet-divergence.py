#!/usr/bin/env python3
"""How much of a body run's vortex sheet is not surface-solenoidal, and the sheet's total from it.

    /usr/bin/python3 scripts/studies/sheet-divergence.py OUT [STEP ...]

OUT is a vortex-body output folder with surface-NNNNNN.vtp files (--every K; VTK build). For a
tangential field g on a closed surface, int g dA = -int x (div_s g) dA: the sheet's total
vorticity, which shedding hands to the particles, is the first moment of its surface divergence.
The script computes, per panel, the finite-volume divergence of the sheet gamma (fluxes through
the panels' edges, the two panels' values averaged), prints the sheet's total against
-sum x div A (the identity, to the discretization), then splits gamma into a gradient part
grad phi (Laplace-Beltrami with panel unknowns, two-point fluxes, conjugate gradients) and the
rest, and prints the gradient part's share of gamma's L2 norm over the surface. A solenoidal
field gives a share near 0 (0.3 % for n x grad psi on the discoid rehearsal's mesh), a gradient
field near 1 (1.12 for a gradient on that mesh, whose gradient part's total came out 0.293
against 0.373: the per-panel reconstruction is rough).
Needs numpy and VTK's Python module (Debian: python3-numpy, python3-vtk9).
"""
import glob
import os
import re
import sys

try:
    import numpy as np
    import vtk
    from vtk.util import numpy_support as ns
except ImportError as e:  # pragma: no cover
    sys.exit(f"sheet-divergence.py: {e} (Debian: apt install python3-numpy python3-vtk9)")


def load(path):
    reader = vtk.vtkXMLPolyDataReader()
    reader.SetFileName(path)
    reader.Update()
    poly = reader.GetOutput()
    if poly.GetNumberOfCells() == 0 or poly.GetCellData().GetArray("gamma") is None:
        sys.exit(f"sheet-divergence.py: {path}: no panels with a 'gamma' array")
    points = ns.vtk_to_numpy(poly.GetPoints().GetData()).astype(float)
    triangles = ns.vtk_to_numpy(poly.GetPolys().GetData()).reshape(-1, 4)[:, 1:]
    gamma = ns.vtk_to_numpy(poly.GetCellData().GetArray("gamma")).astype(float)
    return points, triangles, gamma


def analyse(points, triangles, gamma):
    a, b, c = (points[triangles[:, k]] for k in range(3))
    normal = np.cross(b - a, c - a)
    area = 0.5 * np.linalg.norm(normal, axis=1)
    normal /= 2 * area[:, None]
    centre = (a + b + c) / 3
    # Each edge and its two panels.
    owner = {}
    pairs = []
    for j, t in enumerate(triangles):
        for k in range(3):
            e = (min(t[k], t[(k + 1) % 3]), max(t[k], t[(k + 1) % 3]))
            if e in owner:
                pairs.append((e, owner.pop(e), j))
            else:
                owner[e] = j
    if owner:
        sys.exit("sheet-divergence.py: the surface is not closed (an edge with one panel)")
    e0 = np.array([p[0][0] for p in pairs])
    e1 = np.array([p[0][1] for p in pairs])
    j = np.array([p[1] for p in pairs])
    k = np.array([p[2] for p in pairs])
    edge = points[e1] - points[e0]
    length = np.linalg.norm(edge, axis=1)
    middle = 0.5 * (points[e0] + points[e1])

    def conormal(panel):
        v = np.cross(edge, normal[panel])
        v /= np.linalg.norm(v, axis=1)[:, None]
        return np.where(((middle - centre[panel]) * v).sum(1)[:, None] < 0, -v, v)

    cj, ck = conormal(j), conormal(k)
    flux = 0.5 * ((gamma[j] * cj).sum(1) - (gamma[k] * ck).sum(1)) * length  # out of j into k
    div = np.zeros(len(triangles))
    np.add.at(div, j, flux)
    np.add.at(div, k, -flux)
    weight = length / np.linalg.norm(centre[k] - centre[j], axis=1)

    def laplacian(phi):
        f = weight * (phi[k] - phi[j])
        out = np.zeros_like(phi)
        np.add.at(out, j, f)
        np.add.at(out, k, -f)
        return out

    # L phi = div by conjugate gradients on -L (positive semi-definite; div sums to zero).
    rhs = -(div - div.mean())
    phi = np.zeros_like(rhs)
    r = rhs.copy()
    p = r.copy()
    rr = r @ r
    for _ in range(20 * len(rhs)):
        q = -laplacian(p)
        alpha = rr / (p @ q)
        phi += alpha * p
        r -= alpha * q
        new = r @ r
        if new <= 1e-24 * (rhs @ rhs):
            break
        p = r + new / rr * p
        rr = new
    # grad phi per panel: least squares over its neighbours' centroids, in the panel's plane.
    neighbours = [[] for _ in triangles]
    for jj, kk in zip(j, k):
        neighbours[jj].append(kk)
        neighbours[kk].append(jj)
    grad = np.zeros_like(gamma)
    for q, nb in enumerate(neighbours):
        d = centre[nb] - centre[q]
        d -= np.outer(d @ normal[q], normal[q])
        x = np.linalg.lstsq(d, phi[nb] - phi[q], rcond=None)[0]
        grad[q] = x - (x @ normal[q]) * normal[q]
    total = (gamma * area[:, None]).sum(0)
    moment = -(centre * div[:, None]).sum(0)
    share = np.sqrt((np.linalg.norm(grad, axis=1) ** 2 * area).sum() /
                    max((np.linalg.norm(gamma, axis=1) ** 2 * area).sum(), 1e-300))
    return total, moment, share


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    files = sorted(glob.glob(os.path.join(out, "surface-*.vtp")))
    if len(sys.argv) > 2:
        wanted = {f"surface-{int(s):06d}.vtp" for s in sys.argv[2:]}
        files = [f for f in files if os.path.basename(f) in wanted]
    if not files:
        sys.exit(f"sheet-divergence.py: no surface-<step>.vtp in {out} (vortex-body --every K)")
    print("step | sheet's total | -sum x div A | gradient part's share of |gamma|")
    for path in files:
        step = int(re.search(r"surface-(\d+)\.vtp$", path).group(1))
        total, moment, share = analyse(*load(path))
        print(f"{step} | ({total[0]:+.5f}, {total[1]:+.5f}, {total[2]:+.5f}) | "
              f"({moment[0]:+.5f}, {moment[1]:+.5f}, {moment[2]:+.5f}) | {share:.3f}")


if __name__ == "__main__":
    main()
