#!/usr/bin/env python3
"""How much of a body run's total vorticity the particles' cores hold inside the body.

    PYTHONPATH=build/python /usr/bin/python3 scripts/studies/cores-inside-body.py OUT \\
        --axes 0.5,0.5,0.05

OUT is a vortex-body output folder with particles-NNNNNN.vtp files (--every) and its
diagnostics.csv; the body is the ellipsoid with the given semi-axes along x, y, z. For each
particle file the script finds each particle's signed distance d from the ellipsoid (exact: the
closest point by bisection on the ellipsoid's normal parameter) and takes the part of its core
beyond the tangent plane there, by the exponential core's vorticity 3/(4 pi) exp(-rho^3) integrated
over the half-space farther than d / sigma (a plane wall: the body's curvature is left out). It
prints the particles' total, the sheet's and their sum from the CSV, and the cores' part inside the
body. The sheet answers the field at the wall, in which the cores' vorticity inside the body has
no part, so that part shows in the sum (particles and sheet) that the exact flow keeps at zero.
Needs numpy (Debian's python3-numpy) and the vortex Python module."""

import argparse
import csv
import glob
import math
import os
import re
import sys

import numpy as np

import vortex


def ellipsoid_distance(points, axes):
    """Signed distances (outside > 0) of points from the ellipsoid with these semi-axes."""
    a2 = axes**2
    outside = (points**2 / a2).sum(1) >= 1
    # The closest point is a2 p / (a2 + t) for the t where it lies on the ellipsoid: t > 0 outside,
    # -min(a2) < t < 0 inside; g(t) = sum p^2 a2 / (a2 + t)^2 - 1 decreases in t.
    lo = np.where(outside, 0.0, -a2.min() * (1 - 1e-12))
    hi = np.where(outside, np.linalg.norm(points, axis=1) * axes.max() + 1.0, 0.0)
    for _ in range(200):
        t = 0.5 * (lo + hi)
        g = (points**2 * a2 / (a2 + t[:, None]) ** 2).sum(1) - 1
        lo = np.where(g > 0, t, lo)
        hi = np.where(g > 0, hi, t)
    closest = points * a2 / (a2 + t[:, None])
    d = np.linalg.norm(points - closest, axis=1)
    return np.where(outside, d, -d)


def part_beyond(distance_over_sigma):
    """The exponential core's share farther than the plane at d / sigma from its centre."""
    rho = np.linspace(0.0, 6.0, 12001)
    zeta = 3 / (4 * math.pi) * np.exp(-(rho**3))
    # The marginal along one axis, m(z) = 2 pi int_|z|^inf zeta(r) r dr, and its tail integral.
    step = np.diff(rho)
    inner = np.concatenate([[0.0], np.cumsum(0.5 * (zeta[1:] * rho[1:] + zeta[:-1] * rho[:-1]) * step)])
    m = 2 * math.pi * (inner[-1] - inner)
    below = np.concatenate([[0.0], np.cumsum(0.5 * (m[1:] + m[:-1]) * step)])
    half = below[-1]  # each half-space holds half of the core
    t = np.minimum(np.abs(distance_over_sigma), rho[-1])
    tail = (half - np.interp(t, rho, below)) / (2 * half)
    return np.where(distance_over_sigma >= 0, tail, 1 - tail)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out", help="a vortex-body output folder")
    p.add_argument("--axes", default="0.5,0.5,0.05", help="the ellipsoid's semi-axes AX,AY,AZ")
    a = p.parse_args()
    try:
        axes = np.array([float(v) for v in a.axes.split(",")])
    except ValueError:
        sys.exit(f"cores-inside-body: --axes {a.axes!r} is not three numbers")
    if axes.shape != (3,) or not np.all(axes > 0):
        sys.exit(f"cores-inside-body: --axes {a.axes!r} must be three positive numbers")
    path = os.path.join(a.out, "diagnostics.csv")
    try:
        with open(path, newline="") as f:
            rows = {int(r["step"]): r for r in csv.DictReader(f)}
    except OSError as e:
        sys.exit(f"cores-inside-body: cannot read {path}: {e.strerror}")
    files = sorted(glob.glob(os.path.join(a.out, "particles-*.vtp")))
    if not files:
        sys.exit(f"cores-inside-body: no particles-*.vtp in {a.out} (run vortex-body with --every)")
    print("step   t       particles' total (y)  sheet (y)  sum (y)   cores inside the body (x, y, z)")
    for name in files:
        step = int(re.search(r"particles-(\d+)\.vtp$", name).group(1))
        if step not in rows:
            continue
        particles = vortex.read_particles(name)
        x = np.asarray(particles.positions)
        g = np.asarray(particles.strengths)
        sigma = np.asarray(particles.sigma)
        inside = (g * part_beyond(ellipsoid_distance(x, axes) / sigma)[:, None]).sum(0)
        r = rows[step]
        total_y = float(r["vorticity_y"])
        sheet_y = float(r["sheet_vorticity_y"])
        print(f"{step:4d}  {float(r['t']):.3f}  {g[:, 1].sum():+.4f}  {sheet_y:+.4f}  {total_y:+.4f}"
              f"   {inside[0]:+.4f} {inside[1]:+.4f} {inside[2]:+.4f}")


if __name__ == "__main__":
    main()
