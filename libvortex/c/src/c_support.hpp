#pragma once
// What the C interface's files share: the solver handle, which sums on one Solver or on one
// distributed over a communicator (vortex_mpi.h), and the mapping of exceptions to status codes.

#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>

#include "strided.hpp"
#include "vortex.h"
#include "vortex/field.hpp"
#include "vortex/options.hpp"
#include "vortex/particles.hpp"

struct vortex_solver {
  // The solver's sums and options, whichever solver it holds.
  std::function<void(vortex::SourcesView, vortex::PointsView, bool, vortex::VelocityField&)>
      evaluate;
  vortex::SolverOptions options;
  std::shared_ptr<void> engine;  // the solver `evaluate` calls
  vortex::strided::Staging staging;
  vortex::VelocityField field;  // kept between calls: no allocation after the first
  vortex_stats stats{};

  // A handle around a Solver or a DistributedSolver (anything with options() and the evaluate of
  // views into a field).
  template <class S>
  static vortex_solver* of(std::shared_ptr<S> engine) {
    auto* h = new vortex_solver;
    h->options = engine->options();
    h->evaluate = [e = engine.get()](vortex::SourcesView s, vortex::PointsView t, bool gradient,
                                     vortex::VelocityField& out) {
      e->evaluate(s, t, gradient, out);
    };
    h->engine = std::move(engine);
    return h;
  }
};

namespace vortex::c_api {

// A backend the machine does not have.
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Sets this thread's last error; returns the status.
int fail(int status, const std::string& message);
void require(bool condition, const char* message);
vortex::SolverOptions to_cpp(const vortex_options& o);
extern thread_local std::string last_error;

// Runs `body`, mapping exceptions to status codes.
template <class Body>
int guarded(Body&& body) {
  try {
    body();
    last_error.clear();
    return VORTEX_OK;
  } catch (const std::invalid_argument& e) {
    return fail(VORTEX_ERROR_INVALID_ARGUMENT, e.what());
  } catch (const std::bad_alloc&) {
    return fail(VORTEX_ERROR_OUT_OF_MEMORY, "out of memory");
  } catch (const Unavailable& e) {
    return fail(VORTEX_ERROR_UNAVAILABLE, e.what());
  } catch (const std::exception& e) {
    return fail(VORTEX_ERROR_INTERNAL, e.what());
  } catch (...) {
    return fail(VORTEX_ERROR_INTERNAL, "unknown error");
  }
}

}  // namespace vortex::c_api
