#pragma once
// Local expansions on the device (docs/methods/treecode.md, section 4): the lists of the host's
// build (vortex/local_expansion_lists.hpp) built level by level on the device from its
// interaction lists, then M2L, L2L and L2P.
//
// Lists. Every far list of a leaf is in the source tree's order (strictly increasing node begin),
// so the entries common to the leaves under an inner node are a merge of its children's lists, in
// that order too; so are the entries its ancestors took. Top-down, a node takes the common
// entries not taken above that m2l_accepts allows when local_pays says so (vortex/math/
// local_choice.hpp, with the backend's costs); each leaf keeps for M2P its far entries that no
// ancestor took. The lists equal the host's entry for entry.
//
// Field. Only the nodes that take M2L entries hold a local expansion (double, order q): the sum of
// their M2L (in chunks of kLocalChunk translations, added in order) and the L2L of the nearest
// ancestor that holds one. A leaf under such a node shifts that ancestor's expansion to its own
// centre (an L2L is exact, so one shift stands for the chain) and evaluates it at its targets in
// double (L2P), adding to the combined results.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vortex/gpu/buffer.hpp"
#include "vortex/math/hd.hpp"
#include "vortex/math/local_choice.hpp"
#include "vortex/math/tree_node.hpp"
#include "vortex/multipole/m2l_packed_w.hpp"

namespace vortex::gpu {

// Translations a warp of the M2L sums into one partial expansion (one a lane).
constexpr int kLocalChunk = 32;

// The trees and lists the local expansions are chosen from, and the build's storage (device
// arrays; per target node unless said).
struct LocalLists {
  const KdNode* targets = nullptr;
  int num_nodes = 0;
  const int* leaves = nullptr;  // target leaf node indices, tree order
  int num_leaves = 0;
  const int* inner_by_level = nullptr;  // the target shape's inner nodes by level
  const KdNode* sources = nullptr;
  int num_sources = 0;
  const int* far_offsets = nullptr;  // per leaf (num_leaves + 1)
  const int* far_nodes = nullptr;
  const unsigned char* far_orders = nullptr;
  double theta = 0.5;
  FarField mode = FarField::Auto;
  FarFieldCosts costs;

  int* source_begin = nullptr;  // per source node: its begin, the lists' sort key
  int* leaf_of = nullptr;       // leaf index or -1
  int* room = nullptr;          // bound of the common entries: the least far count below
  int* subtree = nullptr;       // nodes in the subtree
  long long* slot_size = nullptr;
  long long* slot_offsets = nullptr;  // num_nodes + 1: each node's slot in common, taken, m2l
  int *common = nullptr, *taken = nullptr, *m2l = nullptr;
  int *common_count = nullptr, *taken_count = nullptr, *taken_owner = nullptr;
  int* m2l_count = nullptr;
  int* local_from = nullptr;  // the nearest strict ancestor that takes M2L entries, or -1
  unsigned char* has_local = nullptr;
  int* chunk_count = nullptr;
  int* chunk_offsets = nullptr;  // num_nodes + 1
  int* stores = nullptr;         // 1 where the node takes M2L entries
  int* stored_index = nullptr;   // num_nodes + 1: its local expansion's index
  // M2L translations, L2L shifts and L2P targets of the lists (added to; zeroed by the caller).
  unsigned long long* counters = nullptr;
  int* may_take = nullptr;     // one flag
  int* m2p_count = nullptr;    // per leaf
  int* m2p_offsets = nullptr;  // num_leaves + 1
  int* m2p_nodes = nullptr;
  unsigned char* m2p_orders = nullptr;
};

// Threads (or warps, or blocks) a parent when the children of a level's inner nodes are taken one
// each: enough for the largest arity.
constexpr int kLevelChildren = 8;

// The node that unit i of such a launch takes: child i % kLevelChildren of inner node
// inner_by_level[first + i / kLevelChildren] (first .. first + n the level's), or -1 for none.
VORTEX_HD int level_child(const LocalLists& l, int first, int n, long long i) {
  if (i >= static_cast<long long>(n) * kLevelChildren) return -1;
  const KdNode& parent = l.targets[l.inner_by_level[first + i / kLevelChildren]];
  const int c = static_cast<int>(i % kLevelChildren);
  return c < parent.num_children ? parent.first_child + c : -1;
}

// The device storage of LocalLists, kept between calls (it only grows): attach() sizes the arrays
// of a tree of `nodes` nodes, `leaves` leaves and `sources` source nodes and points `l` at them;
// attach_slots() the three slot arrays (slot_offsets[num_nodes] entries each), attach_m2p() the
// M2P lists with room for every far entry. slot_growth() and m2p_growth() give the bytes those
// would newly allocate (0 where the storage is large enough), so that a caller asks for the
// device's free memory only then.
class LocalListStorage {
 public:
  void attach(LocalLists& l, int nodes, int leaves, int sources);
  std::size_t slot_growth(long long slots) const;
  void attach_slots(LocalLists& l, long long slots);
  std::size_t m2p_growth(long long far_entries) const;
  void attach_m2p(LocalLists& l, long long far_entries);

