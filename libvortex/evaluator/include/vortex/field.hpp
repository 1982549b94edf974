#pragma once
// Results of an evaluation: velocity, optional gradient, and what it cost.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "vortex/options.hpp"

namespace vortex {

// Wall-clock seconds of each stage. Stages a method does not have stay 0.
struct StageTimes {
  double total = 0;
  double tree = 0;       // building source and target trees
  double multipole = 0;  // P2M and M2M
  double lists = 0;      // interaction lists
  double near = 0;       // direct pair sums (P2P, or the whole direct method)
  double far = 0;        // the whole far field: the stages below, and on CUDA the results' sum
  // The far field's stages: the local-expansion lists and their cost model (the CPU's and the
  // device's choice), M2L, L2L, L2P, and M2P (on the CPU with the gradient expansions it reads;
  // on CUDA the kernel alone).
  double far_plan = 0, m2l = 0, l2l = 0, l2p = 0, m2p = 0;
  double transfer = 0;  // host <-> device copies
  // Wall time of the set-up before the sums: trees, lists and multipoles together. The device-built
  // treecode overlaps them (the upward pass runs beside the lists), so this is less than their
  // sum there; elsewhere it is their sum.
  double setup = 0;

  // Adds every stage of `other` (totals over several calls).
  StageTimes& operator+=(const StageTimes& other);
};

struct EvaluationStats {
  StageTimes times;
  std::string backend;                       // "cpu" or "cuda": what actually ran
  std::string precision;                     // "double" or "float"
  std::string device;                        // CPU threads or GPU name
  std::string tree_build;                    // "host" or "device": where the trees were built
  std::uint64_t pair_interactions = 0;       // P2P (or direct) pairs
  std::uint64_t multipole_interactions = 0;  // M2P target-box pairs
  std::string far_field;                     // "m2p" or "local": the far field's path
  std::uint64_t m2l_translations = 0;        // source node into a target node's local expansion
  std::uint64_t l2l_translations = 0;        // a local expansion shifted to a child
  std::uint64_t l2p_targets = 0;             // targets reached by a local expansion
  FarFieldCosts far_field_costs;             // what FarField::Auto chose by (zeros otherwise)
  std::uint64_t far_list_entries = 0;        // sum over target leaves of far-list lengths
  std::uint64_t near_list_entries = 0;       // sum over target leaves of near-list lengths
  std::uint64_t target_leaves = 0;
  std::uint64_t source_nodes = 0;
  // The GPU's work plan (CUDA; zeros on the CPU): its near and far items (blocks of work) and the
  // largest item's pairs and target-node pairs, whose ratio to the mean (pair_interactions /
  // near_items, multipole_interactions / far_items) is the plan's balance.
  std::uint64_t near_items = 0, far_items = 0, near_item_max = 0, far_item_max = 0;
  std::uint64_t device_bytes = 0;  // GPU memory the library's buffers hold after the call (CUDA)
  std::uint64_t pinned_bytes = 0;  // page-locked host memory they hold (CUDA)
  double device_fp32_peak = 0;     // the GPU's FP32 peak, flop/s (CUDA; 0 on the CPU)
  TreeOptions tree;      // the treecode's parameters as used (defaults resolved); zeros for direct
  double tolerance = 0;  // the tolerance they were picked for (0: the defaults, for 2e-4)
  // The sources' layout as the tolerance's error model read it (vortex/tolerance.hpp, layout_of;
  // num_sources 0 where the tree options were all given): their density contrast, dimension and
  // spread across, which say a cluster or a filament.
  SourceLayout layout;
};

// Velocity u and, when requested, the gradient du[3a+b] = du_a/dx_b, one entry per target in the
// caller's order.
struct VelocityField {
  std::array<std::vector<double>, 3> u;
  std::array<std::vector<double>, 9> du;
  bool has_gradient = false;
  EvaluationStats stats;

  std::size_t size() const { return u[0].size(); }
  void resize(std::size_t n, bool gradient);
  // Vorticity omega = curl u from the gradient (requires has_gradient).
  std::array<double, 3> vorticity(std::size_t i) const;
};

}  // namespace vortex
