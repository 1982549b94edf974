// vortex-kernel-timing: the pair kernel alone on the GPU (CUDA events, after a warm-up, median of
// several launches) for block sizes of 64 to 256 threads, and the cost of adding tiles in double.
// scripts/dev/gpu-check.sh runs it on the GPU machine.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "vortex/generators.hpp"
#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/device.hpp"
#include "vortex/gpu/launch.hpp"
#include "vortex/gpu/stream.hpp"
#include "vortex/gpu/work_plan.hpp"
#include "vortex/math/pair_kernel.hpp"

namespace vortex::gpu {
namespace {

template <class T>
struct DeviceCopy {
  DeviceBuffer<T> buffer;
  explicit DeviceCopy(const std::vector<T>& v) {
    buffer.reserve(v.size());
    VORTEX_CUDA_CHECK(
        cudaMemcpy(buffer.data(), v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
};

template <class T>
double median_pairs_per_second(const ParticleSet& p, Arithmetic a, int threads, int repeat) {
  const int n = static_cast<int>(p.size());
  std::vector<Vec4<T>> pos(n), str(n);
  for (int i = 0; i < n; ++i) {
    const PairSource<double> q =
        pair_source(Core::Exponential, p.gx[i], p.gy[i], p.gz[i], p.sigma[i]);
    pos[i] = {T(p.x[i]), T(p.y[i]), T(p.z[i]), T(q.inv_sigma2)};
    str[i] = {T(q.gx), T(q.gy), T(q.gz), T(0)};
  }
  Balance b;
  b.block_threads = threads;
  b.resident_blocks = std::size_t(current_device().multiprocessors) *
                      pair_sum_blocks_per_multiprocessor(Core::Exponential, a, true, threads);
  const WorkPlan plan = plan_direct(n, n, b);
  DeviceCopy<Vec4<T>> dpos(pos), dstr(str);
  DeviceCopy<TargetGroup> groups(plan.groups);
  DeviceCopy<WorkItem> items(plan.near_items);
  DeviceCopy<Range> ranges(plan.near_ranges);
  DeviceBuffer<double> partial(std::size_t(plan.num_slots()) * 12 * threads);
  PairSum s;
  s.core = Core::Exponential;
  s.arithmetic = a;
  s.gradient = true;
  s.block_threads = threads;
  s.targets = dpos.buffer.data();  // x, y, z read; the fourth lane is ignored
  s.source_position = dpos.buffer.data();
  s.source_strength = dstr.buffer.data();
  s.groups = groups.buffer.data();
  s.items = items.buffer.data();
  s.num_items = static_cast<int>(plan.near_items.size());
  s.ranges = ranges.buffer.data();
  s.partial = partial.data();
  Stream stream;
  Event start, stop;
  launch_pair_sum(s, stream.get());  // warm-up
  std::vector<double> rates;
  for (int k = 0; k < repeat; ++k) {
    start.record(stream);
    launch_pair_sum(s, stream.get());
    stop.record(stream);
    stop.synchronize();
    rates.push_back(double(n) * n / stop.seconds_since(start));
  }
  std::sort(rates.begin(), rates.end());
  return rates[rates.size() / 2];
}

void time_pair_kernel() {
  const ParticleSet p = random_cube(1 << 19, 1);
  const ParticleSet small = random_cube(1 << 17, 1);
  std::printf("pair kernel, exponential core, velocity + gradient, %s\n",
              current_device().name.c_str());
  std::printf("%-12s %7s %8s %14s\n", "arithmetic", "threads", "N", "pairs/s");
  for (int threads : {64, 128, 256}) {
    for (Arithmetic a : {Arithmetic::FloatTiles, Arithmetic::Float}) {
      const double r = median_pairs_per_second<float>(p, a, threads, 5);
      std::printf("%-12s %7d %8zu %14.4e\n", a == Arithmetic::Float ? "float" : "float+tiles",
                  threads, p.size(), r);
    }
    const double r = median_pairs_per_second<double>(small, Arithmetic::Double, threads, 3);
    std::printf("%-12s %7d %8zu %14.4e\n", "double", threads, small.size(), r);
  }
}

}  // namespace
}  // namespace vortex::gpu

int main() {
  if (vortex::gpu::device_count() == 0) {
    std::fprintf(stderr, "vortex-kernel-timing: no CUDA device\n");
    return 1;
  }
  vortex::gpu::time_pair_kernel();
  return 0;
}
