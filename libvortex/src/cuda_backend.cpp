// The CUDA backend of the Solver: converts a plan's double arrays into the flat float (or double)
// arrays the kernels read, plans the work items, runs the direct or near/far kernels and brings the
// results back. Device and pinned buffers live in a CudaWorkspace that one Solver keeps, so they
// are allocated once and only grow.
//
// Tree pipeline (one compute stream, one copy stream):
//   host: pack particles and lists -> upload -> near kernel starts
//   host: P2M/M2M (compute_multipoles) and M2V while the GPU sums the near field
//   copy stream: far lists and velocity expansions -> far kernel -> combine -> download

#ifdef VORTEX_HAVE_CUDA

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "evaluation.hpp"
#include "vortex/biot_savart.hpp"
#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/device.hpp"
#include "vortex/gpu/kernels.hpp"
#include "vortex/gpu/stream.hpp"
#include "vortex/gpu/work_plan.hpp"
#include "vortex/multipole/multipole.hpp"

namespace vortex::detail {

namespace g = vortex::gpu;

namespace {

constexpr double kInvFourPi = 0.079577471545947667884;
constexpr int kDirectThreads = 128;
constexpr int kMaxGroupThreads = 256;

using Clock = std::chrono::steady_clock;

// memcpy on all threads: staging copies are hundreds of MB at large N.
void parallel_copy(void* dst, const void* src, std::size_t bytes) {
  constexpr std::size_t kChunk = std::size_t(1) << 22;
  const std::ptrdiff_t chunks = static_cast<std::ptrdiff_t>((bytes + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (std::ptrdiff_t c = 0; c < chunks; ++c) {
    const std::size_t lo = c * kChunk, n = std::min(kChunk, bytes - lo);
    std::memcpy(static_cast<char*>(dst) + lo, static_cast<const char*>(src) + lo, n);
  }
}

// Host phases of one call, printed to stderr when VORTEX_CUDA_VERBOSE is set (the Solver's stage
// times lump several of them together).
class HostPhases {
 public:
  HostPhases() : on_(std::getenv("VORTEX_CUDA_VERBOSE") != nullptr), last_(Clock::now()) {}
  // Seconds since the previous mark (or construction), recorded under `name`.
  double mark(const char* name) {
    const auto now = Clock::now();
    const double s = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    if (on_) text_ += std::string(" ") + name + "=" + std::to_string(1e3 * s) + "ms";
    return s;
  }
  void add(const char* name, double seconds) {
    if (on_) text_ += std::string(" ") + name + "=" + std::to_string(1e3 * seconds) + "ms";
  }
  ~HostPhases() {
    if (on_) std::fprintf(stderr, "vortex cuda:%s\n", text_.c_str());
  }

 private:
  bool on_;
  Clock::time_point last_;
  std::string text_;
};

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

// Waits for both streams when a call ends, also by an exception, so that the next call never
// rewrites pinned or device buffers that queued copies or kernels still use.
class QuietenOnExit {
 public:
  explicit QuietenOnExit(const CudaWorkspace& ws);
  ~QuietenOnExit();

 private:
  const CudaWorkspace& ws_;
};

g::Arithmetic arithmetic_of(Precision p) {
  return p == Precision::Double ? g::Arithmetic::Double : g::Arithmetic::FloatTiles;
}

int round_up(int n, int m) {
  return (n + m - 1) / m * m;
}

}  // namespace

struct CudaWorkspace {
  g::DeviceInfo info;
  g::Stream compute, copy;
  g::Event start, uploaded, near_start, near_end, far_lists_start, far_lists_end, expansions_start,
      expansions_end, far_start, far_end, downloaded;
  // Particle data as raw bytes: Vec4<float> or Vec4<double> by the precision of the call.
  Staged<unsigned char> targets, positions, strengths, centers, expansions;
  Staged<g::TargetGroup> groups;
  Staged<int> group_slots, far_nodes;
  Staged<g::WorkItem> near_items, far_items;
  Staged<g::Range> ranges;
  g::DeviceBuffer<double> partial, out_device;
  g::PinnedBuffer<double> out_host;
};

namespace {
QuietenOnExit::QuietenOnExit(const CudaWorkspace& ws) : ws_(ws) {}
QuietenOnExit::~QuietenOnExit() {
  // Errors were reported by the checked calls already; nothing may throw here.
  cudaStreamSynchronize(ws_.copy.get());
  cudaStreamSynchronize(ws_.compute.get());
}
}  // namespace

void CudaWorkspaceDeleter::operator()(CudaWorkspace* w) const {
  delete w;
}

bool cuda_device_present() {
  return g::device_count() > 0;
}

std::string cuda_device_name() {
  return g::current_device().name;
}

CudaWorkspacePtr make_cuda_workspace() {
  if (!cuda_device_present()) throw std::runtime_error("no CUDA device is present");
  CudaWorkspacePtr w(new CudaWorkspace);
  w->info = g::current_device();
  return w;
}

namespace {

// Positions are stored relative to `origin` (the middle of the sources), so that float keeps its
// digits for particle sets far from the coordinate origin.
struct Origin {
  double x = 0, y = 0, z = 0;
};

// Position and 1/sigma^2, then strength / sigma^3: the PairSource of biot_savart.hpp.
template <class T>
void pack_sources(SourcesView s, Core core, Origin o, unsigned char* pos_bytes,
                  unsigned char* str_bytes) {
  auto* pos = reinterpret_cast<g::Vec4<T>*>(pos_bytes);
  auto* str = reinterpret_cast<g::Vec4<T>*>(str_bytes);
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(s.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const PairSource<double> p = pair_source(core, s.gx[i], s.gy[i], s.gz[i], s.sigma[i]);
    pos[i] = {T(s.x[i] - o.x), T(s.y[i] - o.y), T(s.z[i] - o.z), T(p.inv_sigma2)};
    str[i] = {T(p.gx), T(p.gy), T(p.gz), T(0)};
  }
}

template <class T>
void pack_points(PointsView p, Origin o, unsigned char* bytes) {
  auto* out = reinterpret_cast<g::Vec4<T>*>(bytes);
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(p.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i)
    out[i] = {T(p.x[i] - o.x), T(p.y[i] - o.y), T(p.z[i] - o.z), T(0)};
}

// The middle of the sources' bounding box.
Origin middle(SourcesView s) {
  double lo[3] = {s.x[0], s.y[0], s.z[0]}, hi[3] = {lo[0], lo[1], lo[2]};
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(s.size());
#pragma omp parallel for reduction(min : lo[:3]) reduction(max : hi[:3])
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    lo[0] = std::min(lo[0], s.x[i]), hi[0] = std::max(hi[0], s.x[i]);
    lo[1] = std::min(lo[1], s.y[i]), hi[1] = std::max(hi[1], s.y[i]);
    lo[2] = std::min(lo[2], s.z[i]), hi[2] = std::max(hi[2], s.z[i]);
  }
  return {0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])};
}

// Bytes of one Vec4 in the call's arithmetic.
std::size_t vec_bytes(g::Arithmetic a) {
  return a == g::Arithmetic::Double ? sizeof(g::Vec4<double>) : sizeof(g::Vec4<float>);
}

// Packs sources and targets into pinned memory; returns the bytes of each array.
std::size_t pack_particles(CudaWorkspace& ws, SourcesView s, Core core, PointsView t, Origin o,
                           g::Arithmetic a) {
  const std::size_t sb = s.size() * vec_bytes(a), tb = t.size() * vec_bytes(a);
  unsigned char* pos = ws.positions.host_data(sb);
  unsigned char* str = ws.strengths.host_data(sb);
  unsigned char* tgt = ws.targets.host_data(tb);
  if (a == g::Arithmetic::Double) {
    pack_sources<double>(s, core, o, pos, str);
    pack_points<double>(t, o, tgt);
  } else {
    pack_sources<float>(s, core, o, pos, str);
    pack_points<float>(t, o, tgt);
  }
  return sb;
}

void upload_particles(CudaWorkspace& ws, std::size_t source_bytes, std::size_t target_bytes) {
  ws.positions.upload(source_bytes, ws.compute.get());
  ws.strengths.upload(source_bytes, ws.compute.get());
  ws.targets.upload(target_bytes, ws.compute.get());
}

// Stages what every launch of the plan needs (uploaded by upload_plan) and sizes the partial and
// output buffers.
void stage_plan(CudaWorkspace& ws, const g::WorkPlan& plan, std::size_t num_targets,
                bool gradient) {
  auto copy = [](auto& staged, const auto& v) {
    if (!v.empty()) parallel_copy(staged.host_data(v.size()), v.data(), v.size() * sizeof(v[0]));
  };
  copy(ws.groups, plan.groups);
  copy(ws.group_slots, plan.group_slots);
  copy(ws.near_items, plan.near_items);
  copy(ws.ranges, plan.near_ranges);
  const std::size_t nc = g::components(gradient);
  ws.partial.reserve(std::size_t(plan.num_slots()) * nc * plan.block_threads);
  ws.out_device.reserve(nc * num_targets);
  ws.out_host.reserve(nc * num_targets);
}

void upload_plan(CudaWorkspace& ws, const g::WorkPlan& plan) {
  const cudaStream_t s = ws.compute.get();
  ws.groups.upload(plan.groups.size(), s);
  ws.group_slots.upload(plan.group_slots.size(), s);
  ws.near_items.upload(plan.near_items.size(), s);
  ws.ranges.upload(plan.near_ranges.size(), s);
}

g::PairSum pair_sum(CudaWorkspace& ws, const g::WorkPlan& plan, Core core, g::Arithmetic a,
                    bool gradient) {
  g::PairSum p;
  p.core = core;
  p.arithmetic = a;
  p.gradient = gradient;
  p.block_threads = plan.block_threads;
  p.targets = ws.targets.device.data();
  p.source_position = ws.positions.device.data();
  p.source_strength = ws.strengths.device.data();
  p.groups = ws.groups.device.data();
  p.items = ws.near_items.device.data();
  p.num_items = static_cast<int>(plan.near_items.size());
  p.ranges = ws.ranges.device.data();
  p.partial = ws.partial.data();
  return p;
}

void launch_combine_and_download(CudaWorkspace& ws, const g::WorkPlan& plan, std::size_t n,
                                 bool gradient) {
  g::Combine c;
  c.gradient = gradient;
  c.block_threads = plan.block_threads;
  c.groups = ws.groups.device.data();
  c.num_groups = static_cast<int>(plan.groups.size());
  c.group_slots = ws.group_slots.device.data();
  c.partial = ws.partial.data();
  c.scale = kInvFourPi;
  c.out = ws.out_device.data();
  c.out_stride = n;
  g::launch_combine(c, ws.compute.get());
  ws.far_end.record(ws.compute);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(ws.out_host.data(), ws.out_device.data(),
                                    g::components(gradient) * n * sizeof(double),
                                    cudaMemcpyDeviceToHost, ws.compute.get()));
  ws.downloaded.record(ws.compute);
}

