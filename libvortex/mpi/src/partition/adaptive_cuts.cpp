#include "partition/adaptive_cuts.hpp"

#include <map>
#include <utility>

#include "partition/radix_select.hpp"

namespace vortex::mpi::detail {

void decide_global_cuts(const Comm& comm, const std::vector<Record>& records, int n, int bucket,
                        vortex::detail::DecidedCuts& decided) {
  decided.clear();
  struct Piece {
    int begin, end;
  };
  std::vector<Piece> pieces;
  std::vector<int> open, cut_of(records.size(), -1), members;
  if (n > bucket && is_adaptive_cut(n, n, 0)) {
    pieces.push_back({0, n});
    open.push_back(0);
    for (std::size_t i = 0; i < records.size(); ++i) {
      cut_of[i] = 0;
      members.push_back(static_cast<int>(i));
    }
  }
  std::vector<char> goes_left;
  std::vector<GlobalCut> batch;
  for (int depth = 0; !open.empty(); ++depth) {
    batch.clear();
    for (const int id : open) batch.push_back({id, 0, true, bucket});
    split_by_radix(comm, records, cut_of, members, batch, goes_left);
    // Each cut's two sides: the ids of those cut adaptively at the next depth, else -1.
    std::map<int, std::pair<int, int>> sides;
    std::vector<int> next;
    for (const GlobalCut& c : batch) {
      const Piece piece = pieces[c.id];
      const int mid = piece.begin + static_cast<int>(c.left);
      decided.add(piece.begin, mid, piece.end);
      int side[2] = {-1, -1};
      const Piece halves[2] = {{piece.begin, mid}, {mid, piece.end}};
      for (int h = 0; h < 2; ++h) {
        const int count = halves[h].end - halves[h].begin;
        if (count <= bucket || !is_adaptive_cut(count, n, depth + 1)) continue;
        side[h] = static_cast<int>(pieces.size());
        pieces.push_back(halves[h]);
        next.push_back(side[h]);
      }
      sides[c.id] = {side[0], side[1]};
    }
    std::size_t kept = 0;
    for (const int i : members) {
      const auto& s = sides[cut_of[i]];
      const int to = goes_left[i] ? s.first : s.second;
      if (to < 0) continue;
      cut_of[i] = to;
      members[kept++] = i;
    }
    members.resize(kept);
    open.swap(next);
  }
  decided.finish();
}

}  // namespace vortex::mpi::detail
