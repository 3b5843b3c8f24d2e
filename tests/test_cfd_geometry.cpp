// Bodies on the CFD grid (kernels/cfd/shapes.hpp, cut_cell.hpp,
// solvers/cfd/cut_cells.*, io/stl_file.*): the exact fractions of linear
// functions; fluid volume and wetted area of analytic shapes, set operations,
// transforms and STL surfaces against their exact values, with second-order
// convergence for curved bodies; the same bits for a cell on any block of the
// grid; a pressure probe on a body's surface exact for a linear field; STL
// input errors.
#include "cli_runner.hpp"
#include "io/stl_file.hpp"
#include "kernels/cfd/cut_cell.hpp"
#include "kernels/cfd/least_squares.hpp"
#include "precision.hpp"
#include "solvers/cfd/cut_cells.hpp"
#include "solvers/cfd/probes.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace kcfd = cb::kernels::cfd;
using cb::real;
using cb::test::round_off;
using kcfd::ShapeKind;
using kcfd::ShapeNode;
constexpr double pi = 3.14159265358979323846;

namespace {

ShapeNode shape(ShapeKind kind, std::initializer_list<double> p, std::array<double, 3> at) {
  ShapeNode node;
  node.kind = kind;
  int k = 0;
  for (double v : p) node.p[k++] = v;
  for (int d = 0; d < 3; ++d) node.translation[d] = at[d];
  return node;
}

ShapeNode operation(ShapeKind kind) {
  ShapeNode node;
  node.kind = kind;
  return node;
}

// A rotation by `angle` about z, columns the local axes.
void rotate_about_z(ShapeNode& node, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  const double r[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
  for (int i = 0; i < 9; ++i) node.rotation[i] = r[i];
}

struct Totals {
  double volume, area, smallest;
};

// Fluid volume, wetted area and smallest fraction of `program` in the box
// [0, 1]^2 x [0, depth] on n x n x nz cells.
Totals totals(const std::vector<ShapeNode>& program, int n, int nz = -1, double depth = 1.0,
              const std::vector<double>& triangles = {}) {
  if (nz < 0) nz = n;
  cb::cfd::BodyProgram bodies;
  bodies.add("body", program, triangles);
  cb::LocalGrid grid{};
  const cb::Int3 cells{n, n, nz};
  for (int a = 0; a < 3; ++a) {
    grid.lo[a] = 0.0;
    grid.h[a] = (a == 2 ? depth : 1.0) / cells[a];
    grid.shift[a] = 0;
    grid.cells[a] = cells[a];
  }
  const cb::cfd::CutCells cut = cb::cfd::make_cut_cells(bodies, grid, cells);
  const auto stats = cb::cfd::geometry_stats(cut, grid, cells, {0, 0, 0}, MPI_COMM_SELF);
  return {stats.fluid_volume, stats.wetted_area, stats.smallest_fraction};
}

double relative(double value, double exact) {
  return std::abs(value - exact) / std::abs(exact);
}

// The relative errors of the solid volume (and of the wetted area when
// `area` > 0) on n^3 and (2n)^3 cells: second order, the error at least 3
// times smaller on the finer grid, and below `bound` there. The piecewise
// linear interpolant of phi cuts a little off convex bodies, O(h^2 / R).
void check_second_order(const std::string& name, const std::vector<ShapeNode>& program,
                        double solid, double area, double bound,
                        const std::vector<double>& triangles = {}, int n = 32) {
  const Totals coarse = totals(program, n, -1, 1.0, triangles);
  const Totals fine = totals(program, 2 * n, -1, 1.0, triangles);
  const double e1 = relative(1.0 - coarse.volume, solid), e2 = relative(1.0 - fine.volume, solid);
  INFO(name << ": solid volume errors " << e1 << " (" << n << "^3), " << e2 << " (" << 2 * n
            << "^3)");
  CHECK(e2 < bound);
  CHECK(e1 / e2 > 3.0);
  if (area > 0.0) {
    const double a1 = relative(coarse.area, area), a2 = relative(fine.area, area);
    INFO(name << ": area errors " << a1 << ", " << a2);
    CHECK(a2 < bound);
    CHECK(a1 / a2 > 3.0);
  }
}

}  // namespace

TEST_CASE("fractions of linear functions are exact", "[cfd][geometry][kernels]") {
  CHECK(kcfd::triangle_fluid_fraction(1, 1, 1) == 1.0);
  CHECK(kcfd::triangle_fluid_fraction(-1, 0, -2) == 0.0);
  // One vertex out: the similar corner triangle, (1/2)(1/2); its complement.
  CHECK(kcfd::triangle_fluid_fraction(1, -1, -1) == 0.25);
  CHECK(kcfd::triangle_fluid_fraction(-1, 1, 1) == 0.75);
  // phi = x - 1/4 on the unit-cube cell: fraction 3/4 of the volume and of
  // the y and z faces; the x faces all fluid or all solid.
  double corner[8];
  for (int c = 0; c < 8; ++c) corner[c] = (c & 1) - 0.25;
  CHECK(std::abs(kcfd::cell_volume_fraction(corner) - 0.75) < 1e-15);
  // phi = x + y + z - 3/2: the plane through the centre, half each way.
  for (int c = 0; c < 8; ++c) corner[c] = (c & 1) + ((c >> 1) & 1) + (c >> 2) - 1.5;
  CHECK(std::abs(kcfd::cell_volume_fraction(corner) - 0.5) < 1e-15);
  // Complementary functions: the fractions add to 1, in every split case.
  const double f[4] = {0.3, -0.7, 0.2, -0.1}, g[4] = {-0.3, 0.7, -0.2, 0.1};
  CHECK(std::abs(kcfd::tetra_fluid_fraction(f) + kcfd::tetra_fluid_fraction(g) - 1.0) < 1e-15);
  const double h[4] = {0.5, -0.2, -0.3, -0.4}, m[4] = {-0.5, 0.2, 0.3, 0.4};
  CHECK(std::abs(kcfd::tetra_fluid_fraction(h) + kcfd::tetra_fluid_fraction(m) - 1.0) < 1e-15);
  // One vertex in: 0.5/(0.7) x 0.5/(0.8) x 0.5/(0.9).
  CHECK(std::abs(kcfd::tetra_fluid_fraction(h) - 0.125 / (0.7 * 0.8 * 0.9)) < 1e-15);
}

TEST_CASE("least-squares and face gradients are exact for linear fields",
          "[cfd][geometry][kernels]") {
  // f = 2 - x + 3 y + 0.5 z sampled at the scattered centroids of a cut cell's neighbours
  // and a wall point, offsets from the cell's own centroid (2-D: z unused).
  const auto f = [](const real x[3]) { return 2.0 - x[0] + 3.0 * x[1] + 0.5 * x[2]; };
  const real x0[3] = {0.1, -0.2, 0.0};
  const real points[5][3] = {
      {1.1, 0.05, 0.0}, {0.3, 1.0, 0.0}, {1.2, 0.9, 0.0}, {-0.8, 1.1, 0.0}, {0.4, -0.6, 0.0}};
  for (int dims = 2; dims <= 3; ++dims) {
    const int active[3] = {1, 1, dims == 3};
    kcfd::Symmetric3 m{0, 0, 0, 0, 0, 0}, inverse{};
    real r[3] = {0, 0, 0};
    for (int p = 0; p < (dims == 3 ? 5 : 4); ++p) {
      real x[3] = {points[p][0], points[p][1], dims == 3 ? real(0.3) * real(p - 2) : real(0)},
           dx[3];
      for (int d = 0; d < 3; ++d) dx[d] = x[d] - x0[d];
      kcfd::add_sample(m, dx);
      for (int d = 0; d < 3; ++d) r[d] += dx[d] * (f(x) - f(x0));
    }
    REQUIRE(kcfd::invert_normal_matrix(m, active, inverse));
    real g[3];
    kcfd::apply(inverse, r, g);
    CHECK(std::abs(g[0] + 1.0) < round_off(1e-13));
    CHECK(std::abs(g[1] - 3.0) < round_off(1e-13));
    CHECK(std::abs(g[2] - (dims == 3 ? 0.5 : 0.0)) < round_off(1e-13));
  }
  // Samples on a line leave the gradient across it undetermined: refused.
  kcfd::Symmetric3 line{0, 0, 0, 0, 0, 0}, unused{};
  const real along[2][3] = {{1.0, 2.0, 0.0}, {-0.5, -1.0, 0.0}};
  for (const auto& dx : along) kcfd::add_sample(line, dx);
  const int plane[3] = {1, 1, 0};
  CHECK_FALSE(kcfd::invert_normal_matrix(line, plane, unused));
  // Between two centroids dx apart the face gradient keeps a linear field's gradient
  // whatever the cells' (wrong) gradients' mean along dx, and between centres a step h
  // apart its normal component is the compact difference quotient.
  const real exact_g[3] = {-1.0, 3.0, 0.5}, dx[3] = {0.9, 0.25, -0.1};
  const real wrong_m[3] = {-0.6, 3.0, 0.5}, wrong_c[3] = {-1.4, 3.0, 0.5};
  real face[3];
  const real df = -1.0 * dx[0] + 3.0 * dx[1] + 0.5 * dx[2];
  kcfd::face_gradient(wrong_m, wrong_c, 1.0, 1.0 + df, dx,
                      1.0 / (dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]), face);
  for (int d = 0; d < 3; ++d) CHECK(std::abs(face[d] - exact_g[d]) < round_off(1e-14));
  const real step[3] = {0.5, 0.0, 0.0}, gm[3] = {7.0, 1.0, 0.0}, gc[3] = {-3.0, 2.0, 0.0};
  kcfd::face_gradient(gm, gc, 1.0, 1.2, step, 4.0, face);
  CHECK(std::abs(face[0] - 0.4) < round_off(1e-14));
  CHECK(face[1] == real(1.5));
}

