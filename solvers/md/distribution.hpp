// Sends items to ranks given one destination rank per item: counts by
// destination, MPI_Alltoall of the counts, then one MPI_Alltoallv of
// fixed-width records (the plan of Cabana::Distributor). The plan is
// physics-free: it orders, counts and moves records of doubles. The atoms'
// side is distribute_owned() below: atoms packed as records (atom_records.hpp)
// in the plan's order, exchanged and unpacked. Loading (lattice start, LAMMPS
// data file) and restart send atoms to their owners this way; migration at a
// rebuild moves them between neighbours with the same records (comm.hpp).
#pragma once

#include "core/message_buffer.hpp"
#include "solvers/md/atom_records.hpp"

#include <mpi.h>

#include <vector>

namespace cb::md {

class DistributionPlan {
 public:
  // Collective. `destination[k]` is the rank item k goes to.
  DistributionPlan(MPI_Comm comm, const std::vector<int>& destination);

  int send_count() const { return send_total_; }
  int receive_count() const { return receive_total_; }
  // The items in the order they are sent: by destination rank, and within a
  // rank in their own order.
  const IntView& send_order() const { return send_order_; }

  // Sends send_count() records of `width` doubles (`send`, in send order) and
  // receives receive_count() of them into `receive` (sized for them): by source
  // rank, and from each source in its send order.
  void exchange(MessageBuffer<double>& send, MessageBuffer<double>& receive, int width) const;

 private:
  MPI_Comm comm_;
  std::vector<int> send_counts_, send_offsets_, receive_counts_, receive_offsets_;
  int send_total_ = 0, receive_total_ = 0;
  IntView send_order_;
};

// Collective. The owned atoms of `from` go to the ranks `plan` names (one
// destination per owned atom); `to` becomes the atoms received, in the order of
// DistributionPlan::exchange, with no ghosts. `options`: how MPI gets the buffers.
void distribute_owned(const DistributionPlan& plan, const Atoms& from, Atoms& to,
                      const CommOptions& options = {});

}  // namespace cb::md
