// The C interface: every entry point catches what the C++ library throws and turns it into a
// status code and a per-thread message.

#include "vortex.h"

#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "c_support.hpp"
#include "strided.hpp"
#include "vortex/solver.hpp"

static_assert(VORTEX_MAX_THREADS == vortex::kMaxThreads, "vortex.h and options.hpp disagree");

namespace vortex::c_api {

thread_local std::string last_error;

int fail(int status, const std::string& message) {
  last_error = message;
  return status;
}

void require(bool condition, const char* message) {
  if (!condition) throw std::invalid_argument(message);
}

}  // namespace vortex::c_api

using namespace vortex::c_api;

namespace {

namespace s = vortex::strided;

s::Scalar scalar(int32_t type, const char* what) {
  if (type == VORTEX_FLOAT64) return s::Scalar::Float64;
  if (type == VORTEX_FLOAT32) return s::Scalar::Float32;
  throw std::invalid_argument(std::string(what) +
                              ": type must be VORTEX_FLOAT64 or VORTEX_FLOAT32");
}

s::Column column(const void* data, ptrdiff_t stride, s::Scalar type, const char* name) {
  if (!data) throw std::invalid_argument(std::string("array ") + name + " is NULL");
  return {data, stride * ptrdiff_t(s::scalar_bytes(type)), type};
}

template <class E>
E enum_in(int32_t value, int32_t count, const char* name) {
  if (value < 0 || value >= count)
    throw std::invalid_argument(std::string("option ") + name +
                                " out of range: " + std::to_string(value));
  return static_cast<E>(value);
}

}  // namespace

vortex::SolverOptions vortex::c_api::to_cpp(const vortex_options& o) {
  static const vortex::Core cores[] = {vortex::Core::Exponential, vortex::Core::Gaussian,
                                       vortex::Core::RosenheadMoore,
                                       vortex::Core::WinckelmansLeonard, vortex::Core::Singular};
  vortex::SolverOptions c;
  c.core = cores[enum_in<int>(o.core, 5, "core")];
  static const vortex::Method methods[] = {vortex::Method::Tree, vortex::Method::Direct};
  c.method = methods[enum_in<int>(o.method, 2, "method")];
  static const vortex::Backend backends[] = {vortex::Backend::Auto, vortex::Backend::Cpu,
                                             vortex::Backend::Cuda};
  c.backend = backends[enum_in<int>(o.backend, 3, "backend")];
  static const vortex::Precision precisions[] = {vortex::Precision::Auto, vortex::Precision::Double,
                                                 vortex::Precision::Float};
  c.precision = precisions[enum_in<int>(o.precision, 3, "precision")];
  c.tree.order = o.order;
  c.tree.theta = o.theta;
  c.tree.kappa = o.kappa;
  c.tree.target_bucket = o.target_bucket;
  c.tree.source_bucket = o.source_bucket;
  c.tree.arity = o.arity;
  c.tree.uniform_order = enum_in<int>(o.uniform_order, 2, "uniform_order") == 1;
  c.threads = o.threads;
  c.tolerance = o.tolerance;
  return c;
}

