#include "body_case.hpp"

#include <array>
#include <cstdio>
#include <stdexcept>

#include "vortex/bodies/bem_solver.hpp"
#include "vortex/solver.hpp"

namespace vortex::body_app {

namespace {

std::array<double, 3> arr(const bodies::Vec3& v) {
  return {v.x, v.y, v.z};
}
bodies::Vec3 vec(const std::array<double, 3>& a) {
  return {a[0], a[1], a[2]};
}

// Derived values (D, h) are included so that a change of their defaults is caught too.
bodies::CheckpointIdentity case_identity(const Settings& s, const bodies::Surface& surface,
                                         double diameter, double h) {
  using bodies::exact_text;
  const bodies::Vec3 u = free_stream(s);
  bodies::CheckpointIdentity id{{"body", s.mesh.empty() ? s.body : "mesh"}};
  if (s.mesh.empty()) id.push_back({"frequency", std::to_string(s.frequency)});
  if (s.mesh.empty() && s.body == "sphere") id.push_back({"radius", exact_text(s.radius)});
  if (s.mesh.empty() && s.body == "ellipsoid") {
    std::string axes;
    for (const std::string& a : cli::split_list(s.axes))
      axes += (axes.empty() ? "" : ",") + exact_text(cli::parse_double("--axes", a));
    id.push_back({"axes", axes});
    id.push_back({"map", s.map});
  }
  const bodies::CheckpointIdentity rest{
      {"mesh", bodies::mesh_digest(surface.mesh)},
      {"panels", std::to_string(surface.size())},
      {"diameter", exact_text(diameter)},
      {"re", exact_text(s.re)},
      {"dt", exact_text(s.dt)},
      {"stream", exact_text(u.x) + "," + exact_text(u.y) + "," + exact_text(u.z)},
      {"h", exact_text(h)},
      {"shedding", s.shedding},
      {"shed-offset", exact_text(s.shed_offset)},
      {"shed-layer", exact_text(s.shed_layer)},
      {"shed-core", exact_text(s.shed_core)},
      {"sheet-core", exact_text(s.sheet_core)},
      {"wall-core", exact_text(s.wall_core)},
      {"wall-cores", s.wall_cores ? "on" : "off"},
      {"min-wall", exact_text(s.min_wall)},
      // Named as the options were before --merge-distance and --remove-threshold, so that
      // earlier checkpoints stay valid.
      {"merge", exact_text(s.merge_distance)},
      {"remove", exact_text(s.remove_threshold)},
      {"stretching", s.stretching},
      {"relaxation", exact_text(s.relaxation)},
      {"relaxation-rate", exact_text(s.relaxation_rate)}};
  id.insert(id.end(), rest.begin(), rest.end());
  // Absent where the strength spreads, as before the option, so that earlier checkpoints stay
  // valid for such runs.
  if (s.merge_into != "neighbours") id.push_back({"merge-into", s.merge_into});
  // Absent at 2.5, the reach before the option, so that checkpoints written then stay valid for
  // runs that ask for it.
  if (s.wall_exact_reach != 2.5) id.push_back({"wall-exact-reach", exact_text(s.wall_exact_reach)});
  // Absent without an outflow, so that checkpoints written before the option stay valid.
  if (s.outflow > 0) id.push_back({"outflow", exact_text(s.outflow)});
  return id;
}

}  // namespace

BodyCase make_case(const Settings& s) {
  BodyCase c;
  c.surface = make_body_surface(s);
  c.diameter = reference_diameter(s, c.surface);
  c.nu = viscosity(s, c.diameter);
  c.h = particle_spacing(s, c.nu);
  c.identity = case_identity(s, c.surface, c.diameter, c.h);
  return c;
}

void print_header(const Settings& s, const BodyCase& c, Backend backend) {
  std::printf("vortex-body: %s, %zu panels, D = %g, Re = %g, nu = %g, h = %g, dt = %g, %s\n",
              case_name(s).c_str(), c.surface.size(), c.diameter, s.re, c.nu, c.h, s.dt,
              to_string(resolve_backend(backend)).c_str());
}

bodies::BodyCheckpoint read_restart(const Settings& s, const BodyCase& c) {
  bodies::BodyCheckpoint ck = bodies::read_checkpoint(s.restart);
  bodies::check_identity(s.restart, ck, c.identity);
  if (ck.panels != c.surface.size())
    throw std::invalid_argument(s.restart + ": checkpoint of " + std::to_string(ck.panels) +
                                " panels, the body has " + std::to_string(c.surface.size()));
  return ck;
}

RunState checkpoint_state(const bodies::BodyCheckpoint& ck, bodies::BodyFlow& flow) {
  RunState r{ck.step, ck.time, ck.particles, vec(ck.impulse), vec(ck.impulse_t0)};
  flow.set_sheet(ck.gamma, r.particles);
  flow.set_outflow(vec(ck.outflow_impulse), vec(ck.outflow_vorticity));
  return r;
}

std::string checkpoint_path(const Settings& s, long step) {
  char name[64];
  std::snprintf(name, sizeof name, "/checkpoint-%06ld.bin", step);
  return s.output + name;
}

std::string save_checkpoint(const Settings& s, const BodyCase& c, bodies::BodyFlow& flow,
                            const RunState& r) {
  const std::string path = checkpoint_path(s, r.step);
  bodies::write_checkpoint(
      path, {r.step, r.time, flow.bem().surface().size(), c.identity, r.particles,
             flow.bem().gamma(), arr(r.impulse), arr(r.impulse_t0), arr(flow.outflow_impulse()),
             arr(flow.outflow_vorticity())});
  return path;
}

}  // namespace vortex::body_app
