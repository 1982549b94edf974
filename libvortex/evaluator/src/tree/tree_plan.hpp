#pragma once
// The treecode's host stage, shared by both backends: the source and target trees, the particles
// in tree order, the interaction lists and the multipoles. A Solver keeps one TreePlan between
// calls, so a call with the sizes of the last allocates nothing.

#include <vector>

#include "backend/resolved_options.hpp"
#include "backend/units.hpp"
#include "vortex/field.hpp"
#include "vortex/interaction_lists.hpp"
#include "vortex/kdtree.hpp"
#include "vortex/local_expansion_lists.hpp"
#include "vortex/particles.hpp"

namespace vortex::detail {

// The point that positions are taken relative to before they are rounded to float, so that float
// keeps its digits for particle sets far from the coordinate origin: the middle of the sources'
// bounding box.
struct Origin {
  double x = 0, y = 0, z = 0;
};
Origin middle_of(SourcesView sources);

struct TreePlan {
  int order = 0;  // multipole order p
  Units units;    // everything below is in these internal units (units.hpp)
  KdTree source_tree, target_tree;
  KdTreeBuilder source_builder, target_builder;
  InteractionLists lists;
  ParticleSet sources;  // in source-tree order (positions from the tree build)
  Points targets;       // in target-tree order (from the tree build)
  // Three expansions per source node, box-major:
  // multipoles[(node * 3 + component) * (p+1)^2 + k], component = Gamma x, y, z.
  std::vector<double> multipoles;
  // The same expansions with the curl applied, as M2P consumes them (multipole::m2v):
  // velocity_expansions[node * multipole::velocity_expansion_size(p) + k].
  std::vector<double> velocity_expansions;
  std::vector<int> inner_by_level, level_start;  // scratch of the upward pass
  // Set where the multipoles were computed elsewhere (a tree split over ranks, libvortex/mpi/):
  // compute_multipoles then derives only the velocity expansions from them.
  bool multipoles_given = false;
  // What the target tree's roots inherit from a top the plan does not hold (a tree split over
  // ranks): read by the CPU far field's local expansions.
  InheritedLocals inherited_locals;

  int coefficients_per_expansion() const { return (order + 1) * (order + 1); }
  // The middle of the sources' bounding box: the source root's center.
  Origin origin() const {
    const double* c = source_tree.nodes[0].center;
    return {c[0], c[1], c[2]};
  }
};

// Trees (with the particles in tree order, in internal units) and lists; stage times into `times`.
void build_tree_plan(SourcesView sources, PointsView targets, const TreeOptions& tree, Units units,
                     TreePlan& plan, StageTimes& times);

// P2M on leaves, M2M up the tree, then M2V on every node; fills plan.multipoles (unless
// plan.multipoles_given) and plan.velocity_expansions. Parallel over the nodes of one level.
void compute_multipoles(TreePlan& plan);

// P2M on the leaves of `tree` (a tree or a forest whose roots have level 0) over `sources` in tree
// order, then M2M up: multipoles[(node * 3 + component) * (p+1)^2 + k]. `order` and `start` are
// scratch kept by the caller.
void upward_multipoles(const KdTree& tree, const ParticleSet& sources, int p,
                       std::vector<double>& multipoles, std::vector<int>& order,
                       std::vector<int>& start);

// M2M: adds the multipoles of node `parent`'s children (nodes[c], at multipoles + c * stride) to
// its own, in the children's order.
void add_children_multipoles(int order, const KdNode* nodes, int parent, double* multipoles);

// Pair and multipole interactions, list entries, leaves and nodes of a plan.
void count_interactions(const TreePlan& plan, EvaluationStats& stats);

}  // namespace vortex::detail
