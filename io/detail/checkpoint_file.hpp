// The write protocol every checkpoint shares, grid or particle
// (docs/checkpoint-format.md): `path`.partial created collectively, root
// attributes, the solver's body, the solver_state scalars, a global flush,
// `complete` = 1 last, close, fsync, rename, fsync of the directory. Not part
// of the public io API.
#pragma once

#include "io/checkpoint_header.hpp"

#include <hdf5.h>
#include <mpi.h>

#include <functional>
#include <string>

namespace cb::io::detail {

// Collective over `comm`. `body` writes the datasets, about `data_bytes` in
// all, into the open file (it must be collective too). Throws RunError naming
// `path` on any rank's failure, or before anything is written when the file
// system has no room for it; the .partial is then removed and nothing else is
// touched.
void write_checkpoint_atomically(const std::string& path, MPI_Comm comm,
                                 const CheckpointHeader& header, double data_bytes,
                                 const std::function<void(hid_t file)>& body);

}  // namespace cb::io::detail
