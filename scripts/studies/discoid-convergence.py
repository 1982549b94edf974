#!/usr/bin/env python3
"""A resolution series of vortex-body runs: last-quarter forces and their Richardson estimate.

    scripts/studies/discoid-convergence.py --series "time step" 0.04:A.csv 0.02:B.csv 0.01:C.csv \\
        [--series panels F32:D.csv F48:E.csv F64:F.csv]

Each run is SIZE:CSV, SIZE the series' parameter: a size that shrinks as the resolution grows (the
time step), or FN, a panel frequency N (20 N^2 panels), whose size is taken as 1/N. For each run it prints, over the rows with t >= 3/4 of the run's
last time, the means of C_D and C_L (the impulse route, about the body's centre) and of the second
route (pressure plus friction, where the CSV has it), the particles and the total vorticity at the
end. For each series of three runs it prints the observed order p of the change of each mean
(from (f3 - f2) / (f2 - f1) = (h3^p - h2^p) / (h2^p - h1^p), h1 the finest) and the Richardson
estimate f1 - (f2 - f1) h1^p / (h2^p - h1^p); with two runs, or where the changes do not shrink
monotonically, it prints the change between the two finest only.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from diagnostics_csv import read_columns  # noqa: E402  (scripts/diagnostics_csv.py)


def last_quarter(path):
    need = ["t", "cd", "cl", "n_particles", "vorticity_y"]
    second = ["cd_pressure", "cd_friction", "cl_pressure", "cl_friction"]
    rows = read_columns(path, need, optional=second, who="discoid-convergence.py")
    t_end = rows[-1]["t"]
    keep = [r for r in rows if r["t"] >= 0.75 * t_end - 1e-9]

    def mean(key):
        return sum(r[key] for r in keep) / len(keep)

    out = {"t_end": t_end, "rows": len(keep), "cd": mean("cd"), "cl": mean("cl"),
           "n": int(rows[-1]["n_particles"]), "omega_y": rows[-1]["vorticity_y"]}
    if all(c in rows[0] for c in second):
        out["cd2"] = mean("cd_pressure") + mean("cd_friction")
        out["cl2"] = mean("cl_pressure") + mean("cl_friction")
    return out


def observed_order(h, f):
    """p with (f3 - f2) / (f2 - f1) = (h3^p - h2^p) / (h2^p - h1^p), by bisection; None if none."""
    d1, d2 = f[1] - f[0], f[2] - f[1]
    if d1 == 0 or d2 == 0 or (d1 > 0) != (d2 > 0):
        return None
    ratio = d2 / d1

    def g(p):
        return (h[2] ** p - h[1] ** p) / (h[1] ** p - h[0] ** p) - ratio

    lo, hi = 0.05, 8.0
    if g(lo) * g(hi) > 0:
        return None
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if g(lo) * g(mid) <= 0:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", nargs="+", action="append", required=True,
                        metavar="NAME SIZE:CSV", help="a series' name and its runs")
    args = parser.parse_args()
    for series in args.series:
        name, runs = series[0], series[1:]
        if len(runs) < 2:
            sys.exit(f"discoid-convergence.py: series '{name}' needs two runs or more")
        data = []
        for run in runs:
            size, _, path = run.partition(":")
            frequency = size.startswith("F")
            try:
                value = float(size[1:] if frequency else size)
            except ValueError:
                sys.exit(f"discoid-convergence.py: '{run}' is not SIZE:CSV")
            if not value > 0:
                sys.exit(f"discoid-convergence.py: '{run}': SIZE must be positive")
            h = 1 / value if frequency else value
            data.append((h, value, path, last_quarter(path)))
        data.sort(key=lambda d: d[0])  # finest first
        print(f"## {name}\n")
        keys = [k for k in ("cd", "cl", "cd2", "cl2") if all(k in d[3] for d in data)]
        print("| " + name + " | t end | N at the end | Ω_y at the end | " +
              " | ".join(k.replace("2", " (p + f)") for k in keys) + " |")
        print("|---" * (4 + len(keys)) + "|")
        for h, value, path, q in data:
            print(f"| {value:g} | {q['t_end']:.3g} | {q['n']:,} | {q['omega_y']:+.3f} | " +
                  " | ".join(f"{q[k]:.4f}" for k in keys) + " |")
        print()
        for k in keys:
            f = [d[3][k] for d in data]
            h = [d[0] for d in data]
            change = (f[0] - f[1]) / abs(f[1]) * 100
            line = f"- {k}: the two finest differ by {change:+.2f} %"
            if len(data) >= 3:
                p = observed_order(h[:3], f[:3])
                if p is None:
                    line += "; the changes do not shrink monotonically (no Richardson estimate)"
                else:
                    est = f[0] - (f[1] - f[0]) * h[0] ** p / (h[1] ** p - h[0] ** p)
                    line += (f"; observed order {p:.2f}, Richardson estimate {est:.4f} "
                             f"(finest {(f[0] - est) / abs(est) * 100:+.2f} % from it)")
            print(line)
        print()


if __name__ == "__main__":
    main()
