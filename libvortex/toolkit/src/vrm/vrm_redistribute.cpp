// The VRM's hand-over of the strengths (vrm/vrm_step.hpp): every owner's strength to its neighbours
// by its fractions, on top of what the device handed over, in a fixed order.

#include <algorithm>
#include <cstdint>

#include <omp.h>

#include "vrm/vrm_step.hpp"

namespace vortex::vrm_step {

// Each owner's strength to its neighbours by its fractions (or kept), on top of what the device
// handed over. Every receiver sums what it gets in ascending owner order, as one pass in
// particle order would: the receivers are split in ranges, one per thread, and each thread walks
// the owners with host lists and adds what lands in its range (its share of the sums stays in its
// cache), so the result does not depend on the threads.
void VrmStep::redistribute(VrmStats& stats) {
  std::vector<double>&gx = ws_.gx, &gy = ws_.gy, &gz = ws_.gz;
  const std::size_t n = p_.size();
  gx.resize(n);
  gy.resize(n);
  gz.resize(n);
  const bool device = device_sum_[0] != nullptr;  // first what the device handed over
#pragma omp parallel for if (n > 20000)
  for (std::ptrdiff_t j = 0; j < static_cast<std::ptrdiff_t>(n); ++j) {
    const bool from = device && static_cast<std::size_t>(j) < n0_;
    gx[j] = from ? device_sum_[0][j] : 0.0;
    gy[j] = from ? device_sum_[1][j] : 0.0;
    gz[j] = from ? device_sum_[2][j] : 0.0;
  }
  tally_owners(stats);
  // Every receiver sums in ascending owner order: the owners with host lists (ascending) merged
  // with those of its range that keep their strength.
  const std::vector<std::int32_t>& listed = ws_.listed;
  const int ranges = std::max(1, omp_get_max_threads());
  const std::size_t width = (n + ranges - 1) / ranges;
#pragma omp parallel for schedule(static, 1) if (n0_ > 500)
  for (int range = 0; range < ranges; ++range) {
    const std::size_t lo = range * width, hi = std::min(n, lo + width);
    if (lo >= hi) continue;
    const std::size_t own_end = std::min(hi, n0_);
    std::size_t own = lo;
    for (std::size_t a = 0;; ++a) {
      const std::size_t next = a < listed.size() ? static_cast<std::size_t>(listed[a]) : n0_;
      for (; own < own_end && own < next; ++own) {
        if (!keeps(ws_.state[own])) continue;
        gx[own] += p_.gx[own];
        gy[own] += p_.gy[own];
        gz[own] += p_.gz[own];
      }
      if (a == listed.size()) break;
      const std::size_t i = next;
      const double sx = p_.gx[i], sy = p_.gy[i], sz = p_.gz[i];
      const Span& s = ws_.lists[i];
      const int* nbr = ws_.blocks[i / kBlock].neighbors.data() + s.offset;
      const double* frac = ws_.blocks[i / kBlock].fractions.data() + s.offset;
      for (int k = 0; k < s.count; ++k) {
        const auto j = static_cast<std::size_t>(nbr[k]);
        if (j < lo || j >= hi) continue;
        const double f = frac[k];
        gx[j] += f * sx;
        gy[j] += f * sy;
        gz[j] += f * sz;
      }
    }
  }
  const std::size_t moved = ws_.moved.size();
  ws_.mx.resize(moved);
  ws_.my.resize(moved);
  ws_.mz.resize(moved);
  for (std::size_t k = 0; k < moved; ++k) {
    const std::size_t i = ws_.moved[k];
    ws_.mx[k] = p_.gx[i];
    ws_.my[k] = p_.gy[i];
    ws_.mz[k] = p_.gz[i];
  }
  p_.gx.swap(gx);
  p_.gy.swap(gy);
  p_.gz.swap(gz);
  for (std::size_t k = 0; k < moved; ++k) {
    const std::size_t i = ws_.moved[k];
    const VrmMoments& m = ws_.target[i];
    p_.push_back(p_.x[i] + m.first[0] * h_, p_.y[i] + m.first[1] * h_, p_.z[i] + m.first[2] * h_,
                 ws_.mx[k], ws_.my[k], ws_.mz[k], p_.sigma[i]);
  }
}

// An owner that keeps its strength (the kept, the empty): neither handed over nor moved.
bool VrmStep::keeps(char state) {
  return state != kMoved && state != kHandedOver && state != kSolved && state != kSigned;
}

// The owners' outcomes counted; the kept ones that drift marked kMoved (ws_.moved, ascending);
// the owners with host lists gathered (ws_.listed, ascending). In one range of owners per
// thread, joined in order.
void VrmStep::tally_owners(VrmStats& stats) {
  const int ranges = std::max(1, omp_get_max_threads());
  if (static_cast<int>(ws_.listed_parts.size()) < ranges) ws_.listed_parts.resize(ranges);
  if (static_cast<int>(ws_.moved_parts.size()) < ranges) ws_.moved_parts.resize(ranges);
  const std::size_t width = (n0_ + ranges - 1) / ranges;
  std::size_t diffused = 0, signed_fallback = 0, kept = 0, moved = 0, unresolved = 0;
#pragma omp parallel for schedule(static, 1) if (n0_ > 20000) \
  reduction(+ : diffused, signed_fallback, kept, moved, unresolved)
  for (int range = 0; range < ranges; ++range) {
    std::vector<std::int32_t>& listed = ws_.listed_parts[range];
    std::vector<std::size_t>& drifted = ws_.moved_parts[range];
    listed.clear();
    drifted.clear();
    const std::size_t lo = range * width, hi = std::min(n0_, lo + width);
    for (std::size_t i = lo; i < hi; ++i) {
      const char state = ws_.state[i];
      if (state == kSolved || state == kHandedOver) {
        ++diffused;
        if (state == kSolved) listed.push_back(static_cast<std::int32_t>(i));
      } else if (state == kSigned) {
        ++signed_fallback;
        listed.push_back(static_cast<std::int32_t>(i));
      } else if (state == kKept && ws_.custom[i] && drifts(ws_.target[i])) {
        // Its strength to a new particle at the drifted position (appended below).
        ws_.state[i] = kMoved;
        drifted.push_back(i);
        ++kept;
        ++moved;
        unresolved += !ws_.weak[i];
      } else if (state != kEmpty) {
        ++kept;
        unresolved += !ws_.weak[i];
      }
    }
  }
  ws_.listed.clear();
  for (int range = 0; range < ranges; ++range) {
    ws_.listed.insert(ws_.listed.end(), ws_.listed_parts[range].begin(),
                      ws_.listed_parts[range].end());
    ws_.moved.insert(ws_.moved.end(), ws_.moved_parts[range].begin(), ws_.moved_parts[range].end());
  }
  stats.diffused += diffused;
  stats.signed_fallback += signed_fallback;
  stats.kept += kept;
  stats.moved += moved;
  stats.unresolved += unresolved;
}

bool VrmStep::drifts(const VrmMoments& m) {
  return m.first[0] != 0 || m.first[1] != 0 || m.first[2] != 0;
}

// Inserted particles that no solution used stay empty: drop them again.
void VrmStep::drop_unused_insertions(VrmStats& stats) {
  std::size_t w = n0_;
  for (std::size_t i = n0_; i < p_.size(); ++i) {
    if (p_.gx[i] == 0 && p_.gy[i] == 0 && p_.gz[i] == 0) continue;
    p_.copy_particle(i, w++);
  }
  stats.inserted = w - n0_ - stats.moved;
  p_.resize(w);
}

}  // namespace vortex::vrm_step
