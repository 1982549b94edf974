#pragma once
// Keeping the particle count bounded: particles that carry negligible strength are removed, and
// particles closer than a merge distance to a stronger one are merged, in both cases by handing
// their strength to the surrounding particles (on the same side of a wall, with `blocked`) with
// fractions f_q that satisfy
//
//   sum_q f_q = 1,   sum_q f_q (x_q - x_p) = 0,
//
// of least weighted norm (weights 1 + |x_q - x_p|^2 / h^2, as in the VRM), non-negative where the
// particle lies inside the hull of its receivers. Outside it, a weak particle takes signed
// fractions whose magnitudes sum to at most 3, and a merge does not happen: signed fractions of a
// strong particle raise its receivers far above it. A particle without fractions stays. The first
// condition conserves the total vorticity, the second the linear impulse 1/2 sum x x Gamma, exactly
// (to rounding); the angular impulse changes by the second moment of the removed strength only. A
// removed particle's strength goes only to particles that stay, never to another candidate for
// removal, so that every removal is found independently (in parallel); the strengths are handed
// over in order of increasing |Gamma|, the same sums for any number of threads.
//
// A merge may instead give its whole strength to one partner (MergeInto::Partner): the nearest
// particle within the merge distance that stays, which moves to the |Gamma|-weighted centroid of
// itself and the particles merged into it. The total vorticity is kept exactly, the linear impulse
// where the merged strengths are parallel. Spreading a strength over the neighbours within 1.5 h
// puts it across the vortex lines beside it; one partner within the merge distance keeps it on
// its line (test MergePartner.AFilamentStaysOnItsLine). A body's sheet answers the divergence of
// the particles next to it (docs/methods/bodies.md, section 3, measured there).
//
// With a GPU (ParticleControlOptions::backend), each particle's decisions (whether it merges, its
// receivers and fractions) are taken there by the same code (vortex/math/control_shares.hpp), the
// same results to rounding; the hand-over stays on the host, in the order above.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "vortex/options.hpp"
#include "vortex/particles.hpp"

