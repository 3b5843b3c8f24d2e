// A host-only stand-in for a particle solver, for the I/O tests: `count` atoms
// with full-mantissa positions, velocities and image flags that depend on the
// id; atom `id` lives on rank id % size, stored in decreasing id order (so
// nothing is sorted by accident). step() moves atoms ballistically and wraps
// them into the periodic box, as an MD code stores them. A topology set with
// set_topology() is kept as an MD code keeps it: each term on the rank that
// owns its first atom.
#pragma once

#include "core/particle_solver.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace cb::test {

// Terms along a chain of atoms 1..count, of every kind, with several types
// (2 bond, 3 angle, 2 dihedral, 1 improper types); every term once.
inline Topology chain_topology(long count) {
  Topology topology;
  const int types[term_kinds] = {2, 3, 2, 1};
  std::copy(types, types + term_kinds, topology.types);
  for (long i = 1; i <= count; ++i) {
    auto add = [&](TermKind kind, int type, std::vector<std::int64_t> atoms) {
      if (*std::max_element(atoms.begin(), atoms.end()) > count) return;
      topology.of(kind).type.push_back(type);
      topology.of(kind).atoms.insert(topology.of(kind).atoms.end(), atoms.begin(), atoms.end());
    };
    add(TermKind::bond, 1 + int(i % 2), {i + 1, i});
    add(TermKind::angle, 1 + int(i % 3), {i, i + 1, i + 2});
    if (i % 2 == 1) add(TermKind::dihedral, 1 + int(i % 4 / 2), {i + 3, i + 2, i + 1, i});
    if (i % 5 == 0) add(TermKind::improper, 1, {i + 1, i, i + 2, i + 3});
  }
  return topology;
}

// The terms of each kind sorted by (atom ids, type): for comparing as sets.
inline Topology sorted_topology(const Topology& topology) {
  Topology out;
  std::copy(topology.types, topology.types + term_kinds, out.types);
  for (int k = 0; k < term_kinds; ++k) {
    const TermList& in = topology.terms[k];
    const std::size_t width = std::size_t(atoms_per_term(TermKind(k)));
    std::vector<std::vector<std::int64_t>> rows;
    for (std::size_t t = 0; t < in.size(); ++t) {
      rows.emplace_back(in.atoms.begin() + t * width, in.atoms.begin() + (t + 1) * width);
      rows.back().push_back(in.type[t]);
    }
    std::sort(rows.begin(), rows.end());
    for (const auto& row : rows) {
      out.terms[k].type.push_back(int(row.back()));
      out.terms[k].atoms.insert(out.terms[k].atoms.end(), row.begin(), row.end() - 1);
    }
  }
  return out;
}

inline bool same_topology(const Topology& a, const Topology& b) {
  for (int k = 0; k < term_kinds; ++k)
    if (a.types[k] != b.types[k] || a.terms[k].type != b.terms[k].type ||
        a.terms[k].atoms != b.terms[k].atoms)
      return false;
  return true;
}

