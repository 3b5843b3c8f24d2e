#include "solvers/md/module.hpp"

#include "io/atom_table.hpp"
#include "io/particle_run_output.hpp"
#include "solvers/md/solver.hpp"

namespace cb::md {

// The Decomposition splits the grid of params.geometry (lattice cells, or a
// fine grid over a data file's box); MdSolver refuses a box shorter than
// cutoff + skin along a periodic axis.
SolverModule module() {
  auto read_case = [](io::CaseFile& file, io::CommonParams& common) {
    const Params params = read_params(file);
    const io::ParticleOutputParams output =
        io::read_particle_output_params(file, common.control, common.output_fields);
    SolverCase c;
    c.geometry = params.geometry;
    c.initial_dt = params.dt;
    c.output_field_names = io::particle_output_names(per_atom_names());
    c.memory_bytes_per_rank = [params](int ranks) { return memory_bytes(params, ranks); };
    c.describe = [params] { return describe(params); };
    c.create = [params, output](const io::RunSetup& setup) {
      return io::make_particle_run(
          std::make_unique<MdSolver>(params, setup.decomposition, setup.context), setup, output);
    };
    return c;
  };
  return {
      "md",
      "molecular dynamics (Lennard-Jones in lj, real or metal units; LAMMPS data files and dumps)",
      read_case};
}

}  // namespace cb::md
