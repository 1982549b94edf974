#include "body_output.hpp"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "json_writer.hpp"
#include "vortex/bodies/bem_solver.hpp"
#include "vortex/bodies/mesh_io.hpp"
#include "vortex/bodies/sheet.hpp"
#include "vortex/file_io.hpp"
#include "vortex/vtp.hpp"

namespace vortex::body_app {

namespace {

const std::array<const char*, 6> kBudgetColumns = {"impulse_drop_x", "impulse_drop_y",
                                                   "impulse_drop_z", "wall_impulse_x",
                                                   "wall_impulse_y", "wall_impulse_z"};

const char* kHeader =
    "step,t,t_force,n_particles,fx,fy,fz,cd,cl,ix,iy,iz,vorticity_x,vorticity_y,vorticity_z,"
    "bem_solves,bem_iterations,bem_residual,shed,inserted,reflected,pushed,removed,"
    "correction_ix,correction_iy,correction_iz,seconds,seconds_bem,seconds_convect,"
    "seconds_diffuse,seconds_bem_wall,seconds_vrm,seconds_control,host_bytes_per_particle,"
    "device_bytes_per_particle,max_strength,control_threshold,strongest_x,strongest_y,strongest_z,"
    "strongest_wall_distance,strongest_after_convect,convect_growth,convect_growth_x,"
    "convect_growth_y,convect_growth_z,strongest_after_diffuse,max_velocity_gradient,vrm_growth,"
    "control_growth,control_signed,control_largest_share,seconds_velocity,fx_pressure,"
    "fy_pressure,fz_pressure,cd_pressure,cl_pressure,cd_friction,cl_friction,fx_friction,"
    "fy_friction,fz_friction,impulse_drop_x,impulse_drop_y,impulse_drop_z,wall_impulse_x,"
    "wall_impulse_y,wall_impulse_z,impulse_budget_error,seconds_bem_rhs,seconds_bem_products,"
    "seconds_bem_preconditioner,bem_products,sheet_vorticity_x,sheet_vorticity_y,sheet_vorticity_z,"
    "seconds_shed,seconds_keep_in_fluid,shed_vorticity_x,shed_vorticity_y,shed_vorticity_z,"
    "stretch_vorticity_x,stretch_vorticity_y,stretch_vorticity_z,outflow,wake_x,wake_y,wake_z,"
    "wake_strength";

// Why the last write failed (errno, where the stream library left it).
std::string write_reason() {
  return errno ? std::strerror(errno) : "write failed";
}

// The values of column `name` of a CSV with a header row.
std::vector<double> read_column(const std::string& csv, const std::string& name) {
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  std::istringstream head(line);
  std::string cell;
  int index = -1;
  for (int k = 0; std::getline(head, cell, ','); ++k)
    if (cell == name) index = k;
  std::vector<double> values;
  while (index >= 0 && std::getline(in, line)) {
    std::istringstream row(line);
    for (int k = 0; std::getline(row, cell, ','); ++k)
      if (k == index) values.push_back(std::strtod(cell.c_str(), nullptr));
  }
  if (in.bad()) throw FileError(csv + ": cannot read: " + write_reason());
  return values;
}

// Throws unless `path` can be written: an existing device or pipe must be writable, anything else
// must take a new file in its folder (the atomic write's temporary file, removed again).
void check_writable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st)) throw FileError(path + ": cannot write: is a directory");
  if (fs::exists(st) && !fs::is_regular_file(st)) {
    if (::access(path.c_str(), W_OK) != 0)
      throw FileError(path + ": cannot write: " + std::strerror(errno));
    return;
  }
  AtomicFile probe(path);
}

// Re-registers the frames of an earlier run up to `time`, so the collection stays whole.
void reload(PvdWriter& w, const std::string& dir, double time) {
  if (!std::filesystem::exists(w.path())) return;
  for (const PvdEntry& e : read_pvd(w.path()))
    if (e.time <= time * (1 + 1e-12)) w.add(e.time, dir + "/" + e.file);
}

// Keeps the rows of steps up to `step` of an earlier run's CSV under this version's header (rows
// of an earlier version lack the columns it added at the end).
void truncate_rows(const std::string& csv, long step) {
  std::ifstream in(csv);
  std::string line, kept = std::string(kHeader) + "\n";
  for (bool header = true; std::getline(in, line); header = false)
    if (!header && std::strtol(line.c_str(), nullptr, 10) <= step) kept += line + "\n";
  in.close();
  AtomicFile f(csv);
  f.write(kept);
  f.commit();
}

