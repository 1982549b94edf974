"""vortex-body --field-grid on a short sphere run (Re = 100, dt = 0.08, 3 steps), checked against
references of its own:

- the field file's Q and |omega| against the same quantities from central differences of its
  velocity (grid spacing a third of the cores: 2nd-order differences within a few per cent),
  in the fluid where the vorticity is resolved;
- the velocity far from the sphere against the free stream (a dipole of the sphere's size and the
  wake decay by then), and `wall_distance` against the exact sphere's;
- the CSV's wake centre lies past the sphere's last point along the stream, and the run's
  diagnostics equal a run without the field (sampling the field does not change the flow), and
  the field written from the last step's checkpoint (--restart, --steps 0) equals the run's own.

    body_field_grid.py VORTEX_BODY OUT_DIR
"""
import csv
import os
import re
import subprocess
import sys

import numpy as np

RUN = ["--body", "sphere", "--frequency", "4", "--re", "100", "--dt", "0.08", "--steps", "3", "--angle", "0",
       "--every", "0", "--projections", "3", "--quiet", "--no-plot", "--backend", "cpu",
       "--threads", "1"]


def read_vtk(path):
    """The legacy VTK structured points file vortex-body writes: header, then big-endian floats."""
    data = open(path, "rb").read()
    fields, pos = {}, 0

    def line():
        nonlocal pos
        end = data.index(b"\n", pos)
        text = data[pos:end].decode("ascii")
        pos = end + 1
        return text

    assert line().startswith("# vtk DataFile"), path
    title = line()
    assert line() == "BINARY"
    assert line() == "DATASET STRUCTURED_POINTS"
    dims = [int(v) for v in line().split()[1:]]
    origin = np.array([float(v) for v in line().split()[1:]])
    spacing = np.array([float(v) for v in line().split()[1:]])
    m = int(line().split()[1])
    assert m == dims[0] * dims[1] * dims[2], (m, dims)
    while pos < len(data):
        head = line().split()
        if not head:
            continue
        count = 3 if head[0] == "VECTORS" else 1
        if head[0] == "SCALARS":
            assert line() == "LOOKUP_TABLE default"
        values = np.frombuffer(data, ">f4", m * count, pos).astype(np.float64)
        pos += 4 * m * count
        shape = (dims[2], dims[1], dims[0]) + ((3,) if count == 3 else ())
        fields[head[1]] = values.reshape(shape)  # [z][y][x]
    return title, dims, origin, spacing, fields