TEST_CASE("a tilted plane: volume and area exact to round-off", "[cfd][geometry]") {
  // Solid below z = 0.37 + 0.1 x: fluid 1 - (0.37 + 0.05), surface sqrt(1.01).
  ShapeNode plane = shape(ShapeKind::half_space, {}, {0.0, 0.0, 0.37});
  const double norm = std::sqrt(1.01);
  const double n[3] = {-0.1 / norm, 0.0, 1.0 / norm}, u[3] = {1.0 / norm, 0.0, 0.1 / norm};
  const double r[9] = {u[0], 0, n[0], u[1], 1, n[1], u[2], 0, n[2]};
  for (int i = 0; i < 9; ++i) plane.rotation[i] = r[i];
  const Totals t = totals({plane}, 20);
  CHECK(std::abs(t.volume - 0.58) < 1e-13);
  CHECK(std::abs(t.area - norm) < 1e-13);
}

TEST_CASE("curved bodies: fluid volume and wetted area converge at second order",
          "[cfd][geometry]") {
  const double r = 0.3;
  const std::vector<ShapeNode> sphere = {shape(ShapeKind::sphere, {r}, {0.51, 0.48, 0.5})};
  const double volume = 1.0 - 4.0 / 3.0 * pi * r * r * r, area = 4.0 * pi * r * r;
  double previous[2] = {0, 0};
  for (int n : {16, 32, 64}) {
    const Totals t = totals(sphere, n);
    const double e[2] = {relative(t.volume, volume), relative(t.area, area)};
    INFO(n << "^3: volume error " << e[0] << ", area error " << e[1]);
    if (n == 64) {
      CHECK(e[0] < 1e-3);
      CHECK(e[1] < 1e-3);
      CHECK(previous[0] / e[0] > 3.0);
      CHECK(previous[1] / e[1] > 3.0);
    }
    previous[0] = e[0], previous[1] = e[1];
  }
}

