# Test registrations (sourced by tests/CMakeLists.txt).

# core
cloudburst_test(test_decomposition SOURCES test_decomposition.cpp
  LIBS cloudburst::core RANKS 1 2 3 4 5 6 7 8 LABELS "core;mpi")
cloudburst_test(test_halo SOURCES test_halo.cpp
  LIBS cloudburst::core RANKS 1 2 4 LABELS "core;mpi")
# distributed 3-D FFT (core/fft3d.hpp) against a direct DFT, bitwise across rank counts
cloudburst_test(test_fft3d SOURCES test_fft3d.cpp
  LIBS cloudburst::core RANKS 1 2 3 4 LABELS "core;mpi")
cloudburst_test(test_driver SOURCES test_driver.cpp
  LIBS cloudburst::core RANKS 1 LABELS "core")
# checkpoint interval and expected cost of `cloudburst estimate` (core/cost_model.hpp)
cloudburst_test(test_cost_model SOURCES test_cost_model.cpp
  LIBS cloudburst::core RANKS 1 LABELS "core;estimate")

# kernels
cloudburst_test(test_kernels SOURCES test_limiters.cpp
  LIBS cloudburst::kernels RANKS 1 LABELS "kernels")
# bonded MD terms: gradients, invariances, formulas, LAMMPS's numbers
# (validation/lammps/bonded_terms.sh)
cloudburst_test(test_md_bonded SOURCES test_md_bonded.cpp
  LIBS cloudburst::kernels RANKS 1 LABELS "kernels;md")
# SHAKE/RATTLE cluster kernels: constraints met, momentum, failures
cloudburst_test(test_md_shake_kernels SOURCES test_md_shake_kernels.cpp
  LIBS cloudburst::kernels RANKS 1 LABELS "kernels;md")
# SETTLE rigid-water kernel: constraints met, momentum, SHAKE's solution
cloudburst_test(test_md_settle_kernels SOURCES test_md_settle_kernels.cpp
  LIBS cloudburst::kernels RANKS 1 LABELS "kernels;md")

# io
cloudburst_test(test_case_file SOURCES test_case_file.cpp
  LIBS cloudburst::io RANKS 1 LABELS "io")
cloudburst_test(test_checkpoint SOURCES test_checkpoint.cpp
  LIBS cloudburst::io cloudburst_hdf5 RANKS 1 2 4 LABELS "io;mpi")
cloudburst_test(test_field_output SOURCES test_field_output.cpp
  LIBS cloudburst::io cloudburst_hdf5 RANKS 1 2 LABELS "io;mpi")
# particle I/O: LAMMPS data files, dumps, XDMF particles, particle
# checkpoints -- with a stand-in solver (tests/fake_particle_solver.hpp)
cloudburst_test(test_lammps_data SOURCES test_lammps_data.cpp
  LIBS cloudburst::io cloudburst_hdf5 RANKS 1 2 LABELS "io;mpi;lammps")
cloudburst_test(test_particle_io SOURCES test_particle_io.cpp
  LIBS cloudburst::io cloudburst_hdf5 RANKS 1 2 4 LABELS "io;mpi;checkpoint;particles")
# ... and through whole MD runs of `cloudburst` (dumps, XDMF, data file, restart
# on another rank count, bad output input)
cloudburst_test(test_particle_runs SOURCES test_particle_runs.cpp cli_runner.cpp
  LIBS cloudburst::io cloudburst_hdf5 RANKS 1 LABELS "cli;mpi;restart;particles")
add_dependencies(test_particle_runs cloudburst)

# solvers
cloudburst_test(test_scalar SOURCES test_scalar.cpp
  LIBS cloudburst::scalar RANKS 1 LABELS "solver;validation")

# the command-line program (runs the built `cloudburst`)
cloudburst_test(test_cli SOURCES test_cli.cpp cli_runner.cpp RANKS 1 LABELS "cli")
cloudburst_test(test_case_errors SOURCES test_case_errors.cpp cli_runner.cpp RANKS 1 LABELS "cli")
cloudburst_test(test_parallel_runs SOURCES test_parallel_runs.cpp cli_runner.cpp grid_runs.cpp
  LIBS cloudburst_hdf5 RANKS 1 LABELS "cli;mpi;restart")