bodies::CellArray vectors(const char* name, const std::vector<bodies::Vec3>& v) {
  bodies::CellArray a{name, 3, {}};
  for (const auto& x : v) a.values.insert(a.values.end(), {x.x, x.y, x.z});
  return a;
}

}  // namespace

BodyOutput::BodyOutput(const std::string& dir, bool resume, long resume_step, double resume_time)
    : dir_(dir),
      csv_path_(dir + "/diagnostics.csv"),
      particles_(dir + "/particles.pvd"),
      surface_(dir + "/surface.pvd") {
  std::filesystem::create_directories(dir);
  const std::string& csv = csv_path_;
  if (resume) {
    reload(particles_, dir, resume_time);
    reload(surface_, dir, resume_time);
    if (std::filesystem::exists(csv)) {
      // Rows of another build's columns cannot be continued in this build's.
      std::ifstream in(csv);
      std::string first;
      std::getline(in, first);
      if (first != kHeader)
        throw FileError(csv +
                        ": its columns are not this build's (written by another version); move "
                        "it aside to continue the run into a new one");
      truncate_rows(csv, resume_step);
      cd_ = read_column(csv, "cd");
      cl_ = read_column(csv, "cl");
      for (std::size_t k = 0; k < budget_.size(); ++k)
        budget_[k] = read_column(csv, kBudgetColumns[k]);
    }
  }
  const bool header = !resume || !std::filesystem::exists(csv);
  errno = 0;
  csv_.open(csv, resume ? std::ios::app : std::ios::trunc);
  if (!csv_) throw FileError(csv + ": cannot write: " + write_reason());
  csv_.precision(12);
  if (header) {
    csv_ << kHeader << '\n' << std::flush;
    check_csv();
  }
}

void BodyOutput::check_csv() {
  if (!csv_) throw FileError(csv_path_ + ": cannot write: " + write_reason());
}

void BodyOutput::close() {
  if (!csv_.is_open()) return;
  errno = 0;
  csv_.close();
  check_csv();
}

void BodyOutput::write_frame(long step, double time, const ParticleSet& particles,
                             bodies::BodyFlow& flow) {
  char name[64];
  std::snprintf(name, sizeof name, "/particles-%06ld.vtp", step);
  if (particles.size() > 0) {
    flow.particle_velocity(particles, true, field_);
    const std::array<double, 3>& stream = flow.options().free_stream;
    for (int c = 0; c < 3; ++c)
      for (double& u : field_.u[c]) u += stream[c];
    write_vtp(dir_ + name, particles, &field_);  // velocity, velocity_gradient and vorticity
    particles_.add(time, dir_ + name);
  }
  std::snprintf(name, sizeof name, "/surface-%06ld.vtp", step);
  const bodies::Surface& s = flow.bem().surface();
  const auto& gamma = flow.bem().gamma();
  bodies::CellArray normal{"normal_velocity", 1, flow.bem().normal_velocity()};
  bodies::write_surface_vtp(dir_ + name, s.mesh,
                            {vectors("gamma", bodies::sheet_vectors(s, gamma)),
                             vectors("slip", bodies::sheet_slip(s, gamma)),
                             normal,
                             {"pressure", 1, flow.surface_pressure()}});
  surface_.add(time, dir_ + name);
}

double per_particle(std::uint64_t bytes, std::size_t particles) {
  return particles ? static_cast<double>(bytes) / static_cast<double>(particles) : 0.0;
}

