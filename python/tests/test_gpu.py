"""The CUDA path from Python (skipped without a device)."""

import numpy as np
import pytest

import vortex

pytestmark = pytest.mark.skipif(not vortex.cuda_available(), reason="no CUDA device")


def test_cuda_treecode_against_cpu_direct(cube, cube_reference):
    f = vortex.Solver(backend="cuda").evaluate(*cube, gradient=True)
    assert f.stats["backend"] == "cuda"
    u, du = cube_reference
    err = np.mean(np.linalg.norm(f.velocity - u, axis=1) / np.linalg.norm(u, axis=1))
    assert err < 2e-4
    assert f.stats["copied_inputs"] == ["positions", "strengths"]


def test_cuda_direct_double(cube, cube_reference):
    f = vortex.Solver(backend="cuda", method="direct", precision="double").evaluate(
        *cube, gradient=True)
    np.testing.assert_allclose(f.velocity, cube_reference[0], rtol=1e-9, atol=1e-12)
