"""The rows of a vortex-body diagnostics CSV, read for the scripts that analyse a run
(scripts/body-force-origins.py, scripts/studies/disc-normal.py,
scripts/studies/discoid-convergence.py).

    from diagnostics_csv import read_columns
    rows = read_columns(path, ["t", "cd"], optional=["cd_pressure"], who="my-script")

Each row is a dict of floats: the `need` columns and those of `optional` the file has. A file that
cannot be read, has no rows, lacks a needed column or holds a value that is not a finite number
ends the script with status 2 and a message naming the file, the line and the column."""

import csv
import math
import sys


def fail(who, text):
    print(f"{who}: {text}", file=sys.stderr)
    sys.exit(2)


def read_columns(path, need, optional=(), who="diagnostics"):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(who, f"cannot read {path}: {e.strerror}")
    if not rows:
        fail(who, f"{path} has no rows")
    missing = [c for c in need if c not in rows[0]]
    if missing:
        fail(who, f"{path} is not a vortex-body diagnostics CSV: it has no column "
                  f"{', '.join(missing)}")
    columns = list(need) + [c for c in optional if c in rows[0]]
    out = []
    for line, row in enumerate(rows, start=2):
        values = {}
        for c in columns:
            try:
                values[c] = float(row[c])
            except (TypeError, ValueError):
                fail(who, f"{path}, line {line}: {c} is not a number ('{row[c]}')")
            if not math.isfinite(values[c]):
                fail(who, f"{path}, line {line}: {c} is not finite")
        out.append(values)
    return out
