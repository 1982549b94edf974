#include "vortex/options.hpp"

#include <cmath>
#include <stdexcept>

#include "solver/text_excerpt.hpp"
#include "vortex/tolerance.hpp"

namespace vortex {

namespace {

template <class E, std::size_t N>
E parse_name(const std::string& name, const char* what,
             const std::pair<const char*, E> (&table)[N]) {
  std::string accepted;
  for (const auto& [key, value] : table) {
    if (name == key) return value;
    accepted += (accepted.empty() ? "" : ", ") + std::string(key);
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + name +
                              "' (accepted: " + accepted + ")");
}

template <class E, std::size_t N>
std::string name_of(E value, const std::pair<const char*, E> (&table)[N]) {
  for (const auto& [key, v] : table)
    if (v == value) return key;
  return "?";
}

const std::pair<const char*, Core> kCores[] = {{"exponential", Core::Exponential},
                                               {"gaussian", Core::Gaussian},
                                               {"rosenhead-moore", Core::RosenheadMoore},
                                               {"winckelmans-leonard", Core::WinckelmansLeonard},
                                               {"singular", Core::Singular}};
const std::pair<const char*, Method> kMethods[] = {{"direct", Method::Direct},
                                                   {"tree", Method::Tree}};
const std::pair<const char*, Backend> kBackends[] = {
    {"auto", Backend::Auto}, {"cpu", Backend::Cpu}, {"cuda", Backend::Cuda}};
const std::pair<const char*, Precision> kPrecisions[] = {
    {"auto", Precision::Auto}, {"double", Precision::Double}, {"float", Precision::Float}};
const std::pair<const char*, TreeBuild> kTreeBuilds[] = {
    {"auto", TreeBuild::Auto}, {"host", TreeBuild::Host}, {"device", TreeBuild::Device}};
const std::pair<const char*, FarField> kFarFields[] = {
    {"auto", FarField::Auto}, {"m2p", FarField::M2P}, {"local", FarField::Local}};

}  // namespace

std::string to_string(Core v) {
  return name_of(v, kCores);
}
std::string to_string(Method v) {
  return name_of(v, kMethods);
}
std::string to_string(Backend v) {
  return name_of(v, kBackends);
}
std::string to_string(Precision v) {
  return name_of(v, kPrecisions);
}
std::string to_string(TreeBuild v) {
  return name_of(v, kTreeBuilds);
}
std::string to_string(FarField v) {
  return name_of(v, kFarFields);
}
Core parse_core(const std::string& s) {
  return parse_name(s, "core", kCores);
}
Method parse_method(const std::string& s) {
  return parse_name(s, "method", kMethods);
}
Backend parse_backend(const std::string& s) {
  return parse_name(s, "backend", kBackends);
}
Precision parse_precision(const std::string& s) {
  return parse_name(s, "precision", kPrecisions);
}
TreeBuild parse_tree_build(const std::string& s) {
  return parse_name(s, "tree build", kTreeBuilds);
}
FarField parse_far_field(const std::string& s) {
  return parse_name(s, "far field", kFarFields);
}

double default_kappa(Core core) {
  // Smallest rho at which |1 - q(rho)| < 1e-6 (the far field treats the core as singular there).
  switch (core) {
    case Core::Exponential:
      return 2.41;  // exp(-rho^3) = 1e-6 at rho = 2.40
    case Core::Gaussian:
      return 5.54;  // erfc(rho/sqrt2) + sqrt(2/pi) rho exp(-rho^2/2) = 1e-6 at rho = 5.54
    case Core::RosenheadMoore:
      return 1225;  // 1 - q ~ 3/(2 rho^2)
    case Core::WinckelmansLeonard:
      return 37.1;  // 1 - q ~ 15/(8 rho^4)
    case Core::Singular:
    default:
      return 0;
  }
}

TreeOptions resolve_tree_options(const TreeOptions& tree, Core core, Backend backend,
                                 double tolerance, const SourceLayout& layout) {
  return tree_options_for_tolerance(tolerance > 0 ? tolerance : kDefaultTolerance, core, backend,
                                    tree, layout);
}

void validate_options(const SolverOptions& o) {
  // Enumerations cast from integers can hold values outside their lists.
  auto require_listed = [](const std::string& name, int value, const char* type) {
    if (name == "?")
      throw std::invalid_argument(std::to_string(value) + " is not a " + type + " value");
  };
  require_listed(to_string(o.core), static_cast<int>(o.core), "Core");
  require_listed(to_string(o.method), static_cast<int>(o.method), "Method");
  require_listed(to_string(o.backend), static_cast<int>(o.backend), "Backend");
  require_listed(to_string(o.precision), static_cast<int>(o.precision), "Precision");
  require_listed(to_string(o.tree_build), static_cast<int>(o.tree_build), "TreeBuild");
  require_listed(to_string(o.far_field), static_cast<int>(o.far_field), "FarField");
  const TreeOptions& t = o.tree;
  if (t.order < 0 || t.order > 16)
    throw std::invalid_argument("order p must be in 1..16 (0: default), got " +
                                std::to_string(t.order));
  if (!(t.theta >= 0 && t.theta < 1))
    throw std::invalid_argument("theta must be in (0, 1) (0: default), got " +
                                detail::number_text(t.theta));
  if (!(t.kappa >= 0) || !std::isfinite(t.kappa))
    throw std::invalid_argument("kappa must be >= 0, got " + detail::number_text(t.kappa));
  if (t.target_bucket < 0)
    throw std::invalid_argument("target bucket must be >= 1 (0: default), got " +
                                std::to_string(t.target_bucket));
  if (t.source_bucket < 0)
    throw std::invalid_argument("source bucket must be >= 1 (0: default), got " +
                                std::to_string(t.source_bucket));
  if (t.arity != 2 && t.arity != 4 && t.arity != 8)
    throw std::invalid_argument("arity must be 2, 4 or 8, got " + std::to_string(t.arity));
  // Checked here, before any Solver sets OpenMP's thread count: a count far beyond the machine
  // makes OpenMP start that many threads and crash.
  if (o.threads < 0 || o.threads > kMaxThreads)
    throw std::invalid_argument("threads must be in 0.." + std::to_string(kMaxThreads) +
                                " (0: OpenMP's default), got " + std::to_string(o.threads));
  if (!(o.tolerance >= 0 && o.tolerance < 1))
    throw std::invalid_argument(
        "tolerance must be in [0, 1) (a mean relative error; 0: the defaults), got " +
        detail::number_text(o.tolerance));
}

}  // namespace vortex
