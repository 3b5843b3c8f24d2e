#include "solvers/md/charge_sums.hpp"

namespace cb::md {

ChargeSums sum_charges(const Atoms& atoms, OrderedSum& sums, MPI_Comm comm,
                       const std::optional<ChargeSums>& given) {
  if (given) return *given;
  const auto q = atoms.q;
  const Sums<2> mine = sums.sum<2>(
      "md::charge_sums", atoms.nlocal, KOKKOS_LAMBDA(int i, double* s) {
        s[0] += q(i);
        s[1] += q(i) * q(i);
      });
  double total[2] = {0.0, 0.0};
  MPI_Allreduce(mine.value, total, 2, MPI_DOUBLE, MPI_SUM, comm);
  return {total[0], total[1]};
}

}  // namespace cb::md
