// The whole treecode on the device: the particles go up once, the trees, the interaction lists,
// the multipoles and the sums are computed there, and the results come back once in the caller's
// order. The host only plans which block sums what, from the lists it downloads.
//
//   compute stream: upload -> source tree -> pack -> lists -> near -> far -> combine
//   copy stream:             target tree -> upward pass (P2M, M2M, M2V) -/

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>
#include <string>

#include "backend/cuda_device_lists.hpp"
#include "backend/cuda_stages.hpp"
#include "tree/tree_shape.hpp"
#include "vortex/gpu/tree_launch.hpp"
#include "vortex/gpu/units.hpp"
#include "vortex/multipole/expansion.hpp"

namespace vortex::detail {

namespace {

int checked_count(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument(std::string("device tree: more than 2^31 - 1 ") + what);
  return static_cast<int>(n);
}

bool same_points(SourcesView s, PointsView t) {
  return s.x == t.x && s.y == t.y && s.z == t.z && s.size() == t.size();
}

// The particles on the device: uploaded through the staging ring, or the caller's device arrays.
struct UploadedPoints {
  g::DevicePoints sources, targets;
  const double *gx, *gy, *gz;
};

UploadedPoints device_input(CudaWorkspace& ws, SourcesView s, PointsView t) {
  ws.start.record(ws.compute);
  ws.uploaded.record(ws.compute);
  UploadedPoints u;
  u.sources = {s.x, s.y, s.z, s.sigma};
  u.targets = {t.x, t.y, t.z, nullptr};
  u.gx = s.gx;
  u.gy = s.gy;
  u.gz = s.gz;
  return u;
}

// Offset of array k (sources x, y, z, Gx, Gy, Gz, sigma, then targets x, y, z) in the resident
// input buffer, and the points it holds there.
std::size_t resident_offset(int k, std::size_t ns, std::size_t nt) {
  return k < 7 ? k * ns : 7 * ns + (k - 7) * nt;
}
UploadedPoints resident_points(double* d, std::size_t ns, std::size_t nt, bool shared) {
  UploadedPoints u;
  u.sources = {d, d + ns, d + 2 * ns, d + 6 * ns};
  u.targets = shared ? g::DevicePoints{d, d + ns, d + 2 * ns, nullptr}
                     : g::DevicePoints{d + 7 * ns, d + 7 * ns + nt, d + 7 * ns + 2 * nt, nullptr};
  u.gx = d + 3 * ns;
  u.gy = d + 4 * ns;
  u.gz = d + 5 * ns;
  return u;
}

UploadedPoints upload_input(CudaWorkspace& ws, SourcesView s, PointsView t) {
  DeviceTreeStorage& r = ws.resident;
  const std::size_t ns = s.size(), nt = t.size();
  const bool shared = same_points(s, t);
  double* d = r.input.reserve(7 * ns + (shared ? 0 : 3 * nt));
  const double* from[10] = {s.x, s.y, s.z, s.gx, s.gy, s.gz, s.sigma, t.x, t.y, t.z};
  ws.start.record(ws.compute);
  for (int k = 0; k < (shared ? 7 : 10); ++k) {
    const std::size_t n = k < 7 ? ns : nt;
    ws.ring.upload(d + resident_offset(k, ns, nt), from[k], n * sizeof(double), ws.compute.get());
  }
  ws.uploaded.record(ws.compute);
  return resident_points(d, ns, nt, shared);
}

// A call at the last call's points: the new strengths over the resident input's, in internal units
// (the positions, cores and targets there are the last call's, already in them); the upward pass
// on the copy stream waits for them through trees_end.
UploadedPoints strengths_again(CudaWorkspace& ws, SourcesView s, PointsView t, Units units) {
  DeviceTreeStorage& r = ws.resident;
  const std::size_t ns = s.size(), nt = t.size();
  double* d = r.input.data();
  const double* from[3] = {s.gx, s.gy, s.gz};
  ws.start.record(ws.compute);
  for (int k = 0; k < 3; ++k)
    ws.ring.upload(d + resident_offset(3 + k, ns, nt), from[k], ns * sizeof(double),
                   ws.compute.get());
  const double g = units.strength_factor();
  if (g != 1) {
    g::ScaleArrays a;
    a.count = 3;
    for (int k = 0; k < 3; ++k) {
      a.src[k] = a.dst[k] = d + resident_offset(3 + k, ns, nt);
      a.n[k] = static_cast<long long>(ns);
      a.factor[k] = g;
      a.second[k] = 1;
    }
    g::launch_scale_arrays(a, ws.compute.get());
  }
  ws.uploaded.record(ws.compute);
  r.trees_end.record(ws.compute);
  return resident_points(d, ns, nt, same_points(s, t));
}

// The input in internal units (units.hpp): scaled in place after an upload, or scaled from the
// caller's device arrays into the resident input buffer; as it is where the units are 1.
UploadedPoints in_internal_units(CudaWorkspace& ws, const UploadedPoints& in, SourcesView s,
                                 PointsView t, Units units, bool uploaded) {
  const double l = units.length_factor(), g = units.strength_factor();
  if (l == 1 && g == 1) return in;
  const std::size_t ns = s.size(), nt = t.size();
  const bool shared = same_points(s, t);
  DeviceTreeStorage& r = ws.resident;
  double* d = uploaded ? r.input.data() : r.input.reserve(7 * ns + (shared ? 0 : 3 * nt));
  g::ScaleArrays a;
  const double* from[10] = {in.sources.x,     in.sources.y, in.sources.z, in.gx,       in.gy, in.gz,
                            in.sources.sigma, in.targets.x, in.targets.y, in.targets.z};
  a.count = shared ? 7 : 10;
  for (int k = 0; k < a.count; ++k) {
    a.src[k] = from[k];
    a.dst[k] = d + resident_offset(k, ns, nt);
    a.n[k] = static_cast<long long>(k < 7 ? ns : nt);
    a.factor[k] = k >= 3 && k < 6 ? g : l;
    a.second[k] = 1;
  }
  g::launch_scale_arrays(a, ws.compute.get());
  ws.uploaded.record(ws.compute);  // the copy stream's target tree waits for the scaled input
  return resident_points(d, ns, nt, shared);
}

// The results (component-major, nt each) from internal units to the caller's, in place.
void results_to_caller_units(CudaWorkspace& ws, Units units, int components, std::size_t nt) {
  g::ScaleArrays a;
  a.count = components;
  for (int c = 0; c < components; ++c) {
    double* v = ws.out_device.data() + c * nt;
    a.src[c] = v;
    a.dst[c] = v;
    a.n[c] = static_cast<long long>(nt);
    units.factors(c < 3 ? 0 : 1, a.factor[c], a.second[c]);
  }
  if (units.strength == 0 && units.length == 0) return;
  g::launch_scale_arrays(a, ws.compute.get());
}

// P2M, M2M and M2V on the copy stream once the source tree is built.
void start_upward_pass(CudaWorkspace& ws, const UploadedPoints& in, const ResolvedOptions& options,
                       g::Arithmetic a) {
  DeviceTreeStorage& r = ws.resident;
  const g::DeviceTree& tree = r.source_tree;
  const int p = options.tree.order;
  const std::size_t nodes = tree.num_nodes();
  r.multipoles.reserve(nodes * multipole::multipole_size(p));
  const std::size_t scalar = a == g::Arithmetic::Double ? sizeof(double) : sizeof(float);
  ws.expansions.device.reserve(nodes * multipole::velocity_expansion_size(p) * scalar);
  ws.centers.device.reserve(nodes * vec_bytes(a));
  g::UpwardPass u;
  u.order = p;
  u.arithmetic = a;
  u.nodes = tree.nodes();
  u.num_nodes = tree.num_nodes();
  u.leaves = tree.leaves();
  u.num_leaves = static_cast<int>(tree.shape().leaves.size());
  u.inner_by_level = tree.inner_by_level();
  u.level_start = tree.shape().level_start.data();
  u.num_levels = static_cast<int>(tree.shape().level_start.size()) - 1;
  u.x = tree.x();
  u.y = tree.y();
  u.z = tree.z();
  u.perm = tree.permutation();
  u.gx = in.gx;
  u.gy = in.gy;
  u.gz = in.gz;
  u.multipoles = r.multipoles.data();
  u.expansions = ws.expansions.device.data();
  u.centers = ws.centers.device.data();
  ws.copy.wait(r.trees_end.get());
  r.multipoles_start.record(ws.copy);
  g::launch_upward_pass(u, ws.copy.get());
  r.multipoles_end.record(ws.copy);
}

void pack_on_device(CudaWorkspace& ws, const UploadedPoints& in, const ResolvedOptions& options,
                    g::Arithmetic a) {
  DeviceTreeStorage& r = ws.resident;
  const std::size_t ns = r.source_tree.size(), nt = r.target_tree.size();
  g::PackParticles p;
  p.arithmetic = a;
  p.core = options.core;
  p.source_nodes = r.source_tree.nodes();
  p.num_sources = static_cast<int>(ns);
  p.source_x = r.source_tree.x();
  p.source_y = r.source_tree.y();
  p.source_z = r.source_tree.z();
  p.source_perm = r.source_tree.permutation();
  p.gx = in.gx;
  p.gy = in.gy;
  p.gz = in.gz;
  p.sigma = in.sources.sigma;
  p.num_targets = static_cast<int>(nt);
  p.target_x = r.target_tree.x();
  p.target_y = r.target_tree.y();
  p.target_z = r.target_tree.z();
  p.positions = ws.positions.device.reserve(ns * vec_bytes(a));
  p.strengths = ws.strengths.device.reserve(ns * vec_bytes(a));
  p.targets = ws.targets.device.reserve(nt * vec_bytes(a));
  g::launch_pack_particles(p, ws.compute.get());
}

// The trees' adaptive cuts and shapes (sized for the counts; the source tree checked against the
// list walk's stack) on the compute stream, once the input is on the device; then the rest of both
// trees at once: the target tree on the copy stream, the source tree on the compute stream.
// Returns the host's time for the adaptive cuts and the shapes.
double build_trees(CudaWorkspace& ws, const UploadedPoints& in, int ns, int nt,
                   const TreeOptions& t, HostPhases& phases) {
  DeviceTreeStorage& r = ws.resident;
  const cudaStream_t cs = ws.compute.get();
  ws.uploaded.synchronize();
  phases.mark("wait_upload");
  // The adaptive cuts of both trees together: the source tree's on the compute stream, the target
  // tree's on the copy stream, each depth of one running while the host waits for the other's.
  const cudaStream_t copy = ws.copy.get();
  r.source_tree.begin(in.sources, ns, cs);
  r.target_tree.begin(in.targets, nt, copy);
  std::vector<detail::AdaptiveJob> jobs(2);
  jobs[0] = {&r.source_tree, ns, t.source_bucket, cs, &r.source_decided};
  jobs[1] = {&r.target_tree, nt, t.target_bucket, copy, &r.target_decided};
  detail::cut_adaptive_depths(jobs);
  detail::ensure_tree_shape(r.source_tree, r.source_cuts, r.source_decided, ns, t.source_bucket,
                            t.arity, cs);
  detail::ensure_tree_shape(r.target_tree, r.target_cuts, r.target_decided, nt, t.target_bucket,
                            t.arity, cs);
  const int source_first = jobs[0].first_depth, target_first = jobs[1].first_depth;
  if (walk_stack_bound(r.source_tree.shape()) > g::kListStack)
    throw std::invalid_argument(
        "device tree: the source tree is too deep for the list walk (" +
        std::to_string(walk_stack_bound(r.source_tree.shape())) +
        " stack entries); use a larger bucket or arity, or TreeBuild::Host");
  const double shape_time = phases.mark("shapes");
  // The shapes' copies are queued on the compute stream: the copy stream's target tree reads its
  // shape only after them (on a card shared with other work they may land late).
  r.shapes_end.record(ws.compute);
  ws.copy.wait(r.shapes_end.get());
  r.adaptive_end.record(ws.compute);
  r.target_tree.finish(in.targets, target_first, ws.copy.get());
  r.target_tree_end.record(ws.copy);
  r.source_tree.finish(in.sources, source_first, cs);
  r.trees_end.record(ws.compute);
  return shape_time;
}

// The results are checked where they are, before they leave the device, then copied to the
// caller's arrays (device or host memory).
void results_out(CudaWorkspace& ws, double* const* out, int nt, bool gradient, bool on_device) {
  DeviceTreeStorage& r = ws.resident;
  const cudaStream_t cs = ws.compute.get();
  const g::FirstNonFinite bad = g::find_non_finite(ws.out_device.data(), g::components(gradient),
                                                   nt, r.non_finite.reserve(1), cs);
  if (bad.component >= 0) throw NonFiniteResult(bad.component, bad.index);
  for (int c = 0; c < g::components(gradient); ++c) {
    const double* result = ws.out_device.data() + c * std::size_t(nt);
    if (on_device)
      VORTEX_CUDA_CHECK(
          cudaMemcpyAsync(out[c], result, nt * sizeof(double), cudaMemcpyDeviceToDevice, cs));
    else
      ws.ring.download(out[c], result, nt * sizeof(double), cs);
  }
  if (on_device) ws.compute.synchronize();
}

// The stage times of the call from the device's events, the host's phases, and the counts. A call
// at the last call's points (`reused`) builds no trees, lists or plan.
void fill_times(CudaWorkspace& ws, double shape_time, double download, const ListSizes& list_sizes,
                bool reused, HostPhases& phases, EvaluationStats& stats) {
  DeviceTreeStorage& r = ws.resident;
  const double upload = ws.uploaded.seconds_since(ws.start);
  // The trees are built at once on two streams: both are done at the later end.
  const double trees = reused ? 0.0
                              : std::max(r.trees_end.seconds_since(r.adaptive_end),
                                         r.target_tree_end.seconds_since(r.adaptive_end));
  stats.times.tree = trees + shape_time;
  // The plan is made on the device after the lists; the host waits for its sizes once.
  stats.times.lists = reused ? 0.0 : r.plan_end.seconds_since(r.adaptive_end) - trees;
  stats.times.multipole = r.multipoles_end.seconds_since(r.multipoles_start);
  stats.times.setup = reused
                          ? stats.times.multipole
                          : shape_time + std::max(r.plan_end.seconds_since(r.adaptive_end),
                                                  r.multipoles_end.seconds_since(r.adaptive_end));
  stats.times.near = ws.near_end.seconds_since(ws.near_start);
  stats.times.far = ws.far_end.seconds_since(ws.far_start);
  stats.times.m2p = ws.m2p_end.seconds_since(ws.m2p_start);
  // The upload events span the host copies into the ring and the DMA that overlaps them.
  stats.times.transfer = upload + download;
  phases.add("gpu_upload", upload);
  if (!reused) {
    phases.add("gpu_trees", trees);
    phases.add("gpu_lists", r.lists_end.seconds_since(r.adaptive_end) - trees);
    phases.add("gpu_plan", r.plan_end.seconds_since(r.lists_end));
  }
  phases.add("gpu_multipoles", stats.times.multipole);
  phases.add("gpu_near", stats.times.near);
  phases.add("gpu_far", stats.times.far);
  stats.pair_interactions = r.planner.pair_interactions();
  stats.multipole_interactions = r.planner.multipole_interactions();
  stats.near_item_max = r.planner.near_item_max();
  stats.far_item_max = r.planner.far_item_max();
  stats.near_list_entries = static_cast<std::uint64_t>(list_sizes.near);
  if (!r.locals.active()) stats.far_list_entries = static_cast<std::uint64_t>(list_sizes.far);
  r.locals.fill_times(stats);
  if (reused) stats.times.far_plan = 0;
  stats.target_leaves = static_cast<std::uint64_t>(r.target_tree.shape().leaves.size());
  stats.source_nodes = static_cast<std::uint64_t>(r.source_tree.num_nodes());
}

}  // namespace

void device_tree_sum_cuda(CudaWorkspace& ws, SourcesView sources, PointsView targets,
                          const ResolvedOptions& options, bool gradient, EvaluationStats& stats,
                          double* const* out, bool on_device, Units units, bool reuse_points) {
  const QuietenOnExit quieten(ws);
  HostPhases phases;
  DeviceTreeStorage& r = ws.resident;
  const TreeOptions& t = options.tree;
  const g::Arithmetic a = device_arithmetic(options.arithmetic);
  const int ns = checked_count(sources.size(), "sources");
  const int nt = checked_count(targets.size(), "targets");
  const cudaStream_t cs = ws.compute.get();
  const DeviceTreeStorage::Kept kept = r.kept;
  const bool reused = reuse_points && !on_device && kept.valid;
  r.kept.valid = false;  // until this call's results are out

  const UploadedPoints in = reused
                                ? strengths_again(ws, sources, targets, units)
                                : in_internal_units(ws,
                                                    on_device ? device_input(ws, sources, targets)
                                                              : upload_input(ws, sources, targets),
                                                    sources, targets, units, !on_device);
  phases.mark("upload");
  const double shape_time = reused ? 0.0 : build_trees(ws, in, ns, nt, t, phases);
  start_upward_pass(ws, in, options, a);
  ws.compute.wait(r.target_tree_end.get());
  pack_on_device(ws, in, options, a);
  const ListSizes list_sizes =
      reused ? ListSizes{kept.near, kept.far} : build_lists(ws, options, stats);
  phases.mark("trees_and_lists");
  const g::DevicePlanView work = reused ? kept.work : plan_on_device(ws, options, gradient);
  const std::size_t nc = g::components(gradient);
  ws.partial.reserve(std::size_t(work.num_slots) * nc * work.block_threads);
  ws.out_device.reserve(nc * std::size_t(nt));
  r.plan_end.record(ws.compute);
  phases.mark("plan");
  ws.near_start.record(ws.compute);
  g::launch_pair_sum(pair_sum(ws, work, options.core, a, gradient), cs);
  ws.near_end.record(ws.compute);

  ws.compute.wait(r.multipoles_end.get());
  ws.far_start.record(ws.compute);
  r.locals.launch_translations(r.multipoles.data(), ws.compute);
  const DeviceFarLists m2p =
      r.locals.m2p({r.far_offsets.data(), r.far_nodes.data(), r.far_orders.data()});
  ws.m2p_start.record(ws.compute);
  g::launch_far_sum(far_sum(ws, work, t.order, a, gradient, m2p.nodes, m2p.orders), cs);
  ws.m2p_end.record(ws.compute);
  launch_combine(ws, work, nt, gradient, r.target_tree.permutation());
  r.locals.launch_l2p(r.target_tree, kInvFourPi, ws.out_device.data(), nt, gradient, ws.compute);
  ws.far_end.record(ws.compute);
  results_to_caller_units(ws, units, g::components(gradient), nt);
  ws.compute.synchronize();
  phases.mark("wait_gpu");
  results_out(ws, out, nt, gradient, on_device);
  const double download = phases.mark("download");

  fill_names(ws, a, stats);
  fill_times(ws, shape_time, download, list_sizes, reused, phases, stats);
  stats.near_items = static_cast<std::uint64_t>(work.num_near_items);
  stats.far_items = static_cast<std::uint64_t>(work.num_far_items);
  if (!on_device) r.kept = {true, list_sizes.near, list_sizes.far, work};
}

}  // namespace vortex::detail
