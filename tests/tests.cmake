# Test registrations (sourced by tests/CMakeLists.txt).

# core
cloudburst_test(test_decomposition SOURCES test_decomposition.cpp
  LIBS cloudburst::core RANKS 1 2 3 4 5 6 7 8 LABELS "core;mpi")
cloudburst_test(test_halo SOURCES test_halo.cpp
  LIBS cloudburst::core RANKS 1 2 4 LABELS "core;mpi")
cloudburst_test(test_driver SOURCES test_driver.cpp
  LIBS cloudburst::core RANKS 1 LABELS "core")

# kernels
cloudburst_test(test_kernels SOURCES test_limiters.cpp
  LIBS cloudburst::kernels RANKS 1 LABELS "kernels")

# io
cloudburst_test(test_case_file SOURCES test_case_file.cpp
  LIBS cloudburst::io RANKS 1 LABELS "io")
cloudburst_test(test_checkpoint SOURCES test_checkpoint.cpp
  LIBS cloudburst::io cloudburst_hdf5 RANKS 1 2 4 LABELS "io;mpi")
cloudburst_test(test_field_output SOURCES test_field_output.cpp
  LIBS cloudburst::io cloudburst_hdf5 RANKS 1 2 LABELS "io;mpi")

# solvers
cloudburst_test(test_scalar SOURCES test_scalar.cpp
  LIBS cloudburst::scalar RANKS 1 LABELS "solver;validation")

# the command-line program (runs the built `cloudburst`)
cloudburst_test(test_cli SOURCES test_cli.cpp cli_runner.cpp RANKS 1 LABELS "cli")
cloudburst_test(test_case_errors SOURCES test_case_errors.cpp cli_runner.cpp RANKS 1 LABELS "cli")
cloudburst_test(test_parallel_runs SOURCES test_parallel_runs.cpp cli_runner.cpp
  LIBS cloudburst_hdf5 RANKS 1 LABELS "cli;mpi;restart")
foreach(t test_cli test_case_errors test_parallel_runs)
  add_dependencies(${t} cloudburst)
endforeach()

# weather solver (issue 4): API-level validation and bad input; whole runs under mpiexec
cloudburst_test(test_weather SOURCES test_weather.cpp cli_runner.cpp
  LIBS cloudburst::weather RANKS 1 LABELS "solver;validation;weather")
cloudburst_test(test_weather_runs SOURCES test_weather_runs.cpp cli_runner.cpp
  LIBS cloudburst_hdf5 RANKS 1 LABELS "cli;mpi;restart;weather")
foreach(t test_weather test_weather_runs)
  add_dependencies(${t} cloudburst)
endforeach()

# batch use (issue 5): wall-time limits, submit --dry-run, quoting, the requeue
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
