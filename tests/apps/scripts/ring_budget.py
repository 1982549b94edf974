"""Checks the energy budget of a viscous vortex-ring run in its diagnostics.csv: from the columns
time, energy_sigma and enstrophy and the viscosity NU, dE_sigma/dt over each interval and -nu Z
averaged over it (docs/methods/budgets.md); the energy_rate, dissipation and budget_error
columns must hold the same values (to 1e-9, of the ratio for budget_error), and every interval after the first SKIP must satisfy
|dE_sigma/dt / (-nu Z) - 1| <= TOLERANCE.

    python3 ring_budget.py diagnostics.csv NU TOLERANCE SKIP

Prints the median and the largest error; exits 1 on a failed check, after printing each."""

import csv
import math
import sys


def main():
    path, nu, tolerance, skip = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    rows = list(csv.DictReader(open(path)))
    failures = []
    errors = []
    for n in range(1, len(rows)):
        a, b = rows[n - 1], rows[n]
        rate = (float(b["energy_sigma"]) - float(a["energy_sigma"])) / (
            float(b["time"]) - float(a["time"]))
        dissipation = -nu * 0.5 * (float(a["enstrophy"]) + float(b["enstrophy"]))
        error = rate / dissipation - 1
        # The error is a ratio less 1: to 1e-9 of the ratio (the rate from the file's rounded
        # energies differs from the program's by about 1e-16 E / dE).
        for column, value, scale in (("energy_rate", rate, abs(rate)),
                                     ("dissipation", dissipation, abs(dissipation)),
                                     ("budget_error", error, 1.0)):
            written = float(b[column])
            if not abs(written - value) <= 1e-9 * max(scale, 1e-3):
                failures.append(f"row {n}: {column} {written} in the file, {value} from nu = {nu}")
        if n > skip:
            errors.append(error)
    if not errors or len(rows) < 2:
        print(f"{path}: too few rows ({len(rows)}) for SKIP = {skip}")
        return 1
    worst = max(errors, key=abs)
    median = sorted(errors)[len(errors) // 2]
    print(f"budget over {len(errors)} intervals: median {median:+.5f}, largest {worst:+.5f}")
    if not abs(worst) <= tolerance or any(math.isnan(e) for e in errors):
        failures.insert(0, f"budget off by {worst:+.5f} (tolerance {tolerance})")
    for f in failures[:10]:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