void BodyOutput::write_row(const StepRecord& r) {
  const auto& c = r.coefficients;
  const auto& st = r.stats;
  errno = 0;
  csv_ << r.step << ',' << r.time << ',' << r.force_time << ',' << r.particles << ',' << c.force.x
       << ',' << c.force.y << ',' << c.force.z << ',' << c.cd << ',' << c.cl << ',' << r.impulse.x
       << ',' << r.impulse.y << ',' << r.impulse.z << ',' << r.vorticity.x << ',' << r.vorticity.y
       << ',' << r.vorticity.z << ',' << st.bem_solves << ',' << st.bem_iterations << ','
       << st.bem_residual_max << ',' << st.shed << ',' << st.inserted << ',' << st.reflected << ','
       << st.pushed << ',' << st.removed << ',' << st.correction_impulse.x << ','
       << st.correction_impulse.y << ',' << st.correction_impulse.z << ',' << st.seconds_total
       << ',' << st.seconds_bem << ',' << st.seconds_convect << ',' << st.seconds_diffuse << ','
       << st.seconds_bem_wall << ',' << st.seconds_vrm << ',' << st.seconds_control << ','
       << per_particle(r.host_bytes, r.particles) << ','
       << per_particle(st.device_bytes, r.particles) << ',' << r.max_strength << ','
       << st.control_threshold << ',' << r.strongest.x << ',' << r.strongest.y << ','
       << r.strongest.z << ',' << r.strongest_wall_distance << ',' << st.strongest_after_convect
       << ',' << st.convect_growth << ',' << st.convect_growth_at.x << ',' << st.convect_growth_at.y
       << ',' << st.convect_growth_at.z << ',' << st.strongest_after_diffuse << ','
       << st.max_velocity_gradient << ',' << st.vrm_growth << ',' << st.control_growth << ','
       << st.control_signed << ',' << st.control_largest_share << ',' << st.seconds_velocity << ','
       << r.pressure.force.x << ',' << r.pressure.force.y << ',' << r.pressure.force.z << ','
       << r.pressure.cd << ',' << r.pressure.cl << ',' << r.friction.cd << ',' << r.friction.cl
       << ',' << r.friction.force.x << ',' << r.friction.force.y << ',' << r.friction.force.z << ','
       << r.budget.impulse_drop.x << ',' << r.budget.impulse_drop.y << ','
       << r.budget.impulse_drop.z << ',' << r.budget.wall_impulse.x << ','
       << r.budget.wall_impulse.y << ',' << r.budget.wall_impulse.z << ','
       << r.budget.relative_error << ',' << st.seconds_bem_rhs << ',' << st.seconds_bem_products
       << ',' << st.seconds_bem_preconditioner << ',' << st.bem_products << ','
       << r.sheet_vorticity.x << ',' << r.sheet_vorticity.y << ',' << r.sheet_vorticity.z << ','
       << st.seconds_shed << ',' << st.seconds_keep_in_fluid << ',' << st.vorticity_shed.x << ','
       << st.vorticity_shed.y << ',' << st.vorticity_shed.z << ',' << st.vorticity_stretch.x << ','
       << st.vorticity_stretch.y << ',' << st.vorticity_stretch.z << ',' << st.outflow << ','
       << r.wake.x << ',' << r.wake.y << ',' << r.wake.z << ',' << r.wake_strength << '\n'
       << std::flush;
  check_csv();
  cd_.push_back(c.cd);
  cl_.push_back(c.cl);
  const bodies::Vec3& d = r.budget.impulse_drop;
  const bodies::Vec3& w = r.budget.wall_impulse;
  const double v[6] = {d.x, d.y, d.z, w.x, w.y, w.z};
  for (std::size_t k = 0; k < budget_.size(); ++k) budget_[k].push_back(v[k]);
}

const std::vector<double>& BodyOutput::column(const std::string& name) const {
  if (name == "cd") return cd_;
  if (name == "cl") return cl_;
  for (std::size_t k = 0; k < budget_.size(); ++k)
    if (name == kBudgetColumns[k]) return budget_[k];
  throw std::logic_error("BodyOutput::column: no column '" + name + "' kept");
}

void check_output_paths(const std::string& dir, const std::string& json) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw FileError(dir + ": cannot create the output folder: " + ec.message());
  AtomicFile probe(dir + "/diagnostics.csv");
  if (!json.empty()) check_writable(json);
}

void write_output_text(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st) || fs::is_regular_file(st) || fs::is_directory(st)) {
    AtomicFile f(path);
    f.write(text);
    f.commit();
    return;
  }
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw FileError(path + ": cannot write: " + write_reason());
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
  const int error = errno;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) {
    if (error) errno = error;
    throw FileError(path + ": cannot write: " + write_reason());
  }
}

namespace {

// The 1-based place of a column of the CSV's header, as gnuplot counts them.
int column(const std::string& name) {
  std::istringstream head(kHeader);
  std::string cell;
  for (int k = 1; std::getline(head, cell, ','); ++k)
    if (cell == name) return k;
  throw std::logic_error("diagnostics.csv has no column " + name);
}

// gnuplot's sum of two columns.
std::string sum_of(const std::string& a, const std::string& b) {
  return "($" + std::to_string(column(a)) + "+$" + std::to_string(column(b)) + ")";
}

}  // namespace

