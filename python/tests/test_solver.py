"""vortex.Solver against an independent numpy direct sum and against the C++ library."""

import os
import subprocess

import numpy as np
import pytest

import vortex
from conftest import reference_field


def mean_relative(a, b):
    axes = tuple(range(1, a.ndim))
    return np.mean(np.sqrt(np.sum((a - b) ** 2, axis=axes)) / np.sqrt(np.sum(b**2, axis=axes)))


def test_direct_sum_equals_numpy_reference(cube, cube_reference, cpu_direct):
    f = cpu_direct.evaluate(*cube, gradient=True)
    u, du = cube_reference
    assert f.velocity.shape == (1500, 3) and f.gradient.shape == (1500, 3, 3)
    np.testing.assert_allclose(f.velocity, u, rtol=1e-10, atol=1e-12 * np.abs(u).max())
    np.testing.assert_allclose(f.gradient, du, rtol=1e-10, atol=1e-12 * np.abs(du).max())


def test_treecode_within_its_accuracy(cube, cube_reference):
    f = vortex.Solver(backend="cpu").evaluate(*cube, gradient=True)
    u, du = cube_reference
    assert mean_relative(f.velocity, u) < 2e-4
    assert mean_relative(f.gradient, du) < 2e-4
    trace = np.trace(f.gradient, axis1=1, axis2=2)
    assert np.abs(trace).max() < 1e-10 * np.abs(f.gradient).max()
    t = f.stats["tree"]
    # The defaults: the pick for the default tolerance, 2e-4, at N = 1500 on the CPU.
    assert (t["order"], t["theta"], t["target_bucket"]) == (8, 0.575, 32)
    assert f.stats["backend"] == "cpu" and f.stats["precision"] == "double"
    assert f.stats["pair_interactions"] > 0 and f.stats["times"]["total"] > 0
    assert f.stats["near_items"] == 0 and f.stats["far_item_max"] == 0  # a GPU plan's only
    t = f.stats["times"]
    assert 0 < t["setup"] <= t["total"]


def test_uniform_order_against_per_box_orders(cube, cube_reference):
    u, du = cube_reference
    options = dict(backend="cpu", order=8, theta=0.6, precision="double")
    box = vortex.Solver(**options).evaluate(*cube, gradient=True)
    full = vortex.Solver(uniform_order=True, **options).evaluate(*cube, gradient=True)
    assert full.stats["tree"]["uniform_order"] and not box.stats["tree"]["uniform_order"]
    # Lower orders on some boxes: the fields differ beyond rounding, the accuracy hardly.
    assert np.abs(box.velocity - full.velocity).max() > 1e-9 * np.abs(u).max()
    assert mean_relative(box.velocity, u) < 1.5 * mean_relative(full.velocity, u)
    assert mean_relative(box.gradient, du) < 1.5 * mean_relative(full.gradient, du)
    assert mean_relative(box.velocity, u) < 2e-4


def test_tolerance_is_reached_and_reported(cube, cube_reference):
    u, du = cube_reference
    for tolerance in (1e-3, 1e-6):
        f = vortex.Solver(backend="cpu", tolerance=tolerance).evaluate(*cube, gradient=True)
        assert mean_relative(f.velocity, u) <= tolerance
        assert mean_relative(f.gradient, du) <= tolerance
        assert f.stats["tolerance"] == tolerance
        assert f.stats["layout"]["num_sources"] == len(cube[0])
        assert f.stats["layout"]["dimension"] > 2.5  # a volume, not a filament
        assert not f.stats["tree"]["uniform_order"]
    assert f.stats["precision"] == "double"  # float cannot reach 1e-6
    assert vortex.Solver(tolerance=1e-4).options["tolerance"] == 1e-4
    for bad in (-1e-3, 1.0, float("nan")):
        with pytest.raises(ValueError, match="tolerance"):
            vortex.Solver(tolerance=bad)


def test_targets_and_velocity_only(cube):
    targets = np.random.default_rng(3).uniform(-0.2, 1.2, size=(200, 3))
    f = vortex.Solver(method="direct").evaluate(*cube, targets=targets)
    u, _ = reference_field(*cube, targets=targets)
    assert f.gradient is None
    np.testing.assert_allclose(f.velocity, u, rtol=1e-10, atol=1e-13)


def layouts(positions):
    """The same values as C-order, Fortran-order, (3, N).T, strided and float32 arrays."""
    padded = np.zeros((len(positions), 5))
    padded[:, 1:4] = positions
    return {
        "c": np.ascontiguousarray(positions),
        "fortran": np.asfortranarray(positions),
        "transposed": np.ascontiguousarray(positions.T).T,
        "strided": padded[:, 1:4],
    }


def test_every_layout_gives_identical_results(cube):
    positions, strengths, sigma = cube
    solver = vortex.Solver(backend="cpu")
    expected = solver.evaluate(np.asfortranarray(positions), np.asfortranarray(strengths), sigma,
                               gradient=True)
    assert expected.stats["copied_inputs"] == []
    for name, p in layouts(positions).items():
        g = layouts(strengths)[name]
        f = solver.evaluate(p, g, sigma, gradient=True)
        assert np.array_equal(f.velocity, expected.velocity), name
        assert np.array_equal(f.gradient, expected.gradient), name
        in_place = name in ("fortran", "transposed")
        assert f.stats["copied_inputs"] == ([] if in_place else ["positions", "strengths"]), name


