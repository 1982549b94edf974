"""Readers and writers, generators and the time-stepping toolkit from Python."""

import os
import subprocess
import sys

import numpy as np
import pytest

import vortex
from conftest import example_path


def test_csv_and_vtp_round_trips(tmp_path):
    p = vortex.plummer_sphere(300, seed=4)
    f = vortex.Solver(method="direct").evaluate(p, gradient=True)
    vortex.write_particles(tmp_path / "p.csv", p)
    vortex.write_particles(tmp_path / "p.vtp", p, f)
    for name in ("p.csv", "p.vtp"):
        q = vortex.read_particles(tmp_path / name)
        assert np.array_equal(q.positions, p.positions) and np.array_equal(q.sigma, p.sigma)
        assert np.array_equal(q.strengths, p.strengths)
    velocity, gradient = vortex.read_field_vtp(str(tmp_path / "p.vtp"))
    assert np.array_equal(velocity, f.velocity) and np.array_equal(gradient, f.gradient)
    assert np.array_equal(vortex.read_points(tmp_path / "p.csv"), p.positions)
    vortex.write_field_csv(str(tmp_path / "f.csv"), p.positions, f.velocity, f.gradient)
    table = np.loadtxt(tmp_path / "f.csv", delimiter=",", skiprows=1)
    assert np.array_equal(table[:, 3:6], f.velocity)
    with pytest.raises(vortex.FileError, match="missing.csv"):
        vortex.read_particles(tmp_path / "missing.csv")
    with pytest.raises(ValueError, match="unknown file type"):
        vortex.read_particles(tmp_path / "p.txt")


def test_pvd_series(tmp_path):
    series = vortex.PvdWriter(str(tmp_path / "s.pvd"))
    p = vortex.random_cube(10, seed=1)
    for step in range(3):
        vortex.write_particles(tmp_path / f"s-{step}.vtp", p)
        series.add(0.1 * step, str(tmp_path / f"s-{step}.vtp"))
    assert [f for _, f in vortex.read_pvd(str(tmp_path / "s.pvd"))] == [
        "s-0.vtp", "s-1.vtp", "s-2.vtp"]


def test_particles_container():
    p = vortex.vortex_ring(layers=1, stations=20)
    assert len(p) == 20 * 7
    q = p.copy()
    q.sigma = 2 * q.sigma
    assert np.array_equal(q.sigma, 2 * p.sigma)
    with pytest.raises(ValueError, match="strengths has 3 rows"):
        q.strengths = np.zeros((3, 3))


def test_ring_time_step_moves_it_forward_and_conserves_vorticity():
    ring = vortex.vortex_ring(layers=1)
    solver = vortex.Solver(method="direct")
    stepper = vortex.TimeIntegrator(solver, scheme="rk2")
    d0 = vortex.diagnostics(ring)
    z0 = ring.positions[:, 2].mean()
    velocity, gradient = stepper.step(ring, 0.05)
    assert gradient.shape == (len(ring), 3, 3)
    d1 = vortex.diagnostics(ring, velocity, gradient)
    assert ring.positions[:, 2].mean() - z0 == pytest.approx(0.05 * velocity[:, 2].mean(), rel=1e-2)
    assert np.allclose(d1["total_vorticity"], d0["total_vorticity"], atol=1e-14)
    assert d1["energy"] > 0 and stepper.evaluations == 2


