// The SolverRun of a particle solver.
#include "io/particle_checkpoint.hpp"
#include "io/solver_run.hpp"

#include <cstdio>

namespace cb::io {
namespace {

class ParticleRun : public SolverRun {
 public:
  ParticleRun(std::unique_ptr<ParticleSolver> solver, const RunSetup& setup,
              const ParticleOutputParams& output)
      : solver_(std::move(solver)),
        decomposition_(setup.decomposition),
        paths_(setup.paths),
        header_(setup.header),
        keep_(setup.common.checkpoint_keep),
        control_(setup.common.control),
        params_(output) {
    header_.solver = solver_->name();
    header_.case_name = solver_->case_name();
  }

  Solver& solver() override { return *solver_; }

  std::string describe() const override {
    const ParticleBox& box = solver_->box();
    const Decomposition& d = decomposition_;
    char text[256];
    std::snprintf(
        text, sizeof text,
        "%lld atoms in the box [%g, %g] x [%g, %g] x [%g, %g] on %d rank(s) as %d x %d x %d",
        static_cast<long long>(solver_->total_atoms()), box.lo[0], box.hi[0], box.lo[1], box.hi[1],
        box.lo[2], box.hi[2], d.size(), d.dims()[0], d.dims()[1], d.dims()[2]);
    return text;
  }

  void create_directories() override {
    create_particle_output_directories(paths_, decomposition_.comm());
  }

  // The atoms of the checkpoint go to their owners through load_particles.
  RunState restore(const std::string& path) override {
    const MPI_Comm comm = decomposition_.comm();
    const CheckpointHeader header = read_checkpoint_header(path, comm);
    if (header.solver == solver_->name()) {
      ParticleBox saved;
      saved.lo = header.geometry.lo;
      saved.hi = header.geometry.hi;
      saved.periodic = header.geometry.periodic;
      solver_->prepare_restore(saved, header.scalars);
    }
    check_particles_compatible(path, header, solver_->name(), solver_->box(),
                               solver_->total_atoms());
    const HostParticles atoms = read_particle_checkpoint(path, comm);
    check_particles_valid(path, atoms, solver_->box(), comm);
    solver_->load_particles(atoms);
    solver_->restore(header.scalars);
    return {header.step, header.time, header.dt};
  }

  RunOutput& open_output(const RunState& start, Log& log) override {
    output_ = std::make_unique<ParticleRunOutput>(*solver_, decomposition_.comm(), paths_, header_,
                                                  keep_, params_, control_, start, log);
    return *output_;
  }

  void finish(const RunState& state, int exit_code) override {
    if (output_ && exit_code == exit_ok) output_->write_data_file(state);
  }

  std::string results_note() const override {
    return "diagnostics.csv, checkpoints/, dumps/, particles.xmf";
  }

 private:
  std::unique_ptr<ParticleSolver> solver_;
  const Decomposition& decomposition_;
  OutputPaths paths_;
  CheckpointHeader header_;
  int keep_;
  RunControl control_;
  ParticleOutputParams params_;
  std::unique_ptr<ParticleRunOutput> output_;
};

}  // namespace

std::unique_ptr<SolverRun> make_particle_run(std::unique_ptr<ParticleSolver> solver,
                                             const RunSetup& setup,
                                             const ParticleOutputParams& output) {
  return std::make_unique<ParticleRun>(std::move(solver), setup, output);
}

}  // namespace cb::io
