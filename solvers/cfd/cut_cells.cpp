#include "solvers/cfd/cut_cells.hpp"

#include "core/ordered_sum.hpp"
#include "kernels/cfd/cut_cell.hpp"

#include <algorithm>
#include <string>

namespace cb::cfd {

namespace kcfd = cb::kernels::cfd;

bool BodyProgram::isothermal() const {
  return std::any_of(walls.begin(), walls.end(),
                     [](const kcfd::BodyWall& w) { return w.temperature > 0.0; });
}

bool BodyProgram::moving() const {
  return std::any_of(walls.begin(), walls.end(), [](const kcfd::BodyWall& w) {
    for (int d = 0; d < 3; ++d)
      if (w.velocity[d] != 0.0 || w.angular_velocity[d] != 0.0) return true;
    return false;
  });
}

void BodyProgram::add(const std::string& name, std::vector<kcfd::ShapeNode> program,
                      const std::vector<double>& surface, const kcfd::BodyWall& wall) {
  const int offset = static_cast<int>(triangles.size() / 9);
  for (kcfd::ShapeNode& node : program) {
    if (node.kind != kcfd::ShapeKind::surface) continue;
    for (int d = 0; d < 3; ++d) node.bounds[d] = 1e300, node.bounds[3 + d] = -1e300;
    for (int v = 3 * node.first; v < 3 * (node.first + node.count); ++v) {
      for (int d = 0; d < 3; ++d) {
        node.bounds[d] = std::min(node.bounds[d], surface[3 * v + d]);
        node.bounds[3 + d] = std::max(node.bounds[3 + d], surface[3 * v + d]);
      }
    }
    node.first += offset;
  }
  triangles.insert(triangles.end(), surface.begin(), surface.end());
  names.push_back(name);
  walls.push_back(wall);
  begin.push_back(static_cast<int>(nodes.size()));
  nodes.insert(nodes.end(), program.begin(), program.end());
  end.push_back(static_cast<int>(nodes.size()));
  if (names.size() > 1) {
    kcfd::ShapeNode unite;
    unite.kind = kcfd::ShapeKind::unite;
    nodes.push_back(unite);
  }
}

namespace {

// phi at the nodes of the padded grid refined cut_refinement times, at
// x = lo + g (h / R) for the global refined index g (the same bits on every
// rank that holds the node).
NodeView node_phi(const BodyProgram& bodies, const LocalGrid& grid, const Int3& padded,
                  const Int3& periodic) {
  constexpr int R = cut_refinement;
  NodeView phi("cfd::body_phi", R * padded[2] + 1, R * padded[1] + 1, R * padded[0] + 1);
  const auto nodes = to_device_view("cfd::body_nodes", bodies.nodes);
  const auto triangles = to_device_view("cfd::body_triangles", bodies.triangles);
  const int count = static_cast<int>(bodies.nodes.size());
  const bool flat = padded[2] == 1 && grid.cells[2] == 1;  // 2-D: one layer in z
  const int px = periodic[0], py = periodic[1], pz = periodic[2];
  // A surface on grid lines (a grid-aligned box, a step) puts nodes on it,
  // where rounding leaves phi = +-1e-16 and would make slivers of cells
  // (fractions ~1e-15) that no time step survives: nodes this close count as
  // on the surface (the fractions are exact for phi = 0 there).
  const double on_surface = phi_snap * std::min({grid.h[0], grid.h[1], grid.h[2]}) / R;
  Kokkos::parallel_for(
      "cfd::body_phi",
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>(
          {0, 0, 0}, {R * padded[2] + 1, R * padded[1] + 1, R * padded[0] + 1}),
      KOKKOS_LAMBDA(int k, int j, int i) {
        int g[3] = {i + R * grid.shift[0], j + R * grid.shift[1], k + R * grid.shift[2]};
        const int wrap[3] = {px, py, pz};
        for (int a = 0; a < 3; ++a) {
          const int n = R * grid.cells[a];
          if (wrap[a]) g[a] = ((g[a] % n) + n) % n;  // the node's image inside the domain
        }
        double x[3];
        for (int a = 0; a < 3; ++a) x[a] = grid.lo[a] + g[a] * (grid.h[a] / R);
        if (flat) x[2] = grid.lo[2] + 0.5 * grid.h[2];  // 2-D: the body is a prism
        const double value = kcfd::body_phi(nodes.data(), count, triangles.data(), x);
        phi(k, j, i) = cb::math::fabs(value) < on_surface ? 0.0 : value;
      });
  return phi;
}

// The fluid fraction of the face of the cell whose refined corner is (k, j,
// i), normal to `axis`: the mean over its R x R sub-faces.
KOKKOS_INLINE_FUNCTION double refined_aperture(const NodeView& phi, int axis, int k, int j, int i) {
  constexpr int R = cut_refinement;
  double sum = 0.0;
  for (int v = 0; v < R; ++v) {
    for (int u = 0; u < R; ++u) {
      double corner[4];
      for (int c = 0; c < 4; ++c) {
        const int du = u + (c & 1), dv = v + (c >> 1);  // the face's two axes, in x, y, z order
        corner[c] = axis == 0   ? phi(k + dv, j + du, i)
                    : axis == 1 ? phi(k + dv, j, i + du)
                                : phi(k, j + dv, i + du);
      }
      sum += kcfd::face_aperture(corner);
    }
  }
  return sum / (R * R);
}

KOKKOS_INLINE_FUNCTION double refined_volume(const NodeView& phi, int k, int j, int i) {
  constexpr int R = cut_refinement;
  double sum = 0.0;
  for (int c = 0; c < R; ++c)
    for (int b = 0; b < R; ++b)
      for (int a = 0; a < R; ++a) {
        double corner[8];
        for (int v = 0; v < 8; ++v)
          corner[v] = phi(k + c + (v >> 2), j + b + ((v >> 1) & 1), i + a + (v & 1));
        sum += kcfd::cell_volume_fraction(corner);
      }
  return sum / (R * R * R);
}

// The mean of phi and of the position over the fluid (phi > 0) of the cell
// whose refined corner is (k, j, i), sampled at the centres of S^3 points per
// sub-cell (S^2 on one layer in z, where phi does not vary along z) and
// interpolated trilinearly: for a planar surface, the distance of the fluid's
// centroid from it, and that centroid (offset from the cell centre, in cell
// widths). 0 without fluid samples.
struct FluidMoments {
  double distance;
  double offset[3];
};

KOKKOS_INLINE_FUNCTION FluidMoments refined_fluid_moments(const NodeView& phi, int k, int j, int i,
                                                          bool flat) {
  constexpr int R = cut_refinement, S = wall_distance_samples;
  const int layers = flat ? 1 : S;
  FluidMoments m{0.0, {0.0, 0.0, 0.0}};
  int count = 0;
  for (int c = 0; c < R; ++c)
    for (int b = 0; b < R; ++b)
      for (int a = 0; a < R; ++a)
        for (int sz = 0; sz < layers; ++sz)
          for (int sy = 0; sy < S; ++sy)
            for (int sx = 0; sx < S; ++sx) {
              const double t[3] = {(sx + 0.5) / S, (sy + 0.5) / S, flat ? 0.0 : (sz + 0.5) / S};
              double value = 0.0;
              for (int v = 0; v < 8; ++v) {
                const int dx = v & 1, dy = (v >> 1) & 1, dz = v >> 2;
                const double weight =
                    (dx ? t[0] : 1 - t[0]) * (dy ? t[1] : 1 - t[1]) * (dz ? t[2] : 1 - t[2]);
                value += weight * phi(k + c + dz, j + b + dy, i + a + dx);
              }
              if (!(value > 0.0)) continue;
              m.distance += value;
              m.offset[0] += (a + t[0]) / R - 0.5;
              m.offset[1] += (b + t[1]) / R - 0.5;
              if (!flat) m.offset[2] += (c + t[2]) / R - 0.5;
              ++count;
            }
  if (count == 0) return FluidMoments{0.0, {0.0, 0.0, 0.0}};
  m.distance /= count;
  for (int d = 0; d < 3; ++d) m.offset[d] /= count;
  return m;
}

}  // namespace

CutCells make_cut_cells(const BodyProgram& bodies, const LocalGrid& grid, const Int3& padded,
                        const Int3& periodic) {
  CutCells cut;
  cut.phi = node_phi(bodies, grid, padded, periodic);
  cut.volume = NodeView("cfd::volume_fraction", padded[2], padded[1], padded[0]);
  const char* labels[3] = {"cfd::aperture_x", "cfd::aperture_y", "cfd::aperture_z"};
  for (int a = 0; a < 3; ++a)
    cut.aperture[a] = NodeView(std::string(labels[a]), padded[2], padded[1], padded[0]);
  cut.boundary = AreaView("cfd::boundary_area", padded[2], padded[1], padded[0], 4);
  cut.wall_distance = NodeView("cfd::wall_distance", padded[2], padded[1], padded[0]);
  cut.centroid = AreaView("cfd::fluid_centroid", padded[2], padded[1], padded[0], 3);
  const NodeView phi = cut.phi, volume = cut.volume, distance = cut.wall_distance;
  const AreaView centroid = cut.centroid;
  const double hx = grid.h[0], hy = grid.h[1], hz = grid.h[2];
  const bool flat = padded[2] == 1 && grid.cells[2] == 1;
  const AreaView boundary = cut.boundary;
  const auto ax = cut.aperture[0], ay = cut.aperture[1], az = cut.aperture[2];
  const double sx = grid.h[1] * grid.h[2], sy = grid.h[0] * grid.h[2], sz = grid.h[0] * grid.h[1];
  Kokkos::parallel_for(
      "cfd::cut_cells",
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>({0, 0, 0},
                                                        {padded[2], padded[1], padded[0]}),
      KOKKOS_LAMBDA(int k, int j, int i) {
        constexpr int R = cut_refinement;
        const int rk = R * k, rj = R * j, ri = R * i;
        volume(k, j, i) = refined_volume(phi, rk, rj, ri);
        // Lower and upper faces; an upper face is its neighbour's lower face,
        // computed from the same values in the same order.
        const double face[6] = {
            refined_aperture(phi, 0, rk, rj, ri), refined_aperture(phi, 0, rk, rj, ri + R),
            refined_aperture(phi, 1, rk, rj, ri), refined_aperture(phi, 1, rk, rj + R, ri),
            refined_aperture(phi, 2, rk, rj, ri), refined_aperture(phi, 2, rk + R, rj, ri)};
        ax(k, j, i) = face[0];
        ay(k, j, i) = face[2];
        az(k, j, i) = face[4];
        // The fluid in the cell is closed by its faces and the body surface:
        // A n_b = sum over the faces of aperture x area x outward normal
        // (n_b points out of the body, into the fluid).
        const double n[3] = {(face[1] - face[0]) * sx, (face[3] - face[2]) * sy,
                             (face[5] - face[4]) * sz};
        for (int d = 0; d < 3; ++d) boundary(k, j, i, d) = n[d];
        boundary(k, j, i, 3) = kcfd::norm3(n[0], n[1], n[2]);
        if (!(boundary(k, j, i, 3) > 0.0)) return;
        const FluidMoments fluid = refined_fluid_moments(phi, rk, rj, ri, flat);
        distance(k, j, i) = fluid.distance;
        centroid(k, j, i, 0) = fluid.offset[0] * hx;
        centroid(k, j, i, 1) = fluid.offset[1] * hy;
        centroid(k, j, i, 2) = fluid.offset[2] * hz;
      });
  return cut;
}

GeometryStats geometry_stats(const CutCells& cut, const LocalGrid& grid, const Int3& cells,
                             const Int3& ghost, MPI_Comm comm) {
  const auto volume = cut.volume;
  const auto boundary = cut.boundary;
  OrderedSum sums;
  const Sums<2> mine = sums.sum_cells<2>(
      "cfd::geometry_stats", cells, ghost, KOKKOS_LAMBDA(int k, int j, int i, double* acc) {
        acc[0] += volume(k, j, i);
        acc[1] += boundary(k, j, i, 3);
      });
  double smallest = 1.0;
  const int gx = ghost[0], gy = ghost[1], gz = ghost[2];
  Kokkos::parallel_reduce(
      "cfd::smallest_fraction",
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>(
          {gz, gy, gx}, {gz + cells[2], gy + cells[1], gx + cells[0]}),
      KOKKOS_LAMBDA(int k, int j, int i, double& low) {
        const double f = volume(k, j, i);
        if (f > 0.0 && f < low) low = f;
      },
      Kokkos::Min<double>(smallest));
  double local[2] = {mine[0], mine[1]}, total[2] = {0.0, 0.0};
  MPI_Allreduce(local, total, 2, MPI_DOUBLE, MPI_SUM, comm);
  GeometryStats stats;
  stats.fluid_volume = total[0] * grid.h[0] * grid.h[1] * grid.h[2];
  stats.wetted_area = total[1];
  MPI_Allreduce(&smallest, &stats.smallest_fraction, 1, MPI_DOUBLE, MPI_MIN, comm);
  return stats;
}

}  // namespace cb::cfd
