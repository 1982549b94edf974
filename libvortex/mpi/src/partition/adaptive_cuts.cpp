#include "partition/adaptive_cuts.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <utility>

#include "partition/radix_select.hpp"

namespace vortex::mpi::detail {

void decide_global_cuts(const Comm& comm, const std::vector<Record>& records, int n, int bucket,
                        int arity, const std::function<bool(int, int)>& open,
                        vortex::detail::DecidedCuts& decided, std::vector<std::uint32_t>& sides) {
  static_assert(kAdaptiveCutDepths <= 32, "a record's sides are the bits of 32");
  decided.clear();
  sides.assign(records.size(), 0);
  const int levels_per_node = binary_levels(arity);
  // A piece at a node's first binary depth is that node; the others lie in an opened node.
  auto cut_here = [&](int begin, int end, int depth) {
    const int count = end - begin;
    return count > bucket && is_adaptive_cut(count, n, depth) &&
           (depth % levels_per_node != 0 || open(begin, end));
  };
  struct Piece {
    int begin, end;
  };
  std::vector<Piece> pieces;
  std::vector<int> current, cut_of(records.size(), -1), members;
  if (cut_here(0, n, 0)) {
    pieces.push_back({0, n});
    current.push_back(0);
    for (std::size_t i = 0; i < records.size(); ++i) {
      cut_of[i] = 0;
      members.push_back(static_cast<int>(i));
    }
  }
  std::vector<char> goes_left;
  std::vector<GlobalCut> batch;
  for (int depth = 0; !current.empty(); ++depth) {
    batch.clear();
    for (const int id : current) batch.push_back({id, 0, true, bucket});
    split_by_radix(comm, records, cut_of, members, batch, goes_left);
    // Each cut's two sides: the ids of those cut adaptively at the next depth, else -1.
    std::map<int, std::pair<int, int>> halves_of;
    std::vector<int> next;
    for (const GlobalCut& c : batch) {
      const Piece piece = pieces[c.id];
      const int mid = piece.begin + static_cast<int>(c.left);
      decided.add(piece.begin, mid, piece.end);
      int side[2] = {-1, -1};
      const Piece halves[2] = {{piece.begin, mid}, {mid, piece.end}};
      for (int h = 0; h < 2; ++h) {
        if (!cut_here(halves[h].begin, halves[h].end, depth + 1)) continue;
        side[h] = static_cast<int>(pieces.size());
        pieces.push_back(halves[h]);
        next.push_back(side[h]);
      }
      halves_of[c.id] = {side[0], side[1]};
    }
    std::size_t kept = 0;
    for (const int i : members) {
      if (!goes_left[i]) sides[i] |= std::uint32_t(1) << depth;
      const auto& s = halves_of[cut_of[i]];
      const int to = goes_left[i] ? s.first : s.second;
      if (to < 0) continue;
      cut_of[i] = to;
      members[kept++] = i;
    }
    members.resize(kept);
    current.swap(next);
  }
  decided.finish();
}

}  // namespace vortex::mpi::detail
