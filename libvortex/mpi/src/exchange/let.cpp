#include "exchange/let.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace vortex::mpi::detail {

namespace {

// One node of a locally essential tree as it travels, in pre-order.
struct LetNode {
  KdNode node;           // geometry; begin and end global (they identify the node)
  int num_children = 0;  // children that follow (0: none sent)
  int particles = 0;     // 1: its particles follow
};

constexpr int kParticleDoubles = 7;  // x, y, z, gx, gy, gz, sigma

void copy_geometry(const KdNode& from, KdNode& to) {
  for (int k = 0; k < 3; ++k) {
    to.lo[k] = from.lo[k];
    to.hi[k] = from.hi[k];
    to.center[k] = from.center[k];
  }
  to.radius = from.radius;
  to.max_sigma = from.max_sigma;
}

// What one rank sends another.
struct Outbox {
  std::vector<LetNode> nodes;
  std::vector<double> multipoles, particles;
};

// Pre-order walk of this rank's subtree at local node k against a destination's boxes.
class Walker {
 public:
  Walker(const SourceSide& s, const std::vector<KdNode>& boxes, const AcceptanceCriteria& c,
         Outbox& out)
      : s_(s), boxes_(boxes), criteria_(c), out_(out), stride_(3 * (s.order + 1) * (s.order + 1)) {}

  void emit(int k) {
    const KdNode& node = s_.tree->local.nodes[k];
    LetNode e;
    copy_geometry(node, e.node);
    e.node.begin = node.begin + s_.tree->begin();
    e.node.end = node.end + s_.tree->begin();
    const bool far = far_from_all(node);
    if (!far && node.is_leaf()) e.particles = 1;
    if (!far && !node.is_leaf()) e.num_children = node.num_children;
    out_.nodes.push_back(e);
    const double* m = s_.local_multipoles->data() + static_cast<std::size_t>(k) * stride_;
    out_.multipoles.insert(out_.multipoles.end(), m, m + stride_);
    if (e.particles) {
      const ParticleSet& p = *s_.particles;
      for (int i = node.begin; i < node.end; ++i) {
        const double v[kParticleDoubles] = {p.x[i],  p.y[i],  p.z[i],    p.gx[i],
                                            p.gy[i], p.gz[i], p.sigma[i]};
        out_.particles.insert(out_.particles.end(), v, v + kParticleDoubles);
      }
    }
    for (int c = 0; c < e.num_children; ++c) emit(node.first_child + c);
  }

 private:
  bool far_from_all(const KdNode& node) const {
    for (const KdNode& box : boxes_)
      if (!is_far(box, node, criteria_)) return false;
    return true;
  }

  const SourceSide& s_;
  const std::vector<KdNode>& boxes_;
  const AcceptanceCriteria& criteria_;
  Outbox& out_;
  std::size_t stride_;
};

// Builds the receiver's tree from the global root, children laid out per parent as the builders
// do; particles in tree order.
class Assembler {
 public:
  Assembler(const SourceSide& s, int me, const std::vector<LetNode>& nodes,
            const std::vector<long long>& node_from, const std::vector<double>& multipoles,
            const std::vector<double>& particles, const std::vector<long long>& particle_from,
            const Let& let)
      : s_(s),
        me_(me),
        in_nodes_(nodes),
        in_multipoles_(multipoles),
        in_particles_(particles),
        tree_(let.tree),
        out_(let.particles),
        out_multipoles_(let.multipoles),
        keys_(let.keys),
        stride_(3 * (s.order + 1) * (s.order + 1)) {
    next_node_.assign(node_from.begin(), node_from.end() - 1);
    next_particle_.assign(particle_from.begin(), particle_from.end() - 1);
    for (long long& p : next_particle_) p /= kParticleDoubles;
    const DistributedTree& t = *s.tree;
    local_root_of_top_.assign(t.top.size(), -1);
    for (std::size_t k = 0; k < t.roots.size(); ++k)
      local_root_of_top_[t.roots[k]] = t.root_nodes[k];
  }

  void run() {
    tree_.nodes.assign(1, KdNode{});
    keys_.assign(1, 0);
    out_multipoles_.clear();
    out_multipoles_.resize(stride_);
    out_.resize(0);
    place_top(0, 0);
  }

 private:
  int new_block(int count, int parent) {
    const int first = static_cast<int>(tree_.nodes.size());
    tree_.nodes.resize(first + count);
    keys_.resize(first + count);
    out_multipoles_.resize(tree_.nodes.size() * stride_);
    KdNode& p = tree_.nodes[parent];
    p.first_child = first;
    p.num_children = count;
    for (int c = 0; c < count; ++c) {
      tree_.nodes[first + c].parent = parent;
      tree_.nodes[first + c].level = p.level + 1;
    }
    return first;
  }

