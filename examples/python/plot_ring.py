"""Axial velocity of a vortex ring along its axis and across its core, treecode against direct
sum, drawn with matplotlib (skipped with a message when matplotlib is missing)."""

import sys

import numpy as np

import vortex

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed (Debian: python3-matplotlib); nothing drawn")
    sys.exit(0)

ring = vortex.vortex_ring(radius=1.0, core_radius=0.2, layers=2)
s = np.linspace(-2.0, 2.0, 401)
lines = {"along the axis (x = 0)": np.column_stack([np.zeros_like(s), np.zeros_like(s), s]),
         "across the ring (z = 0)": np.column_stack([s, np.zeros_like(s), np.zeros_like(s)])}

fig, axes = plt.subplots(1, 2, figsize=(10, 4))
for ax, (title, points) in zip(axes, lines.items()):
    for method, style in (("direct", "-"), ("tree", "--")):
        f = vortex.Solver(method=method).evaluate(ring, targets=points)
        ax.plot(s, f.velocity[:, 2], style, label=method)
    ax.set_title(f"u_z {title}")
    ax.set_xlabel("z" if "axis" in title else "x")
    ax.legend()
fig.tight_layout()
out = sys.argv[1] if len(sys.argv) > 1 else "ring-velocity.png"
fig.savefig(out, dpi=100)
print(f"wrote {out}")
