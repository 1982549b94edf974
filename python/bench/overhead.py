"""Cost of the Python call over the C++ call: wall time of Solver.evaluate from Python against
the library's own time of the same evaluation (stats["times"]["total"], measured inside
Solver::evaluate), for the paper's random cube, velocity and gradient.

    PYTHONPATH=build/python python3 python/bench/overhead.py [--n 100000] [--repeat 5]
"""

import argparse
import statistics
import time

import numpy as np

import vortex

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--n", type=int, default=100_000)
parser.add_argument("--repeat", type=int, default=5)
parser.add_argument("--method", default="tree")
args = parser.parse_args()

p = vortex.random_cube(args.n, seed=1)
layouts = {
    "float64 (N,3) columns contiguous (Fortran order)":
        (np.asfortranarray(p.positions), np.asfortranarray(p.strengths), p.sigma),
    "float64 (N,3) C order (interleaved, staged)": (p.positions, p.strengths, p.sigma),
    "vortex.Particles": (vortex.Particles(p.positions, p.strengths, p.sigma),),
}
solver = vortex.Solver(method=args.method, backend="cpu")
solver.evaluate(*layouts["vortex.Particles"], gradient=True)  # sizes the buffers
print(f"N = {args.n}, method {args.method}, gradient, median of {args.repeat} calls each")
for name, arrays in layouts.items():
    wall, inside = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        f = solver.evaluate(*arrays, gradient=True)
        wall.append(time.perf_counter() - start)
        inside.append(f.stats["times"]["total"])
    over = [w - i for w, i in zip(wall, inside)]
    print(f"{name}: python {statistics.median(wall):.4f} s, C++ {statistics.median(inside):.4f} s,"
          f" overhead {1e3 * statistics.median(over):.2f} ms "
          f"({100 * statistics.median(o / i for o, i in zip(over, inside)):.2f} %), "
          f"copied {f.stats['copied_inputs']}")
