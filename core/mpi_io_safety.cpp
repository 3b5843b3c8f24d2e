#include "core/mpi_io_safety.hpp"

#include <mpi.h>

#include <cstdlib>

namespace cb {

void apply_mpi_io_safety() {
#if defined(OPEN_MPI) && defined(OMPI_MAJOR_VERSION)
  constexpr int version =
      OMPI_MAJOR_VERSION * 10000 + OMPI_MINOR_VERSION * 100 + OMPI_RELEASE_VERSION;
  constexpr bool unlocked_ufs = version < 40107 || (version >= 50000 && version < 50006);
  if (unlocked_ufs) setenv("OMPI_MCA_fs_ufs_lock_algorithm", "3", /*overwrite=*/0);
#endif
}

}  // namespace cb
