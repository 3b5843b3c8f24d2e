// Cut-cell finite volumes of the CFD solver (docs/solvers/cfd.md §7). Per RK
// stage, after the face fluxes:
//   1. the conservative update of each fluid cell (fraction kappa, volume V),
//        DC = -(sum_faces a_f S_f F_f . n_f - p_w A n_b) / (kappa V),
//      with the face apertures a_f, the wall pressure p_w on the body's
//      surface A n_b in the cell (kernels/cfd/embedded.hpp) and, viscous,
//      the no-slip wall's stress tau_w . n_b A in the momentum, an isothermal
//      wall's heat and a moving wall's work in the energy; covered cells 0;
//   2. the halo exchange of DC, then per cut cell (0 < kappa < 1) the
//      neighbourhood average DNC = sum kappa_j DC_j / sum kappa_j over the
//      3^d block around it and the mass it does not take,
//        dM = kappa (1 - kappa) (DC - DNC)   (Colella et al. 2006, eqs. 3.9-3.12);
//   3. the update kappa DC + (1 - kappa) DNC of a cut cell, plus the dM of the
//      cut cells around every fluid cell, shared in proportion to the
//      receivers' fractions: sum_j kappa_j V (update_j) = sum_j kappa_j V DC_j,
//      conservative to round-off, and the time step is that of full cells.
// Every sum runs over neighbours in a fixed order from values that are
// functions of global position, so any rank layout gives the same bits.
#include "solvers/cfd/solver.hpp"
#include "solvers/cfd/wall_model.hpp"

#include <mpi.h>

#include <algorithm>

namespace cb::cfd {
namespace {

using kernels::cfd::variables;

// The reach of the redistribution neighbourhood along each axis (0 on unused axes).
struct Reach {
  int x, y, z;
};

// Which cells of the block exchange redistributed mass: any two joined
// cells (connected) of which one is large (kappa >= large_fraction); two
// small ones only where one of them is joined to no large cell (a gap or an
// edge thinner than the block). On a wall cut into a chain of small cells,
// a small cell's excess, mostly its own relaxation (wall stress, viscous
// faces), pushed the small cells beside it the other way, and at 128 cells
// per unit on a concave wall an odd-even mode of the viscous operator along
// the chain grew at any time step (docs/solvers/cfd.md §7).
constexpr double large_fraction = 0.25;

struct Partners {
  NodeView weight;
  Field anchored;  // 1: large, or joined to a large cell
  Apertures ap;