namespace vortex {

// Where a merged particle's strength goes.
enum class MergeInto {
  Neighbours,  // spread over the neighbours that stay, total and first moment kept
  Partner,     // to the nearest particle that stays within the merge distance, moved to the
               // centroid; the neighbours where none stays that close
};

// Where a wall lies near the particles, as the device's decisions read it (filled by the
// options' wall_nearby hook): per particle a lower bound of its distance from the wall,
// exact within the reach asked for; on a convex body, for particles within that reach, the
// tangent plane of the closest panel, beyond which a path from the particle stays in the fluid
// (vortex/math/closest_panel.hpp's beyond_tangent_plane, the first test of the wall's
// `blocked`), and the body's scale for that test's rounding margin.
struct WallNearby {
  std::vector<double> distance;
  std::vector<std::int32_t> plane;            // per particle: its row of `planes`, or -1 (none)
  std::vector<std::array<double, 6>> planes;  // a point of the plane, its outward normal
  double body_scale = 0;                      // the body's bounding-box diagonal
  // The distances are signed distances from a solid body whose `blocked` is the wall's segment
  // test (the path's end or midpoint inside it): the host then takes the paths they decide from
  // them (vortex/math/closest_panel.hpp's path_by_distances) without calling `blocked`.
  bool solid = false;
};

struct ParticleControlOptions {
  double spacing = 0;              // h (> 0)
  double remove_threshold = 1e-6;  // remove |Gamma| < remove_threshold * max |Gamma|
  double merge_distance = 0;       // merge pairs closer than merge_distance * h (0: never)
  std::size_t max_particles = 0;   // > 0: remove the weakest until at most this many remain
  double absorb_radius = 1.5;      // receivers within absorb_radius * h (doubled while too few)
  MergeInto merge_into = MergeInto::Neighbours;
  // Optional wall, as VrmOptions::blocked: true when the straight path from particle i, at p, to
  // point q leaves the fluid. Such a particle neither receives i's strength nor makes i merge:
  // strength handed through a body mixes the boundary layers of its two sides. A partner whose
  // centroid it cannot reach keeps its place. Called from several threads.
  std::function<bool(std::size_t i, const std::array<double, 3>& p, const std::array<double, 3>& q)>
      blocked;
  // Where the per-particle decisions run (which particles merge, each candidate's receivers and
  // fractions): Cuda, or Auto where a device is present, puts them on the GPU for sets of more
  // than 20,000 particles, the same decisions to rounding; the host takes the particles the
  // device leaves it (near a wall, crowded) and the hand-over. A split set (the distributed
  // toolkit's) stays on the host.
  Backend backend = Backend::Cpu;
  // With `blocked`: where the wall lies (WallNearby), for the particles within `reach` of it. The
  // device decides a particle where its search stays closer than the wall, or where every path
  // it tests ends beyond the tangent plane of the particle's closest panel; without this hook a
  // set with `blocked` stays on the host.
  std::function<void(const ParticleSet& particles, double reach, WallNearby& wall)> wall_nearby;
  // Where the survivors go: in the caller's order (false), or in the order of the call's grid
  // (cells of h, then caller index; true), so that neighbours sit near each other in memory and
  // later passes over neighbours (a VRM, the next call's grid) read less scattered memory. A split
  // set (the distributed toolkit's) keeps the caller's order.
  bool spatial_order = false;
};

void validate(const ParticleControlOptions& options);

struct ParticleControlStats {
  std::size_t removed = 0;         // weak particles removed
  std::size_t merged = 0;          // close particles merged into neighbours or a partner
  std::size_t partner_merges = 0;  // of those, merged into one partner (MergeInto::Partner)
  std::size_t kept = 0;            // candidates kept because no receivers were found
  double removed_strength = 0;     // sum |Gamma| handed over
  double threshold = 0;            // the |Gamma| below which particles were removed
  std::size_t signed_shares = 0;   // candidates handed over with signed fractions (at the edge)
  double largest_share = 0;        // the largest |f_q| of a hand-over
  // The largest |Gamma| before and after the call: the hand-overs may raise it.
  double strongest_before = 0, strongest_after = 0;
  // Wall seconds by phase: the strengths and the grid; the candidates (the merge tests) in order;
  // their receivers and fractions; the hand-over (with the partners' moves); the compaction.
  double seconds_grid = 0, seconds_candidates = 0, seconds_receivers = 0, seconds_hand_over = 0,
         seconds_compact = 0;
  double seconds_wall = 0;  // of seconds_grid: the wall_distance hook
  // With the device (ParticleControlOptions::backend): the particles whose merge and the
  // candidates whose receivers it decided, and those it left to the host.
  std::size_t device_merges = 0, host_merges = 0, device_shares = 0, host_shares = 0;
  // Of host_shares, those the device left for a path it did not clear of the wall, for more
  // receivers than it holds, for a solve that needs the host's fallback.
  std::size_t host_shares_wall = 0, host_shares_crowded = 0, host_shares_solve = 0;
  // The host's time on those (summed over its threads), by the same reasons; the rest (all
  // candidates without the device) in thread_seconds_host_other.
  double thread_seconds_host_wall = 0, thread_seconds_host_crowded = 0,
         thread_seconds_host_other = 0;
  double seconds_device = 0;  // of the phases: the calls to the device (uploads, kernels, results)
};

ParticleControlStats control_particles(ParticleSet& particles,
                                       const ParticleControlOptions& options);

class ParticleControlWorkspace;
namespace detail {
struct ControlParts;
// A call on one part of a set split over processes (the distributed toolkit's).
ParticleControlStats control_particles_part(ParticleSet& particles,
                                            const ParticleControlOptions& options,
                                            ParticleControlWorkspace& workspace,
                                            const ControlParts& parts);
}  // namespace detail

// The scratch of control_particles (its grid, flags, lists), kept from one call to the next so
// that a call like an earlier one allocates nothing.
class ParticleControlWorkspace {
 public:
  ParticleControlWorkspace();
  ~ParticleControlWorkspace();
  ParticleControlWorkspace(ParticleControlWorkspace&&) noexcept;
  ParticleControlWorkspace& operator=(ParticleControlWorkspace&&) noexcept;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  friend ParticleControlStats control_particles(ParticleSet&, const ParticleControlOptions&,
                                                ParticleControlWorkspace&);
  friend ParticleControlStats detail::control_particles_part(ParticleSet&,
                                                             const ParticleControlOptions&,
                                                             ParticleControlWorkspace&,
                                                             const detail::ControlParts&);
};

// The same in a workspace kept across calls (the same result).
ParticleControlStats control_particles(ParticleSet& particles,
                                       const ParticleControlOptions& options,
                                       ParticleControlWorkspace& workspace);

}  // namespace vortex
