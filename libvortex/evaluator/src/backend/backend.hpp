#pragma once
// The internal interface between the Solver front-end and its backends (cpu_backend.cpp,
// cuda_backend.cpp), chosen once per call from the resolved options. A backend keeps its work
// storage between calls.
//
// The methods leave their results in storage the backend owns, as 12 component arrays (velocity
// 0..2, then the gradient du[3a+b] at 3 + 3a + b), in the order the backend summed them: the
// caller's for the direct sum and the device-built treecode, target-tree order for the treecode of
// a host plan. The Solver scatters them into the caller's field once.

#include <memory>
#include <stdexcept>

#include "backend/resolved_options.hpp"
#include "tree/tree_plan.hpp"
#include "vortex/field.hpp"

namespace vortex::detail {

// A result in device memory that is not finite: its component (0..11) and target.
struct NonFiniteResult : std::overflow_error {
  NonFiniteResult(int c, long long t)
      : std::overflow_error("non-finite result"), component(c), target(t) {}
  int component;
  long long target;
};

struct ComponentView {
  const double* component[12] = {};
};

// A backend that sums on a plan the host made (the trees, lists and multipoles of TreePlan), or
// all pairs: the CPU, and CUDA for host-built trees.
class Backend {
 public:
  virtual ~Backend() = default;
  // All sources onto all targets. Fills stats (backend, precision, device, times); the Solver
  // counts the interactions of both methods (count_interactions for the treecode).
  virtual ComponentView direct_sum(SourcesView sources, PointsView targets,
                                   const ResolvedOptions& options, bool gradient,
                                   EvaluationStats& stats) = 0;
  // The near and far fields of a plan whose trees and lists are built (its multipoles are
  // computed here, overlapped with the near field where the backend can). Fills stats times of
  // the multipole, near, far and transfer stages and the backend's names.
  virtual ComponentView tree_sum(TreePlan& plan, const ResolvedOptions& options, bool gradient,
                                 EvaluationStats& stats) = 0;
};

// The whole treecode on a device, from the particles: the trees, lists and multipoles built there
// (options.tree_build == TreeBuild::Device; CUDA).
class DevicePipeline {
 public:
  virtual ~DevicePipeline() = default;
  // Results in the caller's order, written into out[c] (3 components, 12 with the gradient; each
  // sized for the targets). With `on_device`, the sources, targets and out are device memory
  // (checked by device_input_facts first). The sums run in `units` (units.hpp); the results come
  // back in the caller's, checked on the device first: results that are not all finite throw
  // NonFiniteResult (then `out` is not written). Fills the stage times, the names and the
  // interaction counts. With `reuse_points`, the caller vouches that the sources' positions and
  // cores, the targets, their counts, the options and `gradient` are the last call's: only the
  // strengths are read, and that call's trees, lists and work plan serve again where it was on
  // host input with finite results; otherwise the call is a full one.
  virtual void device_tree_sum(SourcesView sources, PointsView targets,
                               const ResolvedOptions& options, bool gradient,
                               EvaluationStats& stats, double* const* out, bool on_device,
                               Units units, bool reuse_points) = 0;
  // Device-memory sources and targets checked where they are (throws std::invalid_argument naming
  // the first bad entry or a pointer that is not device memory), and what option resolution reads
  // of them. The result arrays out[0..components) are checked to be device memory too.
  virtual SourceFacts device_input_facts(SourcesView sources, PointsView targets,
                                         double* const* out, int components) = 0;
};

// A backend with a device of its own: both of the above on one workspace (CUDA).
class DeviceBackend : public Backend, public DevicePipeline {};

// The far field's statistics before a call chooses its path: M2P, no M2L, L2L or L2P, no times or
// costs of theirs (the local expansions' path, on either backend, fills them in).
inline void reset_far_field_stats(EvaluationStats& stats) {
  stats.far_field = "m2p";
  stats.m2l_translations = stats.l2l_translations = stats.l2p_targets = 0;
  stats.times.far_plan = stats.times.m2l = stats.times.l2l = stats.times.l2p = 0;
  stats.far_field_costs = {};
}

std::unique_ptr<Backend> make_cpu_backend();
// Throws std::runtime_error in a build without CUDA or on a machine without a device.
std::unique_ptr<DeviceBackend> make_cuda_backend();
// Whether this build can use a CUDA device on this machine.
bool cuda_device_present();
// Makes the calling thread use the CUDA device `index` modulo the devices present (one GPU a rank
// of a node: the distributed solver); returns the device, or -1 where there is none.
int use_cuda_device(int index);
// Throws std::runtime_error naming why CUDA cannot run here (no support in the build, no device).
void require_cuda();

}  // namespace vortex::detail
