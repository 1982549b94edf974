"""Evaluate a vortex ring with the treecode and compare with the direct sum."""

import time

import numpy as np

import vortex

ring = vortex.vortex_ring(radius=1.0, core_radius=0.1, layers=3)
positions, strengths, sigma = ring.positions, ring.strengths, ring.sigma

tree = vortex.Solver(method="tree")
direct = vortex.Solver(method="direct", backend="cpu")

start = time.perf_counter()
f = tree.evaluate(positions, strengths, sigma, gradient=True)
elapsed = time.perf_counter() - start
ref = direct.evaluate(positions, strengths, sigma, gradient=True)

error = np.linalg.norm(f.velocity - ref.velocity) / np.linalg.norm(ref.velocity)
gradient_error = np.linalg.norm(f.gradient - ref.gradient) / np.linalg.norm(ref.gradient)
print(f"{len(ring)} particles on {f.stats['backend']}: treecode {elapsed:.3f} s "
      f"(p = {f.stats['tree']['order']}), direct {ref.stats['times']['total']:.3f} s")
print(f"relative L2 error: velocity {error:.2e}, gradient {gradient_error:.2e}")
print(f"ring speed (mean u_z) {f.velocity[:, 2].mean():.4f}; "
      f"max |div u| {np.abs(np.trace(f.gradient, axis1=1, axis2=2)).max():.1e}")