 private:
  DeviceBuffer<int> source_begin_, leaf_of_, room_, subtree_, common_count_, taken_count_,
      taken_owner_, m2l_count_, local_from_, chunk_count_, stores_, chunk_offsets_, stored_index_,
      m2p_count_, m2p_offsets_, may_take_, common_, taken_, m2l_, m2p_nodes_;
  DeviceBuffer<long long> slot_size_, slot_offsets_;
  DeviceBuffer<unsigned long long> counters_;
  DeviceBuffer<unsigned char> has_local_, m2p_orders_;
};

// Step 1, once the far lists' counts and offsets are known: keys, rooms, subtree sizes and the
// slots' offsets (slot_offsets[num_nodes] is the room the three slot arrays need). level_start
// is the target shape's (inner nodes by level).
void launch_local_rooms(const LocalLists& l, const std::vector<int>& level_start,
                        DeviceBuffer<unsigned char>& scan_temp, cudaStream_t stream);
// Step 2, once the far lists are filled: whether any node could take M2L entries (may_take,
// a bound that needs no lists of its own; nothing is taken where it stays 0).
void launch_local_may_take(const LocalLists& l, cudaStream_t stream);
// Step 3: the common entries and the choice, and the offsets of the M2L chunks and the stored
// expansions.
void launch_local_choice(const LocalLists& l, const std::vector<int>& level_start,
                         DeviceBuffer<unsigned char>& scan_temp, cudaStream_t stream);
// Step 4: the M2P lists (m2p_nodes has room for every far entry).
void launch_local_m2p(const LocalLists& l, DeviceBuffer<unsigned char>& scan_temp,
                      cudaStream_t stream);

// The local expansions' sums, once the multipoles are up.
struct LocalField {
  LocalLists lists;
  int order = 8;  // multipoles' p; the local order is p + 2
  bool gradient = true;
  // M2L terms in float (each translation at its own scale, a chunk's sums in float at its nearest
  // translation's scale, stored in double), else in double throughout.
  bool float_terms = false;
  int num_chunks = 0;
  const double* multipoles = nullptr;  // double, multipole_size(p) per source node
  const multipole::rotation::Tables* rotation = nullptr;  // the M2L's rotations, on the device
  // The moments as the M2L reads them (lists.num_sources, multipole_size(p) each, in float or
  // double as float_terms says): Schmidt-normalized and at each source node's scale.
  void* normalized = nullptr;
  double* partials = nullptr;                             // num_chunks local expansions
  double* locals = nullptr;                               // one per stored node
  const double *x = nullptr, *y = nullptr, *z = nullptr;  // targets in tree order
  const std::uint32_t* permutation = nullptr;             // tree position -> caller index
  double scale = 1;
  double* out = nullptr;  // component-major, out_stride a component; added to
  std::size_t out_stride = 0;
};
// The M2L's fixed matrices, into the current device's constant memory (before its first
// launch_local_m2l; a copy serves every later call): W in the packed order of
// multipole::detail::pack_w, and the axial factors as multipole::rotation::Tables holds them, in
// float and in double.
constexpr int kM2lPackedEntries =
    multipole::rotation::packed_offset(multipole::rotation::kMaxDegree + 1);
constexpr int kM2lAxialFactors =
    multipole::rotation::axial_offset(multipole::rotation::kMaxDegree + 1);
void upload_local_m2l_constants(const float* w_packed_float, const double* w_packed_double,
                                const float* axial_factors_float,
                                const double* axial_factors_double);
// M2L chunks, then the stored expansions level by level (their chunks and their ancestor's L2L),
// then L2P at every leaf under one. level_start is the target shape's.
void launch_local_m2l(const LocalField& f, cudaStream_t stream);
void launch_local_l2l(const LocalField& f, const std::vector<int>& level_start,
                      cudaStream_t stream);
void launch_local_l2p(const LocalField& f, cudaStream_t stream);

}  // namespace vortex::gpu
