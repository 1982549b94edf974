#!/usr/bin/env python3
"""The drag and lift of a vortex-body run about other impulse origins, from its diagnostics CSV.

    scripts/body-force-origins.py OUT/diagnostics.csv --angle 60 \\
        --origin 0,0,0 --origin 0.5,0,0 --origin=-0.5,0,0 --origin 1,0,1 [--check 2]

The force is minus the rate of change of the impulse I = 1/2 sum x × Gamma (particles and sheet).
About an origin d it is I - 1/2 d × Omega, with Omega the total vorticity, so the force of each
step changes by 1/2 d × dOmega/dt: nothing when Omega stays put. (An origin that starts with a
minus sign is given as --origin=-0.5,0,0.) For each origin the script prints
the means of C_D and C_L over the last quarter of the rows (--from sets the fraction of the rows
left out before them), then the spread of those means over the origins in percent of the largest
magnitude, and the largest |Omega| component of the run. --check P exits with status 1 when
either spread exceeds P percent.

Where the CSV has the second route's columns (cd_pressure, cl_pressure, cd_friction, cl_friction:
the wall pressure from the shed vorticity plus the skin friction), it prints their means over the
same rows and their difference from the impulse route's (about the first origin) in percent of
its C_D, and the budget of the rows after the first (which holds the impulsive start): the
second route's force integrated over time against -Delta I, along the stream and the lift.
--check-routes P exits with status 1 when the C_D or C_L difference exceeds P percent.

The stream is --angle A (degrees from x toward z, speed 1) or --stream UX,UY,UZ; the lift is
along the part of z across the stream, as vortex-body takes it (x, then y, when z is along the
stream). The dynamic pressure comes from the CSV: the force along the stream over C_D. A CSV
without the columns, or with a value that is not a finite number, exits with status 2 naming the
line and column (scripts/diagnostics_csv.py)."""

import argparse
import math
import statistics
import sys

from diagnostics_csv import read_columns


def vec(text):
    parts = text.split(",")
    if len(parts) != 3:
        raise argparse.ArgumentTypeError(f"'{text}' is not three numbers x,y,z")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not three numbers x,y,z")
    if not all(math.isfinite(v) for v in values):
        raise argparse.ArgumentTypeError(f"'{text}' is not finite")
    return values


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def unit(a):
    n = math.sqrt(dot(a, a))
    return [x / n for x in a]


def lift_direction(e):
    for axis in ([0, 0, 1], [1, 0, 0], [0, 1, 0]):
        across = [a - dot(axis, e) * x for a, x in zip(axis, e)]
        if math.sqrt(dot(across, across)) > 1e-6:
            return unit(across)
    raise ValueError("no direction across the stream")


# The second route's columns, where the CSV has them.
SECOND_ROUTE = ["cd_pressure", "cl_pressure", "cd_friction", "cl_friction", "ix", "iy", "iz"]


