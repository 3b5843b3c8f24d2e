// HDF5 checkpoints (docs/checkpoint-format.md). One file per
// checkpoint, written collectively (MPI-IO, each rank its hyperslab); every
// field one global dataset without ghost cells, shape [nz][ny][nx], so a run
// restarts on any rank count.
#pragma once

#include "core/decomposition.hpp"
#include "core/solver.hpp"
#include "io/checkpoint_header.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cb::io {

// Collective. Writes `path`.partial, closes, fsyncs, renames to `path`, fsyncs
// the directory; the root attribute `complete` = 1 is written last. Throws
// RunError on an I/O failure (the .partial is removed, nothing else touched).
void write_checkpoint(const std::string& path, const Decomposition& decomposition,
                      const CheckpointHeader& header, const std::vector<FieldComponent>& fields);

// Collective. Reads the root attributes; throws InputError naming the file if it
// is missing, not HDF5, truncated, not a cloudburst checkpoint or incomplete.
CheckpointHeader read_checkpoint_header(const std::string& path, MPI_Comm comm);

// Collective. Fills the owned cells of each field (ghosts untouched) from the
// global datasets of the same names. Throws InputError on a missing dataset or
// a shape that differs from the decomposition's global grid.
void read_checkpoint_fields(const std::string& path, const Decomposition& decomposition,
                            const std::vector<FieldComponent>& fields);

// Throws InputError unless `header` is from `solver` on the same grid (cells,
// extent, periodicity). `path` is named in the message.
void check_compatible(const std::string& path, const CheckpointHeader& header,
                      const std::string& solver, const GridGeometry& geometry);

// `<dir>/chk_<step:08d>.h5`
std::string checkpoint_path(const std::string& dir, long step);

// Collective. Newest `chk_*.h5` in `dir` (highest step) that opens and has
// complete = 1; *.partial files and broken files are skipped. Same on all ranks.
std::optional<std::string> newest_complete_checkpoint(const std::string& dir, MPI_Comm comm);

// Rank 0 only: removes the oldest complete checkpoints beyond `keep` (and stale
// *.partial files). keep <= 0 keeps all.
void prune_checkpoints(const std::string& dir, int keep);

}  // namespace cb::io
