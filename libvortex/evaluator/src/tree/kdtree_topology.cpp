#include "tree/kdtree_topology.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

namespace vortex::detail {

// The multiple of the bucket size closest to the middle, so the left part fills its leaves exactly.
int split_position(int count, int bucket) {
  const long half_buckets = std::lround(static_cast<double>(count) / (2.0 * bucket));
  const int mid = static_cast<int>(std::max<long>(1, half_buckets) * bucket);
  return std::min(mid, count - 1);
}

void DecidedCuts::finish() {
  std::sort(cuts_.begin(), cuts_.end(), [](const KdCut& a, const KdCut& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
}

int DecidedCuts::mid(int begin, int end) const {
  const auto it =
      std::lower_bound(cuts_.begin(), cuts_.end(), std::make_pair(begin, end),
                       [](const KdCut& c, const std::pair<int, int>& r) {
                         return c.begin != r.first ? c.begin < r.first : c.end < r.second;
                       });
  return it != cuts_.end() && it->begin == begin && it->end == end ? it->mid : -1;
}

bool DecidedCuts::operator==(const DecidedCuts& o) const {
  return std::equal(cuts_.begin(), cuts_.end(), o.cuts_.begin(), o.cuts_.end(),
                    [](const KdCut& a, const KdCut& b) {
                      return a.begin == b.begin && a.mid == b.mid && a.end == b.end;
                    });
}

namespace {

// Lays out the nodes and cuts of one tree by a depth-first expansion of the ranges.
class Topology {
 public:
  Topology(int bucket, int arity, const DecidedCuts* decided,
           const std::function<bool(int, int)>* open = nullptr)
      : open_(open), decided_(decided), bucket_(bucket), levels_per_node_(binary_levels(arity)) {}

  void build(std::vector<KdNode>& nodes, std::vector<KdCut>& cuts, int n) {
    nodes.clear();
    nodes.emplace_back();
    nodes[0].begin = 0;
    nodes[0].end = n;
    expand(nodes, cuts, 0, 0, {0, n, -1, false});
  }

 private:
  // A range still to be cut, and the cut that made it (-1 for the root; `right`: its right side).
  struct Piece {
    int begin = 0, end = 0;
    int made_by = -1;
    bool right = false;
  };

  void expand(std::vector<KdNode>& nodes, std::vector<KdCut>& cuts, int node, int depth,
              Piece whole) {
    if (whole.end - whole.begin <= bucket_) return;
    if (open_ && !(*open_)(whole.begin, whole.end)) return;
    // At most 8 pieces (three binary levels): fixed arrays, nothing allocated per node.
    Piece pieces[8] = {whole}, next[8];
    int count_pieces = 1;
    int d = depth;
    for (int level = 0; level < levels_per_node_; ++level, ++d) {
      int count_next = 0;
      for (int k = 0; k < count_pieces; ++k) {
        const Piece piece = pieces[k];
        const int count = piece.end - piece.begin;
        if (count <= bucket_) {
          next[count_next++] = piece;
          continue;
        }
        const int given = decided_ ? decided_->mid(piece.begin, piece.end) : -1;
        const int mid = given >= 0 ? given : piece.begin + split_position(count, bucket_);
        const int c = static_cast<int>(cuts.size());
        cuts.push_back({piece.begin, mid, piece.end, d});
        cuts.back().decided = given >= 0;
        // A range's cut comes after the cut that made the range: it is that cut's left or right
        // child.
        if (piece.made_by >= 0)
          (piece.right ? cuts[piece.made_by].right : cuts[piece.made_by].left) = c;
        next[count_next++] = {piece.begin, mid, c, false};
        next[count_next++] = {mid, piece.end, c, true};
      }
      std::copy(next, next + count_next, pieces);
      count_pieces = count_next;
    }
    const int first = static_cast<int>(nodes.size());
    nodes[node].first_child = first;
    nodes[node].num_children = count_pieces;
    for (int k = 0; k < count_pieces; ++k) {
      KdNode child;
      child.begin = pieces[k].begin;
      child.end = pieces[k].end;
      child.parent = node;
      child.level = nodes[node].level + 1;
      nodes.push_back(child);
    }
    for (int c = 0; c < count_pieces; ++c) expand(nodes, cuts, first + c, d, pieces[c]);
  }

  const std::function<bool(int, int)>* open_;  // which nodes to expand (null: all)
  const DecidedCuts* decided_;                 // adaptive cuts' positions (null: none)
  int bucket_;
  int levels_per_node_;
};

}  // namespace

void lay_out_kdtree(int n, int bucket, int arity, std::vector<KdNode>& nodes,
                    std::vector<KdCut>& cuts, const DecidedCuts* decided) {
  cuts.clear();
  Topology(bucket, arity, decided).build(nodes, cuts, n);
}

void lay_out_top(int n, int bucket, int arity, const std::function<bool(int, int)>& open,
                 std::vector<KdNode>& nodes, std::vector<KdCut>& cuts, const DecidedCuts* decided) {
  cuts.clear();
  Topology(bucket, arity, decided, &open).build(nodes, cuts, n);
}

}  // namespace vortex::detail