TEST_CASE("each shape converges at second order", "[cfd][geometry]") {
  // Exact volumes: torus 2 pi^2 R r^2, cone pi r^2 h / 3, capped cylinder
  // pi r^2 2h, box 8abc (rotated by 0.3 about z and scaled by 0.8: the same
  // box 0.8^3 the size); the area of the smooth torus, 4 pi^2 R r. Edges
  // lose area at first order in the cell size (a cut cell holds one plane),
  // so the area of bodies with edges is not checked.
  ShapeNode box = shape(ShapeKind::box, {0.3, 0.2, 0.25}, {0.5, 0.5, 0.5});
  rotate_about_z(box, 0.3);
  box.scale = 0.8;
  check_second_order("torus", {shape(ShapeKind::torus, {0.28, 0.1}, {0.5, 0.49, 0.51})},
                     2 * pi * pi * 0.28 * 0.01, 4 * pi * pi * 0.28 * 0.1, 5e-3);
  check_second_order("cone", {shape(ShapeKind::cone, {0.3, 0.6}, {0.5, 0.5, 0.2})},
                     pi * 0.09 * 0.6 / 3, 0.0, 5e-3);
  check_second_order("cylinder", {shape(ShapeKind::cylinder, {0.25, 0.3}, {0.5, 0.5, 0.5})},
                     pi * 0.0625 * 0.6, 0.0, 5e-3);
  check_second_order("rotated, scaled box", {box}, 8 * 0.3 * 0.2 * 0.25 * 0.512, 0.0, 5e-3);
}

