#include "partition/radix_select.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "tree/kdtree_cuts.hpp"

namespace vortex::mpi::detail {

namespace {

// The bits of a double as an unsigned integer of the same order.
std::uint64_t ordered_bits(double v) {
  if (v == 0) v = 0;  // -0 and +0 are one key, as they compare equal
  std::uint64_t u;
  std::memcpy(&u, &v, sizeof u);
  return (u >> 63) ? ~u : (u | (std::uint64_t(1) << 63));
}

constexpr int kDigitBits = 8;
constexpr int kBins = 1 << kDigitBits;
constexpr int kRounds = 64 / kDigitBits;

// Sums over the members of per-cut arrays of `width` values, in parallel: fn(k, i, row) adds record
// i's share to row (its cut k's).
template <class T, class Fn>
std::vector<T> reduce_members(const std::vector<int>& members, const std::vector<int>& slot,
                              const std::vector<int>& cut_of, int cuts, int width, T start,
                              bool take_max, Fn&& fn) {
  std::vector<T> total(static_cast<std::size_t>(cuts) * width, start);
  const long m = static_cast<long>(members.size());
#pragma omp parallel
  {
    std::vector<T> mine(total.size(), start);
#pragma omp for schedule(static) nowait
    for (long j = 0; j < m; ++j) {
      const int i = members[j];
      const int k = slot[cut_of[i]];
      fn(k, i, mine.data() + static_cast<std::size_t>(k) * width);
    }
#pragma omp critical
    for (std::size_t q = 0; q < total.size(); ++q)
      total[q] = take_max ? std::max(total[q], mine[q]) : total[q] + mine[q];
  }
  return total;
}

// The positions of the adaptive cuts (tree_node.hpp) from their extents along the cut (`box`: -lo
// and hi) and the counts before and through the middle half, summed over the ranks.
void place_adaptive_cuts(const Comm& comm, const std::vector<Record>& records,
                         const std::vector<int>& members, const std::vector<int>& slot,
                         const std::vector<int>& cut_of, const std::vector<double>& box,
                         const std::vector<double>& sums, const std::vector<int>& dim,
                         std::vector<GlobalCut>& cuts) {
  const int nc = static_cast<int>(cuts.size());
  bool any = false;
  for (const GlobalCut& c : cuts) any |= c.adaptive;
  if (!any) return;  // the same on every rank: every rank passes the same cuts
  std::vector<double> band(2 * nc);
  for (int k = 0; k < nc; ++k)
    middle_half(-box[6 * k + dim[k]], box[6 * k + 3 + dim[k]], band[2 * k], band[2 * k + 1]);
  std::vector<long long> counts = reduce_members<long long>(members, slot, cut_of, nc, 2, 0, false,
                                                            [&](int k, int i, long long* row) {
                                                              const double v = records[i].p[dim[k]];
                                                              row[0] += v < band[2 * k];
                                                              row[1] += v <= band[2 * k + 1];
                                                            });
  comm.allreduce(counts.data(), 2 * nc, MPI_SUM);
  for (int k = 0; k < nc; ++k) {
    GlobalCut& c = cuts[k];
    if (!c.adaptive) continue;
    const int count = static_cast<int>(sums[7 * k + 6]);
    c.left =
        adaptive_split_position(count, c.bucket, vortex::detail::split_position(count, c.bucket),
                                counts[2 * k], counts[2 * k + 1]);
  }
}

}  // namespace

void split_by_radix(const Comm& comm, const std::vector<Record>& records,
                    const std::vector<int>& cut_of, const std::vector<int>& members,
                    std::vector<GlobalCut>& cuts, std::vector<char>& goes_left) {
  const int nc = static_cast<int>(cuts.size());
  if (nc == 0) return;
  int largest = 0;
  for (const GlobalCut& c : cuts) largest = std::max(largest, c.id);
  std::vector<int> slot(largest + 1, -1);
  for (int k = 0; k < nc; ++k) slot[cuts[k].id] = k;

  // The cuts' boxes, for offsets taken from their middles: -lo and hi, one MAX reduction.
  std::vector<double> box =
      reduce_members<double>(members, slot, cut_of, nc, 6, -std::numeric_limits<double>::infinity(),
                             true, [&](int, int i, double* row) {
                               for (int d = 0; d < 3; ++d) {
                                 row[d] = std::max(row[d], -records[i].p[d]);
                                 row[3 + d] = std::max(row[3 + d], records[i].p[d]);
                               }
                             });
  comm.allreduce(box.data(), 6 * nc, MPI_MAX);
  // Sums of the offsets and their squares: the dimension of largest variance, as in kdtree.cpp.
  std::vector<double> sums = reduce_members<double>(
      members, slot, cut_of, nc, 7, 0.0, false, [&](int k, int i, double* row) {
        for (int d = 0; d < 3; ++d) {
          const double ref = 0.5 * (box[6 * k + 3 + d] - box[6 * k + d]);
          const double off = records[i].p[d] - ref;
          row[d] += off;
          row[3 + d] += off * off;
        }
        row[6] += 1;
      });
  comm.allreduce(sums.data(), 7 * nc, MPI_SUM);
  std::vector<int> dim(nc);
  for (int k = 0; k < nc; ++k)
    dim[k] = vortex::detail::widest_of_spreads(&sums[7 * k], &sums[7 * k + 3], sums[7 * k + 6]);
  place_adaptive_cuts(comm, records, members, slot, cut_of, box, sums, dim, cuts);

  // The k-th smallest point of each cut in the order of kdtree_cuts.hpp (`before`): its widest
  // dimension's coordinate, then the next two. Each coordinate's key is found eight bits a round
  // from the top among the points equal on the coordinates before it; a coordinate is needed only
  // while some of the points equal to the k-th so far go left.
  auto key_of = [&](int i, int k, int level) {
    return ordered_bits(records[i].p[(dim[k] + level) % 3]);
  };
  std::vector<std::array<std::uint64_t, 3>> threshold(nc);
  std::vector<int> levels(nc, 0);  // coordinates fixed
  std::vector<long long> rank_left(nc);
  for (int k = 0; k < nc; ++k) rank_left[k] = cuts[k].left;
  // Whether point i equals its cut's threshold on the coordinates fixed so far.
  auto tied = [&](int i, int k) {
    for (int l = 0; l < levels[k]; ++l)
      if (key_of(i, k, l) != threshold[k][l]) return false;
    return true;
  };
  // The points still in play: those of a selecting cut equal to its threshold so far. Each round
  // keeps those whose key starts with the digits chosen, so that a round reads about 1/256 of the
  // points the one before it read, not every point again.
  std::vector<int> active;
  for (int level = 0; level < 3; ++level) {
    // The cuts still selecting: those whose ties reach this coordinate.
    std::vector<char> selecting(nc);
    bool any = false;
    for (int k = 0; k < nc; ++k)
      any |= selecting[k] = levels[k] == level && (level == 0 || rank_left[k] > 0);
    if (!any) break;
    active.clear();
    for (const int i : members) {
      const int k = slot[cut_of[i]];
      if (selecting[k] && tied(i, k)) active.push_back(i);
    }
    std::vector<std::uint64_t> prefix(nc, 0);
    for (int round = 0; round < kRounds; ++round) {
      const int shift = 64 - kDigitBits * (round + 1);  // below the digit of this round
      std::vector<long long> hist = reduce_members<long long>(
          active, slot, cut_of, nc, kBins, 0, false, [&](int k, int i, long long* row) {
            ++row[(key_of(i, k, level) >> shift) & (kBins - 1)];
          });
      comm.allreduce(hist.data(), static_cast<int>(hist.size()), MPI_SUM);
      for (int k = 0; k < nc; ++k) {
        if (!selecting[k]) continue;
        const long long* h = &hist[static_cast<std::size_t>(k) * kBins];
        int digit = 0;
        long long below = 0;
        while (digit < kBins - 1 && below + h[digit] <= rank_left[k]) below += h[digit++];
        rank_left[k] -= below;
        prefix[k] = (prefix[k] << kDigitBits) | static_cast<std::uint64_t>(digit);
      }
      active.erase(std::remove_if(active.begin(), active.end(),
                                  [&](int i) {
                                    const int k = slot[cut_of[i]];
                                    return (key_of(i, k, level) >> shift) != prefix[k];
                                  }),
                   active.end());
    }
    for (int k = 0; k < nc; ++k)
      if (selecting[k]) threshold[k][levels[k]++] = prefix[k];
  }
  // A point goes left when it comes before its cut's threshold on the coordinates fixed; of the
  // points equal to it on all of them, rank_left[k] go left: the first ones by rank, then by
  // local index (points at the same place).
  std::vector<long long> equal(nc, 0), earlier(nc, 0);
  for (const int i : members) {
    const int k = slot[cut_of[i]];
    if (tied(i, k)) ++equal[k];
  }
  check(MPI_Exscan(equal.data(), earlier.data(), nc, MPI_LONG_LONG, MPI_SUM, comm.get()),
        "MPI_Exscan");
  if (comm.rank() == 0) std::fill(earlier.begin(), earlier.end(), 0);
  goes_left.resize(records.size());
  for (const int i : members) {
    const int k = slot[cut_of[i]];
    int l = 0;
    while (l < levels[k] && key_of(i, k, l) == threshold[k][l]) ++l;
    if (l < levels[k])
      goes_left[i] = key_of(i, k, l) < threshold[k][l];
    else
      goes_left[i] = earlier[k]++ < rank_left[k];
  }
}

}  // namespace vortex::mpi::detail
