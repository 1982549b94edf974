// Staging, packing, planning and the download of the CUDA backend.

#include "backend/cuda_workspace.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "backend/packing.hpp"
#include "vortex/math/constants.hpp"

namespace vortex::detail {

QuietenOnExit::~QuietenOnExit() {
  // Errors were reported by the checked calls already; nothing may throw here.
  cudaStreamSynchronize(ws_.copy.get());
  cudaStreamSynchronize(ws_.compute.get());
}

HostPhases::HostPhases()
    : on_(std::getenv("VORTEX_CUDA_VERBOSE") != nullptr), last_(std::chrono::steady_clock::now()) {}

HostPhases::~HostPhases() {
  if (on_) std::fprintf(stderr, "vortex cuda:%s\n", text_.c_str());
}

double HostPhases::mark(const char* name) {
  const auto now = std::chrono::steady_clock::now();
  const double s = std::chrono::duration<double>(now - last_).count();
  last_ = now;
  add(name, s);
  return s;
}

void HostPhases::add(const char* name, double seconds) {
  if (on_) text_ += std::string(" ") + name + "=" + std::to_string(1e3 * seconds) + "ms";
}

g::Arithmetic device_arithmetic(Arithmetic a) {
  return a == Arithmetic::Double ? g::Arithmetic::Double : g::Arithmetic::FloatTiles;
}

std::size_t vec_bytes(g::Arithmetic a) {
  return a == g::Arithmetic::Double ? sizeof(g::Vec4<double>) : sizeof(g::Vec4<float>);
}

namespace {

template <class T>
void pack_as(SourcesView s, Core core, PointsView t, Origin o, unsigned char* pos_bytes,
             unsigned char* str_bytes, unsigned char* target_bytes) {
  auto* pos = reinterpret_cast<g::Vec4<T>*>(pos_bytes);
  auto* str = reinterpret_cast<g::Vec4<T>*>(str_bytes);
  auto* tgt = reinterpret_cast<g::Vec4<T>*>(target_bytes);
  pack_sources(s, core, o, [pos, str](std::ptrdiff_t i, const PackedSource& p) {
    pos[i] = {T(p.x), T(p.y), T(p.z), T(p.inv_sigma2)};
    str[i] = {T(p.gx), T(p.gy), T(p.gz), T(p.key)};
  });
  pack_points(t, o, [tgt](std::ptrdiff_t i, const PackedPoint& p) {
    tgt[i] = {T(p.x), T(p.y), T(p.z), T(p.key)};
  });
}

}  // namespace

std::size_t pack_particles(CudaWorkspace& ws, SourcesView s, Core core, PointsView t, Origin o,
                           g::Arithmetic a) {
  const std::size_t sb = s.size() * vec_bytes(a), tb = t.size() * vec_bytes(a);
  unsigned char* pos = ws.positions.host_data(sb);
  unsigned char* str = ws.strengths.host_data(sb);
  unsigned char* tgt = ws.targets.host_data(tb);
  if (a == g::Arithmetic::Double)
    pack_as<double>(s, core, t, o, pos, str, tgt);
  else
    pack_as<float>(s, core, t, o, pos, str, tgt);
  return sb;
}

void upload_particles(CudaWorkspace& ws, std::size_t source_bytes, std::size_t target_bytes) {
  ws.positions.upload(source_bytes, ws.compute.get());
  ws.strengths.upload(source_bytes, ws.compute.get());
  ws.targets.upload(target_bytes, ws.compute.get());
}

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
}

void upload_plan(CudaWorkspace& ws, const g::WorkPlan& plan) {
  const cudaStream_t s = ws.compute.get();
  ws.groups.upload(plan.groups.size(), s);
  ws.group_slots.upload(plan.group_slots.size(), s);
  ws.near_items.upload(plan.near_items.size(), s);
  ws.ranges.upload(plan.near_ranges.size(), s);
}

std::size_t resident_blocks(const CudaWorkspace& ws, int per_multiprocessor) {
  return std::size_t(std::max(1, per_multiprocessor)) * std::size_t(ws.info.multiprocessors);
}

g::DevicePlanView uploaded_plan(const CudaWorkspace& ws, const g::WorkPlan& plan) {
  g::DevicePlanView v;
  v.block_threads = plan.block_threads;
  v.num_groups = static_cast<int>(plan.groups.size());
  v.num_slots = plan.num_slots();
  v.num_near_items = static_cast<int>(plan.near_items.size());
  v.num_far_items = static_cast<int>(plan.far_items.size());
  v.num_near_ranges = static_cast<int>(plan.near_ranges.size());
  v.groups = ws.groups.device.data();
  v.group_slots = ws.group_slots.device.data();
  v.near_items = ws.near_items.device.data();
  v.far_items = ws.far_items.device.data();
  v.near_ranges = ws.ranges.device.data();
  return v;
}

