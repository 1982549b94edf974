#pragma once
// What vortex-body writes: .pvd series of the particles (circulation, radius, and their velocity
// and vorticity) and of the surface (gamma, slip, outer normal velocity per panel), the per-step
// diagnostics CSV, the C_D and C_L plots and the JSON summary. Every write is checked: a failed
// one throws vortex::FileError naming the file.

#include <array>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "body_settings.hpp"
#include "vortex/bodies/body_flow.hpp"
#include "vortex/bodies/forces.hpp"
#include "vortex/pvd.hpp"

namespace vortex::body_app {

// One CSV row.
struct StepRecord {
  long step = 0;
  double time = 0, force_time = 0;
  std::size_t particles = 0;
  bodies::ForceCoefficients coefficients;
  bodies::ForceCoefficients pressure;  // of the pressure from the shed vorticity (the step's)
  bodies::ForceCoefficients friction;
  bodies::ImpulseBudget budget;  // the step's impulse by the impulse route and by the wall's forces
  bodies::Vec3 impulse, vorticity;
  bodies::Vec3 sheet_vorticity;  // of `vorticity`, the sheet's part (the step's last solve)
  bodies::BodyStepStats stats;
  std::uint64_t host_bytes = 0;        // the process's resident memory after the step
  double max_strength = 0;             // the largest |Gamma| of a particle after the step
  bodies::Vec3 strongest;              // where that particle is
  double strongest_wall_distance = 0;  // and its signed distance from the wall
  bodies::Vec3 wake;         // the centre of |Gamma| past the body (field_grid.hpp, wake_centre)
  double wake_strength = 0;  // and the |Gamma| there
};

// Bytes per particle (0 for none).
double per_particle(std::uint64_t bytes, std::size_t particles);

class BodyOutput {
 public:
  // Opens the series and the CSV in `dir`; resuming, keeps what an earlier run wrote up to
  // `resume_step` and `resume_time` and continues it.
  BodyOutput(const std::string& dir, bool resume, long resume_step = 0, double resume_time = 0);

  // The particles' and the surface's files of a step. The particles carry, beside circulation and
  // radius, their velocity as the step moves them (the free stream plus the particles' and the
  // sheet's, the sheet solved for these particles) and the vorticity curl u of its gradient,
  // evaluated once per file by the flow's particle solver.
  void write_frame(long step, double time, const ParticleSet& particles, bodies::BodyFlow& flow);
  void write_row(const StepRecord& r);
  // Closes the CSV; throws when its last bytes cannot be written.
  void close();
  const std::string& dir() const { return dir_; }
  // C_D ("cd"), C_L ("cl") or a component of the impulse budget ("impulse_drop_x" ..
  // "wall_impulse_z") of every row written so far (also those of a run this one resumes).
  const std::vector<double>& column(const std::string& name) const;

 private:
  void check_csv();

  std::string dir_, csv_path_;
  PvdWriter particles_, surface_;
  std::ofstream csv_;
  std::vector<double> cd_, cl_;
  std::array<std::vector<double>, 6> budget_;  // impulse_drop_x .. z, wall_impulse_x .. z
  VelocityField field_;  // the particles' velocity and gradient, kept from one file to the next
};

// Before a run: creates the output folder and throws vortex::FileError naming the path unless a
// file can be created in it and `json` (when not empty) can be written, so that a bad path fails
// before the first step rather than after the last.
void check_output_paths(const std::string& dir, const std::string& json);

// Writes `text` to `path`: atomically for a regular file (or a new one); directly, checked, for
// an existing device, pipe or the like (it cannot be replaced by a rename).
void write_output_text(const std::string& path, const std::string& text);

// Where a run ended: its step, time, particles and the impulse at t = 0+.
struct RunEnd {
  long step;
  double time;
  std::size_t particles;
  bodies::Vec3 impulse_t0;
};

// The run's JSON summary at s.json: the case, the final and last-quarter mean forces, the
// boundary-element solves' iterations and residual, the time taken.
void write_summary(const Settings& s, Backend backend, std::size_t panels, const RunEnd& r,
                   const BodyOutput& out, double bem_iterations_mean, double bem_residual_max,
                   double seconds);

// Writes the gnuplot script `text` to `script` and runs it; false when gnuplot failed.
bool run_gnuplot(const std::string& script, const std::string& text);

// cd.png and cl.png against the reference lines (gnuplot); false when gnuplot failed.
bool plot_coefficients(const std::string& dir, double re, bool sphere);

}  // namespace vortex::body_app
