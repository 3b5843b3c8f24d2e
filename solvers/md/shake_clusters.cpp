#include "solvers/md/shake_clusters.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <unordered_map>

namespace cb::md {
namespace {

using kernels::md::ClusterShape;

// A bonded neighbour (LAMMPS's 1-2 special list) with the type of the first
// bond between the two in the topology's order.
struct Partner {
  std::int64_t id = 0;
  int bond_type = 0;
  bool constrained = false;
};
using Partners = std::map<std::int64_t, std::vector<Partner>>;  // by atom id, ids sorted

Partners bonded_partners(const TermList& bonds) {
  Partners partners;
  auto add = [&](std::int64_t i, std::int64_t j, int type) {
    std::vector<Partner>& list = partners[i];
    for (const Partner& p : list)
      if (p.id == j) return;
    list.push_back({j, type, false});
  };
  for (std::size_t b = 0; b < bonds.size(); ++b) {
    add(bonds.atoms[2 * b], bonds.atoms[2 * b + 1], bonds.type[b]);
    add(bonds.atoms[2 * b + 1], bonds.atoms[2 * b], bonds.type[b]);
  }
  for (auto& [id, list] : partners)
    std::sort(list.begin(), list.end(),
              [](const Partner& a, const Partner& b) { return a.id < b.id; });
  return partners;
}

// Flags by type (index 0 unused); throws LAMMPS's message for a type outside 1..count.
std::vector<bool> type_flags(const std::vector<int>& selected, int count, const std::string& what) {
  std::vector<bool> flag(count + 1, false);
  for (int type : selected) {
    if (type < 1 || type > count)
      throw InputError("Invalid " + what + " type index for fix shake: " + std::to_string(type) +
                       " (" + what + " types are 1 to " + std::to_string(count) + ")");
    flag[type] = true;
  }
  return flag;
}

// What each atom's type and mass select, by id.
struct AtomFlags {
  std::unordered_map<std::int64_t, bool> by_type, by_mass;
};

AtomFlags atom_flags(const ShakeAtoms& atoms, const ShakeSelection& selection) {
  const int types = static_cast<int>(atoms.type_masses.size());
  const std::vector<bool> type_flag = type_flags(selection.atom_types, types, "atom");
  if (selection.masses.size() > atoms.type_masses.size())
    throw InputError("Too many masses for fix shake");
  for (double mass : selection.masses)
    if (mass == 0.0) throw InputError("Invalid atom mass for fix shake");
  AtomFlags flags;
  for (std::size_t a = 0; a < atoms.id.size(); ++a) {
    const int type = atoms.type[a];
    if (type < 1 || type > types)
      throw InputError("fix shake: atom " + std::to_string(atoms.id[a]) + " has type " +
                       std::to_string(type) + ", not one of 1 to " + std::to_string(types));
    bool mass_match = false;
    for (double mass : selection.masses)
      mass_match =
          mass_match || std::abs(mass - atoms.type_masses[type - 1]) <= shake_mass_tolerance;
    flags.by_type[atoms.id[a]] = type_flag[type];
    flags.by_mass[atoms.id[a]] = mass_match;
  }
  return flags;
}

// Marks the constrained bonds; returns each atom's count of them.
std::map<std::int64_t, int> mark_constrained(Partners& partners, const AtomFlags& flags,
                                             const std::vector<bool>& bond_flag) {
  auto flag_of = [](const std::unordered_map<std::int64_t, bool>& map, std::int64_t id) {
    const auto it = map.find(id);
    if (it == map.end())
      throw InputError("Did not find fix shake partner info: bonded atom " + std::to_string(id) +
                       " is not among the atoms");
    return it->second;
  };
  std::map<std::int64_t, int> count;
  for (auto& [id, list] : partners) {
    count[id] = 0;
    for (Partner& p : list) {
      const bool by_type = flag_of(flags.by_type, id) || flag_of(flags.by_type, p.id);
      const bool by_mass = flag_of(flags.by_mass, id) || flag_of(flags.by_mass, p.id);
      const bool by_bond =
          p.bond_type < static_cast<int>(bond_flag.size()) && bond_flag[p.bond_type];
      // As LAMMPS: a bond of type <= 0 (switched off) is never constrained.
      p.constrained = p.bond_type > 0 && (by_bond || by_type || by_mass);
      if (p.constrained) ++count[id];
    }
  }
  return count;
}

void check_cluster_sizes(const Partners& partners, const std::map<std::int64_t, int>& count) {
  for (const auto& [id, n] : count)
    if (n > 3)
      throw InputError("Shake cluster of more than 4 atoms: atom " + std::to_string(id) + " has " +
                       std::to_string(n) + " constrained bonds");
  for (const auto& [id, list] : partners) {
    if (count.at(id) <= 1) continue;
    for (const Partner& p : list)
      if (p.constrained && count.at(p.id) > 1)
        throw InputError("Shake clusters are connected: bonded atoms " + std::to_string(id) +
                         " and " + std::to_string(p.id) +
                         " both have more than one constrained bond (an atom would be in two "
                         "clusters)");
  }
}

// The type of the first angle (end, centre, end) with these ends, 0 if none.
int angle_type(const TermList& angles, std::int64_t centre, std::int64_t end1, std::int64_t end2) {
  for (std::size_t t = 0; t < angles.size(); ++t) {
    const std::int64_t* a = &angles.atoms[3 * t];
    if (a[1] == centre && ((a[0] == end1 && a[2] == end2) || (a[0] == end2 && a[2] == end1)))
      return angles.type[t];
  }
  return 0;
}

}  // namespace

std::vector<ShakeCluster> find_shake_clusters(const Topology& topology, const ShakeAtoms& atoms,
                                              const ShakeSelection& selection) {
  const std::vector<bool> bond_flag =
      type_flags(selection.bond_types, topology.types[static_cast<int>(TermKind::bond)], "bond");
  const std::vector<bool> angle_flag =
      type_flags(selection.angle_types, topology.types[static_cast<int>(TermKind::angle)], "angle");
  const AtomFlags flags = atom_flags(atoms, selection);
  Partners partners = bonded_partners(topology.of(TermKind::bond));
  const std::map<std::int64_t, int> count = mark_constrained(partners, flags, bond_flag);
  check_cluster_sizes(partners, count);

  std::vector<ShakeCluster> clusters;
  for (const auto& [id, list] : partners) {
    const int n = count.at(id);
    std::vector<const Partner*> bonded;
    for (const Partner& p : list)
      if (p.constrained) bonded.push_back(&p);
    if (n == 0 || (n == 1 && (count.at(bonded[0]->id) > 1 || bonded[0]->id < id))) continue;
    ShakeCluster cluster;
    cluster.shape = static_cast<ClusterShape>(n + 1);
    cluster.atoms[0] = id;
    for (int k = 0; k < n; ++k) {
      cluster.atoms[k + 1] = bonded[k]->id;
      cluster.bond_types[k] = bonded[k]->bond_type;
    }
    if (n == 2) {
      const int type =
          angle_type(topology.of(TermKind::angle), id, cluster.atoms[1], cluster.atoms[2]);
      if (type > 0 && type < static_cast<int>(angle_flag.size()) && angle_flag[type]) {
        cluster.shape = ClusterShape::angle3;
        cluster.angle_type = type;
      }
    }
    clusters.push_back(cluster);
  }
  return clusters;
}

ShakeCounts count_clusters(const std::vector<ShakeCluster>& clusters) {
  ShakeCounts counts;
  for (const ShakeCluster& c : clusters) {
    switch (c.shape) {
      case ClusterShape::pair:
        ++counts.size2;
        break;
      case ClusterShape::star3:
        ++counts.size3;
        break;
      case ClusterShape::star4:
        ++counts.size4;
        break;
      case ClusterShape::angle3:
        ++counts.frozen_angles;
        break;
    }
  }
  return counts;
}

std::int64_t constraint_count(const std::vector<ShakeCluster>& clusters) {
  std::int64_t n = 0;
  for (const ShakeCluster& c : clusters) n += kernels::md::cluster_constraints(c.shape).count;
  return n;
}

std::vector<std::array<double, 3>> shake_targets(const std::vector<ShakeCluster>& clusters,
                                                 const std::vector<double>& bond_r0,
                                                 const std::vector<double>& angle_theta0) {
  std::map<int, std::pair<int, int>> angle_bonds;  // angle type -> (lower, higher) bond type
  std::vector<std::array<double, 3>> targets;
  targets.reserve(clusters.size());
  for (const ShakeCluster& c : clusters) {
    std::array<double, 3> length = {0.0, 0.0, 0.0};
    const int bonds = c.size() - 1;
    for (int k = 0; k < bonds; ++k) length[k] = bond_r0.at(c.bond_types[k] - 1);
    if (c.shape == ClusterShape::angle3) {
      const std::pair<int, int> types = std::minmax(c.bond_types[0], c.bond_types[1]);
      const auto [it, inserted] = angle_bonds.emplace(c.angle_type, types);
      if (!inserted && it->second != types)
        throw InputError("Shake angles have different bond types: angle type " +
                         std::to_string(c.angle_type) + " joins bond types " +
                         std::to_string(it->second.first) + "," +
                         std::to_string(it->second.second) + " and " + std::to_string(types.first) +
                         "," + std::to_string(types.second));
      const double theta = angle_theta0.at(c.angle_type - 1);
      length[2] = std::sqrt(length[0] * length[0] + length[1] * length[1] -
                            2.0 * length[0] * length[1] * std::cos(theta));
    }
    targets.push_back(length);
  }
  return targets;
}

}  // namespace cb::md
