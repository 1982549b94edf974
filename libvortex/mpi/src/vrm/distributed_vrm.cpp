// vrm_diffuse over ranks (vortex/mpi/distributed_toolkit.hpp): a halo of the other ranks'
// particles within 2 R, with zero strength, so that every owner solves with the neighbours it has
// in the whole set; the step's rounds agreed over the ranks (the strongest |Gamma|, whether an
// owner is left unsolved, the nodes inserted); then the shares that landed on copies go home.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "comm/collectives.hpp"
#include "halo/halo.hpp"
#include "solver/options_agreement.hpp"
#include "vortex/mpi/distributed_toolkit.hpp"
#include "vrm/vrm_parts.hpp"

namespace vortex::mpi {

namespace {

using detail::Box;
using detail::Comm;

// A lattice node's key with the smallest core radius of its proposers.
struct Proposal {
  std::uint64_t key;
  double sigma;
};

// The nodes inserted this step over all ranks, each once: a node proposed by several ranks
// belongs to the lowest of them; each rank inserts the new nodes within the halo's reach of its
// particles (those its owners can reach, and so every one it proposed).
class NodeMerge {
 public:
  NodeMerge(const Comm& comm, const Box& own, double reach, double h)
      : comm_(comm), own_(own), reach_(reach), h_(h) {}

  std::size_t operator()(std::vector<std::uint64_t>& keys, std::vector<double>& sigma) {
    std::vector<Proposal> mine(keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k) mine[k] = {keys[k], sigma[k]};
    std::vector<long long> from;
    const std::vector<Proposal> all = comm_.allgatherv(mine, &from);
    std::vector<std::size_t> order(all.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // By key; a key's proposals in rank order (the gather's).
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return all[a].key < all[b].key; });
    keys.clear();
    sigma.clear();
    std::size_t fresh = 0;
    for (std::size_t a = 0; a < order.size();) {
      const std::uint64_t key = all[order[a]].key;
      const int owner = static_cast<int>(
          std::upper_bound(from.begin(), from.end(), static_cast<long long>(order[a])) -
          from.begin() - 1);
      double s = all[order[a]].sigma;
      std::size_t b = a + 1;
      for (; b < order.size() && all[order[b]].key == key; ++b)
        s = std::min(s, all[order[b]].sigma);
      a = b;
      if (!taken_.insert(key).second) continue;
      ++fresh;
      double x, y, z;
      vortex::detail::node_position(key, h_, x, y, z);
      if (!detail::near_box(own_, x, y, z, reach_)) continue;
      keys.push_back(key);
      sigma.push_back(s);
      inserted_.push_back(key);
      owner_.push_back(owner);
    }
    return fresh;
  }

  // The nodes this rank inserted, in order, and the rank each belongs to.
  const std::vector<std::uint64_t>& inserted() const { return inserted_; }
  const std::vector<int>& owners() const { return owner_; }

 private:
  const Comm& comm_;
  const Box own_;
  const double reach_, h_;
  std::unordered_set<std::uint64_t> taken_;
  std::vector<std::uint64_t> inserted_;
  std::vector<int> owner_;
};

// A share of an inserted node on its way to the node's rank.
struct NodeShare {
  std::uint64_t key;
  double g[3];
};

std::vector<std::pair<const char*, double>> fields(const VrmOptions& o, double nu, double dt) {
  return {{"nu", nu},
          {"dt", dt},
          {"spacing", o.spacing},
          {"radius_factor", o.radius_factor},
          {"min_radius", o.min_radius},
          {"hole_distance", o.hole_distance},
          {"insert", o.insert ? 1.0 : 0.0},
          {"insert_threshold", o.insert_threshold},
          {"signed_fallback", o.signed_fallback ? 1.0 : 0.0},
          {"core_radius", o.core_radius},
          {"max_rounds", static_cast<double>(o.max_rounds)},
          {"blocked", o.blocked ? 1.0 : 0.0},
          {"wall_distance", o.wall_distance ? 1.0 : 0.0},
          {"moments", o.moments ? 1.0 : 0.0}};
}

// The whole set's counts (sums over the ranks) and extremes.
void add_up(const Comm& comm, VrmStats& s) {
  unsigned long long counts[] = {s.diffused,      s.signed_fallback, s.kept,
                                 s.moved,         s.unresolved,      s.inserted,
                                 s.device_solved, s.device_deferred, s.device_unsolved};
  comm.allreduce(counts, 9, MPI_SUM);
  s.diffused = counts[0];
  s.signed_fallback = counts[1];
  s.kept = counts[2];
  s.moved = counts[3];
  s.unresolved = counts[4];
  s.inserted = counts[5];
  s.device_solved = counts[6];
  s.device_deferred = counts[7];
  s.device_unsolved = counts[8];
  double extremes[] = {s.max_residual, static_cast<double>(s.rounds)};
  comm.allreduce(extremes, 2, MPI_MAX);
  s.max_residual = extremes[0];
  s.rounds = static_cast<int>(extremes[1]);
}

}  // namespace

