#!/usr/bin/env python3
"""Large clouds that used to give NaN in float, through the Python module: a two-scale cloud
(half the particles in a cube 10 times smaller, cores 10 times smaller there) of 300,000 and of
1e6, and a thin 10:10:1 ellipsoidal sheet of 1e6. With the defaults, every value must be finite and
the mean relative errors of velocity and gradient at most 2e-4 (against a double direct sum at a
sample of targets); at every order 1..16 in float, every value finite.

    python3 scripts/studies/large_clouds.py [--backend cuda|cpu] [--sample 2000] [--out results.json]
"""

import argparse
import json
import sys
import time

import numpy as np

import vortex


def errors(f, ref, idx):
    u, du = f.velocity[idx], f.gradient[idx]
    eu = np.linalg.norm(u - ref.velocity, axis=1) / np.linalg.norm(ref.velocity, axis=1)
    g = (du - ref.gradient).reshape(len(idx), 9)
    edu = np.linalg.norm(g, axis=1) / np.linalg.norm(ref.gradient.reshape(len(idx), 9), axis=1)
    return float(np.mean(eu)), float(np.mean(edu))


def non_finite(f):
    return int(np.count_nonzero(~np.isfinite(f.velocity).all(axis=1) |
                                ~np.isfinite(f.gradient.reshape(len(f.velocity), 9)).all(axis=1)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--sample", type=int, default=2000)
    ap.add_argument("--out", default="")
    ap.add_argument("--orders", default="1-16")
    a = ap.parse_args()
    lo, hi = (int(v) for v in a.orders.split("-"))
    clouds = [
        ("two-scale-3e5", lambda: vortex.two_scale_cube(300000, seed=1)),
        ("two-scale-1e6", lambda: vortex.two_scale_cube(1000000, seed=2)),
        ("ellipsoid-sheet-1e6", lambda: vortex.ellipsoid_sheet(1000000, seed=3)),
    ]
    rng = np.random.default_rng(7)
    results, ok = [], True
    for name, make in clouds:
        p = make()
        n = len(p)
        idx = np.sort(rng.choice(n, size=min(a.sample, n), replace=False))
        ref = vortex.Solver(backend=a.backend, method="direct", precision="double").evaluate(
            p, targets=np.ascontiguousarray(p.positions[idx]), gradient=True)
        solver = vortex.Solver(backend=a.backend)
        t0 = time.perf_counter()
        f = solver.evaluate(p, gradient=True)
        seconds = time.perf_counter() - t0
        eu, edu = errors(f, ref, idx)
        bad = non_finite(f)
        tree = f.stats["tree"]
        row = {"cloud": name, "n": n, "defaults": {
            "precision": f.stats["precision"], "order": tree["order"], "theta": tree["theta"],
            "non_finite": bad, "u_mean": eu, "du_mean": edu, "seconds": seconds}, "orders": []}
        ok &= bad == 0 and eu <= 2e-4 and edu <= 2e-4
        print(f"{name}: n {n}, defaults ({f.stats['precision']}, order {tree['order']}): "
              f"non-finite {bad}, u {eu:.2e}, du {edu:.2e}, {seconds:.3f} s", flush=True)
        for order in range(lo, hi + 1):
            g = vortex.Solver(backend=a.backend, precision="float", order=order).evaluate(
                p, gradient=True)
            bad = non_finite(g)
            eu, edu = errors(g, ref, idx)
            ok &= bad == 0 and g.stats["precision"] == "float"
            row["orders"].append({"order": order, "precision": g.stats["precision"],
                                  "non_finite": bad, "u_mean": eu, "du_mean": edu})
            print(f"  float order {order:2d} ({g.stats['precision']}): non-finite {bad}, "
                  f"u {eu:.2e}, du {edu:.2e}", flush=True)
        results.append(row)
    if a.out:
        with open(a.out, "w") as fh:
            json.dump(results, fh, indent=1)
    print("all finite and within 2e-4 at the defaults" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
