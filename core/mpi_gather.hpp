// Small MPI gathers of host vectors that several modules share.
#pragma once

#include <mpi.h>

#include <vector>

namespace cb {

// Collective: every rank's `mine` concatenated in rank order, on every rank.
// Counts and offsets are ints (MPI's), so the total stays below 2^31 elements.
template <class T>
std::vector<T> allgather(const std::vector<T>& mine, MPI_Datatype type, MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(ranks), offsets(ranks, 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  for (int r = 1; r < ranks; ++r) offsets[r] = offsets[r - 1] + counts[r - 1];
  std::vector<T> all(offsets.back() + counts.back());
  MPI_Allgatherv(mine.data(), count, type, all.data(), counts.data(), offsets.data(), type, comm);
  return all;
}

}  // namespace cb
