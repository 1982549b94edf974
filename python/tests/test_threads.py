"""One Solver used from two threads: a call made while another runs is refused with a
RuntimeError, and leaves the running call's inputs and results as they were."""

import threading
import time

import numpy as np
import pytest

import vortex

BUSY = "this Solver is evaluating in another thread"


def inputs(seed, layout):
    """(args, kwargs) of evaluate for a cube of its own; `layout` picks what the Solver stages."""
    p = vortex.random_cube(1200, seed=seed)
    targets = vortex.random_cube(300, seed=seed + 100).positions
    if layout == "c-order":  # copied into the Solver's staging buffers
        return (p.positions, p.strengths, p.sigma), {"targets": targets}
    if layout == "in-place":  # read where they lie: only the results are shared
        return (np.asfortranarray(p.positions), np.asfortranarray(p.strengths), p.sigma), {}
    return (p,), {"targets": targets}  # particles, with C-order targets staged


def run_threads(targets, errors):
    """Runs each callable in a thread of its own and waits for all; an exception that ends one is
    a failure of the test, recorded in `errors`."""
    def guarded(target):
        try:
            target()
        except Exception as e:
            errors.append(repr(e))

    workers = [threading.Thread(target=guarded, args=(t,)) for t in targets]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


def unless_busy(call, refused, k, errors):
    """call()'s result, or None when the Solver was busy in another thread (counted in
    refused[k]); a RuntimeError of another kind is recorded in `errors`."""
    try:
        return call()
    except RuntimeError as e:
        if BUSY not in str(e):
            errors.append(repr(e))
        refused[k] += 1
        return None


@pytest.mark.parametrize("layout", ["c-order", "in-place", "particles"])
def test_refused_call_leaves_the_running_one_alone(layout):
    solver = vortex.Solver(method="direct", backend="cpu", threads=1)
    cases = [inputs(seed, layout) for seed in (11, 12)]
    expected = [solver.evaluate(*args, gradient=True, **kwargs) for args, kwargs in cases]
    wrong, refused, done, errors = [], [0, 0], [0, 0], []
    deadline = time.monotonic() + 30

    def work(k):
        args, kwargs = cases[k]
        while (done[k] < 15 or sum(refused) < 10) and time.monotonic() < deadline:
            f = unless_busy(lambda: solver.evaluate(*args, gradient=True, **kwargs), refused, k,
                            errors)
            if f is None:
                continue
            done[k] += 1
            for got, want in ((f.velocity, expected[k].velocity),
                              (f.gradient, expected[k].gradient)):
                if not np.allclose(got, want, rtol=1e-12, atol=0):
                    wrong.append((k, float(np.max(np.abs(got - want)) / np.max(np.abs(want)))))

    run_threads([lambda: work(0), lambda: work(1)], errors)
    assert not errors
    assert not wrong, f"{len(wrong)} results differ from their own input's, e.g. {wrong[:3]}"
    assert min(done) > 0, "a thread never completed an evaluation"
    assert sum(refused) > 0, "the two threads never overlapped"


def test_separate_solvers_run_at_once():
    cases = [inputs(seed, "c-order") for seed in (21, 22)]
    expected = [vortex.Solver(method="direct", backend="cpu").evaluate(*a, **kw).velocity
                for a, kw in cases]
    results, errors = [None, None], []

    def work(k):
        solver = vortex.Solver(method="direct", backend="cpu")
        args, kwargs = cases[k]
        results[k] = [solver.evaluate(*args, **kwargs).velocity for _ in range(5)]

    run_threads([lambda: work(0), lambda: work(1)], errors)
    assert not errors
    for k in (0, 1):
        for r in results[k]:
            np.testing.assert_allclose(r, expected[k], rtol=1e-12, atol=0)


def test_integrator_holds_its_solver():
    """A TimeIntegrator's step holds its Solver: an evaluate of that Solver from another thread
    is refused while a step runs, and neither call's results are overwritten."""
    solver = vortex.Solver(method="direct", backend="cpu", threads=1)
    stepper = vortex.TimeIntegrator(solver, scheme="euler", stretching="none")
    start = vortex.random_cube(1200, seed=21)
    other = vortex.random_cube(1200, seed=22)
    want_step = stepper.evaluate(start.copy())
    want_other = solver.evaluate(other, gradient=True)
    wrong, refused, errors = [], [0], []
    deadline = time.monotonic() + 30

    def repeat(velocity, want, name):
        """Calls velocity() until both threads have run enough; a result unlike want is wrong."""
        n = 0
        while (n < 15 or refused[0] < 5) and time.monotonic() < deadline:
            u = unless_busy(velocity, refused, 0, errors)
            if u is None:
                continue
            n += 1
            if not np.allclose(u, want, rtol=1e-12, atol=0):
                wrong.append(name)

    def stepping():
        repeat(lambda: stepper.evaluate(start.copy())[0], want_step[0], "integrator")

    def evaluating():
        repeat(lambda: solver.evaluate(other, gradient=True).velocity, want_other.velocity,
               "solver")

    run_threads([stepping, evaluating], errors)
    assert not errors
    assert not wrong, f"{len(wrong)} results overwritten: {wrong[:3]}"
    assert refused[0] > 0, "the two threads never met"
