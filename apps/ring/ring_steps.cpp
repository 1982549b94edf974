#include "ring_steps.hpp"

#include "vortex/solver.hpp"

namespace vortex::ring_app {

TimeIntegratorOptions integrator_options(const RunPlan& plan) {
  TimeIntegratorOptions o;
  o.scheme = plan.scheme;
  o.stretching = plan.stretching;
  o.relaxation = plan.relaxation;
  o.relaxation_rate = plan.relaxation_rate;
  return o;
}

namespace {

class ProcessSteps final : public RingSteps {
 public:
  explicit ProcessSteps(const RunPlan& plan)
      : solver_(plan.solver), integrator_(solver_, integrator_options(plan)) {}
  bool records() const override { return true; }
  ParticleSet share(const ParticleSet& all) override { return all; }
  void start_step(ParticleSet&) override {}
  TimeIntegrator& integrator() override { return integrator_; }
  std::size_t diffuse(ParticleSet& p, double nu, double dt, const Diffusion& d) override {
    return ring_app::diffuse(p, nu, dt, d);
  }
  std::size_t control(ParticleSet& p, const ParticleControlOptions& o) override {
    return control_particles(p, o, control_).removed;
  }
  void whole(const ParticleSet& mine, const VelocityField& field, const ParticleSet*& all,
             const VelocityField*& all_field) override {
    all = &mine;
    all_field = &field;
  }
  std::size_t total(std::size_t mine) override { return mine; }

 private:
  Solver solver_;
  TimeIntegrator integrator_;
  ParticleControlWorkspace control_;
};

}  // namespace

std::unique_ptr<RingSteps> process_steps(const RunPlan& plan) {
  return std::make_unique<ProcessSteps>(plan);
}

}  // namespace vortex::ring_app