def test_relaxation_turns_strengths_onto_the_field_vorticity():
    ring = vortex.vortex_ring(layers=1)
    rng = np.random.default_rng(3)
    g = ring.strengths
    size = np.linalg.norm(g, axis=1)
    ring.strengths = g + 0.2 * size[:, None] * rng.uniform(-1, 1, g.shape)
    solver = vortex.Solver(method="direct")
    relaxed = ring.copy()
    vortex.TimeIntegrator(solver, scheme="euler", stretching="none", relaxation=1.0).step(relaxed, 0.0)
    # With the whole fraction and no time step, each strength keeps its size and lies along the
    # curl of the field at the particle (numpy's from the gradient).
    _, du = solver.evaluate(ring.positions, ring.strengths, ring.sigma, gradient=True)[:2]
    w = np.stack([du[:, 2, 1] - du[:, 1, 2], du[:, 0, 2] - du[:, 2, 0], du[:, 1, 0] - du[:, 0, 1]], 1)
    expected = np.linalg.norm(ring.strengths, axis=1)[:, None] * w / np.linalg.norm(w, axis=1)[:, None]
    np.testing.assert_allclose(relaxed.strengths, expected, rtol=1e-10, atol=1e-14)
    with pytest.raises(ValueError, match="relaxation"):
        vortex.TimeIntegrator(solver, relaxation=2.0)
    # A rate turns by the fraction rate * dt of each step: with stretching off, the strengths
    # after one step are those of that fraction (computed independently, as above).
    dt, rate = 0.02, 10.0
    by_rate = ring.copy()
    vortex.TimeIntegrator(solver, scheme="euler", stretching="none", relaxation_rate=rate).step(by_rate, dt)
    unit = w / np.linalg.norm(w, axis=1)[:, None]
    size = np.linalg.norm(ring.strengths, axis=1)[:, None]
    np.testing.assert_allclose(
        by_rate.strengths, (1 - rate * dt) * ring.strengths + rate * dt * size * unit, rtol=1e-10, atol=1e-14
    )
    with pytest.raises(ValueError, match="not both"):
        vortex.TimeIntegrator(solver, relaxation=0.1, relaxation_rate=1.0)


