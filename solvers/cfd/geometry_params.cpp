#include "solvers/cfd/geometry_params.hpp"

#include "core/error.hpp"
#include "io/stl_file.hpp"

#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace cb::cfd {

namespace kcfd = cb::kernels::cfd;
using kcfd::ShapeKind;
using kcfd::ShapeNode;

namespace {

const std::vector<std::string> shape_names = {"sphere", "cylinder", "box", "half_space",
                                              "cone",   "torus",    "stl"};

// R = Rz Ry Rx for rotations (degrees) about x, then y, then z; columns are
// the body's axes in the domain.
void set_rotation(ShapeNode& node, const Real3& degrees) {
  const double k = 3.14159265358979323846 / 180.0;
  const double cx = std::cos(k * degrees[0]), sx = std::sin(k * degrees[0]);
  const double cy = std::cos(k * degrees[1]), sy = std::sin(k * degrees[1]);
  const double cz = std::cos(k * degrees[2]), sz = std::sin(k * degrees[2]);
  const double r[9] = {cz * cy,
                       cz * sy * sx - sz * cx,
                       cz * sy * cx + sz * sx,
                       sz * cy,
                       sz * sy * sx + cz * cx,
                       sz * sy * cx - cz * sx,
                       -sy,
                       cy * sx,
                       cy * cx};
  for (int i = 0; i < 9; ++i) node.rotation[i] = r[i];
}

// The shape of table `section` and, for STL, its triangles.
ShapeNode read_shape(io::CaseFile& file, const std::string& section, std::vector<double>& surface) {
  const std::string shape = file.choice(section, "shape", shape_names);
  ShapeNode node;
  node.kind = static_cast<ShapeKind>(std::find(shape_names.begin(), shape_names.end(), shape) -
                                     shape_names.begin());
  const Real3 center = file.get<Real3>(section, "center", {0.0, 0.0, 0.0});
  for (int d = 0; d < 3; ++d) node.translation[d] = center[d];
  set_rotation(node, file.get<Real3>(section, "rotate", {0.0, 0.0, 0.0}));
  node.scale = file.get<double>(section, "scale", 1.0, io::Bounds::positive());
  const auto positive = io::Bounds::positive();
  switch (node.kind) {
    case ShapeKind::sphere:
      node.p[0] = file.require<double>(section, "radius", positive);
      break;
    case ShapeKind::cylinder:
      node.p[0] = file.require<double>(section, "radius", positive);
      node.p[1] = 0.5 * file.get<double>(section, "length", 0.0, io::Bounds::non_negative());
      break;
    case ShapeKind::box: {
      const Real3 size = file.require<Real3>(section, "size", positive);
      for (int d = 0; d < 3; ++d) node.p[d] = 0.5 * size[d];
      break;
    }
    case ShapeKind::half_space:
      break;
    case ShapeKind::cone:
      node.p[0] = file.require<double>(section, "radius", positive);
      node.p[1] = file.require<double>(section, "height", positive);
      break;
    case ShapeKind::torus:
      node.p[0] = file.require<double>(section, "major_radius", positive);
      node.p[1] = file.require<double>(section, "minor_radius", positive);
      if (node.p[1] >= node.p[0])
        file.fail(section, "minor_radius", "[[geometry]] minor_radius must be below major_radius");
      break;
    default: {
      namespace fs = std::filesystem;
      fs::path path(file.require<std::string>(section, "file"));
      if (path.is_relative()) path = fs::path(file.path()).parent_path() / path;
      try {
        surface = io::read_stl(path.string());
      } catch (const InputError& e) {
        file.fail(section, "file", e.what());
      }
      node.first = 0;
      node.count = static_cast<int>(surface.size() / 9);
    }
  }
  return node;
}

// The whole grid as one block without ghosts.
LocalGrid whole_grid(const GridGeometry& grid) {
  LocalGrid local{};
  for (int a = 0; a < 3; ++a) {
    local.lo[a] = grid.lo[a];
    local.h[a] = grid.spacing(a);
    local.shift[a] = 0;
    local.cells[a] = grid.cells[a];
  }
  return local;
}

// A body that contains no cell centre of the grid, or every one: refused,
// named by the table that starts it (`sections[b]`).
void check_placement(io::CaseFile& file, const BodyProgram& bodies, const GridGeometry& grid,
                     const std::vector<std::string>& sections) {
  const LocalGrid local = whole_grid(grid);
  const Int3 n = grid.cells;
  const auto nodes = to_device_view("cfd::body_nodes", bodies.nodes);
  const auto triangles = to_device_view("cfd::body_triangles", bodies.triangles);
  for (std::size_t b = 0; b < bodies.names.size(); ++b) {
    const int first = bodies.begin[b], count = bodies.end[b] - bodies.begin[b];
    long long solid = 0;
    Kokkos::parallel_reduce(
        "cfd::cells_in_body",
        Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>({0, 0, 0}, {n[2], n[1], n[0]}),
        KOKKOS_LAMBDA(int k, int j, int i, long long& inside) {
          double x[3];
          local.center(k, j, i, x);
          if (kcfd::body_phi(nodes.data() + first, count, triangles.data(), x) < 0.0) ++inside;
        },
        solid);
    const std::string what = "[[geometry]] body '" + bodies.names[b] + "'";
    if (solid == 0)
      file.fail(sections[b], "shape",
                what +
                    " contains no cell centre of the grid (outside the domain, or thinner "
                    "than a cell)");
    if (solid == grid.total_cells())
      file.fail(sections[b], "shape", what + " covers the whole domain");
  }
}

// The wall keys of a body's first table (docs/solvers/cfd.md §7).
const char* const wall_keys[] = {"wall_temperature", "wall_velocity", "wall_angular_velocity"};

kcfd::BodyWall read_wall(io::CaseFile& file, const std::string& section) {
  kcfd::BodyWall wall;
  wall.temperature = file.get<double>(section, "wall_temperature", 0.0, io::Bounds::positive());
  const Real3 velocity = file.get<Real3>(section, "wall_velocity", {0.0, 0.0, 0.0});
  const Real3 angular = file.get<Real3>(section, "wall_angular_velocity", {0.0, 0.0, 0.0});
  const Real3 center = file.get<Real3>(section, "center", {0.0, 0.0, 0.0});
  for (int d = 0; d < 3; ++d) {
    wall.velocity[d] = velocity[d];
    wall.angular_velocity[d] = angular[d];
    wall.center[d] = center[d];
  }
  return wall;
}

// The largest |u_w . n| / |u_w| of body b's wall motion over the cell centres
// within a cell of its surface (n from phi's central differences).
double normal_motion(const BodyProgram& bodies, int b, const LocalGrid& local, const Int3& n) {
  const auto nodes = to_device_view("cfd::motion_nodes", bodies.nodes);
  const auto triangles = to_device_view("cfd::motion_triangles", bodies.triangles);
  const int first = bodies.begin[b], count = bodies.end[b] - bodies.begin[b];
  const kcfd::BodyWall wall = bodies.walls[b];
  const double h = std::min({local.h[0], local.h[1], n[2] > 1 ? local.h[2] : 1e300});
  double worst = 0.0;
  Kokkos::parallel_reduce(
      "cfd::normal_motion",
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>({0, 0, 0}, {n[2], n[1], n[0]}),
      KOKKOS_LAMBDA(int k, int j, int i, double& m) {
        double x[3];
        local.center(k, j, i, x);
        const ShapeNode* program = nodes.data() + first;
        const double phi = kcfd::body_phi(program, count, triangles.data(), x);
        if (!(cb::math::fabs(phi) < h)) return;
        double grad[3], norm = 0.0;
        for (int d = 0; d < 3; ++d) {
          double up[3] = {x[0], x[1], x[2]}, down[3] = {x[0], x[1], x[2]};
          up[d] += 1e-3 * h;
          down[d] -= 1e-3 * h;
          grad[d] = kcfd::body_phi(program, count, triangles.data(), up) -
                    kcfd::body_phi(program, count, triangles.data(), down);
          norm += grad[d] * grad[d];
        }
        double u[3], along = 0.0, speed = 0.0;
        kcfd::rigid_wall_velocity(wall, x, u);
        for (int d = 0; d < 3; ++d) along += u[d] * grad[d], speed += u[d] * u[d];
        if (norm > 0.0 && speed > 0.0)
          m = cb::math::max(m, cb::math::fabs(along) / cb::math::sqrt(norm * speed));
      },
      Kokkos::Max<double>(worst));
  return worst;
}

// A moving wall may only move along itself: refused, naming the body's first
// table, where its motion crosses the surface by more than a tenth of its speed.
void check_wall_motion(io::CaseFile& file, const BodyProgram& bodies, const LocalGrid& local,
                       const Int3& n, const std::vector<std::string>& sections) {
  for (std::size_t b = 0; b < bodies.names.size(); ++b) {
    bool moves = false;
    for (int d = 0; d < 3; ++d)
      moves =
          moves || bodies.walls[b].velocity[d] != 0.0 || bodies.walls[b].angular_velocity[d] != 0.0;
    if (!moves) continue;
    const double worst = normal_motion(bodies, static_cast<int>(b), local, n);
    if (worst > 0.1) {
      char text[64];
      std::snprintf(text, sizeof text, "%.2g", worst);
      const std::string key = file.has(sections[b], "wall_angular_velocity")
                                  ? "wall_angular_velocity"
                                  : "wall_velocity";
      file.fail(sections[b], key,
                "[[geometry]] body '" + bodies.names[b] + "': its wall would move across its " +
                    "surface (up to " + text + " of its speed); a body stays where it is, so " +
                    "its wall may only move along itself");
    }
  }
}

}  // namespace