  void set_multipole(int d, const double* m) {
    std::copy(m, m + stride_, out_multipoles_.begin() + static_cast<std::size_t>(d) * stride_);
  }

  // A node's range from its children's, where they are all present and abut; else none.
  void range_from_children(int d) {
    KdNode& node = tree_.nodes[d];
    node.begin = node.end = -1;
    if (node.num_children == 0) return;
    const int first = node.first_child, last = first + node.num_children - 1;
    for (int c = first; c <= last; ++c)
      if (tree_.nodes[c].begin < 0 || (c > first && tree_.nodes[c - 1].end != tree_.nodes[c].begin))
        return;
    node.begin = tree_.nodes[first].begin;
    node.end = tree_.nodes[last].end;
  }

  int append_particle(double x, double y, double z, double gx, double gy, double gz, double s) {
    out_.x.push_back(x), out_.y.push_back(y), out_.z.push_back(z);
    out_.gx.push_back(gx), out_.gy.push_back(gy), out_.gz.push_back(gz);
    out_.sigma.push_back(s);
    return static_cast<int>(out_.x.size());
  }

  void place_top(int t, int d) {
    const DistributedTree& st = *s_.tree;
    const KdNode& node = st.top[t];
    copy_geometry(node, tree_.nodes[d]);
    keys_[d] = node_key(node.begin, node.end);
    set_multipole(d, s_.top_multipoles->data() + static_cast<std::size_t>(t) * stride_);
    const int owner = st.owner[t];
    if (owner < 0) {
      const int first = new_block(node.num_children, d);
      for (int c = 0; c < node.num_children; ++c) place_top(node.first_child + c, first + c);
      range_from_children(d);
    } else if (owner == me_) {
      place_local(local_root_of_top_[t], d);
    } else {
      place_received(owner, d, node);
    }
  }

  void place_local(int k, int d) {
    const KdNode& node = s_.tree->local.nodes[k];
    copy_geometry(node, tree_.nodes[d]);
    keys_[d] = node_key(node.begin + s_.tree->begin(), node.end + s_.tree->begin());
    set_multipole(d, s_.local_multipoles->data() + static_cast<std::size_t>(k) * stride_);
    if (node.is_leaf()) {
      const ParticleSet& p = *s_.particles;
      tree_.nodes[d].begin = static_cast<int>(out_.x.size());
      for (int i = node.begin; i < node.end; ++i)
        append_particle(p.x[i], p.y[i], p.z[i], p.gx[i], p.gy[i], p.gz[i], p.sigma[i]);
      tree_.nodes[d].end = static_cast<int>(out_.x.size());
      return;
    }
    const int first = new_block(node.num_children, d);
    for (int c = 0; c < node.num_children; ++c) place_local(node.first_child + c, first + c);
    range_from_children(d);
  }

