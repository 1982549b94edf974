"""python3 -m vortex: evaluate a vortex ring and compare the treecode with the direct sum."""

import argparse
import time

import numpy as np

import vortex


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m vortex",
        description="Evaluates a vortex ring with the treecode and the direct sum and prints "
        "the timings, the relative error and the ring's speed.",
    )
    parser.add_argument("--layers", type=int, default=2, help="annuli per cross-section [2]")
    parser.add_argument("--stations", type=int, default=0, help="cross-sections [0: automatic]")
    parser.add_argument("--core", default="exponential", help="core function [exponential]")
    parser.add_argument("--backend", default="auto", help="auto, cpu or cuda [auto]")
    parser.add_argument("--order", type=int, default=0, help="multipole order [0: default]")
    parser.add_argument("--theta", type=float, default=0.0, help="opening angle [0: default]")
    parser.add_argument("--tolerance", type=float, default=0.0,
                        help="mean relative error accepted; picks the tree options [0: default]")
    args = parser.parse_args(argv)

    ring = vortex.vortex_ring(layers=args.layers, stations=args.stations)
    options = dict(core=args.core, backend=args.backend)
    tree = vortex.Solver(method="tree", order=args.order, theta=args.theta,
                         tolerance=args.tolerance, **options)
    direct = vortex.Solver(method="direct", **options)
    start = time.perf_counter()
    f = tree.evaluate(ring, gradient=True)
    elapsed = time.perf_counter() - start
    ref = direct.evaluate(ring, gradient=True)
    err = np.linalg.norm(f.velocity - ref.velocity) / np.linalg.norm(ref.velocity)
    t = f.stats["tree"]
    print(f"vortex ring: {len(ring)} particles, {f.stats['backend']} ({f.stats['device']})")
    print(f"treecode p = {t['order']}, theta = {t['theta']}: {elapsed:.3f} s; "
          f"direct: {ref.stats['times']['total']:.3f} s")
    print(f"relative L2 error of the velocity against the direct sum: {err:.2e}")
    print(f"ring speed (mean u_z): {ref.velocity[:, 2].mean():.4f}")


if __name__ == "__main__":
    main()