TEST_CASE("set operations: two overlapping spheres", "[cfd][geometry]") {
  // Equal spheres R at distance d: the lens pi (4R + d)(2R - d)^2 / 12.
  const double R = 0.22, d = 0.2;
  const double sphere = 4.0 / 3.0 * pi * R * R * R;
  const double lens = pi * (4 * R + d) * (2 * R - d) * (2 * R - d) / 12.0;
  const ShapeNode a = shape(ShapeKind::sphere, {R}, {0.4, 0.51, 0.49});
  const ShapeNode b = shape(ShapeKind::sphere, {R}, {0.6, 0.51, 0.49});
  check_second_order("union", {a, b, operation(ShapeKind::unite)}, 2 * sphere - lens, 0.0, 5e-3);
  check_second_order("intersection", {a, b, operation(ShapeKind::intersect)}, lens, 0.0, 5e-3);
  check_second_order("difference", {a, b, operation(ShapeKind::subtract)}, sphere - lens, 0.0,
                     5e-3);
}

TEST_CASE("a 2-D body: an infinite cylinder on one layer of cells", "[cfd][geometry]") {
  // 128 x 128 x 1 cells of depth 0.1: area = perimeter x depth.
  const double r = 0.2, depth = 0.1;
  const Totals t = totals({shape(ShapeKind::cylinder, {r, 0.0}, {0.5, 0.5, 0.0})}, 128, 1, depth);
  CHECK(relative(t.volume, (1.0 - pi * r * r) * depth) < 1e-4);
  CHECK(relative(t.area, 2 * pi * r * depth) < 1e-3);
  CHECK(t.smallest > 0.0);
}

TEST_CASE("a probe on a body's surface is exact for a linear field", "[cfd][geometry]") {
  // p = 1 + 0.3 x - 0.7 y at the fluid centroids of 20 x 20 cells (one ghost layer) around
  // a cylinder of radius 0.2: at points on its surface (Schaefer-Turek's front and rear
  // points, and one at 45 degrees) the probe gives p there to round-off, the probe cell's
  // own value (the probe before 2026-12-05) is O(h) off.
  cb::cfd::BodyProgram bodies;
  bodies.add("cylinder", {shape(ShapeKind::cylinder, {0.2, 0.0}, {0.5, 0.5, 0.0})}, {});
  const int n = 20;
  const cb::Int3 cells{n, n, 1}, padded{n + 2, n + 2, 1}, ghost{1, 1, 0}, active{1, 1, 0};
  cb::LocalGrid grid{};
  for (int a = 0; a < 3; ++a) {
    grid.lo[a] = 0.0;
    grid.h[a] = a == 2 ? 1.0 : 1.0 / n;
    grid.shift[a] = -ghost[a];
    grid.cells[a] = cells[a];
  }
  const cb::cfd::CutCells cut = cb::cfd::make_cut_cells(bodies, grid, padded);
  const auto pressure = [](double x, double y) { return 1.0 + 0.3 * x - 0.7 * y; };
  cb::Field prim("test::primitives", 5, 1, n + 2, n + 2);
  const auto host = Kokkos::create_mirror_view(prim);
  const auto centroid = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cut.centroid);
  for (int j = 0; j < n + 2; ++j)
    for (int i = 0; i < n + 2; ++i)
      host(4, 0, j, i) = real(pressure(grid.center(0, i) + centroid(0, j, i, 0),
                                       grid.center(1, j) + centroid(0, j, i, 1)));
  Kokkos::deep_copy(prim, host);
  const double diagonal = 0.5 + 0.2 * std::sqrt(0.5);
  for (const cb::Real3& point :
       {cb::Real3{0.3, 0.5, 0.5}, cb::Real3{0.7, 0.5, 0.5}, cb::Real3{diagonal, diagonal, 0.5}}) {
    const auto probe = cb::cfd::locate_probe(point, grid, cells, ghost, cut.volume, MPI_COMM_SELF);
    REQUIRE(probe.owned);
    const double exact = pressure(point[0], point[1]);
    const double at_point =
        cb::cfd::probe_at_point(prim, 4, probe, point, cut, grid, active, MPI_COMM_SELF);
    INFO("point (" << point[0] << ", " << point[1] << ")");
    CHECK(std::abs(at_point - exact) < round_off(1e-13));
    CHECK(std::abs(cb::cfd::probe_value(prim, 4, probe, MPI_COMM_SELF) - exact) > 1e-3);
  }
}

