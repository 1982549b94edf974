// control_particles over ranks (vortex/mpi/distributed_toolkit.hpp): a halo of the other ranks'
// particles as far as a removed particle's receivers may lie, with their strengths; each rank
// decides and hands over its own particles, the copies' candidacy comes from their ranks, and the
// shares that landed on copies go home.

#include <algorithm>
#include <cmath>
#include <limits>

#include "comm/collectives.hpp"
#include "halo/halo.hpp"
#include "particle_control/control_parts.hpp"
#include "solver/options_agreement.hpp"
#include "vortex/mpi/distributed_toolkit.hpp"

namespace vortex::mpi {

namespace {

using detail::Comm;

// The receivers' search widens up to 8 absorb radii (particle_control.cpp's absorb).
constexpr double kWidestAbsorb = 8;

std::vector<std::pair<const char*, double>> fields(const ParticleControlOptions& o) {
  return {{"spacing", o.spacing},
          {"remove_threshold", o.remove_threshold},
          {"merge_distance", o.merge_distance},
          {"max_particles", static_cast<double>(o.max_particles)},
          {"absorb_radius", o.absorb_radius},
          {"merge_into", static_cast<double>(o.merge_into)},
          {"blocked", o.blocked ? 1.0 : 0.0}};
}

// The whole set's removal threshold: the relative one, raised to remove the excess over
// max_particles (everything up to and including the excess-th weakest of all ranks').
double whole_threshold(const Comm& comm, const ParticleControlOptions& o, double relative,
                       const double* strengths, std::size_t own) {
  if (o.max_particles == 0) return relative;
  const auto total = static_cast<std::size_t>(comm.sum(static_cast<unsigned long long>(own)));
  if (total <= o.max_particles) return relative;
  std::vector<double> all = comm.allgatherv(std::vector<double>(strengths, strengths + own));
  const std::size_t excess = total - o.max_particles;
  std::nth_element(all.begin(), all.begin() + (excess - 1), all.end());
  return std::max(relative, std::nextafter(all[excess - 1], HUGE_VAL));
}

void add_up(const Comm& comm, ParticleControlStats& s) {
  unsigned long long counts[] = {s.removed, s.merged, s.kept, s.signed_shares, s.partner_merges};
  comm.allreduce(counts, 5, MPI_SUM);
  s.removed = counts[0];
  s.merged = counts[1];
  s.kept = counts[2];
  s.signed_shares = counts[3];
  s.partner_merges = counts[4];
  s.removed_strength = comm.sum(s.removed_strength);
  double largest[] = {s.largest_share, s.strongest_after};
  comm.allreduce(largest, 2, MPI_MAX);
  s.largest_share = largest[0];
  s.strongest_after = largest[1];
}

}  // namespace

ParticleControlStats control_particles(MPI_Comm communicator, ParticleSet& p,
                                       const ParticleControlOptions& options,
                                       ParticleControlWorkspace& workspace) {
  const Comm comm(communicator);
  detail::together(comm, [&] {
    validate(options);
    detail::check_finite(p, "particle control");
  });
  detail::agree_on_fields(comm, fields(options));
  if (comm.size() == 1) return control_particles(p, options, workspace);
  ParticleControlStats stats;
  detail::lockstep(comm, "particle control", [&] {
    const std::size_t n = p.size();
    // A candidate's receivers lie within the widest absorb radius, its merge partners closer.
    const double reach =
        std::max(kWidestAbsorb * options.absorb_radius, options.merge_distance) * options.spacing;
    detail::Halo halo;
    halo.gather(comm, p, n, reach, true);
    vortex::detail::ControlParts parts;
    parts.own = n;
    parts.largest = [&](double v) { return comm.max(v); };
    parts.threshold = [&](double relative, const double* strengths, std::size_t own) {
      return whole_threshold(comm, options, relative, strengths, own);
    };
    parts.copies_candidacy = [&](std::vector<char>& candidate) {
      const std::vector<char> theirs =
          halo.send_flags(comm, std::vector<char>(candidate.begin(), candidate.begin() + n));
      std::copy(theirs.begin(), theirs.end(), candidate.begin() + n);
    };
    parts.copies_home = [&](ParticleSet& local,
                            std::vector<vortex::detail::MergeMoments>& moments) {
      halo.return_strengths(comm, local, n);
      if (!moments.empty()) halo.return_sums(comm, moments, n);
    };
    stats = vortex::detail::control_particles_part(p, options, workspace, parts);
  });
  add_up(comm, stats);
  return stats;
}

}  // namespace vortex::mpi
