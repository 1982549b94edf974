"""Bad input gets a TypeError or ValueError that names the problem."""

import numpy as np
import pytest

import vortex


@pytest.fixture
def small():
    p = vortex.random_cube(40, seed=1)
    return p.positions, p.strengths, p.sigma


@pytest.fixture
def solver():
    return vortex.Solver(method="direct", backend="cpu")


def test_wrong_shapes(solver, small):
    x, g, s = small
    with pytest.raises(ValueError, match=r"positions must have shape \(N, 3\), got \(40, 2\)"):
        solver.evaluate(x[:, :2], g, s)
    with pytest.raises(ValueError, match=r"strengths has 39 rows, expected 40"):
        solver.evaluate(x, g[:-1], s)
    with pytest.raises(ValueError, match=r"sigma must have shape \(N,\), got \(40, 1\)"):
        solver.evaluate(x, g, s[:, None])
    with pytest.raises(ValueError, match=r"targets must have shape \(N, 3\), got \(3,\)"):
        solver.evaluate(x, g, s, targets=np.zeros(3))


def test_wrong_dtypes(solver, small):
    x, g, s = small
    with pytest.raises(TypeError, match="positions must be a float64 or float32 array, got dtype int64"):
        solver.evaluate(x.astype(np.int64), g, s)
    with pytest.raises(TypeError, match="sigma must be a float64 or float32 array, got dtype complex128"):
        solver.evaluate(x, g, s.astype(complex))
    with pytest.raises(TypeError, match="needs positions, strengths and sigma"):
        solver.evaluate(x)


def test_non_finite_and_non_positive_values(solver, small):
    x, g, s = (a.copy() for a in small)
    x[7, 1] = np.nan
    with pytest.raises(ValueError, match=r"sources y\[7\] is not finite"):
        solver.evaluate(x, g, s)
    x[7, 1] = 0.5
    s[3] = 0.0
    with pytest.raises(ValueError, match=r"sources sigma\[3\] must be positive"):
        solver.evaluate(x, g, s)
    s[3] = -1.0
    with pytest.raises(ValueError, match=r"sigma\[3\] must be positive"):
        solver.evaluate(x, np.asfortranarray(g), s.astype(np.float32))
    s[3] = 0.1
    t = np.zeros((2, 3))
    t[1, 2] = np.inf
    with pytest.raises(ValueError, match=r"targets z\[1\] is not finite"):
        solver.evaluate(x, g, s, targets=t)
    with pytest.raises(ValueError, match=r"no source particles"):
        solver.evaluate(x[:0], g[:0], s[:0])


def test_bad_options():
    with pytest.raises(ValueError, match="core"):
        vortex.Solver(core="lamb-oseen")
    with pytest.raises(ValueError, match="order"):
        vortex.Solver(order=40)
    with pytest.raises(TypeError):
        vortex.Solver("tree")  # options are keywords


def test_thread_count_above_the_limit():
    # Refused when the Solver is made, before any thread is started with that count.
    with pytest.raises(ValueError, match=r"threads must be in 0\.\.1024 \(0: OpenMP's default\), "
                       r"got 100000"):
        vortex.Solver(threads=100000)
    with pytest.raises(ValueError, match=r"threads .* got 1025"):
        vortex.Solver(threads=1025)
    with pytest.raises(ValueError, match=r"threads .* got -1"):
        vortex.Solver(threads=-1)
    assert vortex.Solver(threads=1024).options["threads"] == 1024


@pytest.mark.skipif(vortex.cuda_available(), reason="a CUDA device is present")
def test_cuda_without_device_names_it(small):
    with pytest.raises(RuntimeError, match="cuda"):
        vortex.Solver(backend="cuda").evaluate(*small)


def test_inputs_are_not_modified(solver, small):
    x, g, s = (np.asfortranarray(a) if a.ndim == 2 else a.copy() for a in small)
    before = [a.copy() for a in (x, g, s)]
    solver.evaluate(x, g, s, gradient=True)
    for a, b in zip((x, g, s), before):
        assert np.array_equal(a, b)
