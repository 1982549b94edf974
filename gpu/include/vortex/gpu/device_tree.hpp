#pragma once
// VAMSplit k-d trees built on the device (the same trees as the host builder, vortex/kdtree.hpp).
//
// The shape of a tree (its nodes' ranges and links, and the binary cuts that make them) depends
// only on the number of points, the bucket size and the arity, so the host lays it out once
// (TreeShape) and the device does what depends on the data, depth by depth over all cuts of a
// depth at once: each cut's dimension of largest variance, then a radix selection of every cut
// piece's `mid - begin`-th coordinate and a stable partition about it, which puts the `mid - begin`
// smallest on its left (partition_cuts.cuh); the last depths inside one block per piece
// (finish_cuts.cuh). The nodes' tight bounds, centers, radii and largest core radii follow from
// the points in tree order.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vortex/gpu/buffer.hpp"
#include "vortex/math/tree_node.hpp"

namespace vortex::gpu {

namespace detail {
struct DepthCuts;
}

// Points per chunk of the reductions over ranges.
constexpr int kTreeChunk = 4096;

// The data-independent part of one tree, laid out on the host.
struct TreeShape {
  int n = 0, bucket = 0, arity = 0;
  std::vector<KdNode> nodes;  // ranges and links; bounds are filled on the device
  std::vector<int> leaves;    // leaf node indices in tree order
  // Pieces of cut depth d are entries [depth_start[d], depth_start[d + 1]) of the piece arrays:
  // the ranges that tile [0, n) before the cuts of depth d, in order. A piece with chunks
  // (piece_first_chunk >= 0) is cut at this depth, at piece_mid (its end if it is not cut): the
  // points of [piece_begin, piece_mid) are those of least coordinate along the cut.
  std::vector<int> depth_start;
  std::vector<int> piece_begin, piece_end, piece_mid;
  // Fixed-size chunks (kTreeChunk points) of the ranges each pass reduces (so that a large range is
  // shared by many blocks): per depth, the chunks of its cut pieces (depth_chunk_start, chunk_piece
  // are piece entries); and the chunks of all nodes (chunk_node are node indices).
  std::vector<int> depth_chunk_start, chunk_piece, chunk_begin, chunk_end;
  std::vector<int> piece_first_chunk;  // per piece: its first chunk (-1 for an uncut piece)
  std::vector<int> node_chunk_node, node_chunk_begin, node_chunk_end;
  // Inner nodes by level (level_start[l] .. level_start[l + 1]), for the upward pass.
  std::vector<int> inner_by_level, level_start;

  int depths() const { return static_cast<int>(depth_start.size()) - 1; }
};

// The last depths of the cuts are made inside one block per piece: from the first depth whose
// pieces all hold at most kFinishPoints points, and at most kFinishPieces pieces of any later depth
// each. Returns that depth for pieces of at most `max_points` (at most kFinishPoints) points, or
// shape.depths() when there is none.
constexpr int kFinishPoints = 4096;
constexpr int kFinishPieces = 512;
int block_finish_depth(const TreeShape& shape, int max_points);

// Points of one tree in the caller's order (device arrays; sigma may be null).
struct DevicePoints {
  const double *x = nullptr, *y = nullptr, *z = nullptr, *sigma = nullptr;
};

// One depth of the adaptive cuts, laid out on the host as TreeShape lays out a depth: the pieces
// that tile [0, n), the chunks of those cut (piece_first_chunk >= 0), and which cut pieces are
// adaptive (measured). piece_mid is filled by the host once the measures are back.
struct AdaptiveDepth {
  std::vector<int> piece_begin, piece_end, piece_mid, piece_first_chunk, adaptive;
  std::vector<int> chunk_piece, chunk_begin, chunk_end;
};

// One tree on the device: its shape (uploaded when it changes), the permutation and the nodes,
// with the storage of the build kept between calls.
class DeviceTree {
 public:
  DeviceTree() = default;
  DeviceTree(const DeviceTree&) = delete;
  DeviceTree& operator=(const DeviceTree&) = delete;