cloudburst_test(test_thread_counts SOURCES test_thread_counts.cpp cli_runner.cpp RANKS 1
  LABELS "cli;threads")
# `cloudburst estimate` on a small weather case: JSON fields, bad arguments
cloudburst_test(test_estimate SOURCES test_estimate.cpp cli_runner.cpp RANKS 1 LABELS "cli;estimate")
foreach(t test_cli test_case_errors test_parallel_runs test_thread_counts test_estimate)
  add_dependencies(${t} cloudburst)
endforeach()

# weather solver: API-level validation and bad input; whole runs under mpiexec
cloudburst_test(test_weather SOURCES test_weather.cpp cli_runner.cpp
  LIBS cloudburst::weather RANKS 1 LABELS "solver;validation;weather")
cloudburst_test(test_weather_kernels SOURCES test_weather_kernels.cpp LIBS cloudburst::kernels RANKS 1 LABELS "kernels;weather")
# Kessler warm rain: formulas, conservation, and columns against the DCMIP 2016 routine
# (validation/reference/kessler_dcmip2016.csv, validation/weather/kessler_reference.md)
cloudburst_test(test_weather_kessler SOURCES test_weather_kessler.cpp LIBS cloudburst::kernels RANKS 1
  LABELS "kernels;weather;validation")
cloudburst_test(test_weather_runs SOURCES test_weather_runs.cpp cli_runner.cpp grid_runs.cpp
  LIBS cloudburst_hdf5 RANKS 1 LABELS "cli;restart;weather")
# moist runs: water conservation, positivity, dry fields unchanged, bad moisture input
cloudburst_test(test_weather_moist SOURCES test_weather_moist.cpp cli_runner.cpp
  LIBS cloudburst::weather RANKS 1 LABELS "solver;weather;moist")
# turbulent diffusion: the exact spreading Gaussian, Smagorinsky's K, ranks, restarts, bad input
cloudburst_test(test_weather_diffusion SOURCES test_weather_diffusion.cpp cli_runner.cpp
  grid_runs.cpp LIBS cloudburst::weather cloudburst_hdf5 RANKS 1
  LABELS "solver;weather;validation;cli;mpi;restart")
# the Cartesian DCMIP2016 supercell: initial profiles, balance, ranks, restarts, bad input
cloudburst_test(test_weather_supercell SOURCES test_weather_supercell.cpp cli_runner.cpp
  grid_runs.cpp LIBS cloudburst::weather cloudburst_hdf5 RANKS 1
  LABELS "solver;weather;validation;cli;mpi;restart")
# the absorbing layer under the top: profile, reflection of gravity waves, ranks, restarts, input
cloudburst_test(test_weather_sponge SOURCES test_weather_sponge.cpp cli_runner.cpp grid_runs.cpp
  LIBS cloudburst::weather cloudburst_hdf5 RANKS 1
  LABELS "solver;weather;validation;cli;mpi;restart")
# exact moist thermodynamics: e_s, the theta equation's factor, the adjustment, the background
cloudburst_test(test_weather_exact_thermo SOURCES test_weather_exact_thermo.cpp cli_runner.cpp
  LIBS cloudburst::weather RANKS 1 LABELS "kernels;weather;validation;cli")
foreach(t test_weather test_weather_runs test_weather_moist test_weather_diffusion
        test_weather_supercell test_weather_sponge test_weather_exact_thermo)
  add_dependencies(${t} cloudburst)
endforeach()

# CFD solver: kernels, conservation and bad input; whole runs under mpiexec
cloudburst_test(test_cfd SOURCES test_cfd.cpp cli_runner.cpp
  LIBS cloudburst::cfd RANKS 1 LABELS "solver;validation;cfd")
add_dependencies(test_cfd cloudburst)

# every grid solver from one table: decomposition invariance and exact restart,
# one CTest entry per solver (the table's tags)
add_executable(test_grid_solvers test_grid_solvers.cpp grid_runs.cpp cli_runner.cpp)
target_link_libraries(test_grid_solvers PRIVATE cloudburst_test_main cloudburst_hdf5
  cloudburst_warnings)