bool plot_coefficients(const std::string& dir, double re, bool sphere) {
  std::ostringstream g;
  g << "set datafile separator ','\nset terminal pngcairo size 900,600\nset grid\n"
    << "set xlabel 't U / D'\nset key top right\n";
  // The first step (the impulsive start's average) is left off the plot; it is in the CSV.
  g << "set output '" << dir << "/cd.png'\nset ylabel 'C_D'\nset yrange [*:*]\n"
    << "plot '" << dir
    << "/diagnostics.csv' using 3:8 every ::2 with linespoints title 'C_D (impulse)', "
    << "'' using 3:" << sum_of("cd_pressure", "cd_friction")
    << " every ::2 with lines title 'C_D (pressure + skin friction)', "
    << "12/sqrt(pi*" << re << "*x) title '12/sqrt(pi Re t)' dashtype 2";
  if (sphere)
    g << ", " << 24 / re * (1 + 0.1935 * std::pow(re, 0.6305))
      << " title 'steady C_D (Clift, Grace and Weber)' dashtype 3";
  g << "\nset output '" << dir << "/cl.png'\nset ylabel 'C_L'\nset yrange [*:*]\n"
    << "plot '" << dir
    << "/diagnostics.csv' using 3:9 every ::1 with linespoints title 'C_L (impulse)', "
    << "'' using 3:" << sum_of("cl_pressure", "cl_friction")
    << " every ::2 with lines title 'C_L (pressure + skin friction)', "
    << "0 title '' dashtype 2\n";
  return run_gnuplot(dir + "/plot.gp", g.str());
}

bool run_gnuplot(const std::string& script, const std::string& text) {
  {
    AtomicFile f(script);
    f.write(text);
    f.commit();
  }
  return std::system(("gnuplot '" + script + "' 2>/dev/null").c_str()) == 0;
}

// The run's JSON summary (--json).
void write_summary(const Settings& s, Backend backend, std::size_t panels, const RunEnd& r,
                   const BodyOutput& out, double bem_iterations_mean, double bem_residual_max,
                   double seconds) {
  const std::vector<double>&cd = out.column("cd"), &cl = out.column("cl");
  const std::size_t quarter = cd.size() - cd.size() * 3 / 4;
  auto tail_mean = [&](const std::vector<double>& v) {
    double sum = 0;
    for (std::size_t k = v.size() - quarter; k < v.size(); ++k) sum += v[k];
    return quarter ? sum / static_cast<double>(quarter) : NAN;
  };
  cli::JsonWriter j;
  j.begin_object()
      .field("case", case_name(s))
      .field("panels", static_cast<std::uint64_t>(panels))
      .field("backend", to_string(resolve_backend(backend)))
      .field("re", s.re)
      .field("dt", s.dt)
      .field("steps", static_cast<std::int64_t>(r.step))
      .field("t_final", r.time)
      .field("n_particles", static_cast<std::uint64_t>(r.particles))
      .field("cd_final", cd.empty() ? NAN : cd.back())
      .field("cd_mean_last_quarter", tail_mean(cd))
      .field("cl_mean_last_quarter", tail_mean(cl));
  // The impulse budget along the stream from the second step (the first holds the impulsive
  // start): the time-integrated force of the wall's pressure and friction against the impulse
  // route's -dI (methods/bodies.md section 5). A run resumed from a CSV without these columns
  // reports it over the steps that have them.
  const bodies::Vec3 e = bodies::normalized(free_stream(s));
  double drop = 0, wall = 0;
  const double axis[3] = {e.x, e.y, e.z};
  for (int a = 0; a < 3; ++a) {
    const std::vector<double>& d = out.column(kBudgetColumns[a]);
    const std::vector<double>& w = out.column(kBudgetColumns[3 + a]);
    for (std::size_t k = 1; k < d.size(); ++k) drop += axis[a] * d[k], wall += axis[a] * w[k];
  }
  j.key("impulse_budget")
      .begin_object(true)
      .field("impulse_drop", drop)
      .field("wall_impulse", wall)
      .field("relative_error", drop != 0 ? (wall - drop) / std::abs(drop) : NAN)
      .end();
  j.field("impulse_t0", bodies::dot(r.impulse_t0, e))
      .field("bem_iterations_mean", bem_iterations_mean)
      .field("bem_residual_max", bem_residual_max)
      .field("seconds", seconds)
      .end();
  write_output_text(s.json, j.str() + "\n");
}

}  // namespace vortex::body_app
