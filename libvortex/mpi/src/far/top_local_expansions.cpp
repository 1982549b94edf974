#include "far/top_local_expansions.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "backend/cpu_stages.hpp"
#include "vortex/multipole/l2l.hpp"
#include "vortex/multipole/m2l.hpp"
#include "vortex/multipole/m2l_rotation.hpp"

namespace vortex::mpi::detail {

namespace {

using Keys = std::vector<long long>;

// Nodes in the subtree of local node k.
int subtree_size(const std::vector<KdNode>& nodes, int k) {
  int n = 1;
  for (int c = nodes[k].first_child; c < nodes[k].first_child + nodes[k].num_children; ++c)
    n += subtree_size(nodes, c);
  return n;
}

// The far entries common to all leaves under this rank's root node k (in its first leaf's order),
// as global keys.
Keys common_of_root(const vortex::detail::TreePlan& plan, const Keys& keys, int k,
                    std::vector<int>& seen) {
  const KdTree& tt = plan.target_tree;
  const KdNode& root = tt.nodes[k];
  const auto by_begin = [&](int leaf, int begin) { return tt.nodes[leaf].begin < begin; };
  const int first =
      static_cast<int>(std::lower_bound(tt.leaves.begin(), tt.leaves.end(), root.begin, by_begin) -
                       tt.leaves.begin());
  const int last = static_cast<int>(
      std::lower_bound(tt.leaves.begin(), tt.leaves.end(), root.end, by_begin) - tt.leaves.begin());
  const auto& l = plan.lists;
  for (int leaf = first; leaf < last; ++leaf)
    for (int e = l.far_offsets[leaf]; e < l.far_offsets[leaf + 1]; ++e) ++seen[l.far_nodes[e]];
  Keys common;
  for (int e = l.far_offsets[first]; e < l.far_offsets[first + 1]; ++e)
    if (seen[l.far_nodes[e]] == last - first) common.push_back(keys[l.far_nodes[e]]);
  for (int leaf = first; leaf < last; ++leaf)
    for (int e = l.far_offsets[leaf]; e < l.far_offsets[leaf + 1]; ++e) seen[l.far_nodes[e]] = 0;
  return common;
}

using vortex::detail::kLocalChunk;
using vortex::detail::kLocalChunkedLevels;

}  // namespace

void top_local_expansions(const Comm& comm, const TopLocalInput& in,
                          vortex::detail::TreePlan& plan) {
  InheritedLocals& out = plan.inherited_locals;
  out.clear();
  if (in.mode == FarField::M2P) return;
  const DistributedTree& tt = *in.targets;
  const std::vector<KdNode>& top = tt.top;
  const Keys& keys = *in.source_keys;

  // Each root's common entries and subtree size, to every rank: [top, size, count, keys...].
  Keys mine;
  std::vector<int> seen(plan.source_tree.nodes.size(), 0);
  for (std::size_t r = 0; r < tt.roots.size(); ++r) {
    const Keys common = common_of_root(plan, keys, tt.root_nodes[r], seen);
    mine.push_back(tt.roots[r]);
    mine.push_back(subtree_size(plan.target_tree.nodes, tt.root_nodes[r]));
    mine.push_back(static_cast<long long>(common.size()));
    mine.insert(mine.end(), common.begin(), common.end());
  }
  const Keys all = comm.allgatherv(mine);
  const std::size_t n = top.size();
  std::vector<Keys> common(n);
  std::vector<int> subtree(n, 0);
  for (std::size_t i = 0; i < all.size();) {
    const int t = static_cast<int>(all[i]);
    subtree[t] = static_cast<int>(all[i + 1]);
    const long long count = all[i + 2];
    common[t].assign(all.begin() + i + 3, all.begin() + i + 3 + count);
    i += 3 + count;
  }
  // The opened nodes, deepest first: common entries and subtree sizes from their children.
  std::vector<int> opened;
  for (std::size_t t = 0; t < n; ++t)
    if (tt.owner[t] < 0) opened.push_back(static_cast<int>(t));
  std::stable_sort(opened.begin(), opened.end(),
                   [&](int a, int b) { return top[a].level > top[b].level; });
  for (const int t : opened) {
    const KdNode& node = top[t];
    subtree[t] = 1;
    std::unordered_map<long long, int> count;
    for (int c = node.first_child; c < node.first_child + node.num_children; ++c) {
      subtree[t] += subtree[c];
      for (const long long s : common[c]) ++count[s];
    }
    for (const long long s : common[node.first_child])
      if (count[s] == node.num_children) common[t].push_back(s);
  }

  // The choice, parents first, at the opened nodes above this rank's roots.
  std::vector<char> above_mine(n, 0);
  for (const int r : tt.roots)
    for (int t = top[r].parent; t >= 0; t = top[t].parent) above_mine[t] = 1;
  std::unordered_map<long long, int> index;
  for (std::size_t k = 0; k < keys.size(); ++k) index[keys[k]] = static_cast<int>(k);
  auto source_of = [&](long long key) {
    const auto it = index.find(key);
    if (it == index.end())
      throw std::logic_error("vortex::mpi: an entry common to a rank's leaves is not in its tree");
    return it->second;
  };
  const int p = plan.order, q = vortex::detail::local_order(p);
  const std::size_t size = multipole::local_size(q);
  const std::size_t stride = 3 * static_cast<std::size_t>(p + 1) * (p + 1);
  std::vector<char> has_local(n, 0);
  std::vector<int> taken_owner(n, -1);
  std::vector<Keys> taken(n);
  std::vector<double> locals(n * size, 0.0), partial(size);
  std::reverse(opened.begin(), opened.end());  // parents first
  for (const int t : opened) {
    if (!above_mine[t]) continue;
    const KdNode& node = top[t];
    const int parent = node.parent;
    const bool local_above = parent >= 0 && has_local[parent];
    const int owner_above = parent >= 0 ? taken_owner[parent] : -1;
    const Keys none;
    const Keys& above = owner_above >= 0 ? taken[owner_above] : none;
    std::vector<int> m2l;
    if (local_may_pay(in.mode, in.costs, node.count())) {
      const std::unordered_set<long long> was(above.begin(), above.end());
      for (const long long s : common[t])
        if (!was.count(s) && m2l_accepts(node, plan.source_tree.nodes[source_of(s)], in.theta))
          m2l.push_back(source_of(s));
      if (!local_pays(in.mode, in.costs, static_cast<int>(m2l.size()), node.count(), subtree[t],
                      local_above))
        m2l.clear();
    }
    has_local[t] = local_above || !m2l.empty();
    if (m2l.empty()) {
      taken_owner[t] = owner_above;
    } else {
      taken[t] = above;
      for (const int s : m2l) taken[t].push_back(keys[s]);
      taken_owner[t] = t;
    }
    if (!has_local[t]) continue;
    // Its expansion, as the one-rank walk sums it.
    double* L = locals.data() + t * size;
    const auto add_m2l = [&](int first, int last, double* into) {
      multipole::m2l_sum(
          p, q, last - first,
          [&](int i, double* t) {
            const KdNode& s = plan.source_tree.nodes[m2l[first + i]];
            for (int d = 0; d < 3; ++d) t[d] = node.center[d] - s.center[d];
            return plan.multipoles.data() + m2l[first + i] * stride;
          },
          into);
    };
    const int count = static_cast<int>(m2l.size());
    const bool upper = node.level < kLocalChunkedLevels;
    if (upper)
      for (int first = 0; first < count; first += kLocalChunk) {
        std::fill(partial.begin(), partial.end(), 0.0);
        add_m2l(first, std::min(first + kLocalChunk, count), partial.data());
        for (std::size_t k = 0; k < size; ++k) L[k] += partial[k];
      }
    if (local_above) {
      const double* cp = top[parent].center;
      multipole::l2l(q, node.center[0] - cp[0], node.center[1] - cp[1], node.center[2] - cp[2],
                     locals.data() + parent * size, L);
    }
    if (!upper) add_m2l(0, count, L);
  }

  // What this rank's roots inherit.
  for (std::size_t r = 0; r < tt.roots.size(); ++r) {
    const int parent = top[tt.roots[r]].parent;
    if (parent < 0 || !has_local[parent]) continue;
    out.roots.push_back(tt.root_nodes[r]);
    const int owner = taken_owner[parent];
    if (owner >= 0)
      for (const long long s : taken[owner]) out.taken.push_back(source_of(s));
    out.taken_offsets.push_back(static_cast<int>(out.taken.size()));
    out.centers.insert(out.centers.end(), top[parent].center, top[parent].center + 3);
    out.expansions.insert(out.expansions.end(), locals.begin() + parent * size,
                          locals.begin() + (parent + 1) * size);
  }
}

}  // namespace vortex::mpi::detail
