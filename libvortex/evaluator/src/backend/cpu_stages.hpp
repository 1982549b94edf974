#pragma once
// The stages of the CPU backend (cpu_backend.cpp runs them). Results are written to 12 component
// arrays `out` (velocity 0..2, gradient 3..11; only 0..2 without the gradient), 1/(4 pi) included.

#include <cstdint>
#include <utility>
#include <vector>

#include "near/pair_sum.hpp"
#include "tree/tree_plan.hpp"
#include "vortex/local_expansion_lists.hpp"

namespace vortex::detail {

using ComponentArrays = double* const*;

// All packed sources onto all targets (relative to the same origin), assigned to `out` in the
// targets' order. Any core, the arithmetic of T.
template <class T>
void direct_sum_cpu(const SourceArrays<T>& sources, std::size_t num_sources, PointsView targets,
                    Origin origin, Core core, bool gradient, ComponentArrays out);

// Near field: pair sums over each target leaf's near ranges, assigned to `out` (target-tree order).
template <class T>
void near_field_cpu(const TreePlan& plan, const SourceArrays<T>& sources, Core core, bool gradient,
                    ComponentArrays out);

// The pairs that rounding made coincident (a target and a source at distinct positions that round
// to one point in T relative to the origin), which the pair sums drop with every zero offset: adds
// each one's limit F(0) [Gamma]x / (4 pi) to the target's gradient in `out` (targets' order); for
// the singular kernel, which has no limit, makes the target's velocity NaN, so that the Solver
// computes the call again in double or reports the overflow. Nothing for the velocity alone of a
// regularized core (its limit is zero).
template <class T>
struct CoincidenceScratch {
  std::vector<T> points;            // the targets' rounded points, 3 a target
  std::vector<std::int64_t> slots;  // the hash table over them
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> found;  // per thread
};
template <class T>
void add_rounding_coincidences(const SourceArrays<T>& sources, std::size_t num_sources,
                               PointsView targets, Origin origin, Core core, bool gradient,
                               ComponentArrays out, CoincidenceScratch<T>& scratch);

// Scratch of the far field, kept between calls: per thread, a leaf's targets in columns padded to
// whole SIMD vectors and its sums in double (12 columns); and the pointers to them that the loop
// over leaves (far_field_leaves.hpp) reads.
template <class T>
struct FarScratch {
  // Aligned to a cache line, so that threads resizing their own scratch share no line.
  struct alignas(64) Thread {
    std::vector<T> x, y, z;
    std::vector<double> sums;
  };
  std::vector<Thread> threads;
  std::vector<T*> x, y, z;
  std::vector<double*> sums;
};

// Sizes the scratch for the threads and the plan's largest target leaf; returns the columns' room.
template <class T>
int size_far_scratch(const TreePlan& plan, FarScratch<T>& scratch);

// Arithmetic of the far field's M2P terms; every box's terms are added into double sums per
// target either way. Float (16 targets per AVX-512 vector) is accurate to about 1e-6 relative,
// far below the truncation error of the expansions at the tolerances that use it.
enum class FarArithmetic { Double, Float };

// Gradient expansions (multipole/gradient_expansion.hpp) of every source node, in the arithmetic T,
// from the plan's velocity expansions.
template <class T>
void gradient_expansions_cpu(const TreePlan& plan, std::vector<T>& expansions);

// Source nodes per target leaf (CSR): the interaction lists' far lists, or what the local
// expansions leave to M2P.
struct FarList {
  const int* offsets;
  const int* nodes;
  const unsigned char* orders;  // each entry's order (far_order in math/acceptance.hpp)
  std::size_t entries;
};

// Far field: M2P over each target leaf's list, targets of a leaf in SIMD lanes, added to `out`.
// `expansions` per node in the arithmetic T: the velocity expansions (as pack_expansions writes
// them) for the velocity alone, the gradient expansions with the gradient; `centers` 4 per node
// (the center, 1 / the node's scale).
template <class T>
void far_field_cpu(const TreePlan& plan, FarList list, const T* expansions, const T* centers,
                   bool gradient, FarScratch<T>& scratch, ComponentArrays out);

// The M2L of target nodes above this level is summed in partial sums of kLocalChunk translations,
// added in order (far/local_field.cpp; the top of a tree split over ranks sums alike).
constexpr int kLocalChunkedLevels = 3;
constexpr int kLocalChunk = 16;

// The local expansions' order for multipoles of order p: the gradient keeps M2P's order of
// accuracy (multipole/local_error.hpp).
constexpr int local_order(int p) {
  return p + 2;
}

// The seconds of one M2L, L2L, L2P (per target) and M2P (per source node and target) at order p in
// the far field's arithmetic, with the gradient: a model fitted to timings on the 2-core AVX-512
// Xeon, fixed so that the choice does not change from one run to the next.
FarFieldCosts far_field_costs(int p, FarArithmetic arithmetic);
// The same for the device-built treecode on CUDA (far/local_field_cuda.hpp), fitted to kernel
// times on an H100.
FarFieldCosts far_field_costs_cuda(int p, Arithmetic arithmetic);

// Seconds of the local expansions' operations: the wall time of the top levels' M2L (run first,
// over the threads), what one thread took above the walk's split level, and the threads' sum
// below it divided by their number.
struct LocalTimes {
  double m2l = 0, l2l = 0, l2p = 0;
};

// The local expansions (order local_order(p), double, local_size of them per target node at
// locals[node * size]) of every target node that holds one: its parent's by L2L plus the M2L of
// its list; then at the targets of each leaf that holds one (L2P, SIMD lanes in the arithmetic T,
// sums in double), added to `out`. `locals` is sized here (room for every target node and the
// partial sums of the top levels' M2L), keeping its capacity.
template <class T>
void local_field_cpu(const TreePlan& plan, const LocalExpansionLists& lists,
                     std::vector<double>& locals, bool gradient, FarScratch<T>& scratch,
                     ComponentArrays out, LocalTimes& times);

}  // namespace vortex::detail
