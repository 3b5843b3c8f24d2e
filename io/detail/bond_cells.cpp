#include "io/detail/bond_cells.hpp"

#include "core/mpi_gather.hpp"
#include "io/detail/h5_fields.hpp"

#include <algorithm>
#include <numeric>

namespace cb::io::detail {

BondCells bond_cells(MPI_Comm comm, const HostParticles& local, std::string& error) {
  const TermList& bonds = local.topology.of(TermKind::bond);
  BondCells cells;
  cells.slice = rank_offset_slice(comm, static_cast<std::int64_t>(bonds.size()));
  error.clear();
  if (cells.slice.total == 0) return cells;
  // every row's id, in row order: the ranks' rows follow each other
  const std::vector<std::int64_t> ids = allgather(local.id, MPI_INT64_T, comm);
  std::vector<std::int64_t> by_id(ids.size());  // rows sorted by their ids
  std::iota(by_id.begin(), by_id.end(), std::int64_t(0));
  std::sort(by_id.begin(), by_id.end(),
            [&ids](std::int64_t a, std::int64_t b) { return ids[a] < ids[b]; });
  cells.type = bonds.type;
  cells.rows.resize(bonds.atoms.size());
  for (std::size_t n = 0; n < bonds.atoms.size() && error.empty(); ++n) {
    const std::int64_t id = bonds.atoms[n];
    const auto row = std::lower_bound(
        by_id.begin(), by_id.end(), id,
        [&ids](std::int64_t candidate, std::int64_t wanted) { return ids[candidate] < wanted; });
    if (row == by_id.end() || ids[*row] != id)
      error = "bond " + std::to_string(n / 2 + 1) + " of a rank names atom " + std::to_string(id) +
              ", which no rank holds";
    else
      cells.rows[n] = *row;
  }
  error = first_error(comm, error);
  return cells;
}

}  // namespace cb::io::detail