// Copies the downloaded component-major results into `out` (already sized).
void unpack_results(const CudaWorkspace& ws, std::size_t n, bool gradient, VelocityField& out) {
  const int nc = g::components(gradient);
#pragma omp parallel for schedule(static) collapse(2)
  for (int c = 0; c < nc; ++c) {
    for (int part = 0; part < 16; ++part) {
      const std::size_t lo = n * part / 16, hi = n * (part + 1) / 16;
      double* dst = c < 3 ? out.u[c].data() : out.du[c - 3].data();
      std::memcpy(dst + lo, ws.out_host.data() + c * n + lo, (hi - lo) * sizeof(double));
    }
  }
}

void fill_common_stats(const CudaWorkspace& ws, g::Arithmetic a, const g::WorkPlan& plan,
                       EvaluationStats& stats) {
  stats.backend = "cuda";
  stats.precision = a == g::Arithmetic::Double ? "double" : "float";
  stats.device = ws.info.name;
  stats.pair_interactions = plan.pair_interactions;
  stats.multipole_interactions = plan.multipole_interactions;
}

std::size_t resident_blocks(const CudaWorkspace& ws, int per_multiprocessor) {
  return std::size_t(std::max(1, per_multiprocessor)) * std::size_t(ws.info.multiprocessors);
}

}  // namespace

