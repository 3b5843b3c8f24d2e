#include "solvers/md/distribution.hpp"

#include <numeric>

namespace cb::md {

DistributionPlan::DistributionPlan(MPI_Comm comm, const std::vector<int>& destination)
    : comm_(comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  send_counts_.assign(ranks, 0);
  for (const int rank : destination) ++send_counts_[rank];
  send_offsets_.resize(ranks);
  std::exclusive_scan(send_counts_.begin(), send_counts_.end(), send_offsets_.begin(), 0);
  send_total_ = static_cast<int>(destination.size());

  // A stable counting sort by destination.
  send_order_ = IntView("md::distribution_send_order", send_total_);
  auto order = Kokkos::create_mirror_view(send_order_);
  std::vector<int> next = send_offsets_;
  for (int k = 0; k < send_total_; ++k) order(next[destination[k]]++) = k;
  Kokkos::deep_copy(send_order_, order);

  receive_counts_.resize(ranks);
  receive_offsets_.resize(ranks);
  MPI_Alltoall(send_counts_.data(), 1, MPI_INT, receive_counts_.data(), 1, MPI_INT, comm);
  std::exclusive_scan(receive_counts_.begin(), receive_counts_.end(), receive_offsets_.begin(), 0);
  receive_total_ = receive_offsets_.back() + receive_counts_.back();
}

void DistributionPlan::exchange(MessageBuffer<double>& send, MessageBuffer<double>& receive,
                                int width) const {
  MPI_Datatype record;
  MPI_Type_contiguous(width, MPI_DOUBLE, &record);
  MPI_Type_commit(&record);
  MPI_Alltoallv(send.outgoing(std::size_t(send_total_) * width), send_counts_.data(),
                send_offsets_.data(), record, receive.incoming(), receive_counts_.data(),
                receive_offsets_.data(), record, comm_);
  MPI_Type_free(&record);
  receive.received(std::size_t(receive_total_) * width);
}

void distribute_owned(const DistributionPlan& plan, const Atoms& from, Atoms& to,
                      const CommOptions& options) {
  const int width = owned_record_width(from);
  MessageBuffer<double> send("md::distribution_send", std::size_t(plan.send_count()) * width,
                             options);
  MessageBuffer<double> receive("md::distribution_receive",
                                std::size_t(plan.receive_count()) * width, options);
  pack_owned(from, RowMap::list(plan.send_order()), plan.send_count(), send.device());
  plan.exchange(send, receive, width);
  const int n = plan.receive_count();
  to.reserve(n);
  to.nlocal = n;
  to.nghost = 0;
  unpack_owned(receive.device(), RowMap::range(0), n, to, 0);
}

}  // namespace cb::md
