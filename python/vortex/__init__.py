"""vortex: velocity and velocity gradient of regularized vortex particles.

    import numpy as np, vortex
    solver = vortex.Solver(core="exponential", method="tree")       # keep it: buffers are reused
    f = solver.evaluate(positions, strengths, sigma, gradient=True)  # (N,3), (N,3), (N,)
    f.velocity      # (N, 3)
    f.gradient      # (N, 3, 3), gradient[i, a, b] = d u_a / d x_b
    f.stats         # times, counts, backend, resolved tree options, copied_inputs

Arrays whose columns are contiguous float64 (e.g. ``np.asfortranarray(positions)``, or columns
of a (3, N) array seen as ``a.T``) are read where they lie; other layouts and float32 are
converted once into buffers the Solver keeps (``f.stats["copied_inputs"]`` names them).
"""

import os as _os
from collections import namedtuple as _namedtuple

from . import _vortex
from ._vortex import (
    FileError,
    Particles,
    PvdWriter,
    TimeIntegrator,
    control_particles,
    cuda_available,
    diagnostics,
    ellipsoid_sheet,
    plummer_sphere,
    pse_diffuse,
    random_cube,
    read_field_vtp,
    read_pvd,
    sampled_errors,
    two_scale_cube,
    vortex_ring,
    vrm_diffuse,
    write_field_csv,
)

__all__ = [
    "Field", "FileError", "Particles", "PvdWriter", "Solver", "TimeIntegrator",
    "control_particles", "cuda_available", "diagnostics", "ellipsoid_sheet", "plummer_sphere",
    "pse_diffuse", "random_cube", "read_field_vtp", "read_particles", "read_points", "read_pvd",
    "sampled_errors", "two_scale_cube", "vortex_ring", "vrm_diffuse", "write_field_csv",
    "write_particles",
]

Field = _namedtuple("Field", ["velocity", "gradient", "stats"])
Field.__doc__ = "velocity (N, 3), gradient (N, 3, 3) or None, stats (dict)"


class _Evaluate:
    def evaluate(self, positions, strengths=None, sigma=None, targets=None, gradient=False):
        """Field of the particles at `targets` (M, 3), or at the particles themselves.

        `positions` may also be a vortex.Particles (then strengths and sigma are omitted).
        Returns Field(velocity, gradient, stats).
        """
        if isinstance(positions, Particles):
            if strengths is not None or sigma is not None:
                raise TypeError("with a vortex.Particles, give no strengths or sigma")
            return Field(*self._evaluate_particles(positions, targets, bool(gradient)))
        if strengths is None or sigma is None:
            raise TypeError("evaluate() needs positions, strengths and sigma")
        return Field(*self._evaluate_arrays(positions, strengths, sigma, targets, bool(gradient)))


class Solver(_Evaluate, _vortex.Solver):
    """Velocity (and gradient) of vortex particles by direct sum or multipole treecode.

    Keyword options (defaults in brackets): core [exponential] (gaussian, rosenhead-moore,
    winckelmans-leonard, singular), method [tree] (direct), backend [auto] (cpu, cuda),
    precision [auto] (double, float), order, theta, kappa, target_bucket, source_bucket
    [0: picked for the tolerance], arity [8], uniform_order [False: each far box at the lowest
    order as accurate there as `order` at the acceptance limit; True: every box at `order`],
    threads [0: all], tolerance [0: the defaults,
    picked for 2e-4]: the mean relative error of velocity and gradient accepted; the tree
    options left at 0 are picked to reach it fastest, and precision auto computes in float
    where float reaches it. One Solver per thread.
    """


if hasattr(_vortex, "DistributedSolver"):

    class DistributedSolver(_Evaluate, _vortex.DistributedSolver):
        """The Solver over the ranks of an mpi4py communicator: DistributedSolver(comm, **options).

        Every rank creates one with the same options and calls evaluate() on it together, each
        with its own particles and targets (a rank may have none); each gets the field at its own
        targets, summed over every rank's particles: what one Solver would sum of them all, to
        rounding. An error on one rank (bad input, options that differ) is raised on every rank.
        Built where the library has MPI and Python has mpi4py.
        """

        def __init__(self, comm, **options):
            super().__init__(comm, _vortex.Solver(**options))

    __all__.append("DistributedSolver")


def _extension(path):
    ext = _os.path.splitext(str(path))[1].lower()
    if ext not in (".csv", ".vtp"):
        raise ValueError(f"{path}: unknown file type {ext!r} (use .csv or .vtp)")
    return ext


def read_particles(path):
    """Particles from a CSV (x,y,z,Gx,Gy,Gz,sigma) or .vtp file."""
    if _extension(path) == ".csv":
        return _vortex.read_particles_csv(str(path))
    return _vortex.read_particles_vtp(str(path))


def read_points(path):
    """Points (M, 3) from a CSV (x,y,z) or .vtp file."""
    if _extension(path) == ".csv":
        return _vortex.read_points_csv(str(path))
    return _vortex.read_points_vtp(str(path))


def write_particles(path, particles, field=None):
    """Writes particles (and, for .vtp, a Field's velocity and gradient) atomically."""
    if _extension(path) == ".csv":
        if field is not None:
            raise ValueError("particle CSV files hold no field: use write_field_csv or a .vtp file")
        return _vortex.write_particles_csv(str(path), particles)
    velocity, grad = (None, None) if field is None else (field[0], field[1])
    return _vortex.write_particles_vtp(str(path), particles, velocity, grad)