  // Uploads `shape` unless it is the shape of the last build (the same n, bucket and arity).
  void set_shape(TreeShape shape, cudaStream_t stream);
  bool has_shape(int n, int bucket, int arity) const {
    return shape_.n == n && shape_.bucket == bucket && shape_.arity == arity;
  }
  // Partitions the points and measures the nodes; on `stream`, nothing waits for the host. For a
  // shape without adaptive cuts: begin() then finish() from depth 0.
  void build(DevicePoints points, cudaStream_t stream);
  // A build in steps on one stream: begin() takes the n points in their order; each depth of
  // adaptive cuts is measured (queued), its counts read (the points before and through the middle
  // half of each adaptive piece, two a piece, 0 for the others; the host waits for them), then cut
  // at the positions the host placed; set_shape() lays out the tree with those cuts; finish()
  // makes the cuts from `first_depth` on (the depths the adaptive cuts did not make) and measures
  // the nodes. Two trees on two streams overlap each other's waits.
  void begin(DevicePoints points, int n, cudaStream_t stream);
  void measure_adaptive_depth(const AdaptiveDepth& depth, cudaStream_t stream);
  void adaptive_counts(cudaStream_t stream, std::vector<long long>& counts);
  void cut_adaptive_depth(const AdaptiveDepth& depth, cudaStream_t stream);
  void finish(DevicePoints points, int first_depth, cudaStream_t stream);

  const TreeShape& shape() const { return shape_; }
  int size() const { return shape_.n; }
  int num_nodes() const { return static_cast<int>(shape_.nodes.size()); }
  const KdNode* nodes() const { return nodes_.data(); }
  const int* leaves() const { return leaves_.data(); }
  const int* inner_by_level() const { return inner_by_level_.data(); }
  // Tree position i holds point permutation()[i] (valid after build).
  const std::uint32_t* permutation() const { return perm_current_; }
  // The points in tree order (valid after build).
  const double* x() const { return ordered_.data(); }
  const double* y() const { return ordered_.data() + shape_.n; }
  const double* z() const { return ordered_.data() + 2 * std::size_t(shape_.n); }

 private:
  // The steps of build: the cuts of the depths done by whole-tree passes (the permutation swapped
  // into place at each), and the nodes' boxes, radii and core sizes once the points are in order.
  void cut_depths(int first_depth, cudaStream_t stream);
  // Reserves what a build of n points needs whatever its shape.
  void reserve_points(int n);
  // The build's points, permutations and the cuts' storage, into a depth's cuts.
  void attach_storage(detail::DepthCuts& c) const;
  void node_boxes(const double* sigma, cudaStream_t stream);
  TreeShape shape_;
  // Shape on the device.
  DeviceBuffer<KdNode> nodes_;
  DeviceBuffer<int> leaves_, inner_by_level_, depth_start_, piece_begin_, piece_end_, piece_mid_,
      piece_first_chunk_, chunk_piece_, chunk_begin_, chunk_end_, node_chunk_node_,
      node_chunk_begin_, node_chunk_end_;
  // Build storage: the partitions' keys, their flags' prefix sums, histograms and selections.
  DeviceBuffer<std::uint32_t> keys_;
  DeviceBuffer<unsigned long long> flag_sums_;
  DeviceBuffer<unsigned int> histograms_, selected_;
  std::size_t histogram_count_ = 0;
  DeviceBuffer<int> still_needed_;
  DeviceBuffer<std::uint32_t> perm_[2];
  std::uint32_t* perm_current_ = nullptr;
  std::uint32_t* perm_spare_ = nullptr;  // the other permutation buffer, during a build
  int size_of_build_ = 0;                // the points begin() took
  // The adaptive depths: the host's layout of a depth (packed), each adaptive piece's extent (as
  // ordered bits) and counts, and the counts on the host.
  DeviceBuffer<int> adaptive_layout_;
  PinnedBuffer<int> adaptive_layout_host_, adaptive_mids_host_;
  DeviceBuffer<unsigned long long> adaptive_extent_, adaptive_counts_;
  PinnedBuffer<unsigned long long> adaptive_counts_host_;
  int adaptive_pieces_ = 0;                         // of the depth last measured
  DeviceBuffer<double> chunk_moments_, piece_key_;  // per piece: reference, minimum, scale
  DeviceBuffer<int> piece_dim_;
  DeviceBuffer<unsigned long long> node_bits_;  // bounds, radius, sigma as ordered integers
  DeviceBuffer<double> ordered_;
  DeviceBuffer<unsigned char> scan_temp_;
  // Depths from this one on are cut inside one block per piece (finish_cuts.cuh).
  int finish_depth_ = 0;
};

}  // namespace vortex::gpu
