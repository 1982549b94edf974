// VAMSplit trees on the device: the cuts depth by depth, then the nodes' bounds (device_tree.hpp).

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

#include "cuts.cuh"
#include "finish_cuts.cuh"
#include "partition_cuts.cuh"
#include "reduce.cuh"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/device_tree.hpp"

namespace vortex::gpu {
namespace detail {
namespace {

constexpr int kThreads = kReduceThreads;

struct PointsRef {
  const double *x, *y, *z;
};

__global__ void interleave_kernel(PointsRef p, int n, double* xyz) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  xyz[3 * static_cast<long long>(i) + 0] = p.x[i];
  xyz[3 * static_cast<long long>(i) + 1] = p.y[i];
  xyz[3 * static_cast<long long>(i) + 2] = p.z[i];
}

__global__ void gather_kernel(PointsRef p, const std::uint32_t* perm, int n, double* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t j = perm[i];
  out[i] = p.x[j];
  out[n + i] = p.y[j];
  out[2 * static_cast<long long>(n) + i] = p.z[j];
}

// Node accumulators, 8 per node: lo (3), hi (3) and r^2 as order bits, max sigma as float bits.
constexpr int kNodeBits = 8;

__global__ void reset_nodes_kernel(unsigned long long* bits, int num_nodes) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= num_nodes) return;
  unsigned long long* b = bits + static_cast<long long>(k) * kNodeBits;
  for (int j = 0; j < 3; ++j) b[j] = ~0ull, b[3 + j] = 0;
  b[6] = 0;
  b[7] = 0;
}

// Bounds and largest (float-rounded-up) core radius of each chunk of each node, merged by atomics.
__global__ void node_bounds_kernel(const double* ordered, int n, const std::uint32_t* perm,
                                   const double* sigma, const int* chunk_node,
                                   const int* chunk_begin, const int* chunk_end,
                                   unsigned long long* bits) {
  const int c = blockIdx.x;
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300}, s = 0;
  for (int i = chunk_begin[c] + threadIdx.x; i < chunk_end[c]; i += blockDim.x) {
    for (int k = 0; k < 3; ++k) {
      const double v = ordered[static_cast<long long>(k) * n + i];
      lo[k] = fmin(lo[k], v);
      hi[k] = fmax(hi[k], v);
    }
    if (sigma) s = fmax(s, static_cast<double>(__double2float_ru(sigma[perm[i]])));
  }
  double r[7];
  for (int k = 0; k < 3; ++k) {
    r[k] = block_reduce(lo[k], MinOp{});
    r[3 + k] = block_reduce(hi[k], MaxOp{});
  }
  r[6] = block_reduce(s, MaxOp{});
  if (threadIdx.x != 0) return;
  unsigned long long* b = bits + static_cast<long long>(chunk_node[c]) * kNodeBits;
  for (int k = 0; k < 3; ++k) {
    atomicMin(b + k, order_bits(r[k]));
    atomicMax(b + 3 + k, order_bits(r[3 + k]));
  }
  atomicMax(b + 7, static_cast<unsigned long long>(__float_as_uint(static_cast<float>(r[6]))));
}

__global__ void finish_bounds_kernel(const unsigned long long* bits, int num_nodes, KdNode* nodes) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= num_nodes) return;
  const unsigned long long* b = bits + static_cast<long long>(k) * kNodeBits;
  KdNode& node = nodes[k];
  for (int j = 0; j < 3; ++j) {
    node.lo[j] = from_order_bits(b[j]);
    node.hi[j] = from_order_bits(b[3 + j]);
    node.center[j] = 0.5 * (node.lo[j] + node.hi[j]);
  }
  node.max_sigma = static_cast<double>(__uint_as_float(static_cast<unsigned>(b[7])));
}

// Largest squared distance from the node's center over each chunk; non-negative doubles order
// like their bits.
__global__ void node_radius_kernel(const double* ordered, int n, const KdNode* nodes,
                                   const int* chunk_node, const int* chunk_begin,
                                   const int* chunk_end, unsigned long long* bits) {
  const int c = blockIdx.x;
  const KdNode& node = nodes[chunk_node[c]];
  double r2 = 0;
  for (int i = chunk_begin[c] + threadIdx.x; i < chunk_end[c]; i += blockDim.x) {
    double d2 = 0;
    for (int k = 0; k < 3; ++k) {
      const double d = ordered[static_cast<long long>(k) * n + i] - node.center[k];
      d2 += d * d;
    }
    r2 = fmax(r2, d2);
  }
  r2 = block_reduce(r2, MaxOp{});
  if (threadIdx.x == 0)
    atomicMax(bits + static_cast<long long>(chunk_node[c]) * kNodeBits + 6,
              static_cast<unsigned long long>(__double_as_longlong(r2)));
}

__global__ void finish_radius_kernel(const unsigned long long* bits, int num_nodes, KdNode* nodes) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= num_nodes) return;
  // At least kRadiusFloor of the root's radius, as the host's builder (tree_node.hpp says why).
  const double root = sqrt(__longlong_as_double(static_cast<long long>(bits[6])));
  nodes[k].radius = fmax(sqrt(__longlong_as_double(static_cast<long long>(
                             bits[static_cast<long long>(k) * kNodeBits + 6]))),
                         root * kRadiusFloor);
}

