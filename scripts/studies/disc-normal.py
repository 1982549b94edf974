#!/usr/bin/env python3
"""The drag and side forces of a disc normal to the stream, from a vortex-body diagnostics CSV.

    scripts/studies/disc-normal.py OUT/diagnostics.csv [--from 10] [--window 5]

For the 10:10:1 ellipsoid at 90 degrees (data/disc-normal-re1000.json: the stream along z, the
disc's diameter 1) the script prints, over the rows with t >= --from (the wake formed): the mean
drag coefficient C_D with its standard deviation and the means over windows of --window time
units (how steady the mean is); the side force coefficients along x and y (the force across the
stream over the dynamic pressure times the area, taken from the CSV as the force along the stream
over C_D): their means, RMS and largest magnitudes; and the dominant frequency of the side force
(the Strouhal number f D / U with D = 1, U = 1) from the spectrum of its component along the
direction of its largest variance; all by the impulse and, where the CSV has the second route's
columns (fx_pressure, ..., fz_friction), by pressure plus skin friction; and the total
vorticity's largest component. Exits with status 2 on a CSV without the columns or rows it
needs. Needs numpy (Debian's python3-numpy)."""

import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from diagnostics_csv import read_columns  # noqa: E402  (scripts/diagnostics_csv.py)


def read(path):
    need = ["t", "fx", "fy", "fz", "cd", "vorticity_x", "vorticity_y", "vorticity_z"]
    rows = read_columns(path, need, optional=SECOND_ROUTE, who="disc-normal")
    return {c: np.array([r[c] for r in rows]) for c in rows[0]}


SECOND_ROUTE = ["fx_pressure", "fy_pressure", "fz_pressure", "fx_friction", "fy_friction",
                "fz_friction"]


def report(name, t, sx, sy, cd, window):
    """One route's drag, side forces and the side force's dominant frequency."""
    print(f"== {name}")
    print(f"C_D mean {cd.mean():.4f}, standard deviation {cd.std():.4f}, "
          f"range {cd.min():.4f} to {cd.max():.4f}")
    for lo in np.arange(t[0], t[-1] + 1e-9, window):
        w = (t >= lo) & (t < lo + window)
        if w.sum() >= 2:
            print(f"  t {lo:6.2f} to {min(lo + window, t[-1]):6.2f}: C_D {cd[w].mean():.4f}, "
                  f"side x {sx[w].mean():+.4f}, y {sy[w].mean():+.4f}")
    for axis, s in (("x", sx), ("y", sy)):
        print(f"side force along {axis}: mean {s.mean():+.4f}, RMS {math.sqrt((s * s).mean()):.4f}, "
              f"largest |.| {np.abs(s).max():.4f}")
    print(f"side force magnitude: mean of the vector ({sx.mean():+.4f}, {sy.mean():+.4f}) "
          f"= {math.hypot(sx.mean(), sy.mean()):.4f}; mean magnitude {np.hypot(sx, sy).mean():.4f}")
    # The spectrum along the side force's direction of largest variance.
    s = np.vstack([sx - sx.mean(), sy - sy.mean()])
    _, vectors = np.linalg.eigh(s @ s.T)
    along = vectors[:, -1] @ s
    power = np.abs(np.fft.rfft(along * np.hanning(len(along)))) ** 2
    freq = np.fft.rfftfreq(len(along), np.median(np.diff(t)))
    if len(freq) > 2:
        k = 1 + int(np.argmax(power[1:]))
        print(f"side force's dominant frequency {freq[k]:.4f} (Strouhal number f D / U), "
              f"resolution {freq[1]:.4f}, along ({vectors[0, -1]:+.3f}, {vectors[1, -1]:+.3f})")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("csv")
    p.add_argument("--from", dest="start", type=float, default=10.0, help="first time (default 10)")
    p.add_argument("--window", type=float, default=5.0, help="window of the means (default 5)")
    a = p.parse_args()
    if not (a.window > 0):
        p.error("--window must be positive")
    d = read(a.csv)
    t = d["t"]
    keep = (t >= a.start) & np.isfinite(d["cd"]) & (np.abs(d["cd"]) > 1e-12)
    if keep.sum() < 8:
        print(f"disc-normal: fewer than 8 rows from t = {a.start:g} (the run ends at "
              f"t = {t[-1]:g})", file=sys.stderr)
        sys.exit(2)
    q = np.median(d["fz"][keep] / d["cd"][keep])  # dynamic pressure times area
    tk = t[keep]
    print(f"{keep.sum()} rows, t = {tk[0]:g} to {tk[-1]:g}; dynamic pressure times area {q:.6g}")
    omega = max(np.abs(d[c][keep]).max() for c in ("vorticity_x", "vorticity_y", "vorticity_z"))
    print(f"largest |Omega| component over these rows {omega:.4f}")
    routes = [("impulse", d["fx"], d["fy"], d["fz"])]
    if all(c in d for c in SECOND_ROUTE):
        routes.append(("pressure + friction", d["fx_pressure"] + d["fx_friction"],
                       d["fy_pressure"] + d["fy_friction"], d["fz_pressure"] + d["fz_friction"]))
    for name, fx, fy, fz in routes:
        report(name, tk, fx[keep] / q, fy[keep] / q, fz[keep] / q, a.window)


if __name__ == "__main__":
    main()