  void place_received(int q, int d, const KdNode& expected) {
    const LetNode& e = in_nodes_.at(next_node_[q]);
    if (e.node.begin != expected.begin || e.node.end != expected.end)
      throw std::logic_error("vortex::mpi: the tree received from rank " + std::to_string(q) +
                             " does not follow the tree's shape");
    const long long index = next_node_[q]++;
    copy_geometry(e.node, tree_.nodes[d]);
    keys_[d] = node_key(e.node.begin, e.node.end);
    set_multipole(d, in_multipoles_.data() + static_cast<std::size_t>(index) * stride_);
    tree_.nodes[d].begin = tree_.nodes[d].end = -1;
    if (e.particles) {
      const int first = static_cast<int>(out_.x.size());
      for (int i = 0; i < e.node.count(); ++i) {
        const double* v = in_particles_.data() + (next_particle_[q]++) * kParticleDoubles;
        append_particle(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
      }
      tree_.nodes[d].begin = first;
      tree_.nodes[d].end = static_cast<int>(out_.x.size());
      return;
    }
    if (e.num_children == 0) return;  // far from every target box: never opened
    const int first = new_block(e.num_children, d);
    // The expected ranges of the children: the received entries name them.
    for (int c = 0; c < e.num_children; ++c) {
      KdNode child;
      const LetNode& ce = in_nodes_.at(next_node_[q]);
      child.begin = ce.node.begin;
      child.end = ce.node.end;
      place_received(q, first + c, child);
    }
    range_from_children(d);
  }

  const SourceSide& s_;
  int me_;
  const std::vector<LetNode>& in_nodes_;
  const std::vector<double>& in_multipoles_;
  const std::vector<double>& in_particles_;
  KdTree& tree_;
  ParticleSet& out_;
  std::vector<double>& out_multipoles_;
  std::vector<long long>& keys_;
  std::size_t stride_;
  std::vector<long long> next_node_, next_particle_;
  std::vector<int> local_root_of_top_;
};

}  // namespace

std::vector<KdNode> target_boxes(const DistributedTree& targets, std::size_t wanted) {
  const std::vector<KdNode>& nodes = targets.local.nodes;
  std::vector<int> frontier(targets.root_nodes.begin(), targets.root_nodes.end());
  while (frontier.size() < wanted) {
    std::vector<int> next;
    bool opened = false;
    for (const int k : frontier) {
      if (nodes[k].is_leaf() || next.size() + nodes[k].num_children > 2 * wanted) {
        next.push_back(k);
        continue;
      }
      for (int c = 0; c < nodes[k].num_children; ++c) next.push_back(nodes[k].first_child + c);
      opened = true;
    }
    frontier.swap(next);
    if (!opened) break;
  }
  std::vector<KdNode> boxes;
  for (const int k : frontier) boxes.push_back(nodes[k]);
  return boxes;
}

void exchange_let(const Comm& comm, const SourceSide& sources, const std::vector<KdNode>& my_boxes,
                  const AcceptanceCriteria& criteria, const Let& let, LetCounts& counts) {
  KdTree& tree = let.tree;
  const int ranks = comm.size(), me = comm.rank();
  // Every rank's boxes (only their bounds travel).
  struct Box {
    double lo[3], hi[3];
  };
  std::vector<Box> mine;
  for (const KdNode& b : my_boxes) {
    Box x;
    for (int k = 0; k < 3; ++k) x.lo[k] = b.lo[k], x.hi[k] = b.hi[k];
    mine.push_back(x);
  }
  std::vector<long long> box_from;
  const std::vector<Box> all = comm.allgatherv(mine, &box_from);

  std::vector<Outbox> out(ranks);
  std::vector<std::vector<KdNode>> boxes(ranks);
  for (int r = 0; r < ranks; ++r)
    for (long long i = box_from[r]; i < box_from[r + 1]; ++i) {
      KdNode b;
      for (int k = 0; k < 3; ++k) b.lo[k] = all[i].lo[k], b.hi[k] = all[i].hi[k];
      boxes[r].push_back(b);
    }
#pragma omp parallel for schedule(dynamic, 1)
  for (int r = 0; r < ranks; ++r) {
    if (r == me || boxes[r].empty()) continue;
    Walker walker(sources, boxes[r], criteria, out[r]);
    for (const int root : sources.tree->root_nodes) walker.emit(root);
  }
  std::vector<std::vector<LetNode>> send_nodes(ranks);
  std::vector<std::vector<double>> send_multipoles(ranks), send_particles(ranks);
  for (int r = 0; r < ranks; ++r) {
    counts.nodes_sent += out[r].nodes.size();
    counts.particles_sent += out[r].particles.size() / kParticleDoubles;
    send_nodes[r] = std::move(out[r].nodes);
    send_multipoles[r] = std::move(out[r].multipoles);
    send_particles[r] = std::move(out[r].particles);
  }
  std::vector<long long> node_from, multipole_from, particle_from;
  const std::vector<LetNode> in_nodes = comm.alltoallv(send_nodes, &node_from);
  const std::vector<double> in_multipoles = comm.alltoallv(send_multipoles, &multipole_from);
  const std::vector<double> in_particles = comm.alltoallv(send_particles, &particle_from);
  counts.nodes_received += in_nodes.size();
  counts.particles_received += in_particles.size() / kParticleDoubles;

  tree = KdTree{};
  tree.bucket = sources.tree->bucket;
  tree.arity = sources.tree->arity;
  let.particles.resize(0);
  let.multipoles.clear();
  let.keys.clear();
  if (my_boxes.empty() || sources.tree->n == 0) return;
  Assembler(sources, me, in_nodes, node_from, in_multipoles, in_particles, particle_from, let)
      .run();
  for (int k = 0; k < static_cast<int>(tree.nodes.size()); ++k)
    if (tree.nodes[k].is_leaf() && tree.nodes[k].begin >= 0) tree.leaves.push_back(k);
  std::sort(tree.leaves.begin(), tree.leaves.end(),
            [&](int a, int b) { return tree.nodes[a].begin < tree.nodes[b].begin; });
  tree.permutation.resize(let.particles.size());
  std::iota(tree.permutation.begin(), tree.permutation.end(), std::size_t(0));
}

void check_let_lists(const std::vector<IndexRange>& near_ranges) {
  for (const IndexRange& r : near_ranges)
    if (r.begin < 0 || r.end < r.begin)
      throw std::logic_error(
          "vortex::mpi: a target's near field reaches a source node that no rank sent");
}

}  // namespace vortex::mpi::detail