__global__ void iota_kernel(std::uint32_t* perm, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) perm[i] = static_cast<std::uint32_t>(i);
}

// The most pieces of any depth in [first, last).
std::size_t most_pieces(const TreeShape& s, int first, int last) {
  std::size_t most = 1;
  for (int d = first; d < last; ++d)
    most = std::max<std::size_t>(most, s.depth_start[d + 1] - s.depth_start[d]);
  return most;
}

template <class T>
void upload(DeviceBuffer<T>& to, const std::vector<T>& from, cudaStream_t stream) {
  to.reserve(from.size());
  if (from.empty()) return;
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(to.data(), from.data(), from.size() * sizeof(T),
                                    cudaMemcpyHostToDevice, stream));
}

}  // namespace
}  // namespace detail

void DeviceTree::set_shape(TreeShape shape, cudaStream_t stream) {
  using detail::upload;
  shape_ = std::move(shape);
  upload(nodes_, shape_.nodes, stream);
  upload(leaves_, shape_.leaves, stream);
  upload(inner_by_level_, shape_.inner_by_level, stream);
  upload(depth_start_, shape_.depth_start, stream);
  upload(piece_begin_, shape_.piece_begin, stream);
  upload(piece_end_, shape_.piece_end, stream);
  upload(piece_mid_, shape_.piece_mid, stream);
  upload(piece_first_chunk_, shape_.piece_first_chunk, stream);
  upload(chunk_piece_, shape_.chunk_piece, stream);
  upload(chunk_begin_, shape_.chunk_begin, stream);
  upload(chunk_end_, shape_.chunk_end, stream);
  upload(node_chunk_node_, shape_.node_chunk_node, stream);
  upload(node_chunk_begin_, shape_.node_chunk_begin, stream);
  upload(node_chunk_end_, shape_.node_chunk_end, stream);
  // Pageable sources: each call returns once its source is staged, so the host's shape may change
  // afterwards. The device's copies are ordered on `stream` only: work on another stream that
  // reads the shape must wait for an event recorded on `stream` after this call.
  reserve_points(shape_.n);
  const std::size_t max_pieces = detail::most_pieces(shape_, 0, shape_.depths());
  piece_dim_.reserve(max_pieces);
  piece_key_.reserve(3 * max_pieces);
  selected_.reserve(max_pieces);
  still_needed_.reserve(max_pieces);
  chunk_moments_.reserve(detail::kMoments * std::max<std::size_t>(1, shape_.chunk_piece.size()));
  node_bits_.reserve(detail::kNodeBits * shape_.nodes.size());
  const char* finish_env = std::getenv("VORTEX_TREE_FINISH_POINTS");
  finish_depth_ = block_finish_depth(shape_, finish_env ? std::atoi(finish_env) : kFinishPoints);
  // The selections' histograms, for the pieces of the depths cut by whole-tree passes.
  histogram_count_ = detail::most_pieces(shape_, 0, finish_depth_) * detail::kSelectBins;
  histograms_.reserve(histogram_count_);
}

void DeviceTree::reserve_points(int n) {
  // Only grow (buffer.hpp): a build's steps keep what an earlier step wrote.
  keys_.reserve(n);
  flag_sums_.reserve(n);
  for (auto& p : perm_) p.reserve(n);
  ordered_.reserve(3 * std::size_t(n));
  scan_temp_.reserve(detail::partition_scan_bytes(n));
}

void DeviceTree::attach_storage(detail::DepthCuts& c) const {
  c.n = size_of_build_;
  c.xyz = ordered_.data();
  c.perm_in = perm_current_;
  c.perm_out = perm_spare_;
  c.dim = piece_dim_.data();
  c.key = piece_key_.data();
  c.keys = keys_.data();
  c.flag_sums = flag_sums_.data();
  c.histograms = histograms_.data();
  c.selected = selected_.data();
  c.still_needed = still_needed_.data();
  c.scan_temp = scan_temp_.data();
  c.scan_temp_bytes = scan_temp_.capacity();
}

void DeviceTree::cut_depths(int first_depth, cudaStream_t stream) {
  using namespace detail;
  for (int d = first_depth; d < finish_depth_; ++d) {
    DepthCuts c;
    attach_storage(c);
    c.piece_begin = piece_begin_.data();
    c.piece_mid = piece_mid_.data();
    c.first_piece = shape_.depth_start[d];
    c.num_pieces = shape_.depth_start[d + 1] - c.first_piece;
    c.chunk_piece = chunk_piece_.data();
    c.chunk_begin = chunk_begin_.data();
    c.chunk_end = chunk_end_.data();
    c.first_chunk = shape_.depth_chunk_start[d];
    c.num_chunks = shape_.depth_chunk_start[d + 1] - c.first_chunk;
    c.piece_end = piece_end_.data();
    c.piece_first_chunk = piece_first_chunk_.data();
    choose_cuts(c, chunk_moments_.data(), piece_dim_.data(), piece_key_.data(), stream);
    partition_cuts(c, stream);
    std::swap(perm_current_, perm_spare_);
  }
}