void direct_sum_cuda(CudaWorkspace& ws, SourcesView sources, PointsView targets,
                     const SolverOptions& options, bool gradient, VelocityField& out) {
  const QuietenOnExit quieten(ws);
  HostPhases phases;
  const std::size_t n = targets.size();
  if (out.size() != n || out.has_gradient != gradient) out.resize(n, gradient);
  const g::Arithmetic a = arithmetic_of(options.precision);

  g::Balance balance;
  balance.block_threads = kDirectThreads;
  balance.resident_blocks = resident_blocks(
      ws, g::pair_sum_blocks_per_multiprocessor(options.core, a, gradient, kDirectThreads));
  const g::WorkPlan plan =
      g::plan_direct(static_cast<int>(n), static_cast<int>(sources.size()), balance);

  const std::size_t source_bytes =
      pack_particles(ws, sources, options.core, targets, middle(sources), a);
  stage_plan(ws, plan, n, gradient);
  const double pack_time = phases.mark("plan_pack");
  ws.start.record(ws.compute);
  upload_particles(ws, source_bytes, n * vec_bytes(a));
  upload_plan(ws, plan);
  ws.uploaded.record(ws.compute);

  ws.near_start.record(ws.compute);
  g::launch_pair_sum(pair_sum(ws, plan, options.core, a, gradient), ws.compute.get());
  ws.near_end.record(ws.compute);
  launch_combine_and_download(ws, plan, n, gradient);
  ws.compute.synchronize();
  phases.mark("wait_gpu");

  unpack_results(ws, n, gradient, out);
  const double unpack_time = phases.mark("unpack");
  fill_common_stats(ws, a, plan, out.stats);
  out.stats.times.near = ws.far_end.seconds_since(ws.near_start);
  out.stats.times.transfer = pack_time + ws.uploaded.seconds_since(ws.start) +
                             ws.downloaded.seconds_since(ws.far_end) + unpack_time;
  phases.add("gpu_pair_kernel", ws.near_end.seconds_since(ws.near_start));
}