def read_rows(path):
    need = ["t", "fx", "fy", "fz", "cd", "vorticity_x", "vorticity_y", "vorticity_z"]
    return read_columns(path, need, optional=SECOND_ROUTE, who="body-force-origins")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("csv")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--angle", type=float, default=0.0, help="stream angle, degrees from x to z")
    g.add_argument("--stream", type=vec, help="free stream UX,UY,UZ")
    p.add_argument("--origin", type=vec, action="append", help="an impulse origin x,y,z")
    p.add_argument("--from", dest="start", type=float, default=0.75,
                   help="fraction of the rows before the mean (default 0.75)")
    p.add_argument("--check", type=float, help="exit 1 when a spread exceeds this percentage")
    p.add_argument("--check-routes", type=float,
                   help="exit 1 when the routes' C_D or C_L differ by more than this percentage")
    a = p.parse_args()
    if not 0 <= a.start < 1:
        p.error("--from must be in [0, 1)")
    if a.check is not None and not a.check > 0:
        p.error("--check must be positive")
    if a.check_routes is not None and not a.check_routes > 0:
        p.error("--check-routes must be positive")
    if a.stream is not None and dot(a.stream, a.stream) == 0:
        p.error("--stream must not be zero")
    stream = a.stream or [math.cos(math.radians(a.angle)), 0, math.sin(math.radians(a.angle))]
    e = unit(stream)
    lift = lift_direction(e)
    origins = a.origin or [[0.0, 0.0, 0.0]]
    rows = read_rows(a.csv)

    pressures = [dot([r["fx"], r["fy"], r["fz"]], e) / r["cd"] for r in rows if abs(r["cd"]) > 1e-9]
    if not pressures or not statistics.median(pressures) > 0:
        sys.exit("body-force-origins: no row gives the dynamic pressure (C_D is zero throughout)")
    q = statistics.median(pressures)

    first = min(int(a.start * len(rows)), len(rows) - 1)
    means = []
    print(f"{len(rows) - first} rows from t = {rows[first]['t']:g}; dynamic pressure times area {q:.6g}")
    print("origin                      C_D        C_L")
    for d in origins:
        cds, cls = [], []
        before, t_before = [0.0, 0.0, 0.0], 0.0  # the total vorticity at t = 0+ is zero
        for k, r in enumerate(rows):
            omega = [r["vorticity_x"], r["vorticity_y"], r["vorticity_z"]]
            dt = r["t"] - t_before
            if not dt > 0:
                sys.exit(f"body-force-origins: the times do not increase at row {k + 1}")
            rate = [(o - b) / dt for o, b in zip(omega, before)]
            shift = [0.5 * x for x in cross(d, rate)]
            force = [f + s for f, s in zip([r["fx"], r["fy"], r["fz"]], shift)]
            if k >= first:
                cds.append(dot(force, e) / q)
                cls.append(dot(force, lift) / q)
            before, t_before = omega, r["t"]
        means.append((statistics.fmean(cds), statistics.fmean(cls)))
        print(f"({d[0]:g}, {d[1]:g}, {d[2]:g})".ljust(24) + f"{means[-1][0]:10.4f} {means[-1][1]:10.4f}")

    spreads = []
    for c, name in ((0, "C_D"), (1, "C_L")):
        values = [m[c] for m in means]
        scale = max(abs(v) for v in values)
        spreads.append(100 * (max(values) - min(values)) / scale if scale > 0 else 0.0)
        print(f"spread of {name} over the origins: {spreads[-1]:.2f} %")
    largest = max(abs(r[c]) for r in rows for c in ("vorticity_x", "vorticity_y", "vorticity_z"))
    print(f"largest |total vorticity| component over the run: {largest:.4g}")
    status = 0
    if a.check is not None and max(spreads) > a.check:
        print(f"a spread exceeds {a.check:g} %")
        status = 1
    routes = second_route(rows, first, means[0], q, e, lift)
    if a.check_routes is not None:
        if routes is None:
            sys.exit("body-force-origins: --check-routes: the CSV has no second route's columns")
        if max(abs(d) for d in routes) > a.check_routes:
            print(f"the routes differ by more than {a.check_routes:g} %")
            status = 1
    return status


def second_route(rows, first, impulse_means, q, e, lift):
    """Prints the second route's means and budget; returns its C_D and C_L differences in percent
    of the impulse route's C_D, or None without its columns."""
    if any(c not in rows[0] for c in SECOND_ROUTE):
        return None
    extra = rows
    cd = [x["cd_pressure"] + x["cd_friction"] for x in extra]
    cl = [x["cl_pressure"] + x["cl_friction"] for x in extra]
    mean_cd, mean_cl = statistics.fmean(cd[first:]), statistics.fmean(cl[first:])
    scale = abs(impulse_means[0]) if impulse_means[0] != 0 else 1.0
    diffs = (100 * (mean_cd - impulse_means[0]) / scale, 100 * (mean_cl - impulse_means[1]) / scale)
    print(f"second route (pressure + skin friction): C_D {mean_cd:.4f}, C_L {mean_cl:.4f}; "
          f"against the impulse route {diffs[0]:+.2f} %, {diffs[1]:+.2f} % of its C_D")
    if len(rows) > 1:
        along = [sum(q * c * (rows[k]["t"] - rows[k - 1]["t"]) for k, c in enumerate(v) if k > 0)
                 for v in (cd, cl)]
        delta = [extra[-1][c] - extra[0][c] for c in ("ix", "iy", "iz")]
        print(f"from t = {rows[0]['t']:g} to {rows[-1]['t']:g}: the second route's force over time "
              f"{along[0]:.6g} along the stream, {along[1]:.6g} along the lift; -Delta I "
              f"{-dot(delta, e):.6g} and {-dot(delta, lift):.6g}")
    return diffs


if __name__ == "__main__":
    sys.exit(main())
