// Far field of the treecode on CPU threads: multipole evaluation (M2P) over each target leaf's far
// list, the leaf's targets in SIMD lanes (far_field_leaves.hpp), in double or in float, the terms
// of every box added into double sums per target. With the gradient, each box is read as its
// gradient expansion (multipole/gradient_expansion.hpp). A portable build on x86-64 runs the loop
// compiled for AVX-512 or AVX2 where the processor has it (far_field_isa.hpp).

#include <omp.h>

#include <algorithm>
#include <atomic>

#include "backend/cpu_stages.hpp"
#include "far/far_field_isa.hpp"
#include "far/far_field_leaves.hpp"
#include "vortex/math/order_dispatch.hpp"

namespace vortex::detail {

template <class T>
int size_far_scratch(const TreePlan& plan, FarScratch<T>& w) {
  const KdTree& tt = plan.target_tree;
  // Room for the largest leaf, padded to whole vectors of the widest lanes (64 bytes).
  constexpr int widest = 64 / int(sizeof(T));
  int room = 0;
  for (int leaf : tt.leaves) room = std::max(room, tt.nodes[leaf].count());
  room = (room + widest - 1) / widest * widest;
  const int threads = omp_get_max_threads();
  if (static_cast<int>(w.threads.size()) < threads) w.threads.resize(threads);
  for (auto* v : {&w.x, &w.y, &w.z}) v->resize(threads);
  w.sums.resize(threads);
  for (int t = 0; t < threads; ++t) {
    auto& s = w.threads[t];
    for (auto* v : {&s.x, &s.y, &s.z}) v->resize(room);
    s.sums.resize(12 * static_cast<std::size_t>(room));
    w.x[t] = s.x.data(), w.y[t] = s.y.data(), w.z[t] = s.z.data(), w.sums[t] = s.sums.data();
  }
  return room;
}

template int size_far_scratch(const TreePlan&, FarScratch<double>&);
template int size_far_scratch(const TreePlan&, FarScratch<float>&);

namespace {

std::atomic<FarIsa> isa_limit{FarIsa::Avx512};

}  // namespace

FarIsa far_field_isa() {
#if defined(VORTEX_FAR_FIELD_DISPATCH)
  static const FarIsa present = __builtin_cpu_supports("avx512f") ? FarIsa::Avx512
                                : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")
                                    ? FarIsa::Avx2
                                    : FarIsa::Build;
  return std::min(present, isa_limit.load());
#else
  return FarIsa::Build;
#endif
}

void limit_far_field_isa(FarIsa limit) {
  isa_limit = limit;
}

template <class T>
void far_field_cpu(const TreePlan& plan, FarList list, const T* expansions, const T* centers,
                   bool gradient, FarScratch<T>& scratch, ComponentArrays out) {
  if (list.entries == 0) return;
  dispatch_order(plan.order, "far field", [](auto) {});  // the order's check
  const KdTree& tt = plan.target_tree;
  const int room = size_far_scratch(plan, scratch);
  const FarInputs<T> in{plan.targets.x.data(),
                        plan.targets.y.data(),
                        plan.targets.z.data(),
                        plan.origin(),
                        tt.nodes.data(),
                        tt.leaves.data(),
                        static_cast<int>(tt.leaves.size()),
                        list.offsets,
                        list.nodes,
                        list.orders,
                        expansions,
                        centers,
                        gradient,
                        plan.order,
                        out,
                        scratch.x.data(),
                        scratch.y.data(),
                        scratch.z.data(),
                        scratch.sums.data(),
                        room};
  switch (far_field_isa()) {
#if defined(VORTEX_FAR_FIELD_DISPATCH)
    case FarIsa::Avx512:
      far_field_avx512(in);
      return;
    case FarIsa::Avx2:
      far_field_avx2(in);
      return;
#endif
    default:
      run_far_field_leaves(in);
  }
}

template void far_field_cpu(const TreePlan&, FarList, const double*, const double*, bool,
                            FarScratch<double>&, ComponentArrays);
template void far_field_cpu(const TreePlan&, FarList, const float*, const float*, bool,
                            FarScratch<float>&, ComponentArrays);

}  // namespace vortex::detail