TEST_CASE("cut cells are a function of the global position only", "[cfd][geometry]") {
  // The block of cells [8, 24)^3 of a 32^3 grid, computed alone (as a rank
  // would), has the same bits as the same cells of the whole grid.
  cb::cfd::BodyProgram bodies;
  bodies.add("sphere", {shape(ShapeKind::sphere, {0.3}, {0.51, 0.48, 0.5})}, {});
  cb::LocalGrid whole{}, block{};
  for (int a = 0; a < 3; ++a) {
    whole.lo[a] = block.lo[a] = 0.0;
    whole.h[a] = block.h[a] = 1.0 / 32;
    whole.cells[a] = block.cells[a] = 32;
    whole.shift[a] = 0;
    block.shift[a] = 8;
  }
  const auto all = cb::cfd::make_cut_cells(bodies, whole, {32, 32, 32});
  const auto part = cb::cfd::make_cut_cells(bodies, block, {16, 16, 16});
  const auto v_all = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), all.volume);
  const auto v_part = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), part.volume);
  const auto b_all = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), all.boundary);
  const auto b_part = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), part.boundary);
  int different = 0;
  for (int k = 0; k < 16; ++k)
    for (int j = 0; j < 16; ++j)
      for (int i = 0; i < 16; ++i) {
        different += v_all(k + 8, j + 8, i + 8) != v_part(k, j, i);
        for (int c = 0; c < 4; ++c)
          different += b_all(k + 8, j + 8, i + 8, c) != b_part(k, j, i, c);
      }
  CHECK(different == 0);
}

