#!/usr/bin/env python3
"""Fits the tolerance's error and cost models to scripts/studies/tolerance-calibration.sh output.

Rows: case n p theta u_err du_err total near far contrast. Error (the larger of u_err and du_err):
  log e = log C + g log(p+1) + (p+1)(log b + s log theta) + k1 log theta + k2 log(1-theta)
          + eu log max(1, n / N0) + ec log max(1, n (1 - 1/contrast) / N0),
least squares for each N0 of a grid, the N0 of least misfit kept; C is then raised so that every
point lies below the model, and times the margin. Cost (cube rows, times per source):
near = n0 + n1 theta^-3, far = (m0 + m1 theta^-3)(c0 + (p+1)^2).
Pure Python (no numpy). Usage: scripts/studies/fit-tolerance-model.py FILE [margin [N0,N0,...]] (N0 default 2e4, the smallest N
measured, below which no growth is modelled)
"""
import math
import sys


def solve(a, y):
    """Least squares by the normal equations (Gaussian elimination with pivoting)."""
    m = len(a[0])
    ata = [[sum(r[i] * r[j] for r in a) + (1e-9 if i == j else 0) for j in range(m)]
           for i in range(m)]
    aty = [sum(r[i] * v for r, v in zip(a, y)) for i in range(m)]
    for c in range(m):
        piv = max(range(c, m), key=lambda r: abs(ata[r][c]))
        ata[c], ata[piv] = ata[piv], ata[c]
        aty[c], aty[piv] = aty[piv], aty[c]
        for r in range(m):
            if r != c and ata[c][c] != 0:
                f = ata[r][c] / ata[c][c]
                ata[r] = [x - f * z for x, z in zip(ata[r], ata[c])]
                aty[r] -= f * aty[c]
    return [aty[i] / ata[i][i] for i in range(m)]


def features(p, t, n, clustered, n0):
    return [1, math.log(p + 1), p + 1, (p + 1) * math.log(t), math.log(t), math.log(1 - t),
            math.log(max(1.0, n / n0)), math.log(max(1.0, clustered / n0))]


def main():
    rows = [line.split() for line in open(sys.argv[1]) if line.strip() and line[0] != "#"]
    margin = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    points, checks = [], []
    for r in rows:
        n, p, t = int(r[1]), int(r[2]), float(r[3])
        err = max(float(v) for v in r[4:6] if v != "-")
        contrast = max(1.0, float(r[9]))
        # Rows missing an error ("-") are not fitted, only checked against the model.
        (checks if "-" in r[4:6] else points).append((r[0], n, p, t, err,
                                                      n * (1 - 1 / contrast)))
    best = None
    grid = [float(v) for v in sys.argv[3].split(",")] if len(sys.argv) > 3 else [2e4]
    for n0 in grid:
        a = [features(p, t, n, c, n0) for _, n, p, t, _, c in points]
        y = [math.log(e) for *_, e, _ in points]
        x = solve(a, y)
        res = [v - sum(f * w for f, w in zip(row, x)) for row, v in zip(a, y)]
        misfit = sum(v * v for v in res)
        if best is None or misfit < best[0]:
            best = (misfit, n0, x, res)
    misfit, n0, x, res = best
    worst = max(res)
    print("error model: C = %.4g, g = %.4g, b = %.4g, s = %.4g, k1 = %.4g, k2 = %.4g, "
          "N0 = %.3g, eu = %.4g, ec = %.4g" % (math.exp(x[0] + worst) * margin, x[1],
                                               math.exp(x[2]), x[3], x[4], x[5], n0, x[6], x[7]))
    print("  rms of log error %.3f, largest measured/model %.3f (before the margin %.2f)" %
          (math.sqrt(misfit / len(res)), math.exp(worst), margin))
    # How far below the final model each case's points lie (model / measured), by N.
    by = {}
    for (case, n, *_), r in zip(points, res):
        by.setdefault((case, n), []).append(math.exp(worst - r) * margin)
    for key in sorted(by):
        v = sorted(by[key])
        print("  %-8s N %8d: model/measured min %.2f median %.2f max %.2f" %
              (key[0], key[1], v[0], v[len(v) // 2], v[-1]))

    for case, n, p, t, e, c in checks:
        model = math.exp(sum(f * w for f, w in zip(features(p, t, n, c, n0), x)) + worst) * margin
        print("  check %-8s N %8d p %2d theta %.2f: model/measured %.2f" % (case, n, p, t, model / e))

    cube = [(int(r[1]), int(r[2]), float(r[3]), float(r[7]), float(r[8])) for r in rows
            if r[0] == "cube" and int(r[1]) >= 100000]
    if not cube:
        return
    near = solve([[1, t**-3] for n, p, t, a, b in cube], [a / n for n, p, t, a, b in cube])
    fit = None
    for c0 in range(0, 200, 2):
        m = [[c0 + (p + 1)**2, (c0 + (p + 1)**2) * t**-3] for n, p, t, a, b in cube]
        far = [b / n for n, p, t, a, b in cube]
        coef = solve(m, far)
        model = [max(r[0] * coef[0] + r[1] * coef[1], 1e-30) for r in m]
        err = sum((math.log(u) - math.log(v))**2 for u, v in zip(model, far))
        if fit is None or err < fit[0]:
            fit = (err, c0, coef)
    _, c0, coef = fit
    s = 1 / near[1] * 0.0308  # scaled so that n1 keeps the units of the code's constants
    print("cost model (cube, per source, scaled): n0 = %.4g, n1 = %.4g, m0 = %.4g, m1 = %.4g, "
          "c0 = %d" % (near[0] * s, near[1] * s, coef[0] * s, coef[1] * s, c0))


if __name__ == "__main__":
    main()
