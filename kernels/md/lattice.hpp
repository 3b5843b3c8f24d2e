// Cubic lattices in LJ reduced units, as LAMMPS `lattice STYLE rho*` and
// `create_atoms TYPE box` build them (host code: used once at setup).
//  - lattice constant a = (n_basis / rho*)^(1/3)  (n_basis = 4 fcc, 2 bcc, 1 sc)
//  - the atom of basis m in unit cell (i, j, k) sits at ((i + b_m,x) a, ...),
//    multiplied in that order so that the coordinates are bit-identical to
//    LAMMPS's (the velocity seeding hashes their bytes);
//  - creation order (and so atom ids 1, 2, ...): k slowest, then j, then i, the
//    basis fastest -- the order of one LAMMPS process.
#pragma once

#include <cmath>
#include <cstdint>

namespace cb::kernels::md {

enum class LatticeStyle : int { sc, bcc, fcc };

inline int basis_count(LatticeStyle style) {
  return style == LatticeStyle::fcc ? 4 : style == LatticeStyle::bcc ? 2 : 1;
}

// Fractional coordinate `axis` of basis atom `m`.
inline double basis_coordinate(LatticeStyle style, int m, int axis) {
  static constexpr double fcc[4][3] = {
      {0.0, 0.0, 0.0}, {0.5, 0.5, 0.0}, {0.5, 0.0, 0.5}, {0.0, 0.5, 0.5}};
  static constexpr double bcc[2][3] = {{0.0, 0.0, 0.0}, {0.5, 0.5, 0.5}};
  if (style == LatticeStyle::fcc) return fcc[m][axis];
  if (style == LatticeStyle::bcc) return bcc[m][axis];
  return 0.0;
}

inline double lattice_constant(LatticeStyle style, double density) {
  return std::pow(basis_count(style) / 1.0 / density, 1.0 / 3.0);
}

// Position along `axis` of basis atom m in the cell with index `cell`.
inline double lattice_position(LatticeStyle style, double constant, int cell, int m, int axis) {
  return (cell + basis_coordinate(style, m, axis)) * constant;
}

// Id (1-based) of basis atom m in cell (i, j, k) of an nx x ny x nz block.
inline std::int64_t lattice_atom_id(LatticeStyle style, int i, int j, int k, int m, int nx,
                                    int ny) {
  const std::int64_t cell = (std::int64_t(k) * ny + j) * nx + i;
  return cell * basis_count(style) + m + 1;
}

}  // namespace cb::kernels::md
