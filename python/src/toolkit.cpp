// The pieces of a vortex-method time loop: time integration, viscous diffusion (VRM, PSE),
// particle control and diagnostics. Long-running calls release the GIL.

#include <pybind11/stl.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "bindings.hpp"
#include "vortex/diagnostics.hpp"
#include "vortex/particle_control.hpp"
#include "vortex/pse.hpp"
#include "vortex/time_integration.hpp"
#include "vortex/vrm.hpp"

namespace vortex::python {

namespace {

using namespace py::literals;

py::tuple field_tuple(const VelocityField& f) {
  return py::make_tuple(velocity_array(f), gradient_array(f));
}

// A TimeIntegrator with the Python Solver it steps with: each call holds that Solver (as the
// Solver's own calls do), so another thread's call on the same Solver or integrator is refused
// instead of overwriting this one's work.
struct PyTimeIntegrator {
  PyTimeIntegrator(py::object s, const TimeIntegratorOptions& o)
      : solver(std::move(s)), integrator(solver_of(solver), o) {}
  py::object solver;
  TimeIntegrator integrator;
};

py::dict diagnostics_dict(const Diagnostics& d) {
  return py::dict("time"_a = d.time, "count"_a = d.count, "total_vorticity"_a = d.total_vorticity,
                  "linear_impulse"_a = d.linear_impulse, "angular_impulse"_a = d.angular_impulse,
                  "energy"_a = d.energy, "enstrophy"_a = d.enstrophy, "helicity"_a = d.helicity,
                  "max_strength"_a = d.max_strength, "sum_strength"_a = d.sum_strength);
}

py::dict vrm_stats_dict(const VrmStats& s) {
  return py::dict("diffused"_a = s.diffused, "kept"_a = s.kept, "unresolved"_a = s.unresolved,
                  "inserted"_a = s.inserted, "rounds"_a = s.rounds, "radius"_a = s.radius,
                  "max_residual"_a = s.max_residual, "seconds"_a = s.seconds);
}

py::dict control_stats_dict(const ParticleControlStats& s) {
  return py::dict(
      "removed"_a = s.removed, "merged"_a = s.merged, "partner_merges"_a = s.partner_merges,
      "kept"_a = s.kept, "removed_strength"_a = s.removed_strength, "threshold"_a = s.threshold,
      "signed_shares"_a = s.signed_shares, "largest_share"_a = s.largest_share,
      "strongest_before"_a = s.strongest_before, "strongest_after"_a = s.strongest_after,
      "device_merges"_a = s.device_merges, "host_merges"_a = s.host_merges,
      "device_shares"_a = s.device_shares, "host_shares"_a = s.host_shares,
      "seconds"_a =
          py::dict("grid"_a = s.seconds_grid, "candidates"_a = s.seconds_candidates,
                   "receivers"_a = s.seconds_receivers, "hand_over"_a = s.seconds_hand_over,
                   "compaction"_a = s.seconds_compact, "device"_a = s.seconds_device));
}

void bind_time_integrator(py::module_& m) {
  py::class_<PyTimeIntegrator>(m, "TimeIntegrator",
                               "Explicit Runge-Kutta steps of positions and strengths (with "
                               "vortex stretching) under the particles' own velocity")
      .def(py::init([](const py::object& solver, const std::string& scheme,
                       const std::string& stretching, std::array<double, 3> free_stream,
                       double relaxation, double relaxation_rate) {
             TimeIntegratorOptions o;
             o.scheme = parse_time_scheme(scheme);
             o.stretching = parse_stretching(stretching);
             o.free_stream = free_stream;
             o.relaxation = relaxation;
             o.relaxation_rate = relaxation_rate;
             return std::make_unique<PyTimeIntegrator>(solver, o);
           }),
           py::arg("solver"), py::kw_only(), py::arg("scheme") = "heun",
           py::arg("stretching") = "transpose",
           py::arg("free_stream") = std::array<double, 3>{0, 0, 0}, py::arg("relaxation") = 0.0,
           py::arg("relaxation_rate") = 0.0,
           py::keep_alive<1, 2>())  // the integrator holds the solver
      .def(
          "step",
          [](PyTimeIntegrator& t, ParticleSet& p, double dt) {
            const auto held = hold_solver(t.solver);
            const VelocityField* f;
            {
              py::gil_scoped_release release;
              f = &t.integrator.step(p, dt);
            }
            return field_tuple(*f);
          },
          py::arg("particles"), py::arg("dt"),
          "Advances the particles by dt; returns (velocity, gradient) at the start of the step")
      .def(
          "evaluate",
          [](PyTimeIntegrator& t, const ParticleSet& p) {
            const auto held = hold_solver(t.solver);
            const VelocityField* f;
            {
              py::gil_scoped_release release;
              f = &t.integrator.evaluate(p);
            }
            return field_tuple(*f);
          },
          py::arg("particles"))
      .def_property_readonly("evaluations",
                             [](const PyTimeIntegrator& t) { return t.integrator.evaluations(); })
      .def_property_readonly("evaluation_seconds", [](const PyTimeIntegrator& t) {
        return t.integrator.evaluation_seconds();
      });
}

void bind_vrm(py::module_& m) {
  m.def(
      "vrm_diffuse",
      [](ParticleSet& p, double nu, double dt, double spacing, double radius_factor,
         double min_radius, bool insert, double insert_threshold, double core_radius) {
        VrmOptions o;
        o.spacing = spacing;
        o.radius_factor = radius_factor;
        o.min_radius = min_radius;
        o.insert = insert;
        o.insert_threshold = insert_threshold;
        o.core_radius = core_radius;
        VrmStats s;
        {
          py::gil_scoped_release release;
          s = vrm_diffuse(p, nu, dt, o);
        }
        return vrm_stats_dict(s);
      },
      py::arg("particles"), py::arg("nu"), py::arg("dt"), py::kw_only(), py::arg("spacing"),
      py::arg("radius_factor") = 3.5, py::arg("min_radius") = 1.5, py::arg("insert") = true,
      py::arg("insert_threshold") = 1e-4, py::arg("core_radius") = 0.0,
      "Viscous diffusion by vorticity redistribution (may append particles); returns stats");
}

void bind_pse(py::module_& m) {
  m.def(
      "pse_diffuse",
      [](ParticleSet& p, double nu, double dt, double epsilon, double volume, double cutoff,
         double max_substep) {
        PseOptions o;
        o.epsilon = epsilon;
        o.volume = volume;
        o.cutoff = cutoff;
        o.max_substep = max_substep;
        py::gil_scoped_release release;
        return pse_diffuse(p, nu, dt, o);
      },
      py::arg("particles"), py::arg("nu"), py::arg("dt"), py::kw_only(), py::arg("epsilon"),
      py::arg("volume"), py::arg("cutoff") = 6.0, py::arg("max_substep") = 0.2,
      "Viscous diffusion by particle strength exchange; returns the number of sub-steps");
}

void bind_particle_control(py::module_& m) {
  m.def(
      "control_particles",
      [](ParticleSet& p, double spacing, double remove_threshold, double merge_distance,
         std::size_t max_particles, double absorb_radius, const std::string& merge_into,
         const std::string& backend, bool spatial_order) {
        ParticleControlOptions o;
        o.backend = parse_backend(backend);
        if (merge_into != "neighbours" && merge_into != "partner")
          throw std::invalid_argument(
              "control_particles: merge_into must be 'neighbours' or "
              "'partner', got '" +
              merge_into + "'");
        o.merge_into = merge_into == "partner" ? MergeInto::Partner : MergeInto::Neighbours;
        o.spacing = spacing;
        o.remove_threshold = remove_threshold;
        o.merge_distance = merge_distance;
        o.max_particles = max_particles;
        o.absorb_radius = absorb_radius;
        o.spatial_order = spatial_order;
        ParticleControlStats s;
        {
          py::gil_scoped_release release;
          s = control_particles(p, o);
        }
        return control_stats_dict(s);
      },
      py::arg("particles"), py::kw_only(), py::arg("spacing"), py::arg("remove_threshold") = 1e-6,
      py::arg("merge_distance") = 0.0, py::arg("max_particles") = 0, py::arg("absorb_radius") = 1.5,
      py::arg("merge_into") = "neighbours", py::arg("backend") = "cpu",
      py::arg("spatial_order") = false,
      "Removes weak and merges close particles, conserving vorticity and linear impulse "
      "(merge_into='partner': a merge goes whole to the nearest particle that stays, moved to the "
      "centroid; the linear impulse is then kept for parallel strengths only); backend 'cuda' (or "
      "'auto' with a GPU) takes each particle's decisions on the GPU for sets of more than 20,000, "
      "the same results to rounding; spatial_order=True leaves the particles in the order of the "
      "call's grid (cells of spacing), neighbours next to each other, instead of their own");
}

void bind_diagnostics(py::module_& m) {
  m.def(
      "diagnostics",
      [](const ParticleSet& p, const py::object& velocity, const py::object& gradient,
         double time) {
        if (velocity.is_none()) return diagnostics_dict(compute_diagnostics(p, nullptr, time));
        const VelocityField f = field_from_arrays(velocity, gradient);
        if (f.size() != p.size()) throw py::value_error("velocity must have one row per particle");
        return diagnostics_dict(compute_diagnostics(p, &f, time));
      },
      py::arg("particles"), py::arg("velocity") = py::none(), py::arg("gradient") = py::none(),
      py::arg("time") = 0.0,
      "Total vorticity, linear and angular impulse, and with a field energy, enstrophy, helicity");
}

}  // namespace

void bind_toolkit(py::module_& m) {
  bind_time_integrator(m);
  bind_vrm(m);
  bind_pse(m);
  bind_particle_control(m);
  bind_diagnostics(m);
}

}  // namespace vortex::python
