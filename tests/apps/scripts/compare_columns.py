"""Compares the columns of two CSV files of the same rows: each value within `tolerance` of the
other, relative to the largest magnitude of its column (columns that cross zero, such as a ring's
position at the start, are measured on their scale).

    python3 compare_columns.py A.csv B.csv TOLERANCE COLUMN...

Prints the largest difference of each column; exits 1 when a column differs by more, the row
counts differ, or a column is missing."""

import csv
import math
import sys


def main():
    a_path, b_path, tolerance = sys.argv[1], sys.argv[2], float(sys.argv[3])
    a = list(csv.DictReader(open(a_path)))
    b = list(csv.DictReader(open(b_path)))
    if len(a) != len(b) or not a:
        print(f"rows: {len(a)} in {a_path}, {len(b)} in {b_path}")
        return 1
    failed = False
    for column in sys.argv[4:]:
        if column not in a[0] or column not in b[0]:
            print(f"no column {column}")
            return 1
        pairs = [(float(x[column]), float(y[column])) for x, y in zip(a, b)]
        pairs = [(x, y) for x, y in pairs if not (math.isnan(x) and math.isnan(y))]
        scale = max([abs(x) for x, _ in pairs] + [1e-300])
        worst = max([abs(x - y) / scale for x, y in pairs] + [0.0])
        print(f"{column}: {worst:.3g}")
        failed |= not worst <= tolerance
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