  // Whether (k, j, i) and the cell at offset (a, b, c) from it exchange mass.
  KOKKOS_INLINE_FUNCTION bool exchange(int k, int j, int i, int a, int b, int c) const {
    const double w = weight(k + c, j + b, i + a);
    if (w == 0.0) return false;
    const bool either_large = weight(k, j, i) >= large_fraction || w >= large_fraction;
    const bool either_alone =
        anchored(0, k, j, i) == real(0) || anchored(0, k + c, j + b, i + a) == real(0);
    return (either_large || either_alone) && connected(ap, k, j, i, a, b, c);
  }
};

// The fraction-weighted mean of DC over the partners of (k, j, i) in the block
// around it, the cell included (v: the variable), and the partners' fractions.
struct Neighbourhood {
  real mean[variables];
  double others;
};

KOKKOS_INLINE_FUNCTION Neighbourhood neighbourhood(const Field& dc, const Partners& partners,
                                                   const Reach& r, int k, int j, int i) {
  Neighbourhood n{{0, 0, 0, 0, 0}, 0.0};
  double total = 0.0;
  for (int c = -r.z; c <= r.z; ++c)
    for (int b = -r.y; b <= r.y; ++b)
      for (int a = -r.x; a <= r.x; ++a) {
        const double w = partners.weight(k + c, j + b, i + a);
        if (w == 0.0) continue;
        if ((a != 0 || b != 0 || c != 0) && !partners.exchange(k, j, i, a, b, c)) continue;
        total += w;
        if (a != 0 || b != 0 || c != 0) n.others += w;
        for (int v = 0; v < variables; ++v) n.mean[v] += real(w) * dc(v, k + c, j + b, i + a);
      }
  for (int v = 0; v < variables; ++v) n.mean[v] /= real(total);
  return n;
}

KOKKOS_INLINE_FUNCTION bool is_cut(double kappa) {
  return kappa > 0.0 && kappa < 1.0;
}

// Per padded cell, the index of the body whose own phi is smallest at the
// cell centre (the body a cut cell's wall belongs to, for the forces).
Kokkos::View<int***, Kokkos::LayoutRight, MemSpace> nearest_body(const BodyProgram& bodies,
                                                                 const LocalGrid& grid,
                                                                 const Int3& padded) {
  Kokkos::View<int***, Kokkos::LayoutRight, MemSpace> owner("cfd::body_of", padded[2], padded[1],
                                                            padded[0]);
  const auto nodes = to_device_view("cfd::force_nodes", bodies.nodes);
  const auto triangles = to_device_view("cfd::force_triangles", bodies.triangles);
  const auto begin = to_device_view("cfd::body_begin", bodies.begin);
  const auto end = to_device_view("cfd::body_end", bodies.end);
  const int count = static_cast<int>(bodies.begin.size());
  Kokkos::parallel_for(
      "cfd::body_of", CellPolicy({0, 0, 0}, {padded[2], padded[1], padded[0]}),
      KOKKOS_LAMBDA(int k, int j, int i) {
        double x[3];
        grid.center(k, j, i, x);
        int best = 0;
        double lowest = 0.0;
        for (int b = 0; b < count; ++b) {
          const double phi = kernels::cfd::body_phi(nodes.data() + begin(b), end(b) - begin(b),
                                                    triangles.data(), x);
          if (b == 0 || phi < lowest) best = b, lowest = phi;
        }
        owner(k, j, i) = best;
      });
  return owner;
}

// Per cut cell, the surface point nearest its centre, x - phi n_b (phi of
// its body); 0 in other cells.
AreaView surface_points(const BodyProgram& bodies, const LocalGrid& grid, const CutCells& cut,
                        const Kokkos::View<int***, Kokkos::LayoutRight, MemSpace>& owner) {
  const AreaView area = cut.boundary;
  AreaView point("cfd::wall_point", area.extent(0), area.extent(1), area.extent(2), 3);
  const auto nodes = to_device_view("cfd::wall_nodes", bodies.nodes);
  const auto triangles = to_device_view("cfd::wall_triangles", bodies.triangles);
  const auto begin = to_device_view("cfd::wall_begin", bodies.begin);
  const auto end = to_device_view("cfd::wall_end", bodies.end);
  Kokkos::parallel_for(
      "cfd::wall_point",
      CellPolicy({0, 0, 0}, {int(area.extent(0)), int(area.extent(1)), int(area.extent(2))}),
      KOKKOS_LAMBDA(int k, int j, int i) {
        if (!(area(k, j, i, 3) > 0.0)) return;
        const int b = owner(k, j, i);
        double x[3];
        grid.center(k, j, i, x);
        const double phi =
            kernels::cfd::body_phi(nodes.data() + begin(b), end(b) - begin(b), triangles.data(), x);
        for (int d = 0; d < 3; ++d)
          point(k, j, i, d) = x[d] - phi * area(k, j, i, d) / area(k, j, i, 3);
      });
  return point;
}

// Per cut cell, the distances from its own body (phi of that body alone, so
// that a wall of another body across a narrow gap does not shorten them, as
// it does the combined phi) of the values of the cell and of the cells one and
// two steps out along the axis nearest its normal (wall_model.hpp): each value
// stands at its fluid's centroid (for a linear field), a full cell's at its
// centre.
void own_body_distances(const BodyProgram& bodies, const LocalGrid& grid, CutCells& cut,
                        const Kokkos::View<int***, Kokkos::LayoutRight, MemSpace>& owner) {
  const AreaView area = cut.boundary, centroid = cut.centroid;
  const NodeView distance = cut.wall_distance;
  const int nz = int(area.extent(0)), ny = int(area.extent(1)), nx = int(area.extent(2));
  cut.sample_distance = AreaView("cfd::sample_distance", nz, ny, nx, 2);
  const AreaView samples = cut.sample_distance;
  const auto nodes = to_device_view("cfd::distance_nodes", bodies.nodes);
  const auto triangles = to_device_view("cfd::distance_triangles", bodies.triangles);
  const auto begin = to_device_view("cfd::distance_begin", bodies.begin);
  const auto end = to_device_view("cfd::distance_end", bodies.end);
  Kokkos::parallel_for(
      "cfd::own_body_distances", CellPolicy({0, 0, 0}, {nz, ny, nx}),
      KOKKOS_LAMBDA(int k, int j, int i) {
        const double a = area(k, j, i, 3);
        if (!(a > 0.0)) return;
        const int b = owner(k, j, i);
        const real n[3] = {real(area(k, j, i, 0) / a), real(area(k, j, i, 1) / a),
                           real(area(k, j, i, 2) / a)};
        int axis, step;
        detail::nearest_axis(n, axis, step);
        for (int s = 0; s <= 2; ++s) {
          const int kk = k + (axis == 2 ? s * step : 0), jj = j + (axis == 1 ? s * step : 0),
                    ii = i + (axis == 0 ? s * step : 0);
          if (kk < 0 || kk >= nz || jj < 0 || jj >= ny || ii < 0 || ii >= nx) break;
          double x[3];
          grid.center(kk, jj, ii, x);
          for (int d = 0; d < 3; ++d) x[d] += centroid(kk, jj, ii, d);
          const double phi = kernels::cfd::body_phi(nodes.data() + begin(b), end(b) - begin(b),
                                                    triangles.data(), x);
          if (s == 0 && phi > 0.0) distance(k, j, i) = phi;
          if (s > 0) samples(k, j, i, s - 1) = phi;
        }
      });
}

// Per cell, the velocity of the wall of its body (moving bodies only): in a
// cut cell the rigid motion at its surface point less its part along n_b
// (the body stays where it is); in a covered cell the rigid motion at its
// centre (for the faces beside it).
AreaView surface_velocity(const Kokkos::View<kernels::cfd::BodyWall*, MemSpace>& walls,
                          const LocalGrid& grid, const CutCells& cut,
                          const Kokkos::View<int***, Kokkos::LayoutRight, MemSpace>& owner,
                          const AreaView& point) {
  const NodeView volume = cut.volume;
  const AreaView area = cut.boundary;
  AreaView velocity("cfd::wall_velocity", volume.extent(0), volume.extent(1), volume.extent(2), 3);
  Kokkos::parallel_for(
      "cfd::wall_velocity",
      CellPolicy({0, 0, 0}, {int(volume.extent(0)), int(volume.extent(1)), int(volume.extent(2))}),
      KOKKOS_LAMBDA(int k, int j, int i) {
        const bool cut_cell = area(k, j, i, 3) > 0.0;
        if (volume(k, j, i) > 0.0 && !cut_cell) return;
        double x[3], n[3] = {0, 0, 0}, u[3], normal = 0.0;
        grid.center(k, j, i, x);
        for (int d = 0; d < 3 && cut_cell; ++d)
          n[d] = area(k, j, i, d) / area(k, j, i, 3), x[d] = point(k, j, i, d);
        kernels::cfd::rigid_wall_velocity(walls(owner(k, j, i)), x, u);
        for (int d = 0; d < 3; ++d) normal += u[d] * n[d];
        for (int d = 0; d < 3; ++d) velocity(k, j, i, d) = u[d] - normal * n[d];
      });
  return velocity;
}

}  // namespace

// The cut-cell geometry of the padded block; the fluid fraction for the
// redistribution weights, zero in the ghosts beyond physical boundaries (no
// cells there to take mass).
void CfdSolver::setup_bodies() {
  const Int3& n = decomposition_.local_cells();
  const Int3 padded{n[0] + 2 * ghost_[0], n[1] + 2 * ghost_[1], n[2] + 2 * ghost_[2]};
  const auto& periodic = params_.geometry.periodic;
  cut_ = make_cut_cells(params_.bodies, local_grid(), padded,
                        {periodic[0] ? 1 : 0, periodic[1] ? 1 : 0, periodic[2] ? 1 : 0});
  body_of_ = nearest_body(params_.bodies, local_grid(), padded);
  walls_ = to_device_view("cfd::walls", params_.bodies.walls);
  wall_point_ = surface_points(params_.bodies, local_grid(), cut_, body_of_);
  own_body_distances(params_.bodies, local_grid(), cut_, body_of_);
  if (params_.bodies.moving() && params_.viscous())
    wall_velocity_ = surface_velocity(walls_, local_grid(), cut_, body_of_, wall_point_);
  if (params_.viscous()) {
    wall_band_ = wall_bands(cut_, {active(0), active(1), active(2)});
    wall_gradient_ =
        AreaView("cfd::wall_gradient", padded[2], padded[1], padded[0], gradient_components);
  }
  weight_ = NodeView("cfd::redistribution_weight", padded[2], padded[1], padded[0]);
  divergence_ = padded_field("cfd::divergence", variables, n, ghost_);
  excess_ = padded_field("cfd::excess", variables, n, ghost_);
  int lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    const bool periodic = params_.geometry.periodic[a];
    lo[a] = decomposition_.at_physical_boundary(a, 0) && !periodic ? ghost_[a] : 0;
    hi[a] = decomposition_.at_physical_boundary(a, 1) && !periodic ? ghost_[a] + n[a] : padded[a];
  }
  const NodeView volume = cut_.volume, weight = weight_;
  const int lx = lo[0], ly = lo[1], lz = lo[2], hx = hi[0], hy = hi[1], hz = hi[2];
  Kokkos::parallel_for(
      "cfd::redistribution_weight", CellPolicy({0, 0, 0}, {padded[2], padded[1], padded[0]}),
      KOKKOS_LAMBDA(int k, int j, int i) {
        const bool inside = i >= lx && i < hx && j >= ly && j < hy && k >= lz && k < hz;
        weight(k, j, i) = inside ? volume(k, j, i) : 0.0;
      });
  anchored_ = padded_field("cfd::anchored", 1, n, ghost_);
  find_anchored_cells();
}