namespace {

void fill_stats(const vortex::EvaluationStats& e, int copied, vortex_stats& out) {
  out = vortex_stats{};
  out.total = e.times.total;
  out.tree = e.times.tree;
  out.multipole = e.times.multipole;
  out.lists = e.times.lists;
  out.near_field = e.times.near;
  out.far_field = e.times.far;
  out.transfer = e.times.transfer;
  out.setup = e.times.setup;
  out.pair_interactions = e.pair_interactions;
  out.multipole_interactions = e.multipole_interactions;
  out.near_list_entries = e.near_list_entries;
  out.far_list_entries = e.far_list_entries;
  out.target_leaves = e.target_leaves;
  out.source_nodes = e.source_nodes;
  out.backend = e.backend == "cuda" ? VORTEX_BACKEND_CUDA : VORTEX_BACKEND_CPU;
  out.precision = e.precision == "float" ? VORTEX_PRECISION_FLOAT : VORTEX_PRECISION_DOUBLE;
  out.order = e.tree.order;
  out.target_bucket = e.tree.target_bucket;
  out.source_bucket = e.tree.source_bucket;
  out.arity = e.tree.arity;
  out.uniform_order = e.tree.uniform_order ? 1 : 0;
  out.theta = e.tree.theta;
  out.kappa = e.tree.kappa;
  out.tolerance = e.tolerance;
  const bool read = e.layout.num_sources > 0;  // else every tree option was given
  out.layout_contrast = read ? e.layout.contrast : 0;
  out.layout_dimension = read ? e.layout.dimension : 0;
  out.layout_spread = read ? e.layout.spread : 0;
  out.copied_columns = copied;
  std::strncpy(out.device, e.device.c_str(), sizeof out.device - 1);
}

}  // namespace

