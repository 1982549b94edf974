#pragma once
// Copies of the other ranks' particles near a rank's own: the halo that the toolkit's steps on
// ranks (VRM, particle control) read as neighbours. A rank receives every particle of the others
// within `width` of the bounding box of its own, so a halo of width w holds every particle within w
// of any of its particles (and some more). What the halo's copies receive goes back to the ranks
// they came from (return_strengths); what those ranks know of them comes to the copies
// (refresh_strengths, send_flags).

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "comm/collectives.hpp"
#include "vortex/particles.hpp"

namespace vortex::mpi::detail {

// A rank's bounding box; empty (lo above hi) for a rank without particles.
struct Box {
  double lo[3], hi[3];
};
Box bounding_box(const ParticleSet& p, std::size_t n);
// Throws std::invalid_argument naming `step` and the first particle whose position, strength or
// core is not finite: checked before a step on ranks starts, so that every rank fails together.
void check_finite(const ParticleSet& p, const char* step);
// Whether (x, y, z) lies within `width` of the box (an empty box has nothing near it).
bool near_box(const Box& box, double x, double y, double z, double width);

class Halo {
 public:
  // Collective. Appends to `local`, after its first n particles (this rank's own), copies of the
  // other ranks' particles within `width` of the box of this rank's, in rank order, with their
  // strengths (`strengths`) or with zero strength. boxes() then holds every rank's box.
  void gather(const Comm& comm, ParticleSet& local, std::size_t n, double width, bool strengths);
  std::size_t size() const { return static_cast<std::size_t>(from_.back()); }
  const std::vector<Box>& boxes() const { return boxes_; }

  // Collective. Adds the strengths of the copies (local's particles from n on, as gather put them)
  // to those of the particles they copy (local's first n on their ranks), each particle the
  // ranks' in rank order: what the copies received, where their strengths were zero before.
  void return_strengths(const Comm& comm, ParticleSet& local, std::size_t n) const;
  // Collective. The same for four sums per particle (`sums`, indexed as local: the copies' from
  // n on), added to those of the particles they copy.
  void return_sums(const Comm& comm, std::vector<std::array<double, 4>>& sums, std::size_t n) const;
  // Collective. The strengths of local's first n particles (changed since gather) to their copies
  // on the other ranks, which take them in place of theirs.
  void refresh_strengths(const Comm& comm, ParticleSet& local, std::size_t n) const;
  // Collective. A flag per own particle (`own_flags`) to each copy of it: per halo copy, in order.
  std::vector<char> send_flags(const Comm& comm, const std::vector<char>& own_flags) const;

 private:
  // The copies' values (value(j), j = n + k the k-th copy in local) sent home, where add(i, v)
  // takes each into the particle i it copies, the ranks in order.
  template <class T, class Value, class Add>
  void sum_home(const Comm& comm, std::size_t n, const Value& value, const Add& add) const;

  std::vector<Box> boxes_;
  std::vector<std::vector<std::uint32_t>> sent_;  // per rank, the own particles copied to it
  std::vector<long long> from_{0};                // the copies of rank r: [from_[r], from_[r + 1])
};

}  // namespace vortex::mpi::detail
