#!/usr/bin/env python3
"""Fits the tolerance's error and cost models to scripts/tolerance-calibration.sh output.

Error: log e = log C + g log(p+1) + (p+1)(log b + s log theta) + k1 log theta + k2 log(1-theta),
least squares over the largest of the velocity and gradient errors of all cases at each (p, theta);
C is then raised so that every point lies below the model (and times the margin). Cost (cube):
near = n0 + n1 theta^-3, far = (m0 + m1 theta^-3)(c0 + (p+1)^2).
Usage: scripts/fit-tolerance-model.py docs/data/tolerance-calibration.txt [margin]
"""
import math
import sys

import numpy as np


def main():
    rows = [line.split() for line in open(sys.argv[1]) if line.strip() and line[0] != "#"]
    margin = float(sys.argv[2]) if len(sys.argv) > 2 else 1.25
    worst = {}
    for r in rows:
        key = (int(r[1]), float(r[2]))
        worst[key] = max(worst.get(key, 0.0), float(r[3]), float(r[4]))
    keys = sorted(worst)

    def features(p, t):
        return [1, math.log(p + 1), p + 1, (p + 1) * math.log(t), math.log(t), math.log(1 - t)]

    a = np.array([features(p, t) for p, t in keys])
    y = np.array([math.log(worst[k]) for k in keys])
    x = np.linalg.lstsq(a, y, rcond=None)[0]
    r = y - a @ x
    print("error model: C = %.4g, g = %.4g, b = %.4g, s = %.4g, k1 = %.4g, k2 = %.4g" %
          (math.exp(x[0] + r.max()) * margin, x[1], math.exp(x[2]), x[3], x[4], x[5]))
    print("  rms of log error %.3f, largest measured/model %.3f (before the margin %.2f)" %
          (math.sqrt(np.mean(r**2)), math.exp(r.max()), margin))

    cube = [(int(r[1]), float(r[2]), float(r[6]), float(r[7])) for r in rows if r[0] == "cube"]
    near = np.linalg.lstsq(np.array([[1, t**-3] for p, t, n, f in cube]),
                           np.array([n for p, t, n, f in cube]), rcond=None)[0]
    best = None
    for c0 in range(0, 200, 2):
        m = np.array([[c0 + (p + 1)**2, (c0 + (p + 1)**2) * t**-3] for p, t, n, f in cube])
        far = np.array([f for p, t, n, f in cube])
        coef = np.linalg.lstsq(m, far, rcond=None)[0]
        misfit = np.sum((np.log(np.maximum(m @ coef, 1e-12)) - np.log(far))**2)
        if best is None or misfit < best[0]:
            best = (misfit, c0, coef)
    _, c0, coef = best
    print("cost model (cube): n0 = %.4g, n1 = %.4g, m0 = %.4g, m1 = %.4g, c0 = %d" %
          (near[0], near[1], coef[0], coef[1], c0))


if __name__ == "__main__":
    main()