// What the pair and far sums read alike: the arithmetic, the targets, the plan's blocks and groups,
// their own work items, and the partial slots they write.
template <class Sum>
Sum planned_sum(CudaWorkspace& ws, const g::DevicePlanView& plan, g::Arithmetic a, bool gradient,
                const g::WorkItem* items, int num_items) {
  Sum s;
  s.items = items;
  s.num_items = num_items;
  s.arithmetic = a;
  s.gradient = gradient;
  s.block_threads = plan.block_threads;
  s.targets = ws.targets.device.data();
  s.groups = plan.groups;
  s.partial = ws.partial.data();
  return s;
}

g::PairSum pair_sum(CudaWorkspace& ws, const g::DevicePlanView& plan, Core core, g::Arithmetic a,
                    bool gradient) {
  g::PairSum p =
      planned_sum<g::PairSum>(ws, plan, a, gradient, plan.near_items, plan.num_near_items);
  p.core = core;
  p.source_position = ws.positions.device.data();
  p.source_strength = ws.strengths.device.data();
  p.ranges = plan.near_ranges;
  return p;
}

g::FarSum far_sum(CudaWorkspace& ws, const g::DevicePlanView& plan, int order, g::Arithmetic a,
                  bool gradient, const int* nodes, const unsigned char* orders) {
  g::FarSum f = planned_sum<g::FarSum>(ws, plan, a, gradient, plan.far_items, plan.num_far_items);
  f.order = order;
  f.centers = ws.centers.device.data();
  f.multipoles = ws.expansions.device.data();
  f.nodes = nodes;
  f.orders = orders;
  return f;
}

double start_pair_sum(CudaWorkspace& ws, SourcesView sources, PointsView targets, Origin origin,
                      const g::WorkPlan& plan, const ResolvedOptions& options, bool gradient) {
  HostPhases phases;
  const g::Arithmetic a = device_arithmetic(options.arithmetic);
  const std::size_t n = targets.size();
  const std::size_t source_bytes = pack_particles(ws, sources, options.core, targets, origin, a);
  stage_plan(ws, plan, n, gradient);
  const double pack_time = phases.mark("pack");
  ws.start.record(ws.compute);
  upload_particles(ws, source_bytes, n * vec_bytes(a));
  upload_plan(ws, plan);
  ws.uploaded.record(ws.compute);
  ws.near_start.record(ws.compute);
  g::launch_pair_sum(pair_sum(ws, uploaded_plan(ws, plan), options.core, a, gradient),
                     ws.compute.get());
  ws.near_end.record(ws.compute);
  return pack_time;
}

void launch_combine(CudaWorkspace& ws, const g::DevicePlanView& plan, std::size_t n, bool gradient,
                    const std::uint32_t* order) {
  g::Combine c;
  c.gradient = gradient;
  c.block_threads = plan.block_threads;
  c.groups = plan.groups;
  c.num_groups = plan.num_groups;
  c.group_slots = plan.group_slots;
  c.partial = ws.partial.data();
  c.scale = kInvFourPi;
  c.out = ws.out_device.data();
  c.out_stride = n;
  c.order = order;
  g::launch_combine(c, ws.compute.get());
  ws.far_end.record(ws.compute);
}

void launch_combine_and_download(CudaWorkspace& ws, const g::WorkPlan& plan, std::size_t n,
                                 bool gradient) {
  launch_combine(ws, uploaded_plan(ws, plan), n, gradient);
  ws.out_host.reserve(g::components(gradient) * n);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(ws.out_host.data(), ws.out_device.data(),
                                    g::components(gradient) * n * sizeof(double),
                                    cudaMemcpyDeviceToHost, ws.compute.get()));
  ws.downloaded.record(ws.compute);
}

ComponentView downloaded_results(const CudaWorkspace& ws, std::size_t n, bool gradient) {
  ComponentView v;
  for (int c = 0; c < g::components(gradient); ++c) v.component[c] = ws.out_host.data() + c * n;
  return v;
}

void fill_names(const CudaWorkspace& ws, g::Arithmetic a, EvaluationStats& stats) {
  stats.backend = "cuda";
  stats.precision = a == g::Arithmetic::Double ? "double" : "float";
  stats.device = ws.info.name;
  stats.device_bytes = g::held_bytes(g::Memory::Device);
  stats.pinned_bytes = g::held_bytes(g::Memory::PinnedHost);
  stats.device_fp32_peak = ws.info.fp32_peak();
}

void fill_plan_balance(const g::WorkPlan& plan, EvaluationStats& stats) {
  stats.near_items = plan.near_items.size();
  stats.far_items = plan.far_items.size();
  stats.near_item_max = plan.near_item_max;
  stats.far_item_max = plan.far_item_max;
}

}  // namespace vortex::detail
