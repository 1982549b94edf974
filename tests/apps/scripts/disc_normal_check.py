"""scripts/studies/disc-normal.py on a made-up run: C_D = 1.1 + 0.05 sin(2 pi 0.2 t) and side
forces 0.01 + 0.1 sin(2 pi 0.2 t) (x) and 0.02 cos(2 pi 0.2 t) (y) from t = 10 on (other values
before), over six periods, and by pressure plus friction a steady C_D of 1.2 (1.15 + 0.05) with a
side force of 0.005 along x: the means, largest values, the total vorticity's largest component
and the frequency 0.2 come back for each route; a CSV without the columns and one too short are
refused by name.

    disc_normal_check.py SCRIPT OUT_DIR
"""
import math
import os
import re
import subprocess
import sys

HEADER = ("step,t,fx,fy,fz,cd,vorticity_x,vorticity_y,vorticity_z,fx_pressure,fy_pressure,"
          "fz_pressure,fx_friction,fy_friction,fz_friction")
QA = math.pi / 8  # dynamic pressure times the area of a disc of diameter 1


def write_run(path, t_end=40.0, dt=0.04):
    with open(path, "w") as f:
        f.write(HEADER + "\n")
        steps = int(round(t_end / dt))
        for k in range(1, steps + 1):
            t = k * dt
            w = 2 * math.pi * 0.2 * t
            if t < 10 - 1e-9:
                cd, sx, sy = 3.0, 0.5, 0.5
            else:
                cd, sx, sy = 1.1 + 0.05 * math.sin(w), 0.01 + 0.1 * math.sin(w), 0.02 * math.cos(w)
            oz = 0.3 if k == steps // 2 else 0.01
            f.write(f"{k},{t:.6f},{sx * QA},{sy * QA},{cd * QA},{cd},0,0,{oz},"
                    f"{0.005 * QA},0,{1.15 * QA},0,0,{0.05 * QA}\n")


def number(pattern, text):
    m = re.search(pattern, text)
    return float(m.group(1)) if m else None


def main():
    script, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    failed = []
    path = os.path.join(out, "run.csv")
    write_run(path)
    r = subprocess.run([sys.executable, script, path, "--from", "10"], capture_output=True,
                       text=True)
    impulse, _, second = r.stdout.partition("== pressure + friction")
    checks = [
        (r"C_D mean ([-0-9.]+)", 1.1, 2e-3),
        (r"side force along x: mean ([-+0-9.]+)", 0.01, 2e-3),
        (r"side force along x: .*largest \|\.\| ([0-9.]+)", 0.11, 2e-3),
        (r"side force along y: mean ([-+0-9.]+)", 0.0, 2e-3),
        (r"side force along y: .*largest \|\.\| ([0-9.]+)", 0.02, 2e-3),
        (r"largest \|Omega\| component over these rows ([0-9.]+)", 0.3, 1e-6),
        (r"dominant frequency ([0-9.]+)", 0.2, 1e-3),
    ]
    second_checks = [
        (r"C_D mean ([-0-9.]+)", 1.2, 1e-6),
        (r"side force along x: mean ([-+0-9.]+)", 0.005, 1e-6),
        (r"side force along y: .*largest \|\.\| ([0-9.]+)", 0.0, 1e-6),
    ]
    if r.returncode != 0:
        failed.append(f"status {r.returncode}:\n{r.stdout}{r.stderr}")
    for text, route in ((impulse, checks), (second, second_checks)):
        for pattern, want, tolerance in route:
            got = number(pattern, text)
            if got is None or abs(got - want) > tolerance:
                failed.append(f"'{pattern}': {got} against {want}")
    # A CSV without the columns, and one whose rows end before --from.
    bad = os.path.join(out, "bad.csv")
    with open(bad, "w") as f:
        f.write("step,t,cd\n1,0.04,1.0\n")
    r = subprocess.run([sys.executable, script, bad], capture_output=True, text=True)
    if r.returncode != 2 or "has no column fx" not in r.stderr:
        failed.append(f"missing columns: status {r.returncode}, {r.stderr}")
    r = subprocess.run([sys.executable, script, path, "--from", "100"], capture_output=True,
                       text=True)
    if r.returncode != 2 or "fewer than 8 rows" not in r.stderr:
        failed.append(f"too short: status {r.returncode}, {r.stderr}")
    if failed:
        print("\n".join(failed))
        sys.exit(1)
    print("disc-normal.py: means, extremes, the total vorticity and the frequency found; bad CSVs "
          "refused")


if __name__ == "__main__":
    main()
