"""scripts/studies/discoid-convergence.py on made-up runs whose last-quarter means follow
f(h) = f* + C h^p exactly: the observed order p and the Richardson estimate f* come back; a
panel series (FN sizes) is ordered finest first; changes that do not shrink give no estimate; bad
input is refused by name.

    convergence_check.py SCRIPT OUT_DIR
"""
import os
import re
import subprocess
import sys

HEADER = "step,t,n_particles,cd,cl,cd_pressure,cd_friction,cl_pressure,cl_friction,vorticity_y"


def write_run(path, cd, cl, steps=8):
    with open(path, "w") as f:
        f.write(HEADER + "\n")
        for k in range(1, steps + 1):
            # The first rows differ, the last quarter (t >= 0.75 t_end) holds cd and cl.
            t = k / steps
            a, b = (cd, cl) if t >= 0.75 else (9.0, 9.0)
            f.write(f"{k},{t},{1000 * k},{a},{b},{a - 0.1},0.1,{b - 0.05},0.05,-0.01\n")


def run(script, args):
    return subprocess.run([sys.executable, script] + args, capture_output=True, text=True)


def main():
    script, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    failed = []
    # Time steps 0.04, 0.02, 0.01; C_D = 1.8 - 50 dt^2 (p = 2), C_L = 1.0 + 3 dt (p = 1).
    runs = []
    for dt in (0.04, 0.02, 0.01):
        path = os.path.join(out, f"dt{dt}.csv")
        write_run(path, 1.8 - 50 * dt**2, 1.0 + 3 * dt)
        runs.append(f"{dt}:{path}")
    r = run(script, ["--series", "time step"] + runs)
    text = r.stdout
    m = re.search(r"- cd: .*observed order ([0-9.]+), Richardson estimate ([0-9.]+)", text)
    if r.returncode != 0 or not m or abs(float(m.group(1)) - 2) > 0.01 or \
            abs(float(m.group(2)) - 1.8) > 1e-3:
        failed.append("C_D's order 2 and estimate 1.8 not found:\n" + text + r.stderr)
    m = re.search(r"- cl: .*observed order ([0-9.]+), Richardson estimate ([0-9.]+)", text)
    if not m or abs(float(m.group(1)) - 1) > 0.01 or abs(float(m.group(2)) - 1.0) > 1e-3:
        failed.append("C_L's order 1 and estimate 1.0 not found:\n" + text)
    # The finest first in the table, whatever the order given.
    rows = [l for l in text.splitlines() if l.startswith("| 0.0")]
    if [l.split("|")[1].strip() for l in rows] != ["0.01", "0.02", "0.04"]:
        failed.append("the table is not finest first:\n" + "\n".join(rows))
    # Panels F16, F32, F64 with sizes 1/F; changes that alternate in sign give no estimate.
    panel_runs = []
    for f_, cd in ((16, 1.60), (32, 1.70), (64, 1.65)):
        path = os.path.join(out, f"f{f_}.csv")
        write_run(path, cd, 0.9)
        panel_runs.append(f"F{f_}:{path}")
    r = run(script, ["--series", "panels"] + panel_runs)
    if "cd: the two finest differ by -2.94 %; the changes do not shrink monotonically" not in r.stdout:
        failed.append("the alternating panel series:\n" + r.stdout + r.stderr)
    # Bad input: a size that is not a number, one run only, a file that is not a diagnostics CSV.
    bad = os.path.join(out, "bad.csv")
    with open(bad, "w") as f:
        f.write("a,b\n1,2\n")
    for args, expect in ((["--series", "x", "abc:" + bad, "0.1:" + bad], "is not SIZE:CSV"),
                         (["--series", "x", runs[0]], "needs two runs or more"),
                         (["--series", "x", "0.1:" + bad, runs[0]], "not a vortex-body diagnostics CSV")):
        r = run(script, args)
        if r.returncode == 0 or expect not in r.stderr:
            failed.append(f"{args}: expected '{expect}', got rc {r.returncode}: {r.stderr}")
    if failed:
        print("\n".join(failed))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