VrmStats vrm_diffuse(MPI_Comm communicator, ParticleSet& p, double nu, double dt,
                     const VrmOptions& options, VrmWorkspace& workspace) {
  const auto start = std::chrono::steady_clock::now();
  const Comm comm(communicator);
  detail::together(comm, [&] {
    validate(options);
    detail::check_finite(p, "VRM");
    if (!(nu >= 0) || !(dt >= 0) || !std::isfinite(nu) || !std::isfinite(dt))
      throw std::invalid_argument("VRM: nu and dt must be finite and >= 0");
  });
  detail::agree_on_fields(comm, fields(options, nu, dt));
  if (comm.size() == 1) return vrm_diffuse(p, nu, dt, options, workspace);
  const double radius = vrm_radius(options, nu, dt);
  if (nu == 0 || dt == 0) {
    VrmStats none;
    none.radius = radius;
    return none;
  }
  VrmStats stats;
  detail::lockstep(comm, "the VRM step", [&] {
    const std::size_t n = p.size();
    // Owners reach their neighbours within 2 R (the last round's), which reach no farther.
    detail::Halo halo;
    halo.gather(comm, p, n, 2 * radius, false);
    const std::size_t copies = halo.size();
    NodeMerge merge(comm, halo.boxes()[comm.rank()], 2 * radius, options.spacing);
    vortex::detail::VrmParts parts;
    parts.largest = [&](double v) { return comm.max(v); };
    parts.any = [&](bool v) { return comm.max(v ? 1 : 0) != 0; };
    parts.merge = [&](std::vector<std::uint64_t>& keys, std::vector<double>& sigma) {
      return merge(keys, sigma);
    };
    stats = vortex::detail::vrm_diffuse_part(p, nu, dt, options, workspace, parts);
    // What the copies received goes home.
    halo.return_strengths(comm, p, n);
    // So do the shares of the nodes that belong to other ranks.
    const std::size_t first = n + copies, nodes = merge.inserted().size();
    std::vector<std::vector<NodeShare>> send(comm.size());
    std::unordered_map<std::uint64_t, std::size_t> own_node;
    for (std::size_t k = 0; k < nodes; ++k) {
      const std::size_t j = first + k;
      const int owner = merge.owners()[k];
      if (owner == comm.rank())
        own_node.emplace(merge.inserted()[k], j);
      else if (p.gx[j] != 0 || p.gy[j] != 0 || p.gz[j] != 0)
        send[owner].push_back({merge.inserted()[k], {p.gx[j], p.gy[j], p.gz[j]}});
    }
    for (const NodeShare& s : comm.alltoallv(send)) {
      const std::size_t j = own_node.at(s.key);
      p.gx[j] += s.g[0];
      p.gy[j] += s.g[1];
      p.gz[j] += s.g[2];
    }
    // Kept: this rank's particles, its nodes that received a share, the particles the moments
    // hook moved (after the nodes).
    std::size_t w = n, kept_nodes = 0;
    for (std::size_t j = first; j < p.size(); ++j) {
      const bool node = j < first + nodes;
      if (node && (merge.owners()[j - first] != comm.rank() ||
                   (p.gx[j] == 0 && p.gy[j] == 0 && p.gz[j] == 0)))
        continue;
      kept_nodes += node;
      p.copy_particle(j, w++);
    }
    p.resize(w);
    stats.inserted = kept_nodes;
  });
  add_up(comm, stats);
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace vortex::mpi
