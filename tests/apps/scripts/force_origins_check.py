"""Checks scripts/body-force-origins.py on a diagnostics CSV made up here, against the shift of
the force that moving the impulse origin by d gives: 1/2 d × dOmega/dt.

    python3 force_origins_check.py SCRIPT WORK_FOLDER

The made-up run: stream at 30 degrees, dynamic pressure times area 0.5, F = (0.8, 0, 0.3) every
step, and Omega = (0, 0.2 t, 0). About d = (0, 0, 2) the force gains 1/2 (0, 0, 2) × (0, 0.2, 0)
= (-0.2, 0, 0). A CSV with a non-numeric value, and one with no C_D column, are refused. The
second route's columns give 0.7 and 0.303 of the impulse route's C_D and C_L (0.3 % above it):
--check-routes 1 passes and 0.1 fails, and the second route's force over time is printed beside
-Delta I (the impulse -F t)."""

import math
import os
import subprocess
import sys


def write(path, rows, header):
    with open(path, "w") as f:
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join(str(r[c]) for c in header) + "\n")


def main():
    script, folder = sys.argv[1], sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    angle = math.radians(30)
    e = (math.cos(angle), 0.0, math.sin(angle))
    lift = (-math.sin(angle), 0.0, math.cos(angle))
    q, force, dt = 0.5, (0.8, 0.0, 0.3), 0.02
    header = ["step", "t", "fx", "fy", "fz", "cd", "cl", "vorticity_x", "vorticity_y",
              "vorticity_z", "ix", "iy", "iz", "cd_pressure", "cl_pressure", "cd_friction",
              "cl_friction"]
    rows = []
    for k in range(1, 41):
        t = k * dt
        rows.append({"step": k, "t": t, "fx": force[0], "fy": force[1], "fz": force[2],
                     "cd": sum(f * x for f, x in zip(force, e)) / q,
                     "cl": sum(f * x for f, x in zip(force, lift)) / q,
                     "vorticity_x": 0.0, "vorticity_y": 0.2 * t, "vorticity_z": 0.0,
                     "ix": -force[0] * t, "iy": -force[1] * t, "iz": -force[2] * t})
        r = rows[-1]
        r.update({"cd_pressure": 0.7 * r["cd"], "cl_pressure": 0.7 * r["cl"],
                  "cd_friction": 0.303 * r["cd"], "cl_friction": 0.303 * r["cl"]})
    good = os.path.join(folder, "good.csv")
    write(good, rows, header)
    run = subprocess.run([sys.executable, script, good, "--angle", "30", "--origin", "0,0,0",
                          "--origin", "0,0,2"], capture_output=True, text=True)
    print(run.stdout, run.stderr)
    if run.returncode != 0:
        print("the script failed on a good CSV")
        return 1
    lines = [l.split() for l in run.stdout.splitlines() if l.startswith("(")]
    got = [(float(l[-2]), float(l[-1])) for l in lines]
    shifted = (force[0] - 0.2, force[1], force[2])
    want = [(sum(f * x for f, x in zip(v, e)) / q, sum(f * x for f, x in zip(v, lift)) / q)
            for v in (force, shifted)]
    failed = len(got) != 2 or any(abs(g - w) > 1e-4 for gp, wp in zip(got, want)
                                  for g, w in zip(gp, wp))
    print("got", got, "want", want)
    check = subprocess.run([sys.executable, script, good, "--angle", "30", "--origin", "0,0,0",
                            "--origin", "0,0,2", "--check", "2"], capture_output=True, text=True)
    if check.returncode != 1:
        print("--check 2 did not fail on a spread of more than 2 %")
        failed = True
    for limit, status in (("1", 0), ("0.1", 1)):
        routes = subprocess.run([sys.executable, script, good, "--angle", "30", "--check-routes",
                                 limit], capture_output=True, text=True)
        if routes.returncode != status or "+0.30 %" not in routes.stdout:
            print(f"--check-routes {limit}: status {routes.returncode}, want {status}:",
                  routes.stdout, routes.stderr)
            failed = True
    budget = [l for l in routes.stdout.splitlines() if "force over time" in l]
    if not budget:
        print("no budget line:", routes.stdout)
        failed = True
    else:
        print(budget[0])
    rows[5]["fy"] = "nan-ish"
    bad = os.path.join(folder, "bad.csv")
    write(bad, rows, header)
    refused = subprocess.run([sys.executable, script, bad], capture_output=True, text=True)
    if refused.returncode == 0 or "line 7" not in refused.stderr:
        print("a non-numeric value was not refused by line:", refused.stderr)
        failed = True
    header.remove("cd")
    write(bad, rows, header)
    refused = subprocess.run([sys.executable, script, bad], capture_output=True, text=True)
    if refused.returncode == 0 or "no column cd" not in refused.stderr:
        print("a missing column was not refused by name:", refused.stderr)
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