def test_diffusion_and_particle_control():
    h = 0.1
    grid = np.stack(np.meshgrid(*[np.arange(-4, 5) * h] * 3, indexing="ij"), -1).reshape(-1, 3)
    strengths = np.zeros_like(grid)
    strengths[len(grid) // 2, 2] = 1.0
    p = vortex.Particles(grid, strengths, np.full(len(grid), 1.5 * h))
    steps = vortex.pse_diffuse(p, nu=0.01, dt=0.1, epsilon=h, volume=h**3)
    assert steps >= 1 and p.strengths[:, 2].sum() == pytest.approx(1.0, rel=1e-12)
    q = vortex.Particles(grid, strengths, np.full(len(grid), 1.5 * h))
    stats = vortex.vrm_diffuse(q, nu=0.01, dt=0.1, spacing=h)
    assert stats["diffused"] > 0 and q.strengths[:, 2].sum() == pytest.approx(1.0, rel=1e-12)
    before = np.linalg.norm(q.strengths, axis=1).max()
    removed = vortex.control_particles(q, spacing=h, remove_threshold=1e-3)
    assert removed["removed"] > 0 and len(q) < len(grid)
    assert q.strengths[:, 2].sum() == pytest.approx(1.0, rel=1e-12)
    # The largest strength before and after, as numpy finds them; the shares stay bounded.
    assert removed["strongest_before"] == pytest.approx(before, rel=1e-15)
    assert removed["strongest_after"] == pytest.approx(np.linalg.norm(q.strengths, axis=1).max(),
                                                       rel=1e-15)
    assert 0 < removed["largest_share"] <= 3 and removed["signed_shares"] >= 0


def test_particle_control_in_the_grids_order():
    # The same survivors, value for value, sorted by their cells of the spacing.
    rng = np.random.default_rng(8)
    points = rng.uniform(-1, 1, (3000, 3))
    weak = np.where(np.arange(3000) % 4 == 0, 1e-9, 1.0)[:, None]  # a quarter to remove
    strengths = rng.uniform(-1, 1, (3000, 3)) * weak
    h = 0.1
    a = vortex.Particles(points, strengths, np.full(3000, h))
    b = vortex.Particles(points, strengths, np.full(3000, h))
    vortex.control_particles(a, spacing=h, merge_distance=0.3)
    vortex.control_particles(b, spacing=h, merge_distance=0.3, spatial_order=True)
    rows = lambda p: np.hstack([p.positions, p.strengths])
    assert len(a) == len(b) < 3000
    assert np.array_equal(np.unique(rows(a), axis=0), np.unique(rows(b), axis=0))
    cells = np.floor(b.positions / h)
    keys = [tuple(c) for c in cells]
    assert keys == sorted(keys) and [tuple(c) for c in np.floor(a.positions / h)] != sorted(keys)


def test_merges_into_a_partner():
    # A particle 0.02 h from a stronger one of a lattice merges whole into it, which moves to the
    # |Gamma|-weighted centroid; the total vorticity is kept.
    h = 1.0
    grid = np.stack(np.meshgrid(*[np.arange(-2, 3) * h] * 3, indexing="ij"), -1).reshape(-1, 3)
    points = np.vstack([grid, [[0.02, 0.0, 0.0]]])
    strengths = np.tile([0.0, 1.0, 0.0], (len(points), 1))
    strengths[-1] = [0.0, 0.5, 0.0]
    p = vortex.Particles(points, strengths, np.full(len(points), 0.5))
    stats = vortex.control_particles(p, spacing=h, merge_distance=0.3, merge_into="partner")
    assert stats["merged"] == 1 and stats["partner_merges"] == 1 and len(p) == len(grid)
    centre = np.argmin(np.linalg.norm(p.positions, axis=1))
    assert p.positions[centre, 0] == pytest.approx(0.5 * 0.02 / 1.5, rel=1e-14)
    assert p.strengths[centre, 1] == pytest.approx(1.5, rel=1e-15)
    assert p.strengths[:, 1].sum() == pytest.approx(len(grid) + 0.5, rel=1e-14)
    with pytest.raises(ValueError, match="merge_into"):
        vortex.control_particles(p, spacing=h, merge_distance=0.3, merge_into="lattice")


def test_control_on_the_gpu_decides_as_the_host():
    # 30,000 particles, a quarter weak, merges at 0.3 h: the same set from the host's decisions
    # and the GPU's (where a device is present; 'auto' takes the host without one), and a backend
    # the module does not know is named.
    rng = np.random.default_rng(5)
    n, h = 30000, 0.06
    points = rng.uniform(-1, 1, (n, 3))
    strengths = rng.uniform(-1, 1, (n, 3))
    strengths[::4] *= 1e-9
    runs = {}
    for backend in ["cpu", "cuda" if vortex.cuda_available() else "auto"]:
        p = vortex.Particles(points, strengths, np.full(n, 0.1))
        stats = vortex.control_particles(p, spacing=h, merge_distance=0.3, backend=backend)
        runs[backend] = (p, stats)
    (a, sa), (b, sb) = runs.values()
    assert sa["removed"] > 5000 and sa["merged"] > 0 and sa["device_shares"] == 0
    assert (sb["removed"], sb["merged"], sb["kept"]) == (sa["removed"], sa["merged"], sa["kept"])
    assert np.array_equal(a.positions, b.positions)
    largest = np.abs(a.strengths).max()
    assert np.abs(a.strengths - b.strengths).max() <= 1e-12 * largest
    if vortex.cuda_available():
        assert sb["device_shares"] > 0 and sb["seconds"]["device"] > 0
    with pytest.raises(ValueError, match="gpu"):
        vortex.control_particles(a, spacing=h, backend="gpu")


def run_example(name, *args, cwd):
    return subprocess.run([sys.executable, example_path(name), *args], cwd=cwd, check=True,
                          capture_output=True, text=True, env=dict(os.environ)).stdout


def test_examples_run(tmp_path):
    out = run_example("evaluate_ring.py", cwd=tmp_path)
    assert "relative L2 error" in out
    out = run_example("ring_time_loop.py", "--steps", "3", "--out", str(tmp_path / "run"),
                      cwd=tmp_path)
    assert (tmp_path / "run" / "ring.pvd").exists() and "step 3" in out


def test_module_help():
    out = subprocess.run([sys.executable, "-m", "vortex", "--help"], check=True,
                         capture_output=True, text=True).stdout
    assert "treecode" in out