class FakeParticleSolver : public ParticleSolver {
 public:
  FakeParticleSolver(MPI_Comm comm, long count, const std::string& name = "fake_md")
      : comm_(comm), count_(count), name_(name) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
    box_.lo = {-1.5, 0.25, 0.0};
    box_.hi = {4.0 / 3.0, 7.75, 3.0};
    box_.periodic = {true, true, false};
    geometry_.cells = {2, 3, 1};
    geometry_.lo = box_.lo;
    geometry_.hi = box_.hi;
    geometry_.periodic = box_.periodic;
    for (long id = count; id >= 1; --id)
      if (id % size_ == rank_) append_atom(id);
  }

  std::string name() const override { return name_; }
  std::string case_name() const override { return "fake"; }
  double stable_dt() override { return 0.01; }
  void step(double, double dt, PhaseTimer&) override {
    for (std::size_t a = 0; a < atoms_.size(); ++a)
      for (int axis = 0; axis < 3; ++axis) {
        double& x = atoms_.x[3 * a + axis];
        x += dt * atoms_.v[3 * a + axis];
        const double length = box_.hi[axis] - box_.lo[axis];
        if (x >= box_.hi[axis]) {
          x -= length;
          ++atoms_.image[3 * a + axis];
        } else if (x < box_.lo[axis]) {
          x += length;
          --atoms_.image[3 * a + axis];
        }
      }
  }
  std::vector<Diagnostic> diagnostics(double) override { return {{"atoms", double(count_)}}; }
  std::string locate_non_finite() override { return ""; }
  const GridGeometry& geometry() const { return geometry_; }
  double work_per_step() const override { return double(count_); }
  std::string throughput_unit() const override { return "atom-steps/s"; }

  const ParticleBox& box() const override { return box_; }
  std::vector<double> type_masses() const override { return {1.0, 39.948 / 3.0}; }
  std::int64_t total_atoms() const override { return count_; }
  HostParticles owned_particles() override { return atoms_; }

  // Keeps the terms of `all` whose first atom this rank owns.
  void set_topology(const Topology& all) { atoms_.topology = owned_terms(all); }

  // Every rank's terms on every rank, sorted (sorted_topology).
  Topology all_topology() const { return sorted_topology(allgather(atoms_.topology)); }

  // Every rank sees every atom and keeps its own (id % size), in decreasing id
  // order, and the terms whose first atom it owns.
  void load_particles(const HostParticles& atoms) override {
    const Topology topology = owned_terms(allgather(atoms.topology));
    const HostParticles all = allgather(atoms);
    std::vector<std::size_t> order(all.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(),
              [&](std::size_t p, std::size_t q) { return all.id[p] > all.id[q]; });
    atoms_ = HostParticles{};
    atoms_.topology = topology;
    for (std::size_t n : order) {
      if (all.id[n] % size_ != rank_) continue;
      atoms_.id.push_back(all.id[n]);
      atoms_.type.push_back(all.type[n]);
      for (int axis = 0; axis < 3; ++axis) {
        atoms_.x.push_back(all.x[3 * n + axis]);
        atoms_.v.push_back(all.v[3 * n + axis]);
        atoms_.image.push_back(all.image[3 * n + axis]);
      }
    }
  }

  std::vector<std::string> per_atom_names() const override { return {"pe", "ke"}; }
  std::vector<double> per_atom_values(int q) override {
    std::vector<double> values;
    for (std::size_t a = 0; a < atoms_.size(); ++a)
      values.push_back(q == 0 ? -1.0 / (3.0 + double(atoms_.id[a]))
                              : 0.5 * (atoms_.v[3 * a] * atoms_.v[3 * a]));
    return values;
  }

  // All atoms of every rank, on every rank, sorted by id.
  HostParticles all_sorted() { return sorted(allgather(atoms_)); }

  static HostParticles sorted(const HostParticles& atoms) {
    std::vector<std::size_t> order(atoms.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(),
              [&](std::size_t p, std::size_t q) { return atoms.id[p] < atoms.id[q]; });
    HostParticles out;
    for (std::size_t n : order) {
      out.id.push_back(atoms.id[n]);
      out.type.push_back(atoms.type[n]);
      for (int axis = 0; axis < 3; ++axis) {
        out.x.push_back(atoms.x[3 * n + axis]);
        out.v.push_back(atoms.v[3 * n + axis]);
        out.image.push_back(atoms.image[3 * n + axis]);
      }
    }
    return out;
  }

 private:
  void append_atom(long id) {
    atoms_.id.push_back(id);
    atoms_.type.push_back(1 + int(id % 2));
    for (int axis = 0; axis < 3; ++axis) {
      const double length = box_.hi[axis] - box_.lo[axis];
      const double fraction = std::fmod(0.61803398874989484 * double(id * (axis + 2)), 1.0);
      atoms_.x.push_back(box_.lo[axis] + length * fraction);
      atoms_.v.push_back(std::sin(1.0 + double(id) * (axis + 1)) / 3.0);
      atoms_.image.push_back(int(id % 5) - 2 + axis);
    }
  }

  template <class T>
  std::vector<T> allgather_values(const std::vector<T>& mine, MPI_Datatype type) const {
    const int count = static_cast<int>(mine.size());
    std::vector<int> counts(size_), offsets(size_, 0);
    MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
    for (int r = 1; r < size_; ++r) offsets[r] = offsets[r - 1] + counts[r - 1];
    std::vector<T> all(static_cast<std::size_t>(offsets.back() + counts.back()));
    MPI_Allgatherv(mine.data(), count, type, all.data(), counts.data(), offsets.data(), type,
                   comm_);
    return all;
  }

  Topology owned_terms(const Topology& all) const {
    Topology mine;
    std::copy(all.types, all.types + term_kinds, mine.types);
    for (int k = 0; k < term_kinds; ++k) {
      const std::size_t width = std::size_t(atoms_per_term(TermKind(k)));
      const TermList& terms = all.terms[k];
      for (std::size_t t = 0; t < terms.size(); ++t) {
        if (terms.atoms[t * width] % size_ != rank_) continue;
        mine.terms[k].type.push_back(terms.type[t]);
        mine.terms[k].atoms.insert(mine.terms[k].atoms.end(), terms.atoms.begin() + t * width,
                                   terms.atoms.begin() + (t + 1) * width);
      }
    }
    return mine;
  }

  // The types are the largest any rank has.
  Topology allgather(const Topology& topology) const {
    Topology all;
    MPI_Allreduce(topology.types, all.types, term_kinds, MPI_INT, MPI_MAX, comm_);
    for (int k = 0; k < term_kinds; ++k) {
      all.terms[k].type = allgather_values(topology.terms[k].type, MPI_INT);
      all.terms[k].atoms = allgather_values(topology.terms[k].atoms, MPI_INT64_T);
    }
    return all;
  }

  HostParticles allgather(const HostParticles& atoms) const {
    HostParticles all;
    all.id = allgather_values(atoms.id, MPI_INT64_T);
    all.type = allgather_values(atoms.type, MPI_INT);
    all.x = allgather_values(atoms.x, MPI_DOUBLE);
    all.v = allgather_values(atoms.v, MPI_DOUBLE);
    all.image = allgather_values(atoms.image, MPI_INT);
    return all;
  }

  MPI_Comm comm_;
  long count_;
  std::string name_;
  int rank_ = 0, size_ = 1;
  ParticleBox box_;
  GridGeometry geometry_;
  HostParticles atoms_;
};

}  // namespace cb::test
