"""The two-scale cube and the ellipsoidal sheet from Python: seeded, and the promised geometry."""

import numpy as np
import pytest

import vortex


def test_two_scale_cube():
    n = 2000
    p = vortex.two_scale_cube(n, seed=3, ratio=10.0)
    assert len(p) == n
    q = vortex.two_scale_cube(n, seed=3)
    assert np.array_equal(p.positions, q.positions) and np.array_equal(p.strengths, q.strengths)
    assert not np.array_equal(p.positions, vortex.two_scale_cube(n, seed=4).positions)
    coarse = (n / 2) ** (-1 / 3)
    small = p.positions[1::2]
    assert np.all(small >= 0.3) and np.all(small <= 0.4)
    assert np.all((p.positions[0::2] >= 0) & (p.positions[0::2] < 1))
    assert np.allclose(p.sigma[0::2], coarse, rtol=1e-14)
    assert np.allclose(p.sigma[1::2], coarse / 10, rtol=1e-14)
    assert np.all(np.linalg.norm(p.strengths, axis=1) <= 1.5 * p.sigma**2)
    with pytest.raises(ValueError, match="ratio"):
        vortex.two_scale_cube(10, ratio=0.5)


def test_ellipsoid_sheet():
    axes = (1.0, 1.0, 0.1)
    p = vortex.ellipsoid_sheet(5000, seed=2, axes=axes, overlap=1.5)
    assert len(p) == 5000
    assert np.array_equal(p.positions, vortex.ellipsoid_sheet(5000, seed=2).positions)
    x = p.positions / np.array(axes)
    assert np.allclose(np.sum(x * x, axis=1), 1, rtol=0, atol=1e-12)
    normal = p.positions / np.array(axes) ** 2
    normal /= np.linalg.norm(normal, axis=1)[:, None]
    g = np.linalg.norm(p.strengths, axis=1)
    assert np.all(np.abs(np.sum(p.strengths * normal, axis=1)) <= 1e-12 * g + 1e-300)
    assert np.all(g <= 1.5 * p.sigma**2 * (1 + 1e-12))
    # Uniform in area: about 27% of the area has |z| < c/2 (a uniform draw in z would give 50%).
    band = np.mean(np.abs(p.positions[:, 2]) < 0.05)
    assert abs(band - 0.269) < 0.02
    with pytest.raises(ValueError, match="semi-axis"):
        vortex.ellipsoid_sheet(10, axes=(1.0, 0.0, 1.0))
