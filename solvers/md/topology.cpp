#include "solvers/md/topology.hpp"

#include "core/mpi_gather.hpp"

#include <algorithm>
#include <unordered_map>

namespace cb::md {
namespace {

using Neighbors = std::unordered_map<std::int64_t, std::vector<std::int64_t>>;

Neighbors bonded_neighbors(const TermList& bonds) {
  Neighbors next;
  for (std::size_t b = 0; b < bonds.size(); ++b) {
    const std::int64_t i = bonds.atoms[2 * b], j = bonds.atoms[2 * b + 1];
    next[i].push_back(j);
    next[j].push_back(i);
  }
  return next;
}

// The slots of every term, listed under each atom the term involves.
std::unordered_map<std::int64_t, std::vector<std::vector<std::int64_t>>> slots_by_atom(
    const TermList& list, int per_term) {
  std::unordered_map<std::int64_t, std::vector<std::vector<std::int64_t>>> by_atom;
  for (std::size_t t = 0; t < list.size(); ++t) {
    std::vector<std::int64_t> slot{list.type[t]};
    slot.insert(slot.end(), list.atoms.begin() + t * per_term,
                list.atoms.begin() + (t + 1) * per_term);
    for (int a = 0; a < per_term; ++a) by_atom[list.atoms[t * per_term + a]].push_back(slot);
  }
  return by_atom;
}

}  // namespace

Topology allgather_topology(const Topology& mine, MPI_Comm comm) {
  Topology all;
  for (int kind = 0; kind < term_kinds; ++kind) {
    all.types[kind] = mine.types[kind];
    all.terms[kind].type = allgather(mine.terms[kind].type, MPI_INT, comm);
    all.terms[kind].atoms = allgather(mine.terms[kind].atoms, MPI_INT64_T, comm);
  }
  return all;
}

std::vector<std::vector<std::int64_t>> special_neighbors(const TermList& bonds,
                                                         const std::vector<std::int64_t>& ids) {
  const Neighbors next = bonded_neighbors(bonds);
  const auto partners = [&next](std::int64_t id) -> const std::vector<std::int64_t>& {
    static const std::vector<std::int64_t> none;
    const auto found = next.find(id);
    return found == next.end() ? none : found->second;
  };
  std::vector<std::vector<std::int64_t>> out(ids.size());
  for (std::size_t a = 0; a < ids.size(); ++a) {
    const std::int64_t self = ids[a];
    std::unordered_map<std::int64_t, int> level;  // closest level of each neighbour
    std::vector<std::int64_t> shell{self};
    for (int depth = 1; depth <= 3; ++depth) {
      std::vector<std::int64_t> outer;
      for (std::int64_t j : shell) {
        for (std::int64_t k : partners(j)) {
          if (k == self || level.count(k) != 0) continue;
          level[k] = depth;
          outer.push_back(k);
        }
      }
      shell = outer;
    }
    for (const auto& [id, depth] : level) out[a].push_back(id * 4 + depth);
    std::sort(out[a].begin(), out[a].end());
  }
  return out;
}

HostRows host_rows(const Topology& all, const std::vector<std::int64_t>& ids) {
  HostRows rows;
  const std::size_t n = ids.size();
  for (int kind = 0; kind < term_kinds; ++kind) {
    const int per_term = atoms_per_term(static_cast<TermKind>(kind));
    auto by_atom = slots_by_atom(all.terms[kind], per_term);
    std::size_t most = 0;
    for (const auto& [id, slots] : by_atom) most = std::max(most, slots.size());
    const int width = static_cast<int>(most) * (1 + per_term);
    rows.term_width[kind] = width;
    rows.terms[kind].assign(n * width, 0);
    for (std::size_t a = 0; a < n; ++a) {
      auto found = by_atom.find(ids[a]);
      if (found == by_atom.end()) continue;
      std::vector<std::vector<std::int64_t>>& slots = found->second;
      std::sort(slots.begin(), slots.end());
      for (std::size_t s = 0; s < slots.size(); ++s)
        std::copy(slots[s].begin(), slots[s].end(),
                  rows.terms[kind].begin() + a * width + s * (1 + per_term));
    }
  }
  std::vector<std::int64_t> everyone;
  for (const auto& [id, partners] : bonded_neighbors(all.of(TermKind::bond)))
    everyone.push_back(id);
  std::size_t most = 0;
  for (const auto& list : special_neighbors(all.of(TermKind::bond), everyone))
    most = std::max(most, list.size());
  rows.special_width = static_cast<int>(most);
  rows.special.assign(n * most, 0);
  const auto mine = special_neighbors(all.of(TermKind::bond), ids);
  for (std::size_t a = 0; a < n; ++a)
    std::copy(mine[a].begin(), mine[a].end(), rows.special.begin() + a * most);
  return rows;
}

void append_first_atom_terms(TermKind kind, const std::vector<std::int64_t>& ids,
                             const std::vector<std::int64_t>& rows, int width, TermList& out) {
  const int per_term = atoms_per_term(kind);
  const int slots = width / (1 + per_term);
  for (std::size_t a = 0; a < ids.size(); ++a) {
    for (int s = 0; s < slots; ++s) {
      const std::int64_t* slot = &rows[a * width + s * (1 + per_term)];
      if (slot[0] == 0) break;
      if (slot[1] != ids[a]) continue;
      out.type.push_back(static_cast<int>(slot[0]));
      out.atoms.insert(out.atoms.end(), slot + 1, slot + 1 + per_term);
    }
  }
}

}  // namespace cb::md