BodyProgram read_geometry(io::CaseFile& file, const GridGeometry& grid) {
  BodyProgram bodies;
  std::vector<ShapeNode> body;
  std::vector<double> triangles;
  std::string name;
  kcfd::BodyWall wall;
  std::vector<std::string> first_tables;  // the table that starts each body
  const auto flush = [&] {
    if (!body.empty()) bodies.add(name, body, triangles, wall);
    body.clear();
    triangles.clear();
  };
  for (std::size_t t = 1; t <= file.tables("geometry"); ++t) {
    const std::string section = "geometry[" + std::to_string(t) + "]";
    const std::string combine =
        file.choice(section, "combine", {"new", "union", "intersect", "subtract"}, "new");
    if (combine != "new" && body.empty())
      file.fail(
          section, "combine",
          "[[geometry]] combine = \"" + combine + "\" needs a shape before it to combine with");
    std::vector<double> surface;
    ShapeNode node = read_shape(file, section, surface);
    if (combine == "new") {
      flush();
      first_tables.push_back(section);
      name =
          file.get<std::string>(section, "name", "body " + std::to_string(bodies.names.size() + 1));
      wall = read_wall(file, section);
    } else {
      file.allow(section, "name");
      for (const char* key : wall_keys)
        if (file.has(section, key))
          file.fail(section, key,
                    std::string("[[geometry]] ") + key +
                        " belongs on a body's first table (combine = \"new\"): a body has one "
                        "wall");
    }
    node.first = static_cast<int>(triangles.size() / 9);
    triangles.insert(triangles.end(), surface.begin(), surface.end());
    body.push_back(node);
    if (combine != "new") {
      ShapeNode op;
      op.kind = combine == "union"       ? ShapeKind::unite
                : combine == "intersect" ? ShapeKind::intersect
                                         : ShapeKind::subtract;
      body.push_back(op);
    }
  }
  flush();
  if (!bodies.empty()) check_placement(file, bodies, grid, first_tables);
  if (bodies.moving()) check_wall_motion(file, bodies, whole_grid(grid), grid.cells, first_tables);
  return bodies;
}

std::vector<std::string> describe_geometry(const BodyProgram& bodies, const GridGeometry& grid) {
  if (bodies.empty()) return {};
  const LocalGrid local = whole_grid(grid);
  double domain = 1.0;
  for (int a = 0; a < 3; ++a) domain *= grid.hi[a] - grid.lo[a];
  const CutCells cut = make_cut_cells(bodies, local, grid.cells);
  const GeometryStats s = geometry_stats(cut, local, grid.cells, {0, 0, 0}, MPI_COMM_SELF);
  std::string names;
  for (const std::string& n : bodies.names) names += (names.empty() ? "" : ", ") + n;
  char text[256];
  std::snprintf(text, sizeof text,
                "geometry: %zu bodies (%s): fluid volume %.6g (%.4f of the domain), wetted area "
                "%.6g, smallest cut-cell fraction %.3g",
                bodies.names.size(), names.c_str(), s.fluid_volume, s.fluid_volume / domain,
                s.wetted_area, s.smallest_fraction);
  return {text};
}

}  // namespace cb::cfd
