#pragma once
// VAMSplit k-d tree (White & Jain 1996) with tight boxes.
//
// Each split cuts along the dimension of largest variance at the multiple of the bucket size
// closest to the median, so every leaf but one holds exactly `bucket` particles. A node of arity
// 2^k is made of k levels of such binary splits. After the build every box is shrunk to its
// particles. Particles are not moved: `permutation` lists them in leaf order, and every node owns
// the range [begin, end) of that order.

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "vortex/math/tree_node.hpp"
#include "vortex/particles.hpp"

namespace vortex {

struct KdTree {
  std::vector<KdNode> nodes;             // nodes[0] is the root (absent for an empty set)
  std::vector<int> leaves;               // leaf node indices, in tree order
  std::vector<std::size_t> permutation;  // tree position i holds the caller's point permutation[i]
  int bucket = 0;
  int arity = 0;

  std::size_t size() const { return permutation.size(); }
};

// Builds the tree of `points`; `sigma` (may be null) gives each node's max_sigma.
// Throws std::invalid_argument for bucket < 1, arity not in {2, 4, 8} or more than 2^31 - 1 points.
KdTree build_kdtree(PointsView points, const double* sigma, int bucket, int arity);

// Builds two trees at once (a source and a target tree), sharing the threads between them.
std::pair<KdTree, KdTree> build_kdtree_pair(PointsView a, const double* sigma_a, int bucket_a,
                                            PointsView b, const double* sigma_b, int bucket_b,
                                            int arity);

// Builds trees into storage kept from the previous build (the tree's vectors and the builder's
// scratch), so that rebuilding a tree of the same size allocates nothing. Optionally writes the
// points in tree order, which the partition holds anyway.
// Where a build writes the points in tree order: three arrays of n doubles the caller sized, or
// nulls for none.
struct PointsOut {
  double *x = nullptr, *y = nullptr, *z = nullptr;
};

class KdTreeBuilder {
 public:
  KdTreeBuilder();
  ~KdTreeBuilder();
  KdTreeBuilder(KdTreeBuilder&&) noexcept;
  KdTreeBuilder& operator=(KdTreeBuilder&&) noexcept;

  void build(PointsView points, const double* sigma, int bucket, int arity, KdTree& tree,
             PointsOut ordered = {});

  struct TreeInput {
    PointsView points;
    const double* sigma = nullptr;
    int bucket = 0;
    PointsOut ordered;
    // Positions and core radii are multiplied by it (a power of two, so exactly) as they are read:
    // the tree and the ordered points are those of the scaled set.
    double scale = 1;
    // Node radii below it are raised to it; negative: kRadiusFloor of the root's radius (a subtree
    // of a larger tree passes 0, and its tree's floor once that is known).
    double radius_floor = -1;
    // For a subtree of a larger tree (a tree split over ranks): the binary depth of its root and
    // the whole tree's points (0: this tree's), which set the adaptive cuts (tree_node.hpp).
    int depth = 0;
    int whole = 0;
  };
  // One tree with every option above.
  void build(const TreeInput& input, int arity, KdTree& tree);
  // Two trees at once (a source and a target tree), sharing the threads between them.
  static void build_pair(KdTreeBuilder& first, const TreeInput& a, KdTree& tree_a,
                         KdTreeBuilder& second, const TreeInput& b, KdTree& tree_b, int arity);

 private:
  void reserve(std::size_t n);
  void run(const TreeInput& input, int arity, KdTree& tree);
  struct Scratch;
  std::unique_ptr<Scratch> scratch_;
};

}  // namespace vortex
