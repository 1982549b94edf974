"""Shared fixtures and the independent reference: a numpy direct sum of the exponential core."""

import os

import numpy as np
import pytest

import vortex


def reference_field(positions, strengths, sigma, targets=None):
    """Velocity and gradient of the exponential core, q(rho) = 1 - exp(-rho^3), summed in numpy."""
    x = positions if targets is None else targets
    u = np.zeros((len(x), 3))
    du = np.zeros((len(x), 3, 3))
    for j in range(len(positions)):
        d = x - positions[j]
        r = np.linalg.norm(d, axis=1)
        live = r > 0
        d, rl = d[live], r[live]
        rho = rl / sigma[j]
        q = -np.expm1(-rho**3)
        f = q / rl**3
        dq = 3 * rho**2 * np.exp(-rho**3) / sigma[j]
        f_prime_over_r = (dq / rl**3 - 3 * q / rl**4) / rl
        g = strengths[j]
        cross = np.cross(g, d)
        u[live] += f[:, None] * cross
        gx = np.array([[0, -g[2], g[1]], [g[2], 0, -g[0]], [-g[1], g[0], 0]])
        du[live] += (f_prime_over_r[:, None, None] * cross[:, :, None] * d[:, None, :]
                     + f[:, None, None] * gx[None])
    return u / (4 * np.pi), du / (4 * np.pi)


@pytest.fixture(scope="session")
def cube():
    """(positions, strengths, sigma) of the paper's random cube, 1500 particles."""
    p = vortex.random_cube(1500, seed=5)
    return p.positions, p.strengths, p.sigma


@pytest.fixture(scope="session")
def cube_reference(cube):
    return reference_field(*cube)


@pytest.fixture
def cpu_direct():
    return vortex.Solver(method="direct", backend="cpu")


def example_path(name):
    return os.path.join(os.environ.get("VORTEX_EXAMPLES", os.path.join(
        os.path.dirname(__file__), "..", "..", "examples", "python")), name)