namespace {

// An icosphere: the icosahedron's faces split `levels` times, vertices pushed
// out to radius r about c; outward triangles, 9 numbers each.
std::vector<double> icosphere(double r, const double c[3], int levels) {
  const double g = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<std::array<double, 3>> v = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0},
                                          {0, -1, g}, {0, 1, g}, {0, -1, -g}, {0, 1, -g},
                                          {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
  std::vector<std::array<int, 3>> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                       {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                       {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                       {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  const auto unit = [](std::array<double, 3> p) {
    const double n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    return std::array<double, 3>{p[0] / n, p[1] / n, p[2] / n};
  };
  for (auto& p : v) p = unit(p);
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<int, int>, int> middle;
    const auto mid = [&](int a, int b) {
      const auto key = std::make_pair(std::min(a, b), std::max(a, b));
      if (middle.count(key) == 0) {
        middle[key] = static_cast<int>(v.size());
        v.push_back(unit({v[a][0] + v[b][0], v[a][1] + v[b][1], v[a][2] + v[b][2]}));
      }
      return middle[key];
    };
    std::vector<std::array<int, 3>> finer;
    for (const auto& t : f) {
      const int ab = mid(t[0], t[1]), bc = mid(t[1], t[2]), ca = mid(t[2], t[0]);
      finer.insert(finer.end(), {{t[0], ab, ca}, {t[1], bc, ab}, {t[2], ca, bc}, {ab, bc, ca}});
    }
    f = finer;
  }
  std::vector<double> triangles;
  for (const auto& t : f)
    for (int k : t)
      for (int d = 0; d < 3; ++d) triangles.push_back(c[d] + r * v[k][d]);
  return triangles;
}

void write_ascii_stl(const std::string& path, const std::vector<double>& t) {
  std::ofstream out(path);
  out.precision(17);
  out << "solid test\n";
  for (std::size_t f = 0; f < t.size(); f += 9) {
    out << "  facet normal 0 0 0\n    outer loop\n";
    for (int v = 0; v < 3; ++v)
      out << "      vertex " << t[f + 3 * v] << ' ' << t[f + 3 * v + 1] << ' ' << t[f + 3 * v + 2]
          << '\n';
    out << "    endloop\n  endfacet\n";
  }
  out << "endsolid test\n";
}

// Binary STL, vertices in reverse order (inward normals) to be put right.
void write_binary_stl(const std::string& path, const std::vector<double>& t) {
  std::ofstream out(path, std::ios::binary);
  const char header[80] = "binary STL written by test_cfd_geometry";
  out.write(header, 80);
  const std::uint32_t count = static_cast<std::uint32_t>(t.size() / 9);
  out.write(reinterpret_cast<const char*>(&count), 4);
  for (std::size_t f = 0; f < t.size(); f += 9) {
    float values[12] = {0, 0, 0};
    for (int v = 0; v < 3; ++v)
      for (int d = 0; d < 3; ++d) values[3 + 3 * v + d] = float(t[f + 3 * (2 - v) + d]);
    out.write(reinterpret_cast<const char*>(values), sizeof values);
    const std::uint16_t attribute = 0;
    out.write(reinterpret_cast<const char*>(&attribute), 2);
  }
}

}  // namespace

TEST_CASE("STL bodies: the polyhedron's volume and area, ASCII and binary",
          "[cfd][geometry][stl]") {
  const double c[3] = {0.51, 0.48, 0.5};
  const std::vector<double> sphere = icosphere(0.3, c, 3);  // 1280 triangles
  const std::string dir = "test_cfd_geometry_stl";
  std::filesystem::create_directories(dir);
  write_ascii_stl(dir + "/sphere.stl", sphere);
  write_binary_stl(dir + "/sphere_binary.stl", sphere);
  const auto ascii = cb::io::read_stl(dir + "/sphere.stl");
  const auto binary = cb::io::read_stl(dir + "/sphere_binary.stl");
  REQUIRE(ascii.size() == 9 * 1280);
  REQUIRE(binary.size() == ascii.size());
  const double volume = cb::io::enclosed_volume(ascii), area = cb::io::surface_area(ascii);
  CHECK(relative(cb::io::enclosed_volume(binary), volume) < 1e-6);  // float32 vertices
  ShapeNode mesh;
  mesh.kind = ShapeKind::surface;
  mesh.first = 0;
  mesh.count = 1280;
  // The polyhedron's edges make its area converge at first order (the
  // icosphere's are shallow): its volume at second order, its area within 1 %.
  check_second_order("icosphere STL", {mesh}, volume, 0.0, 5e-3, ascii, 16);
  const double stl_area = totals({mesh}, 32, -1, 1.0, ascii).area;
  INFO("STL wetted area " << stl_area << ", polyhedron " << area);
  CHECK(relative(stl_area, area) < 1e-2);
  // An open surface (one triangle left out) and a file that is not STL.
  write_ascii_stl(dir + "/open.stl", std::vector<double>(ascii.begin() + 9, ascii.end()));
  CHECK_THROWS_WITH(cb::io::read_stl(dir + "/open.stl"),
                    Catch::Matchers::ContainsSubstring("open.stl: the surface is not closed"));
  std::ofstream(dir + "/junk.stl") << "not an stl file\n";
  CHECK_THROWS_WITH(cb::io::read_stl(dir + "/junk.stl"),
                    Catch::Matchers::ContainsSubstring("junk.stl: neither binary STL"));
  CHECK_THROWS_WITH(cb::io::read_stl(dir + "/missing.stl"),
                    Catch::Matchers::ContainsSubstring("missing.stl: cannot read"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("[[geometry]] in a case: check reports the bodies; errors name table and key",
          "[cfd][geometry][cli]") {
  const std::string dir = cb::test::make_temp_dir("cb_cfd_geometry_");
  // A 2-D channel 2 x 1 (depth 0.01) with a cylinder of radius 0.1 and a disc
  // of radius 0.2 with a 0.1 square hole: fluid 0.02 - 0.01 (pi 0.01 +
  // pi 0.04 - 0.01) = 0.01852920367, within the cut-cell error.
  const std::string base = R"([run]
solver = "cfd"
case = "sod"
steps = 10

[grid]
cells = [200, 100, 1]
lo = [0.0, 0.0, 0.0]
hi = [2.0, 1.0, 0.01]

[[geometry]]
name = "cylinder"
shape = "cylinder"
center = [0.5, 0.5, 0.0]
radius = 0.1

[[geometry]]
name = "holed disc"
shape = "cylinder"
center = [1.4, 0.5, 0.0]
radius = 0.2

[[geometry]]
shape = "box"
combine = "subtract"
center = [1.4, 0.5, 0.0]
size = [0.1, 0.1, 1.0]
)";
  cb::test::write_text(dir + "/case.toml", base);
  const cb::test::CliResult check = cb::test::run_cloudburst("check " + dir + "/case.toml");
  INFO(check.output);
  REQUIRE(check.code == 0);
  CHECK_THAT(check.output,
             Catch::Matchers::ContainsSubstring(
                 "# geometry: 2 bodies (cylinder, holed disc): fluid volume 0.01852"));
  // The cut-cell scheme runs the case; the options it lacks are refused.
  const cb::test::CliResult run =
      cb::test::run_cloudburst("run " + dir + "/case.toml --output-dir " + dir + "/out");
  INFO(run.output);
  CHECK(run.code == 0);
  const cb::test::CliResult weno = cb::test::run_cloudburst(
      "run " + dir + "/case.toml --output-dir " + dir + "/weno --set cfd.reconstruction=weno5");
  CHECK(weno.code == 2);
  CHECK_THAT(weno.output,
             Catch::Matchers::ContainsSubstring(
                 "[cfd] reconstruction = \"weno5\" is not supported with [[geometry]]"));
  CHECK_FALSE(std::filesystem::exists(dir + "/weno"));
  const struct {
    const char* set;
    const char* message;
  } bad[] = {
      {"geometry[2].shape=spere", "[geometry[2]] shape = \"spere\" is not one of"},
      {"geometry[1].radius=-1", "[geometry[1]] radius = -1 is out of range"},
      {"geometry[1].center=[9,0.5,0]", "body 'cylinder' contains no cell centre of the grid"},
      {"geometry[1].radius=5", "body 'cylinder' covers the whole domain"},
      {"geometry[1].combine=subtract", "needs a shape before it"},
      {"geometry[2].shape=stl", "missing required key 'file' in [geometry[2]]"},
      {"geometry[2].shape=stl' --set 'geometry[2].file=none.stl", "none.stl: cannot read the STL"},
      {"cfd.reconstruction=weno5' --set 'cfd.fourth_order=true",
       "[cfd] fourth_order is not supported with [[geometry]]"},
      {"geometry[1].wall_temperature=1.2", "wall_temperature needs no-slip walls"},
      {"geometry[3].wall_temperature=1.2' --set viscosity.law=constant --set 'viscosity.mu=0.01",
       "wall_temperature belongs on a body's first table"},
      {"geometry[1].wall_velocity=[0.1,0,0]", "wall_velocity needs no-slip walls"},
      {"geometry[1].wall_velocity=[0.1,0,0]' --set viscosity.law=constant --set "
       "'viscosity.mu=0.01",
       "body 'cylinder': its wall would move across its surface"},
  };
  // A spinning cylinder's wall moves along itself.
  const cb::test::CliResult spinning = cb::test::run_cloudburst(
      "check " + dir +
      "/case.toml --set 'geometry[1].wall_angular_velocity=[0,0,2]' --set viscosity.law=constant "
      "--set viscosity.mu=0.01");
  INFO(spinning.output);
  CHECK(spinning.code == 0);
  for (const auto& b : bad) {
    const cb::test::CliResult r =
        cb::test::run_cloudburst("check " + dir + "/case.toml --set '" + std::string(b.set) + "'");
    INFO(b.set << ": " << r.output);
    CHECK(r.code == 2);
    CHECK_THAT(r.output, Catch::Matchers::ContainsSubstring(b.message));
  }
  std::filesystem::remove_all(dir);
}