// A fluid cell is anchored when it is large or joined to a large cell of
// the block around it; computed on the owned cells, the ghosts then take
// their owners' values (any rank layout gives the same).
void CfdSolver::find_anchored_cells() {
  const NodeView weight = weight_;
  const Field anchored = anchored_;
  const Apertures ap = apertures_of(cut_);
  const Reach r{active(0), active(1), active(2)};
  Kokkos::parallel_for(
      "cfd::anchored", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        bool joined = weight(k, j, i) >= large_fraction;
        for (int c = -r.z; c <= r.z; ++c)
          for (int b = -r.y; b <= r.y; ++b)
            for (int a = -r.x; a <= r.x; ++a)
              joined = joined || (weight(k + c, j + b, i + a) >= large_fraction &&
                                  connected(ap, k, j, i, a, b, c));
        anchored(0, k, j, i) = joined && weight(k, j, i) > 0.0 ? real(1) : real(0);
      });
  halo_.exchange(anchored_);
}

// Step 1: DC of every owned fluid cell from the face fluxes and the wall.
void CfdSolver::compute_cut_divergence() {
  const Field w = primitive_, dc = divergence_;
  const Field fx = flux_[0], fy = flux_[1], fz = flux_[2];
  const NodeView volume = cut_.volume, apx = cut_.aperture[0], apy = cut_.aperture[1],
                 apz = cut_.aperture[2];
  const AreaView area = cut_.boundary;
  const WallModel wall =
      make_wall_model(params_, cut_, local_grid(), walls_, body_of_, wall_velocity_);
  const int ax = active(0), ay = active(1), az = active(2);
  const GridGeometry& geo = params_.geometry;
  const real ihx = real(1.0 / geo.spacing(0)), ihy = real(1.0 / geo.spacing(1)),
             ihz = real(1.0 / geo.spacing(2));
  const real inv_volume = real(1.0 / (geo.spacing(0) * geo.spacing(1) * geo.spacing(2)));
  Kokkos::parallel_for(
      "cfd::cut_divergence", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        const double kappa = volume(k, j, i);
        real rhs[variables] = {0, 0, 0, 0, 0};
        if (kappa > 0.0) {
          for (int v = 0; v < variables; ++v) {
            if (ax)
              rhs[v] -= (real(apx(k, j, i + 1)) * fx(v, k, j, i + 1) -
                         real(apx(k, j, i)) * fx(v, k, j, i)) *
                        ihx;
            if (ay)
              rhs[v] -= (real(apy(k, j + 1, i)) * fy(v, k, j + 1, i) -
                         real(apy(k, j, i)) * fy(v, k, j, i)) *
                        ihy;
            if (az)
              rhs[v] -= (real(apz(k + 1, j, i)) * fz(v, k + 1, j, i) -
                         real(apz(k, j, i)) * fz(v, k, j, i)) *
                        ihz;
          }
          if (area(k, j, i, 3) > 0.0) {
            real given[8];
            cell_wall_exchange(wall, w, k, j, i, given);
            for (int d = 0; d < 3; ++d) rhs[1 + d] += given[d] * inv_volume;
            rhs[4] += (given[3] + given[4]) * inv_volume;
          }
          for (int v = 0; v < variables; ++v) rhs[v] /= real(kappa);
        }
        for (int v = 0; v < variables; ++v) dc(v, k, j, i) = rhs[v];
      });
}