extern "C" {

int vortex_c_api_version(void) {
  return VORTEX_C_API_VERSION;
}
const char* vortex_version(void) {
  return VORTEX_VERSION_STRING;
}
const char* vortex_last_error(void) {
  return last_error.c_str();
}

const char* vortex_status_name(int status) {
  switch (status) {
    case VORTEX_OK:
      return "ok";
    case VORTEX_ERROR_INVALID_ARGUMENT:
      return "invalid argument";
    case VORTEX_ERROR_UNAVAILABLE:
      return "unavailable";
    case VORTEX_ERROR_OUT_OF_MEMORY:
      return "out of memory";
    case VORTEX_ERROR_INTERNAL:
      return "internal error";
    default:
      return "unknown status";
  }
}

int vortex_cuda_available(void) {
  return vortex::cuda_available() ? 1 : 0;
}

void vortex_default_options(vortex_options* options) {
  if (!options) return;
  *options = vortex_options{};
  options->arity = vortex::SolverOptions{}.tree.arity;
}

int vortex_solver_create(const vortex_options* options, vortex_solver** solver) {
  if (solver) *solver = nullptr;
  return guarded([&] {
    require(options && solver, "vortex_solver_create: options and solver must not be NULL");
    *solver = vortex_solver::of(std::make_shared<vortex::Solver>(to_cpp(*options)));
  });
}

void vortex_solver_destroy(vortex_solver* solver) {
  delete solver;
}

int vortex_evaluate(vortex_solver* solver, const vortex_sources* sources,
                    const vortex_points* targets, const vortex_field* out) {
  return guarded([&] {
    require(solver && sources && out, "vortex_evaluate: solver, sources and out must not be NULL");
    const s::Scalar st = scalar(sources->type, "sources");
    const s::SourceColumns sc = {column(sources->x, sources->position_stride, st, "x"),
                                 column(sources->y, sources->position_stride, st, "y"),
                                 column(sources->z, sources->position_stride, st, "z"),
                                 column(sources->gx, sources->strength_stride, st, "gx"),
                                 column(sources->gy, sources->strength_stride, st, "gy"),
                                 column(sources->gz, sources->strength_stride, st, "gz"),
                                 column(sources->sigma, sources->sigma_stride, st, "sigma")};
    solver->staging.reset();
    const vortex::SourcesView view = solver->staging.sources(sources->n, sc);
    vortex::PointsView at;
    if (targets) {
      const s::Scalar tt = scalar(targets->type, "targets");
      at = solver->staging.targets(targets->n, {column(targets->x, targets->stride, tt, "x"),
                                                column(targets->y, targets->stride, tt, "y"),
                                                column(targets->z, targets->stride, tt, "z")});
    } else {
      at.x = view.x, at.y = view.y, at.z = view.z, at.n = view.n;
    }
    const s::Scalar ot = scalar(out->type, "out");
    const std::ptrdiff_t bytes = std::ptrdiff_t(s::scalar_bytes(ot));
    std::array<s::OutColumn, 3> u;
    for (int a = 0; a < 3; ++a) {
      require(out->u[a] != nullptr, "vortex_evaluate: out->u[0..2] must not be NULL");
      u[a] = {out->u[a], out->u_stride * bytes, ot};
    }
    const bool gradient = out->du[0] != nullptr;
    std::array<s::OutColumn, 9> du;
    for (int k = 0; gradient && k < 9; ++k) {
      require(out->du[k] != nullptr, "vortex_evaluate: out->du must be all NULL or all set");
      du[k] = {out->du[k], out->du_stride * bytes, ot};
    }
    if (solver->options.backend == vortex::Backend::Cuda && !vortex::cuda_available())
      throw Unavailable("backend 'cuda' was requested but no CUDA device can be used");
    solver->evaluate(view, at, gradient, solver->field);
    s::write_field(solver->field, u, gradient ? &du : nullptr);
    fill_stats(solver->field.stats, solver->staging.copied_columns(), solver->stats);
  });
}

int vortex_solver_stats(const vortex_solver* solver, vortex_stats* stats) {
  if (!solver || !stats) return fail(VORTEX_ERROR_INVALID_ARGUMENT, "vortex_solver_stats: NULL");
  *stats = solver->stats;
  last_error.clear();
  return VORTEX_OK;
}

vortex_sources vortex_sources_interleaved(size_t n, int type, const void* positions,
                                          const void* strengths, const void* sigma) {
  const size_t b = type == VORTEX_FLOAT32 ? sizeof(float) : sizeof(double);
  const auto* p = static_cast<const unsigned char*>(positions);
  const auto* g = static_cast<const unsigned char*>(strengths);
  vortex_sources s{};
  s.n = n;
  s.type = type;
  s.x = p, s.y = p ? p + b : nullptr, s.z = p ? p + 2 * b : nullptr;
  s.gx = g, s.gy = g ? g + b : nullptr, s.gz = g ? g + 2 * b : nullptr;
  s.sigma = sigma;
  s.position_stride = 3, s.strength_stride = 3, s.sigma_stride = 1;
  return s;
}

vortex_sources vortex_sources_separate(size_t n, int type, const void* x, const void* y,
                                       const void* z, const void* gx, const void* gy,
                                       const void* gz, const void* sigma) {
  vortex_sources s{};
  s.n = n;
  s.type = type;
  s.x = x, s.y = y, s.z = z, s.gx = gx, s.gy = gy, s.gz = gz, s.sigma = sigma;
  s.position_stride = 1, s.strength_stride = 1, s.sigma_stride = 1;
  return s;
}

vortex_points vortex_points_interleaved(size_t n, int type, const void* xyz) {
  const size_t b = type == VORTEX_FLOAT32 ? sizeof(float) : sizeof(double);
  const auto* p = static_cast<const unsigned char*>(xyz);
  vortex_points t{};
  t.n = n;
  t.type = type;
  t.x = p, t.y = p ? p + b : nullptr, t.z = p ? p + 2 * b : nullptr;
  t.stride = 3;
  return t;
}

vortex_points vortex_points_separate(size_t n, int type, const void* x, const void* y,
                                     const void* z) {
  vortex_points t{};
  t.n = n;
  t.type = type;
  t.x = x, t.y = y, t.z = z;
  t.stride = 1;
  return t;
}

vortex_field vortex_field_interleaved(int type, void* velocity, void* gradient) {
  const size_t b = type == VORTEX_FLOAT32 ? sizeof(float) : sizeof(double);
  auto* u = static_cast<unsigned char*>(velocity);
  auto* du = static_cast<unsigned char*>(gradient);
  vortex_field f{};
  f.type = type;
  for (int a = 0; a < 3; ++a) f.u[a] = u ? u + a * b : nullptr;
  f.u_stride = 3;
  for (int k = 0; k < 9; ++k) f.du[k] = du ? du + k * b : nullptr;
  f.du_stride = 9;
  return f;
}

}  // extern "C"
