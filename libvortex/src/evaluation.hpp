#pragma once
// Internal interfaces between the Solver front-end and its CPU and CUDA evaluators.
//
// The Solver permutes sources and targets into tree order once, builds the trees and the lists
// (a TreePlan), lets a backend fill the result in target-tree order, and returns it in the caller's
// order. Multipoles are computed by compute_multipoles(); the CUDA path calls it on the host while
// the GPU runs the near field.

#include <memory>
#include <vector>

#include "vortex/field.hpp"
#include "vortex/interaction_lists.hpp"
#include "vortex/kdtree.hpp"
#include "vortex/options.hpp"
#include "vortex/particles.hpp"

namespace vortex::detail {

struct TreePlan {
  int order = 0;  // multipole order p
  KdTree source_tree, target_tree;
  InteractionLists lists;
  ParticleSet sources;  // in source-tree order
  Points targets;       // in target-tree order
  // Three expansions per source node, box-major:
  // multipoles[(node * 3 + component) * (p+1)^2 + k], component = Gamma x, y, z.
  std::vector<double> multipoles;
  // The same expansions with the curl applied, as M2P consumes them (multipole::m2v):
  // velocity_expansions[node * multipole::velocity_expansion_size(p) + k].
  std::vector<double> velocity_expansions;

  int coefficients_per_expansion() const { return (order + 1) * (order + 1); }
};

// P2M on leaves, M2M up the tree, then M2V on every node; fills plan.multipoles and
// plan.velocity_expansions. Parallel over the nodes of one level.
void compute_multipoles(TreePlan& plan);

// Direct sum of all sources onto all targets, in the caller's order; `out` holds the final field
// (1/(4 pi) included). Any core, double precision, OpenMP over targets.
void direct_sum_cpu(SourcesView sources, PointsView targets, Core core, bool gradient,
                    VelocityField& out);

// Near field (P2P over the near lists) and far field (M2P over the far lists) on CPU threads.
// Results are added to `out`, which is in target-tree order and already sized; 1/(4 pi) included.
// single_precision: pair sums in float (per source range), accumulated in double.
void evaluate_near_cpu(const TreePlan& plan, Core core, bool single_precision, bool gradient,
                       VelocityField& out);
void evaluate_far_cpu(const TreePlan& plan, bool single_precision, bool gradient,
                      VelocityField& out);

// Device buffers and streams kept between calls of one Solver (defined by the CUDA backend).
struct CudaWorkspace;
struct CudaWorkspaceDeleter {
  void operator()(CudaWorkspace* w) const;
};
using CudaWorkspacePtr = std::unique_ptr<CudaWorkspace, CudaWorkspaceDeleter>;

#ifdef VORTEX_HAVE_CUDA
bool cuda_device_present();
std::string cuda_device_name();
CudaWorkspacePtr make_cuda_workspace();
// Direct sum on the GPU; `out` in the caller's order. Stats (times, counts) are filled in.
void direct_sum_cuda(CudaWorkspace& ws, SourcesView sources, PointsView targets,
                     const SolverOptions& options, bool gradient, VelocityField& out);
// Tree evaluation on the GPU from a plan whose trees and lists are built but whose multipoles are
// not: it uploads, starts the near field, calls compute_multipoles(plan) on the host meanwhile,
// then runs the far field. `out` is in target-tree order; stats.times.{multipole,near,far,transfer}
// set.
void evaluate_tree_cuda(CudaWorkspace& ws, TreePlan& plan, const SolverOptions& options,
                        bool gradient, VelocityField& out);
#endif

}  // namespace vortex::detail