// Step 2: DC into the ghosts, then dM / (sum of the neighbours' fractions) of
// every cut cell among the owned cells and one layer around them.
void CfdSolver::compute_excess() {
  halo_.exchange(divergence_);
  const Field dc = divergence_, excess = excess_;
  const NodeView weight = weight_;
  const Partners partners{weight_, anchored_, apertures_of(cut_)};
  const Reach r{active(0), active(1), active(2)};
  const Int3& g = ghost_;
  const Int3& n = decomposition_.local_cells();
  const CellPolicy cells({g[2] - r.z, g[1] - r.y, g[0] - r.x},
                         {g[2] + n[2] + r.z, g[1] + n[1] + r.y, g[0] + n[0] + r.x});
  Kokkos::parallel_for(
      "cfd::redistribution_excess", cells, KOKKOS_LAMBDA(int k, int j, int i) {
        const double kappa = weight(k, j, i);
        real out[variables] = {0, 0, 0, 0, 0};
        if (is_cut(kappa)) {
          const Neighbourhood nb = neighbourhood(dc, partners, r, k, j, i);
          if (nb.others > 0.0) {
            const real share = real(kappa * (1.0 - kappa) / nb.others);
            for (int v = 0; v < variables; ++v) out[v] = share * (dc(v, k, j, i) - nb.mean[v]);
          }
        }
        for (int v = 0; v < variables; ++v) excess(v, k, j, i) = out[v];
      });
}

