#pragma once
// Device and pinned buffers, streams and events of the CUDA backend, kept by one Solver between
// calls (allocated once, they only grow), and the steps that fill them.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "far/local_field_cuda.hpp"
#include "tree/kdtree_topology.hpp"
#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/device.hpp"
#include "vortex/gpu/device_plan.hpp"
#include "vortex/gpu/device_tree.hpp"
#include "vortex/gpu/input_summary.hpp"
#include "vortex/gpu/launch.hpp"
#include "vortex/gpu/staging_ring.hpp"
#include "vortex/gpu/stream.hpp"
#include "vortex/gpu/tree_launch.hpp"
#include "vortex/gpu/work_plan.hpp"

namespace vortex::detail {

namespace g = vortex::gpu;

using g::parallel_copy;

// A host array staged through pinned memory into a device buffer that only grows.
template <class T>
struct Staged {
  g::PinnedBuffer<T> host;
  g::DeviceBuffer<T> device;

  T* host_data(std::size_t n) {
    device.reserve(n);
    return host.reserve(n);
  }
  void upload(std::size_t n, cudaStream_t s) {
    if (n == 0) return;
    VORTEX_CUDA_CHECK(
        cudaMemcpyAsync(device.data(), host.data(), n * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  void upload(const std::vector<T>& v, cudaStream_t s) {
    if (v.empty()) return;
    parallel_copy(host_data(v.size()), v.data(), v.size() * sizeof(T));
    upload(v.size(), s);
  }
};

// What the device-built treecode keeps between calls: the particles as given, both trees, the
// lists, the expansions and the work plan.
struct DeviceTreeStorage {
  g::DeviceBuffer<double> input;  // sources x, y, z, Gx, Gy, Gz, sigma, then targets x, y, z
  g::DeviceTree source_tree, target_tree;
  // The adaptive cuts of the trees' shapes (a shape is laid out again when they change), and those
  // of the call.
  detail::DecidedCuts source_cuts, target_cuts, source_decided, target_decided;
  g::DeviceBuffer<int> near_count, far_count, near_offsets, far_offsets;
  g::ListWalkSlots walk_slots;    // the list walk's frontier and per-slot counters
  std::array<int, 4> walk_key{};  // source n, bucket, arity and target leaves of walk_slots
  g::DeviceBuffer<g::Range> near_ranges;
  g::DeviceBuffer<int> far_nodes;
  g::DeviceBuffer<unsigned char> far_orders;
  g::DeviceBuffer<double> multipoles;
  g::DeviceBuffer<unsigned char> scan_temp;
  g::PinnedBuffer<int> host_totals;                // near and far list entries
  DeviceLocals locals;                             // the far field's local expansions
  g::DeviceBuffer<unsigned long long> non_finite;  // the results' check (units.hpp)
  g::DevicePlanner planner;
  g::Event trees_end, target_tree_end, lists_end, plan_end, multipoles_start, multipoles_end;
  g::Event shapes_end{cudaEventDisableTiming};  // the trees' shapes are on the device
  g::Event adaptive_end;                        // the trees' adaptive cuts are made
  // What a call at the same points (new strengths only) takes from the last host-input call whose
  // results were all finite: its list sizes and work plan (valid only then; the Solver checks that
  // the points, counts, options and gradient flag are that call's).
  struct Kept {
    bool valid = false;
    int near = 0, far = 0;
    g::DevicePlanView work;
  } kept;
};

struct CudaWorkspace {
  g::DeviceInfo info;
  // The copy stream's kernels (the target tree, the upward pass) run beside the compute stream's
  // sums and feed the far field: they go first when both wait for multiprocessors.
  g::Stream compute, copy{true};
  g::Event start, uploaded, near_start, near_end, far_lists_start, far_lists_end, expansions_start,
      expansions_end, far_start, m2p_start, m2p_end, far_end, downloaded;
  // Particle data as raw bytes: Vec4<float> or Vec4<double> by the arithmetic of the call.
  Staged<unsigned char> targets, positions, strengths, centers, expansions;
  Staged<g::TargetGroup> groups;
  Staged<int> group_slots, far_nodes;
  Staged<unsigned char> far_orders;
  Staged<g::WorkItem> near_items, far_items;
  Staged<g::Range> ranges;
  g::DeviceBuffer<double> partial, out_device;
  g::PinnedBuffer<double> out_host;  // results, component-major: component c of entry i at c n + i
  g::StagingRing ring;               // the device-built treecode's input and output
  g::InputSummarizer input_summary;  // device-memory input's checks
  std::vector<g::Range> target_leaves;
  DeviceTreeStorage resident;  // the device-built treecode's (cuda_device_tree_sum.cpp)
};

// Waits for both streams when a call ends, also by an exception, so that the next call never
// rewrites pinned or device buffers that queued copies or kernels still use.
class QuietenOnExit {
 public:
  explicit QuietenOnExit(const CudaWorkspace& ws) : ws_(ws) {}
  ~QuietenOnExit();

 private:
  const CudaWorkspace& ws_;
};

// Host phases of one call, printed to stderr when VORTEX_CUDA_VERBOSE is set (the Solver's stage
// times lump several of them together).
class HostPhases {
 public:
  HostPhases();
  ~HostPhases();
  // Seconds since the previous mark (or construction), recorded under `name`.
  double mark(const char* name);
  void add(const char* name, double seconds);

 private:
  bool on_;
  std::chrono::steady_clock::time_point last_;
  std::string text_;
};

g::Arithmetic device_arithmetic(Arithmetic a);
std::size_t vec_bytes(g::Arithmetic a);

// Packs sources and targets (tree or caller order) into pinned memory relative to `origin`
// (backend/packing.hpp); returns the bytes of the source arrays.
std::size_t pack_particles(CudaWorkspace& ws, SourcesView sources, Core core, PointsView targets,
                           Origin origin, g::Arithmetic a);
void upload_particles(CudaWorkspace& ws, std::size_t source_bytes, std::size_t target_bytes);
// Stages what every launch of `plan` needs and sizes the partial and output buffers; upload_plan
// sends it.
void stage_plan(CudaWorkspace& ws, const g::WorkPlan& plan, std::size_t num_targets, bool gradient);
void upload_plan(CudaWorkspace& ws, const g::WorkPlan& plan);
// Blocks of `per_multiprocessor` on every multiprocessor.
std::size_t resident_blocks(const CudaWorkspace& ws, int per_multiprocessor);
// A host-made plan as the device sees it once upload_plan has sent it (and the far items).
g::DevicePlanView uploaded_plan(const CudaWorkspace& ws, const g::WorkPlan& plan);
// The pair-sum launch of `plan` over the workspace's buffers.
g::PairSum pair_sum(CudaWorkspace& ws, const g::DevicePlanView& plan, Core core, g::Arithmetic a,
                    bool gradient);
// The multipole-sum launch of `plan` over the workspace's buffers; `nodes` are the far lists
// entries the far items index (on the device).
g::FarSum far_sum(CudaWorkspace& ws, const g::DevicePlanView& plan, int order, g::Arithmetic a,
                  bool gradient, const int* nodes, const unsigned char* orders);
// Packs the particles relative to `origin`, stages `plan`, uploads both and launches the pair sums
// on the compute stream (the direct sum, or the treecode's near field). Returns the host seconds
// spent packing.
double start_pair_sum(CudaWorkspace& ws, SourcesView sources, PointsView targets, Origin origin,
                      const g::WorkPlan& plan, const ResolvedOptions& options, bool gradient);
// Adds the partial slots and scales by 1/(4 pi) into ws.out_device, component-major. With `order`
// (the targets' tree permutation on the device) the results land in the caller's order.
void launch_combine(CudaWorkspace& ws, const g::DevicePlanView& plan, std::size_t n, bool gradient,
                    const std::uint32_t* order = nullptr);
// launch_combine, then the download of the results into ws.out_host.
void launch_combine_and_download(CudaWorkspace& ws, const g::WorkPlan& plan, std::size_t n,
                                 bool gradient);
// The downloaded results as component arrays.
ComponentView downloaded_results(const CudaWorkspace& ws, std::size_t n, bool gradient);
void fill_names(const CudaWorkspace& ws, g::Arithmetic a, EvaluationStats& stats);
// The host-built plan's items and largest items (EvaluationStats::near_items and the rest).
void fill_plan_balance(const g::WorkPlan& plan, EvaluationStats& stats);

// The direct sum and the treecode's sums on the GPU (direct_sum_cuda.cpp, cuda_tree_sum.cpp).
ComponentView direct_sum_cuda(CudaWorkspace& ws, SourcesView sources, PointsView targets,
                              const ResolvedOptions& options, bool gradient,
                              EvaluationStats& stats);
ComponentView tree_sum_cuda(CudaWorkspace& ws, TreePlan& plan, const ResolvedOptions& options,
                            bool gradient, EvaluationStats& stats);
void device_tree_sum_cuda(CudaWorkspace& ws, SourcesView sources, PointsView targets,
                          const ResolvedOptions& options, bool gradient, EvaluationStats& stats,
                          double* const* out, bool on_device, Units units, bool reuse_points);
// Device-memory input checked and summarized on the device (cuda_device_input.cpp).
SourceFacts device_input_facts_cuda(CudaWorkspace& ws, SourcesView sources, PointsView targets,
                                    double* const* out, int components);

}  // namespace vortex::detail