void evaluate_tree_cuda(CudaWorkspace& ws, TreePlan& plan, const SolverOptions& options,
                        bool gradient, VelocityField& out) {
  const QuietenOnExit quieten(ws);
  HostPhases phases;
  const std::size_t n = plan.targets.size();
  if (out.size() != n || out.has_gradient != gradient) out.resize(n, gradient);
  const g::Arithmetic a = arithmetic_of(options.precision);
  const KdTree& tt = plan.target_tree;
  const KdTree& st = plan.source_tree;
  const auto& lists = plan.lists;
  const int num_leaves = static_cast<int>(tt.leaves.size());

  // Target leaves and near entries as particle ranges; work items of bounded cost.
  std::vector<g::Range> leaves(num_leaves);
  int largest = 1;
  for (int i = 0; i < num_leaves; ++i) {
    const KdNode& node = tt.nodes[tt.leaves[i]];
    leaves[i] = {node.begin, node.end};
    largest = std::max(largest, node.count());
  }
  std::vector<g::Range> near_entries(lists.near_nodes.size());
  const std::ptrdiff_t num_near = static_cast<std::ptrdiff_t>(near_entries.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t k = 0; k < num_near; ++k) {
    const KdNode& node = st.nodes[lists.near_nodes[k]];
    near_entries[k] = {node.begin, node.end};
  }
  const int threads = std::min(kMaxGroupThreads, round_up(largest, 32));
  g::Balance balance;
  balance.block_threads = threads;
  balance.resident_blocks = resident_blocks(
      ws, g::pair_sum_blocks_per_multiprocessor(options.core, a, gradient, threads));
  balance.far_resident_blocks =
      resident_blocks(ws, g::far_sum_blocks_per_multiprocessor(plan.order, a, gradient, threads));
  g::ListView view;
  view.target_leaves = leaves.data();
  view.num_leaves = num_leaves;
  view.near_offsets = lists.near_offsets.data();
  view.near_entries = near_entries.data();
  view.far_offsets = lists.far_offsets.data();
  view.far_nodes = lists.far_nodes.data();
  const g::WorkPlan work = g::plan_tree(view, balance);
  double transfer_host = phases.mark("plan");

  // Near field first: it needs no multipoles.
  const Origin origin{st.nodes[0].center[0], st.nodes[0].center[1], st.nodes[0].center[2]};
  const std::size_t source_bytes =
      pack_particles(ws, plan.sources, options.core, PointsView(plan.targets), origin, a);
  stage_plan(ws, work, n, gradient);
  transfer_host += phases.mark("pack");
  ws.start.record(ws.compute);
  upload_particles(ws, source_bytes, n * vec_bytes(a));
  upload_plan(ws, work);
  ws.uploaded.record(ws.compute);
  ws.near_start.record(ws.compute);
  g::launch_pair_sum(pair_sum(ws, work, options.core, a, gradient), ws.compute.get());
  ws.near_end.record(ws.compute);

  // Far lists travel on the copy stream while the near field runs.
  const cudaStream_t cs = ws.copy.get();
  ws.far_lists_start.record(ws.copy);
  ws.far_items.upload(work.far_items, cs);
  ws.far_nodes.upload(lists.far_nodes, cs);
  ws.far_lists_end.record(ws.copy);
  transfer_host += phases.mark("launch_near");

  // Multipoles and velocity expansions on the host meanwhile.
  compute_multipoles(plan);
  const double multipole_time = phases.mark("multipoles");
  const std::size_t num_nodes = st.nodes.size();
  const std::size_t vsize = multipole::velocity_expansion_size(plan.order);
  if (plan.velocity_expansions.size() != num_nodes * vsize)
    throw std::logic_error("compute_multipoles left velocity expansions of the wrong size");
  const std::size_t real = a == g::Arithmetic::Double ? sizeof(double) : sizeof(float);
  unsigned char* vbytes = ws.expansions.host_data(num_nodes * vsize * real);
  unsigned char* cbytes = ws.centers.host_data(num_nodes * vec_bytes(a));
  if (a == g::Arithmetic::Double) {
    parallel_copy(vbytes, plan.velocity_expansions.data(), num_nodes * vsize * real);
  } else {
    float* v = reinterpret_cast<float*>(vbytes);
    const std::ptrdiff_t total = static_cast<std::ptrdiff_t>(num_nodes * vsize);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < total; ++i) v[i] = float(plan.velocity_expansions[i]);
  }
  for (std::size_t k = 0; k < num_nodes; ++k) {
    const double* c = st.nodes[k].center;
    const double x = c[0] - origin.x, y = c[1] - origin.y, z = c[2] - origin.z;
    if (a == g::Arithmetic::Double)
      reinterpret_cast<g::Vec4<double>*>(cbytes)[k] = {x, y, z, 0.0};
    else
      reinterpret_cast<g::Vec4<float>*>(cbytes)[k] = {float(x), float(y), float(z), 0.f};
  }
  ws.expansions_start.record(ws.copy);
  ws.expansions.upload(num_nodes * vsize * real, cs);
  ws.centers.upload(num_nodes * vec_bytes(a), cs);
  ws.expansions_end.record(ws.copy);
  ws.compute.wait(ws.expansions_end.get());
  transfer_host += phases.mark("pack_expansions");

  g::FarSum f;
  f.order = plan.order;
  f.arithmetic = a;
  f.gradient = gradient;
  f.block_threads = threads;
  f.targets = ws.targets.device.data();
  f.centers = ws.centers.device.data();
  f.multipoles = ws.expansions.device.data();
  f.groups = ws.groups.device.data();
  f.items = ws.far_items.device.data();
  f.num_items = static_cast<int>(work.far_items.size());
  f.nodes = ws.far_nodes.device.data();
  f.partial = ws.partial.data();
  ws.far_start.record(ws.compute);
  g::launch_far_sum(f, ws.compute.get());
  launch_combine_and_download(ws, work, n, gradient);
  ws.compute.synchronize();
  phases.mark("wait_gpu");

  unpack_results(ws, n, gradient, out);
  transfer_host += phases.mark("unpack");

  fill_common_stats(ws, a, work, out.stats);
  out.stats.times.multipole = multipole_time;
  out.stats.times.near = ws.near_end.seconds_since(ws.near_start);
  out.stats.times.far = ws.far_end.seconds_since(ws.far_start);
  const double uploads = ws.uploaded.seconds_since(ws.start) +
                         ws.far_lists_end.seconds_since(ws.far_lists_start) +
                         ws.expansions_end.seconds_since(ws.expansions_start);
  const double download = ws.downloaded.seconds_since(ws.far_end);
  out.stats.times.transfer = transfer_host + uploads + download;
  phases.add("gpu_near", out.stats.times.near);
  phases.add("gpu_far", out.stats.times.far);
  phases.add("gpu_upload", uploads);
  phases.add("gpu_download", download);
  phases.add("gpu_idle_before_far", ws.far_start.seconds_since(ws.near_end));
}

}  // namespace vortex::detail

#endif  // VORTEX_HAVE_CUDA