// Step 3 and the RK stage u = a0 u^n + a1 u + b dt L(u); covered cells keep
// their state.
void CfdSolver::update_cut_stage(const kernels::SspStage& stage, double dt, bool first_stage) {
  const Field s = state_, s0 = state0_, dc = divergence_, excess = excess_;
  const NodeView weight = weight_;
  const Partners partners{weight_, anchored_, apertures_of(cut_)};
  const Reach r{active(0), active(1), active(2)};
  const real step = real(dt);
  Kokkos::parallel_for(
      "cfd::update_cut_stage", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        const double kappa = weight(k, j, i);
        real rhs[variables];
        for (int v = 0; v < variables; ++v) rhs[v] = dc(v, k, j, i);
        if (is_cut(kappa)) {
          const Neighbourhood nb = neighbourhood(dc, partners, r, k, j, i);
          if (nb.others > 0.0) {
            for (int v = 0; v < variables; ++v)
              rhs[v] = real(kappa) * rhs[v] + real(1.0 - kappa) * nb.mean[v];
          }
        }
        for (int c = -r.z; c <= r.z; ++c)
          for (int b = -r.y; b <= r.y; ++b)
            for (int a = -r.x; a <= r.x; ++a) {
              if ((a == 0 && b == 0 && c == 0) || !partners.exchange(k, j, i, a, b, c)) continue;
              for (int v = 0; v < variables; ++v) rhs[v] += excess(v, k + c, j + b, i + a);
            }
        for (int v = 0; v < variables; ++v) {
          const real u = s(v, k, j, i);
          if (first_stage) s0(v, k, j, i) = u;
          if (kappa == 0.0) continue;
          const real u0 = first_stage ? u : s0(v, k, j, i);
          s(v, k, j, i) = kernels::ssp_update(stage, u0, u, rhs[v], step);
        }
      });
}

