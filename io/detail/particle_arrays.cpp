#include "io/detail/particle_arrays.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace cb::io::detail {
namespace {

template <class T>
MPI_Datatype mpi_type();
template <>
MPI_Datatype mpi_type<std::int64_t>() {
  return MPI_INT64_T;
}
template <>
MPI_Datatype mpi_type<int>() {
  return MPI_INT;
}
template <>
MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}

// `local` (per_atom values per atom) of every rank, concatenated in rank order
// on `root`. `atoms_per_rank` is meaningful on root only.
template <class T>
std::vector<T> gather_values(MPI_Comm comm, const std::vector<T>& local, int per_atom,
                             const std::vector<int>& atoms_per_rank, int root, bool is_root) {
  std::vector<int> counts, displacements;
  std::vector<T> all;
  if (is_root) {
    counts.resize(atoms_per_rank.size());
    displacements.resize(atoms_per_rank.size());
    long total = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      const long values = long(atoms_per_rank[r]) * per_atom;
      if (total + values > 2147483647L)
        throw std::length_error("gather: more than 2^31 values (write fewer atoms per file)");
      counts[r] = static_cast<int>(values);
      displacements[r] = static_cast<int>(total);
      total += values;
    }
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(local.data(), static_cast<int>(local.size()), mpi_type<T>(), all.data(),
              counts.data(), displacements.data(), mpi_type<T>(), root, comm);
  return all;
}

template <class T>
std::vector<T> permuted(const std::vector<T>& values, const std::vector<std::size_t>& order,
                        int per_atom) {
  std::vector<T> out(values.size());
  for (std::size_t n = 0; n < order.size(); ++n)
    std::copy_n(values.begin() + order[n] * per_atom, per_atom, out.begin() + n * per_atom);
  return out;
}

H5Handle row_space(hsize_t rows, int width) {
  const hsize_t dims[2] = {rows, hsize_t(width)};
  return checked(H5Screate_simple(width == 1 ? 1 : 2, dims, nullptr), H5Sclose, "dataspace");
}

// This rank's rows of a [total][width] file space, and the matching memory space.
struct RowSelection {
  H5Handle file_space;
  H5Handle memory_space;
};

RowSelection select_rows(const RowSlice& slice, int width) {
  RowSelection s{row_space(hsize_t(slice.total), width),
                 row_space(hsize_t(std::max<std::int64_t>(slice.count, 1)), width)};
  if (slice.count == 0) {
    check(H5Sselect_none(s.file_space), "select none");
    check(H5Sselect_none(s.memory_space), "select none");
    return s;
  }
  const hsize_t start[2] = {hsize_t(slice.offset), 0};
  const hsize_t count[2] = {hsize_t(slice.count), hsize_t(width)};
  check(H5Sselect_hyperslab(s.file_space, H5S_SELECT_SET, start, nullptr, count, nullptr),
        "select rows");
  return s;
}

}  // namespace

AtomTable gather_sorted_by_id(MPI_Comm comm, const AtomTable& local, int root) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const bool is_root = rank == root;
  const int mine = static_cast<int>(local.atoms.size());
  std::vector<int> atoms_per_rank(is_root ? ranks : 0);
  MPI_Gather(&mine, 1, MPI_INT, atoms_per_rank.data(), 1, MPI_INT, root, comm);

  const HostParticles& a = local.atoms;
  AtomTable all;
  all.atoms.style = a.style;
  all.atoms.id = gather_values(comm, a.id, 1, atoms_per_rank, root, is_root);
  all.atoms.type = gather_values(comm, a.type, 1, atoms_per_rank, root, is_root);
  all.atoms.x = gather_values(comm, a.x, 3, atoms_per_rank, root, is_root);
  all.atoms.v = gather_values(comm, a.v, 3, atoms_per_rank, root, is_root);
  all.atoms.image = gather_values(comm, a.image, 3, atoms_per_rank, root, is_root);
  int charged = !a.q.empty() ? 1 : 0, any_charged = 0;  // a rank without atoms has none
  MPI_Allreduce(&charged, &any_charged, 1, MPI_INT, MPI_MAX, comm);
  if (any_charged) {
    all.atoms.q = gather_values(comm, a.q, 1, atoms_per_rank, root, is_root);
    all.atoms.molecule = gather_values(comm, a.molecule, 1, atoms_per_rank, root, is_root);
  }
  for (const std::vector<double>& column : local.extra)
    all.extra.push_back(gather_values(comm, column, 1, atoms_per_rank, root, is_root));
  if (!is_root) return {};
  all.extra_names = local.extra_names;

  std::vector<std::size_t> order(all.atoms.id.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  const std::vector<std::int64_t>& id = all.atoms.id;
  std::sort(order.begin(), order.end(),
            [&](std::size_t p, std::size_t q) { return id[p] < id[q]; });
  AtomTable sorted;
  sorted.extra_names = all.extra_names;
  sorted.atoms.style = all.atoms.style;
  sorted.atoms.id = permuted(all.atoms.id, order, 1);
  sorted.atoms.type = permuted(all.atoms.type, order, 1);
  sorted.atoms.x = permuted(all.atoms.x, order, 3);
  sorted.atoms.v = permuted(all.atoms.v, order, 3);
  sorted.atoms.image = permuted(all.atoms.image, order, 3);
  if (any_charged) {
    sorted.atoms.q = permuted(all.atoms.q, order, 1);
    sorted.atoms.molecule = permuted(all.atoms.molecule, order, 1);
  }
  for (const std::vector<double>& column : all.extra)
    sorted.extra.push_back(permuted(column, order, 1));
  return sorted;
}

