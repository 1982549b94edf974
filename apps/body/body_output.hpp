#pragma once
// What vortex-body writes: .pvd series of the particles and of the surface (gamma, slip, outer
// normal velocity per panel), the per-step diagnostics CSV, the C_D and C_L plots and the JSON
// summary.

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

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
  bodies::Vec3 impulse, vorticity;
  bodies::BodyStepStats stats;
  std::uint64_t host_bytes = 0;        // the process's resident memory after the step
  double max_strength = 0;             // the largest |Gamma| of a particle after the step
  bodies::Vec3 strongest;              // where that particle is
  double strongest_wall_distance = 0;  // and its signed distance from the wall
};

// Bytes per particle (0 for none).
double per_particle(std::uint64_t bytes, std::size_t particles);

class BodyOutput {
 public:
  // Opens the series and the CSV in `dir`; resuming, keeps what an earlier run wrote up to
  // `resume_step` and `resume_time` and continues it.
  BodyOutput(const std::string& dir, bool resume, long resume_step = 0, double resume_time = 0);

  void write_frame(long step, double time, const ParticleSet& particles, bodies::BodyFlow& flow);
  void write_row(const StepRecord& r);
  const std::string& dir() const { return dir_; }
  // C_D and C_L of every row so far (also those of a run this one resumes).
  std::vector<double> column(const std::string& name) const;

 private:
  std::string dir_;
  PvdWriter particles_, surface_;
  std::ofstream csv_;
};

// Writes the gnuplot script `text` to `script` and runs it; false when gnuplot failed.
bool run_gnuplot(const std::string& script, const std::string& text);

// cd.png and cl.png against the reference lines (gnuplot); false when gnuplot failed.
bool plot_coefficients(const std::string& dir, double re, bool sphere);

}  // namespace vortex::body_app