def test_float32_inputs_equal_float64_of_the_same_values(cube):
    positions, strengths, sigma = (a.astype(np.float32) for a in cube)
    solver = vortex.Solver(method="direct")
    f32 = solver.evaluate(positions, strengths, sigma, gradient=True)
    f64 = solver.evaluate(*(a.astype(np.float64) for a in (positions, strengths, sigma)),
                          gradient=True)
    assert f32.velocity.dtype == np.float64
    assert np.array_equal(f32.velocity, f64.velocity)
    assert f32.stats["copied_inputs"] == ["positions", "strengths", "sigma"]


def test_particles_object_is_read_in_place(cube):
    particles = vortex.Particles(*cube)
    solver = vortex.Solver(backend="cpu")
    f = solver.evaluate(particles, gradient=True)
    g = solver.evaluate(*cube, gradient=True)
    assert f.stats["copied_inputs"] == []
    assert np.array_equal(f.velocity, g.velocity) and np.array_equal(f.gradient, g.gradient)


@pytest.mark.skipif(not os.environ.get("VORTEX_EVAL"), reason="vortex-eval not built")
def test_equals_the_cpp_app_to_rounding(tmp_path):
    """The same particles through vortex-eval (C++) and through Python: equal to rounding."""
    particles = vortex.plummer_sphere(2000, seed=9)
    vortex.write_particles(tmp_path / "p.csv", particles)
    for method in ("tree", "direct"):
        out = tmp_path / f"{method}.csv"
        subprocess.run([os.environ["VORTEX_EVAL"], str(tmp_path / "p.csv"), "-o", str(out),
                        "--gradient", "--method", method, "--backend", "cpu"],
                       check=True, capture_output=True)
        cpp = np.loadtxt(out, delimiter=",", skiprows=1)
        f = vortex.Solver(method=method, backend="cpu").evaluate(particles, gradient=True)
        np.testing.assert_allclose(cpp[:, 3:6], f.velocity, rtol=1e-14, atol=0)
        np.testing.assert_allclose(cpp[:, 6:], f.gradient.reshape(-1, 9), rtol=1e-14, atol=0)


def test_solver_keeps_no_copy_of_float64_columns(cube):
    """With the Solver's buffers sized by a first call, a second call on arrays whose columns
    are contiguous float64 allocates no heap memory for inputs; a C-order call allocates one
    staged copy of positions and strengths (6 columns of N doubles)."""
    ctypes = pytest.importorskip("ctypes")
    libc = ctypes.CDLL(None)
    if not hasattr(libc, "mallinfo2"):
        pytest.skip("glibc without mallinfo2")
    with open("/proc/self/maps") as maps:
        if "libasan" in maps.read():
            pytest.skip("AddressSanitizer's allocator is invisible to mallinfo2")

    class MallInfo2(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
            "fordblks", "keepcost")]

    libc.mallinfo2.restype = MallInfo2

    def heap():
        m = libc.mallinfo2()
        return m.uordblks + m.hblkhd

    n = 200_000
    p = vortex.random_cube(n, seed=2)
    positions, strengths, sigma = p.positions, p.strengths, p.sigma
    fortran = [np.asfortranarray(a) for a in (positions, strengths)] + [sigma]
    solver = vortex.Solver(method="direct", threads=1)
    targets = np.asfortranarray(positions[:64])
    solver.evaluate(*fortran, targets=targets)  # sizes the solver's buffers
    before = heap()
    f = solver.evaluate(*fortran, targets=targets)
    in_place = heap() - before
    del f
    before = heap()
    f = solver.evaluate(positions, strengths, sigma, targets=targets)
    staged = heap() - before
    column = 8 * n
    assert in_place < column / 4, in_place
    assert staged >= 6 * column, staged


def test_sampled_errors_against_the_numpy_reference(cube, cube_reference):
    """vortex.sampled_errors: a treecode's errors at sampled targets as the numpy reference gives
    them there, a known error found exactly, every target when the sample is larger."""
    positions, strengths, sigma = cube
    f = vortex.Solver(backend="cpu").evaluate(*cube, gradient=True)
    u, du = cube_reference
    e = vortex.sampled_errors(positions, strengths, sigma, f.velocity, gradient=f.gradient,
                              sample=5000)
    assert e["sampled"] == len(u) and e["has_gradient"]
    assert e["velocity_mean_rel"] == pytest.approx(mean_relative(f.velocity, u), rel=1e-8)
    assert e["gradient_mean_rel"] == pytest.approx(mean_relative(f.gradient, du), rel=1e-8)
    off = vortex.sampled_errors(positions, strengths, sigma, u * (1 + 1e-3), sample=200)
    assert off["sampled"] == 200 and not off["has_gradient"]
    assert off["velocity_mean_rel"] == pytest.approx(1e-3, rel=1e-6)
    # At other targets, and the rows must match them.
    targets = positions[:100] + 0.01
    g = vortex.Solver(backend="cpu").evaluate(*cube, targets=targets)
    t = vortex.sampled_errors(positions, strengths, sigma, g.velocity, targets=targets, sample=50)
    assert t["sampled"] == 50 and t["velocity_mean_rel"] < 2e-4
    with pytest.raises(ValueError, match="values for"):
        vortex.sampled_errors(positions, strengths, sigma, g.velocity)