def run(body, out, extra):
    os.makedirs(out, exist_ok=True)
    r = subprocess.run([body] + RUN + ["--output", out] + extra, capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        sys.exit(1)
    return list(csv.DictReader(open(os.path.join(out, "diagnostics.csv"))))


def main():
    body, out = sys.argv[1], sys.argv[2]
    failed = []
    rows = run(body, os.path.join(out, "with"), ["--field-grid", "64", "--checkpoint-every", "3"])
    with_dir = os.path.join(out, "with")
    again = os.path.join(out, "from-checkpoint")
    os.makedirs(again, exist_ok=True)
    r = subprocess.run([body] + RUN[:RUN.index("--steps")] + [
        "--steps", "0", "--angle", "0", "--every", "0", "--projections", "1", "--field-grid", "64",
        "--quiet", "--no-plot", "--backend", "cpu", "--threads", "1", "--output", again, "--restart",
        os.path.join(with_dir, "checkpoint-000003.bin")], capture_output=True, text=True)
    name = "field-000003.vtk"
    if r.returncode != 0 or not os.path.exists(os.path.join(again, name)):
        failed.append(f"the field from the checkpoint was not written: {r.stdout} {r.stderr}")
    elif open(os.path.join(again, name), "rb").read() != open(os.path.join(with_dir, name), "rb").read():
        failed.append("the field from the checkpoint differs from the run's")
    plain = run(body, os.path.join(out, "without"), [])
    for a, b in zip(rows, plain):
        for key in a:
            if not key.startswith("seconds") and "bytes" not in key and a[key] != b[key]:
                failed.append(f"step {a['step']}: {key} {a[key]} with the field, {b[key]} without")
    title, dims, origin, d, f = read_vtk(os.path.join(out, "with", "field-000003.vtk"))
    if not re.match(r"vortex-body field, step 3, t = 0\.24", title):
        failed.append("title: " + title)
    if not np.allclose(d, d[0]) or not 0.02 < d[0] < 0.05:
        failed.append(f"spacing {d}")
    for name in ("Q", "vorticity_magnitude", "wall_distance", "velocity"):
        if name not in f or not np.all(np.isfinite(f[name])):
            failed.append(f"array {name} missing or not finite")
    if failed:
        print("\n".join(failed))
        return 1
    z, y, x = np.meshgrid(*[origin[a] + d[a] * np.arange(dims[a]) for a in (2, 1, 0)], indexing="ij")
    r = np.sqrt(x * x + y * y + z * z)
    # wall_distance: the exact sphere's r - 0.5 within three cells (the mesh's panels lie within
    # their sag, 0.02 at this frequency, inside it), clamped to three cells beyond.
    reach = 3 * d[0]
    exact = np.clip(r - 0.5, -reach, reach)
    wall = f["wall_distance"]
    off = np.abs(wall - exact).max()
    print(f"wall distance: at most {off:.3g} from the exact sphere's (sag of the panels 0.02)")
    wrong_side = ((wall < 0) != (r < 0.5)) & (np.abs(r - 0.5) > 0.025)
    if off > 0.025 or np.count_nonzero(wrong_side):
        failed.append(f"wall_distance: {off:.3g} from the exact sphere's")
    inside = wall < 0
    # Central differences of the velocity (free stream included: no gradient).
    u = f["velocity"]
    grad = np.zeros(u.shape[:3] + (3, 3))  # [.., component, derivative]
    for c in range(3):
        for a, axis in ((0, 2), (1, 1), (2, 0)):  # x varies along the last array axis
            grad[..., c, a] = np.gradient(u[..., c], d[a], axis=axis)
    q_fd = -0.5 * np.einsum("...ij,...ji->...", grad, grad)
    w_fd = np.sqrt((grad[..., 2, 1] - grad[..., 1, 2]) ** 2 + (grad[..., 0, 2] - grad[..., 2, 0]) ** 2 +
                   (grad[..., 1, 0] - grad[..., 0, 1]) ** 2)
    # In the fluid two cells off the box's faces (one-sided differences there) and off the wall
    # (the sheet's regularized field changes within a core of it).
    interior = np.zeros(r.shape, bool)
    interior[2:-2, 2:-2, 2:-2] = True
    fluid = interior & (r > 0.62)
    w = f["vorticity_magnitude"]
    strong = fluid & (w > 0.2 * w[fluid].max())
    if np.count_nonzero(strong) < 50:
        failed.append(f"only {np.count_nonzero(strong)} points of resolved vorticity")
    else:
        err_w = np.linalg.norm((w_fd - w)[strong]) / np.linalg.norm(w[strong])
        err_q = np.linalg.norm((q_fd - f["Q"])[strong]) / np.linalg.norm(f["Q"][strong])
        print(f"|omega|: relative L2 difference from central differences {err_w:.3g} at "
              f"{np.count_nonzero(strong)} points; Q: {err_q:.3g}")
        if err_w > 0.05:
            failed.append(f"|omega| differs from the differences by {err_w:.3g} (> 0.05)")
        if err_q > 0.10:
            failed.append(f"Q differs from the differences by {err_q:.3g} (> 0.10)")
    # Far from the sphere (the box's corners, 1.4 radii and more): the free stream within 10 %.
    far = r > 0.95 * r.max()
    speed = np.linalg.norm(u[far] - np.array([1.0, 0.0, 0.0]), axis=-1)
    print(f"far field: |u - U| at most {speed.max():.3g} at {np.count_nonzero(far)} points")
    if speed.max() > 0.1:
        failed.append(f"far from the sphere |u - U| reaches {speed.max():.3g}")
    # The wake centre: past the sphere's last point along the stream (x = 0.5), with strength.
    last = rows[-1]
    wx, ws = float(last["wake_x"]), float(last["wake_strength"])
    print(f"wake centre ({wx}, {last['wake_y']}, {last['wake_z']}), |Gamma| {ws}")
    if not (ws > 0 and wx > 0.5):
        failed.append(f"wake centre x = {wx}, strength {ws}: not past the sphere")
    if failed:
        print("\n".join(failed))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