// The momentum, heat and work the walls give the fluid per unit time,
// (p_w n_b - tau_w . n_b) A (and its viscous part), q_w A and
// -u_w . tau_w . n_b A, and the moment of
// the momentum about `center` (at the cut cells' surface points), summed over
// the owned cut cells (of one body, or all) and all ranks: the force and
// moment of the fluid on the bodies are minus the momentum and its moment.
WallExchange CfdSolver::wall_exchange(const Field& primitive, int body, const Real3& center) {
  const Field w = primitive;
  const auto owner = body_of_;
  const AreaView area = cut_.boundary, point = wall_point_;
  const WallModel wall =
      make_wall_model(params_, cut_, local_grid(), walls_, body_of_, wall_velocity_);
  const double c[3] = {center[0], center[1], center[2]};
  // Along an axis of one cell (2-D) the body is a prism and the force acts at
  // any point of that axis: no lever arm along it.
  const bool used[3] = {active(0) != 0, active(1) != 0, active(2) != 0};
  const Sums<11> mine = sums_.sum_cells<11>(
      "cfd::wall_exchange", decomposition_.local_cells(), ghost_,
      KOKKOS_LAMBDA(int k, int j, int i, double* t) {
        if (!(area(k, j, i, 3) > 0.0) || (body >= 0 && owner(k, j, i) != body)) return;
        real given[8];
        cell_wall_exchange(wall, w, k, j, i, given);
        for (int d = 0; d < 5; ++d) t[d] += given[d];
        for (int d = 0; d < 3; ++d) t[8 + d] += given[5 + d];
        double r[3];
        for (int d = 0; d < 3; ++d) r[d] = used[d] ? point(k, j, i, d) - c[d] : 0.0;
        t[5] += r[1] * given[2] - r[2] * given[1];
        t[6] += r[2] * given[0] - r[0] * given[2];
        t[7] += r[0] * given[1] - r[1] * given[0];
      });
  double total[11];
  MPI_Allreduce(mine.value, total, 11, MPI_DOUBLE, MPI_SUM, decomposition_.comm());
  WallExchange x;
  for (int d = 0; d < 3; ++d)
    x.momentum[d] = total[d], x.moment[d] = total[5 + d], x.viscous_momentum[d] = total[8 + d];
  x.heat = total[3];
  x.work = total[4];
  return x;
}

}  // namespace cb::cfd