target_compile_definitions(test_grid_solvers PRIVATE CLOUDBURST_EXE="$<TARGET_FILE:cloudburst>"
  CLOUDBURST_SOURCE_DIR="${PROJECT_SOURCE_DIR}" CLOUDBURST_MPIEXEC="${MPIEXEC_EXECUTABLE}")
add_dependencies(test_grid_solvers cloudburst)
foreach(solver scalar weather cfd)
  add_test(NAME test_grid_solvers_${solver} COMMAND test_grid_solvers "[${solver}]"
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(test_grid_solvers_${solver} PROPERTIES ENVIRONMENT "${CLOUDBURST_TEST_ENV}"
    LABELS "cli;mpi;restart;${solver}" PROCESSORS 2 TIMEOUT 900)
endforeach()

# every case file in cases/: `check`, then two steps on 2 ranks
add_executable(test_cases test_cases.cpp cli_runner.cpp)
target_link_libraries(test_cases PRIVATE cloudburst_test_main cloudburst_hdf5 cloudburst_warnings)
target_compile_definitions(test_cases PRIVATE CLOUDBURST_EXE="$<TARGET_FILE:cloudburst>"
  CLOUDBURST_SOURCE_DIR="${PROJECT_SOURCE_DIR}" CLOUDBURST_MPIEXEC="${MPIEXEC_EXECUTABLE}")
add_dependencies(test_cases cloudburst)
add_test(NAME test_cases COMMAND test_cases WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(test_cases PROPERTIES ENVIRONMENT "${CLOUDBURST_TEST_ENV}" LABELS "cli;cases"
  PROCESSORS 2 TIMEOUT 900)

# batch use: wall-time limits, submit --dry-run, quoting, the requeue
# wrapper -- all without a cluster
cloudburst_test(test_batch SOURCES test_batch.cpp cli_runner.cpp
  LIBS cloudburst::core cloudburst_hdf5 RANKS 1 LABELS "cli;batch;restart")
add_dependencies(test_batch cloudburst)
set_tests_properties(test_batch PROPERTIES PROCESSORS 2)  # it times runs against limits
# ... and on a real single-node Slurm that tests/slurm/with-slurm starts and
# stops around the test (SKIPs when slurm-wlm and munge are not installed)
add_executable(test_slurm test_slurm.cpp cli_runner.cpp)
target_link_libraries(test_slurm PRIVATE cloudburst_test_main cloudburst_hdf5 cloudburst_warnings)
target_compile_definitions(test_slurm PRIVATE CLOUDBURST_EXE="$<TARGET_FILE:cloudburst>"
  CLOUDBURST_SOURCE_DIR="${PROJECT_SOURCE_DIR}" CLOUDBURST_MPIEXEC="${MPIEXEC_EXECUTABLE}")
add_dependencies(test_slurm cloudburst)
add_test(NAME test_slurm
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/slurm/with-slurm --time-limit 540 $<TARGET_FILE:test_slurm>
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(test_slurm PROPERTIES ENVIRONMENT "${CLOUDBURST_TEST_ENV}" LABELS "slurm;batch"
  PROCESSORS 2 RESOURCE_LOCK slurm TIMEOUT 600 SKIP_RETURN_CODE 4)

# CFD validation: the exact Riemann solver (validation/cfd) against
# Toro's tables, then the case files of cases/cfd run by `cloudburst` against
# exact solutions and symmetries (validation/report.md has the long runs)
cloudburst_test(test_cfd_validation SOURCES test_cfd_validation.cpp test_cfd_exact_riemann.cpp
  cfd_cases.cpp cli_runner.cpp LIBS cloudburst_hdf5 RANKS 1 LABELS "validation;cfd")
target_include_directories(test_cfd_validation PRIVATE ${PROJECT_SOURCE_DIR})
add_dependencies(test_cfd_validation cloudburst)
# Orders of accuracy on the isentropic vortex, by scheme.
cloudburst_test(test_cfd_vortex SOURCES test_cfd_vortex.cpp cfd_cases.cpp cli_runner.cpp
  LIBS cloudburst_hdf5 RANKS 1 LABELS "validation;cfd;serial_leg")
add_dependencies(test_cfd_vortex cloudburst)
# about 0.5 and 3 min of CPU on one core (measured, Release); wall time grows
# when cores are shared
set_tests_properties(test_cfd_validation test_cfd_vortex PROPERTIES TIMEOUT 1800)

# MD engine: kernels and lattice/velocity setup against LAMMPS's
# numbers; whole runs (bench/in.lj and melt thermo on 1, 2, 4 ranks, NVE
# drift, restart, thin decomposition refused)
cloudburst_test(test_md SOURCES test_md.cpp LIBS cloudburst::md RANKS 1 LABELS "md;kernels;solver")
cloudburst_test(test_md_ewald SOURCES test_md_ewald.cpp cli_runner.cpp LIBS cloudburst::md RANKS 1
  LABELS "md;kernels;validation;cli;mpi")
add_dependencies(test_md_ewald cloudburst)
# PPPM kernels: LAMMPS's parameter choice (validation/lammps/pppm_parameters.sh),
# assignment weights, influence function
cloudburst_test(test_md_pppm_kernels SOURCES test_md_pppm_kernels.cpp LIBS cloudburst::kernels
  RANKS 1 LABELS "md;kernels;validation")
cloudburst_test(test_md_distribution SOURCES test_md_distribution.cpp LIBS cloudburst::md RANKS 1 2 4 LABELS "md;mpi")
cloudburst_test(test_md_runs SOURCES test_md_runs.cpp cli_runner.cpp
  LIBS cloudburst_hdf5 RANKS 1 LABELS "md;cli;mpi;restart;validation")
add_dependencies(test_md_runs cloudburst)
# molecules (topology, special pairs, bonded terms) against Debian's lmp run by
# the test on lammps-examples' SPC/E water and peptide
cloudburst_test(test_md_molecules SOURCES test_md_molecules.cpp cli_runner.cpp lmp_compare.cpp
  LIBS cloudburst_hdf5 RANKS 1 LABELS "md;cli;mpi;restart;validation")
add_dependencies(test_md_molecules cloudburst)
# SHAKE clusters against Debian's lmp (counts, constrained terms, errors)
cloudburst_test(test_md_shake_clusters SOURCES test_md_shake_clusters.cpp cli_runner.cpp lmp_compare.cpp
  LIBS cloudburst::md RANKS 1 LABELS "md;validation")
# SHAKE's setup (clusters, targets, kernels) against lmp's positions at step 0
cloudburst_test(test_md_shake_setup SOURCES test_md_shake_setup.cpp cli_runner.cpp lmp_compare.cpp
  LIBS cloudburst::md RANKS 1 LABELS "md;validation")
# SHAKE in the time step against lmp (in.peptide, SPC/E), restart, bad input
cloudburst_test(test_md_shake_runs SOURCES test_md_shake_runs.cpp cli_runner.cpp lmp_compare.cpp
  LIBS cloudburst_hdf5 RANKS 1 LABELS "md;cli;mpi;restart;validation;shake")
add_dependencies(test_md_shake_runs cloudburst)
# 92 s in the serial Release leg, past 600 s in the OpenMP leg with bounds checks
# while other tests share the 2 cores (measured in .ci/run, 2026-12-02)
set_tests_properties(test_md_shake_runs PROPERTIES TIMEOUT 1500)
# RATTLE in the time step against lmp's fix rattle (in.peptide, SPC/E)
cloudburst_test(test_md_rattle SOURCES test_md_rattle.cpp cli_runner.cpp lmp_compare.cpp
  LIBS cloudburst_hdf5 RANKS 1 LABELS "md;cli;mpi;validation;shake")
add_dependencies(test_md_rattle cloudburst)
cloudburst_test(test_md_peptide SOURCES test_md_peptide.cpp cli_runner.cpp lmp_compare.cpp
  RANKS 1 LABELS "md;cli;mpi;validation")
add_dependencies(test_md_peptide cloudburst)
# CFD bodies: implicit shapes, set operations, STL surfaces and cut cells
# against exact volumes and areas
cloudburst_test(test_cfd_geometry SOURCES test_cfd_geometry.cpp cli_runner.cpp LIBS cloudburst::cfd
  RANKS 1 LABELS "cfd;geometry;kernels;cli")
add_dependencies(test_cfd_geometry cloudburst)
cloudburst_test(test_cfd_cut_cells SOURCES test_cfd_cut_cells.cpp LIBS cloudburst::cfd
  RANKS 1 LABELS "cfd;geometry;validation")
# No-slip, isothermal and moving walls run to steady states: about 90 s serial
# in Release, 380 s in the OpenMP leg with bounds checks (measured)
cloudburst_test(test_cfd_walls SOURCES test_cfd_walls.cpp LIBS cloudburst::cfd
  RANKS 1 LABELS "cfd;geometry;validation")
set_tests_properties(test_cfd_walls PROPERTIES TIMEOUT 1200)
# ParaView (pvbatch under xvfb-run) opens every kind of XDMF the program writes
# in its XDMF 3 and legacy readers; arrays checked against the HDF5 datasets
add_test(NAME test_paraview_xdmf
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/paraview_xdmf.sh $<TARGET_FILE:cloudburst>
          ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/paraview_xdmf
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(test_paraview_xdmf PROPERTIES ENVIRONMENT "${CLOUDBURST_TEST_ENV}"
  LABELS "io;paraview;validation" TIMEOUT 600 SKIP_RETURN_CODE 4)
# Debian's lmp reads the program's final.data and re-runs its dumps
cloudburst_test(test_md_lammps_rerun SOURCES test_md_lammps_rerun.cpp cli_runner.cpp RANKS 1
  LABELS "md;cli;mpi;validation")
add_dependencies(test_md_lammps_rerun cloudburst)
# the slab correction and boundary p p f against lmp (Ewald and PPPM on 1, 2
# and 4 ranks), boundary and slab input errors, lost atoms
cloudburst_test(test_md_slab SOURCES test_md_slab.cpp cli_runner.cpp lmp_compare.cpp
  RANKS 1 LABELS "md;cli;mpi;validation")
add_dependencies(test_md_slab cloudburst)
# thermostats: Nose-Hoover chains against lmp fix nvt (LJ melt, peptide),
# CSVR's canonical kinetic-energy distribution and effective-energy drift
cloudburst_test(test_md_thermostats SOURCES test_md_thermostats.cpp cli_runner.cpp lmp_compare.cpp
  RANKS 1 LABELS "md;cli;mpi;validation;thermostat")
add_dependencies(test_md_thermostats cloudburst)
# constrained dynamics (SPC/E): constraint deviations and NVE energy drift
# against lmp fix shake, equipartition of O and H with each thermostat
# (about 220 s serial Release on the shared 2-core machine, 2026-12-02)
cloudburst_test(test_md_constraint_validation SOURCES test_md_constraint_validation.cpp
  cli_runner.cpp lmp_compare.cpp RANKS 1 LABELS "md;cli;validation;shake;thermostat;serial_leg")
add_dependencies(test_md_constraint_validation cloudburst)
set_tests_properties(test_md_constraint_validation PROPERTIES TIMEOUT 1500)
cloudburst_test(test_md_barostat SOURCES test_md_barostat.cpp cli_runner.cpp lmp_compare.cpp
  LIBS cloudburst_hdf5 cloudburst::kernels RANKS 1 LABELS "md;cli;mpi;restart;validation;barostat")
add_dependencies(test_md_barostat cloudburst)
# 108 s serial, 379 s in the OpenMP leg with bounds checks (2026-12-02)
set_tests_properties(test_md_barostat PROPERTIES TIMEOUT 1200)
# The MTK barostat (fix npt iso, aniso) against lmp: melt, SPC/E with SHAKE,
# restart. Its [long] runs (the conserved energy over 4000 steps, the NPT
# ensemble) are test_md_mtk_long, in the Serial leg only: the OpenMP leg with
# bounds checks took them past 600 s beside other tests (CI, 2026-12-04).
cloudburst_test(test_md_mtk SOURCES test_md_mtk.cpp cli_runner.cpp lmp_compare.cpp
  LIBS cloudburst_hdf5 cloudburst::kernels RANKS 1 ARGS "~[long]"
  LABELS "md;cli;mpi;restart;validation;barostat")
add_dependencies(test_md_mtk cloudburst)
cloudburst_test_subset(test_md_mtk_long EXECUTABLE test_md_mtk ARGS "[long]"
  LABELS "md;cli;validation;barostat;serial_leg")
