# Finds every dependency from the system; nothing is downloaded at build time.

# --- Kokkos -----------------------------------------------------------------
# Debian 12 ships Kokkos 3.4.1 (Serial) in libtrilinos-kokkos-dev; clusters point
# Kokkos_ROOT at a 4.x/5.x install (CUDA, HIP, OpenMP, Serial).
set(CMAKE_CXX_EXTENSIONS OFF)
find_package(Kokkos 3.4 REQUIRED)

# Debian's config gives Kokkos::kokkos the non-existent include dir /usr/lib/include;
# point it at the real headers. A no-op for every other Kokkos install.
get_target_property(_kk_inc Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
if(_kk_inc AND NOT EXISTS "${_kk_inc}" AND Kokkos_INCLUDE_DIRS)
  get_filename_component(_kk_inc "${Kokkos_INCLUDE_DIRS}" REALPATH)
  set_target_properties(Kokkos::kokkos PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_kk_inc}")
endif()

# Kokkos 5 needs C++20; 3.4 and 4.x work with C++17.
if(Kokkos_VERSION VERSION_GREATER_EQUAL 5.0)
  set(CLOUDBURST_CXX_STANDARD 20)
else()
  set(CLOUDBURST_CXX_STANDARD 17)
endif()
set(CMAKE_CXX_STANDARD ${CLOUDBURST_CXX_STANDARD})
set(CMAKE_CXX_STANDARD_REQUIRED ON)
message(STATUS "cloudburst: Kokkos ${Kokkos_VERSION} from ${Kokkos_DIR}")
message(STATUS "cloudburst: Kokkos devices: ${Kokkos_DEVICES}; C++${CLOUDBURST_CXX_STANDARD}")

# --- MPI --------------------------------------------------------------------
find_package(MPI REQUIRED COMPONENTS C)
# The C API only: keep OpenMPI's/MPICH's deprecated C++ bindings out of mpi.h.
add_compile_definitions(OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)

# --- parallel HDF5 ----------------------------------------------------------
set(HDF5_PREFER_PARALLEL ON)
find_package(HDF5 REQUIRED COMPONENTS C)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR "cloudburst needs a parallel (MPI) HDF5; on Debian: libhdf5-openmpi-dev")
endif()
message(STATUS "cloudburst: HDF5 ${HDF5_VERSION} (parallel)")
add_library(cloudburst_hdf5 INTERFACE)
target_include_directories(cloudburst_hdf5 SYSTEM INTERFACE ${HDF5_INCLUDE_DIRS})
target_link_libraries(cloudburst_hdf5 INTERFACE ${HDF5_LIBRARIES} MPI::MPI_C)
target_compile_definitions(cloudburst_hdf5 INTERFACE ${HDF5_DEFINITIONS})

# --- toml++ -----------------------------------------------------------------
find_package(tomlplusplus 3 REQUIRED)

# --- Catch2 (tests only) ----------------------------------------------------
if(CLOUDBURST_BUILD_TESTS)
  find_package(Catch2 3 REQUIRED)
endif()

# --- FFT (optional; core/fft3d.hpp) -----------------------------------------
# The 1-D FFT library behind cb::DistributedFft3d, chosen by the Kokkos backend:
# cuFFT (CUDA), hipFFT (HIP), FFTW 3 (host memory: Serial, OpenMP). Without one
# the code still builds and DistributedFft3d throws at construction.
add_library(cloudburst_fft INTERFACE)
set(CLOUDBURST_FFT_LIBRARY "none")
if("CUDA" IN_LIST Kokkos_DEVICES)
  find_package(CUDAToolkit QUIET)
  if(TARGET CUDA::cufft)
    target_link_libraries(cloudburst_fft INTERFACE CUDA::cufft CUDA::cudart)
    target_compile_definitions(cloudburst_fft INTERFACE CLOUDBURST_FFT_CUFFT)
    set(CLOUDBURST_FFT_LIBRARY "cuFFT ${CUDAToolkit_VERSION}")
  endif()
elseif("HIP" IN_LIST Kokkos_DEVICES)
  find_package(hipfft QUIET)
  if(TARGET hip::hipfft)
    target_link_libraries(cloudburst_fft INTERFACE hip::hipfft)
    target_compile_definitions(cloudburst_fft INTERFACE CLOUDBURST_FFT_HIPFFT)
    set(CLOUDBURST_FFT_LIBRARY "hipFFT ${hipfft_VERSION}")
  endif()
else()
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(FFTW3 QUIET IMPORTED_TARGET fftw3)
  endif()
  if(TARGET PkgConfig::FFTW3)
    target_link_libraries(cloudburst_fft INTERFACE PkgConfig::FFTW3)
    target_compile_definitions(cloudburst_fft INTERFACE CLOUDBURST_FFT_FFTW)
    set(CLOUDBURST_FFT_LIBRARY "FFTW ${FFTW3_VERSION}")
  else()
    find_path(FFTW3_INCLUDE_DIR fftw3.h)
    find_library(FFTW3_LIB fftw3)
    if(FFTW3_INCLUDE_DIR AND FFTW3_LIB)
      target_include_directories(cloudburst_fft SYSTEM INTERFACE ${FFTW3_INCLUDE_DIR})
      target_link_libraries(cloudburst_fft INTERFACE ${FFTW3_LIB})
      target_compile_definitions(cloudburst_fft INTERFACE CLOUDBURST_FFT_FFTW)
      set(CLOUDBURST_FFT_LIBRARY "FFTW (${FFTW3_LIB})")
    endif()
  endif()
endif()
if(CLOUDBURST_FFT_LIBRARY STREQUAL "none")
  message(STATUS "cloudburst: FFT: none found (on CPU: libfftw3-dev; CUDA: cuFFT; HIP: "
                 "hipfft); cb::DistributedFft3d will throw")
else()
  message(STATUS "cloudburst: FFT: ${CLOUDBURST_FFT_LIBRARY}")
endif()
