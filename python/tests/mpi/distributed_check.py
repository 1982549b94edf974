"""vortex.DistributedSolver under mpiexec: each rank's share of a set against one rank's Solver of
the whole set, and errors raised on every rank. Exits non-zero on any rank's failure."""

import sys

import numpy as np
from mpi4py import MPI

import vortex

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size
rng = np.random.default_rng(3)
n = 6000
positions = rng.uniform(-1, 1, (n, 3))
strengths = rng.uniform(-1, 1, (n, 3)) * 1e-3
sigma = np.full(n, 0.05)
mine = np.arange(n) % size == rank
failures = []

want = vortex.Solver(backend="cpu").evaluate(positions, strengths, sigma, gradient=True)
solver = vortex.DistributedSolver(comm, backend="cpu")
got = solver.evaluate(positions[mine], strengths[mine], sigma[mine], gradient=True)
num = comm.allreduce(np.sum((got.velocity - want.velocity[mine]) ** 2)
                     + np.sum((got.gradient - want.gradient[mine]) ** 2))
den = comm.allreduce(np.sum(want.velocity[mine] ** 2) + np.sum(want.gradient[mine] ** 2))
relative = (num / den) ** 0.5
if not relative <= 1e-12:
    failures.append(f"relative L2 {relative:.3g} against one rank")
if solver.options["backend"] != "cpu":
    failures.append(f"options {solver.options}")

bad = sigma[mine].copy()
if rank == size - 1 and bad.size:
    bad[0] = np.nan
try:
    solver.evaluate(positions[mine], strengths[mine], bad)
    failures.append("no error for a NaN sigma")
except ValueError as e:
    if "sigma" not in str(e) or (rank != size - 1 and f"rank {size - 1}" not in str(e)):
        failures.append(f"the error does not name the problem: {e}")

try:
    vortex.DistributedSolver("world")
    failures.append("a string taken for a communicator")
except TypeError:
    pass

for f in failures:
    print(f"rank {rank}: {f}", file=sys.stderr)
if rank == 0:
    print(f"{size} ranks: relative L2 against one rank {relative:.3g}")
sys.exit(0 if comm.allreduce(not failures, op=MPI.LAND) else 1)