void sort_terms(TermKind kind, TermList& terms) {
  const std::size_t width = static_cast<std::size_t>(atoms_per_term(kind));
  std::vector<std::size_t> order(terms.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  auto before = [&](std::size_t p, std::size_t q) {
    const auto a = terms.atoms.begin() + p * width, b = terms.atoms.begin() + q * width;
    if (!std::equal(a, a + width, b))
      return std::lexicographical_compare(a, a + width, b, b + width);
    return terms.type[p] < terms.type[q];
  };
  std::sort(order.begin(), order.end(), before);
  terms.type = permuted(terms.type, order, 1);
  terms.atoms = permuted(terms.atoms, order, int(width));
}

Topology gather_topology(MPI_Comm comm, const Topology& local, int root) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const bool is_root = rank == root;
  Topology all;
  MPI_Reduce(local.types, all.types, term_kinds, MPI_INT, MPI_MAX, root, comm);
  for (int k = 0; k < term_kinds; ++k) {
    const TermKind kind = static_cast<TermKind>(k);
    const TermList& mine = local.terms[k];
    const int count = static_cast<int>(mine.size());
    std::vector<int> terms_per_rank(is_root ? ranks : 0);
    MPI_Gather(&count, 1, MPI_INT, terms_per_rank.data(), 1, MPI_INT, root, comm);
    TermList& terms = all.terms[k];
    terms.type = gather_values(comm, mine.type, 1, terms_per_rank, root, is_root);
    terms.atoms =
        gather_values(comm, mine.atoms, atoms_per_term(kind), terms_per_rank, root, is_root);
    if (is_root) sort_terms(kind, terms);
  }
  return is_root ? all : Topology{};
}

RowSlice rank_offset_slice(MPI_Comm comm, std::int64_t local_rows) {
  RowSlice slice;
  slice.count = local_rows;
  MPI_Exscan(&local_rows, &slice.offset, 1, MPI_INT64_T, MPI_SUM, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) slice.offset = 0;  // MPI_Exscan leaves rank 0's result undefined
  MPI_Allreduce(&local_rows, &slice.total, 1, MPI_INT64_T, MPI_SUM, comm);
  return slice;
}

RowSlice even_slice(std::int64_t total, int rank, int ranks) {
  RowSlice slice;
  slice.total = total;
  slice.offset = total * rank / ranks;
  slice.count = total * (rank + 1) / ranks - slice.offset;
  return slice;
}

void write_rows(hid_t group, const std::string& name, hid_t file_type, hid_t memory_type, int width,
                const RowSlice& slice, const void* data) {
  RowSelection rows = select_rows(slice, width);
  H5Handle dcpl = checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "dataset properties");
  check(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), "fill time");
  H5Handle dataset = checked(
      H5Dcreate2(group, name.c_str(), file_type, rows.file_space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
      H5Dclose, "create dataset '" + name + "'");
  H5Handle dxpl = collective_transfer();
  double unused = 0.0;  // a rank without rows may hold no buffer at all
  check(H5Dwrite(dataset, memory_type, rows.memory_space, rows.file_space, dxpl,
                 data != nullptr ? data : &unused),
        "write dataset '" + name + "'");
}

void read_rows(hid_t group, const std::string& label, const std::string& name, hid_t memory_type,
               int width, const RowSlice& slice, void* data) {
  if (!has_link(group, name)) throw InputError(label + "dataset " + name + " is missing");
  H5Handle dataset =
      checked(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose, "open dataset " + name);
  H5Handle space = checked(H5Dget_space(dataset), H5Sclose, "dataspace of " + name);
  hsize_t dims[2] = {0, 0};
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank == 1 || rank == 2) H5Sget_simple_extent_dims(space, dims, nullptr);
  const bool fits = rank == (width == 1 ? 1 : 2) && dims[0] == hsize_t(slice.total) &&
                    (width == 1 || dims[1] == hsize_t(width));
  if (!fits) {
    const std::string expected = "[" + std::to_string(slice.total) + "]" +
                                 (width == 1 ? "" : "[" + std::to_string(width) + "]");
    throw InputError(label + "dataset " + name + " does not have the shape " + expected);
  }
  RowSelection rows = select_rows(slice, width);
  H5Handle dxpl = collective_transfer();
  double unused = 0.0;
  check(H5Dread(dataset, memory_type, rows.memory_space, rows.file_space, dxpl,
                data != nullptr ? data : &unused),
        "read dataset " + name);
}

}  // namespace cb::io::detail