void DeviceTree::node_boxes(const double* sigma, cudaStream_t stream) {
  using namespace detail;
  const int n = shape_.n;
  constexpr int t = kThreads;
  const int num_nodes = this->num_nodes();
  const int num_chunks = static_cast<int>(shape_.node_chunk_node.size());
  reset_nodes_kernel<<<blocks_for(num_nodes, 128), 128, 0, stream>>>(node_bits_.data(), num_nodes);
  VORTEX_CUDA_CHECK_LAUNCH("reset_nodes_kernel");
  node_bounds_kernel<<<num_chunks, t, 0, stream>>>(
      ordered_.data(), n, perm_current_, sigma, node_chunk_node_.data(), node_chunk_begin_.data(),
      node_chunk_end_.data(), node_bits_.data());
  VORTEX_CUDA_CHECK_LAUNCH("node_bounds_kernel");
  finish_bounds_kernel<<<blocks_for(num_nodes, 128), 128, 0, stream>>>(node_bits_.data(), num_nodes,
                                                                       nodes_.data());
  VORTEX_CUDA_CHECK_LAUNCH("finish_bounds_kernel");
  node_radius_kernel<<<num_chunks, t, 0, stream>>>(
      ordered_.data(), n, nodes_.data(), node_chunk_node_.data(), node_chunk_begin_.data(),
      node_chunk_end_.data(), node_bits_.data());
  VORTEX_CUDA_CHECK_LAUNCH("node_radius_kernel");
  finish_radius_kernel<<<blocks_for(num_nodes, 128), 128, 0, stream>>>(node_bits_.data(), num_nodes,
                                                                       nodes_.data());
  VORTEX_CUDA_CHECK_LAUNCH("finish_radius_kernel");
}

void DeviceTree::build(DevicePoints points, cudaStream_t stream) {
  begin(points, shape_.n, stream);
  finish(points, 0, stream);
}

void DeviceTree::begin(DevicePoints points, int n, cudaStream_t stream) {
  using namespace detail;
  reserve_points(n);
  size_of_build_ = n;
  perm_current_ = perm_[0].data();
  perm_spare_ = perm_[1].data();
  if (n == 0) return;
  // The adaptive depths' selections expect zero histograms (a failed call may have left others).
  if (histograms_.capacity() > 0)
    VORTEX_CUDA_CHECK(cudaMemsetAsync(histograms_.data(), 0,
                                      histograms_.capacity() * sizeof(unsigned int), stream));
  const PointsRef p{points.x, points.y, points.z};
  constexpr int t = kThreads;
  iota_kernel<<<blocks_for(n, t), t, 0, stream>>>(perm_current_, n);
  VORTEX_CUDA_CHECK_LAUNCH("iota_kernel");
  // The cuts read the points interleaved; `ordered_` holds them until the gather in finish()
  // reuses it.
  interleave_kernel<<<blocks_for(n, t), t, 0, stream>>>(p, n, ordered_.data());
  VORTEX_CUDA_CHECK_LAUNCH("interleave_kernel");
}

void DeviceTree::finish(DevicePoints points, int first_depth, cudaStream_t stream) {
  using namespace detail;
  const int n = shape_.n;
  if (n != size_of_build_)
    throw std::logic_error("device tree: a shape of " + std::to_string(n) +
                           " points for a build of " + std::to_string(size_of_build_));
  if (n == 0) return;
  const PointsRef p{points.x, points.y, points.z};
  constexpr int t = kThreads;
  // Each selection leaves the histograms zero; cleared here too, so that no failed call leaves them
  // otherwise.
  if (finish_depth_ > first_depth)
    VORTEX_CUDA_CHECK(
        cudaMemsetAsync(histograms_.data(), 0, histogram_count_ * sizeof(unsigned int), stream));
  cut_depths(first_depth, stream);
  const double* xyz = ordered_.data();
  detail::FinishCuts finish;
  finish.xyz = xyz;
  finish.perm = perm_current_;
  finish.depth_start = depth_start_.data();
  finish.piece_begin = piece_begin_.data();
  finish.piece_end = piece_end_.data();
  finish.piece_first_chunk = piece_first_chunk_.data();
  // The adaptive cuts may reach below the first depth of small pieces: the blocks start after them.
  finish.first_depth = std::max(finish_depth_, first_depth);
  finish.depths = shape_.depths();
  if (finish.first_depth < shape_.depths())
    finish.num_blocks =
        shape_.depth_start[finish.first_depth + 1] - shape_.depth_start[finish.first_depth];
  detail::launch_finish_cuts(finish, stream);
  gather_kernel<<<blocks_for(n, t), t, 0, stream>>>(p, perm_current_, n, ordered_.data());
  VORTEX_CUDA_CHECK_LAUNCH("gather_kernel");

  node_boxes(points.sigma, stream);
}

}  // namespace vortex::gpu
