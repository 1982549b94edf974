#include "upward/distributed_upward.hpp"

#include <algorithm>

#include "tree/tree_plan.hpp"

namespace vortex::mpi::detail {

void distributed_upward(const Comm& comm, const DistributedTree& tree, const ParticleSet& particles,
                        int order, DistributedMultipoles& out) {
  const std::size_t stride = 3 * static_cast<std::size_t>(order + 1) * (order + 1);
  vortex::detail::upward_multipoles(tree.local, particles, order, out.local, out.order,
                                    out.level_start);
  std::vector<int> ids(tree.roots.begin(), tree.roots.end());
  std::vector<double> values;
  values.reserve(ids.size() * stride);
  for (const int k : tree.root_nodes)
    values.insert(values.end(), out.local.begin() + k * stride,
                  out.local.begin() + (k + 1) * stride);
  const std::vector<int> all_ids = comm.allgatherv(ids);
  const std::vector<double> all_values = comm.allgatherv(values);
  out.top.assign(tree.top.size() * stride, 0.0);
  for (std::size_t j = 0; j < all_ids.size(); ++j)
    std::copy(all_values.begin() + j * stride, all_values.begin() + (j + 1) * stride,
              out.top.begin() + static_cast<std::size_t>(all_ids[j]) * stride);
  std::vector<int> opened;
  for (int t = 0; t < static_cast<int>(tree.top.size()); ++t)
    if (tree.owner[t] < 0) opened.push_back(t);
  std::stable_sort(opened.begin(), opened.end(),
                   [&](int a, int b) { return tree.top[a].level > tree.top[b].level; });
  for (const int t : opened)
    vortex::detail::add_children_multipoles(order, tree.top.data(), t, out.top.data());
}

}  // namespace vortex::mpi::detail
