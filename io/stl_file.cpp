#include "io/stl_file.hpp"

#include "core/error.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

namespace cb::io {

namespace {

using Vertex = std::array<double, 3>;

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw InputError(path + ": " + why);
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot read the STL file");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Binary when the size is exactly 84 + 50 n for the count n in the header
// (ASCII files may also begin with "solid").
bool is_binary(const std::string& bytes) {
  if (bytes.size() < 84) return false;
  std::uint32_t count = 0;
  std::memcpy(&count, bytes.data() + 80, 4);
  return bytes.size() == 84 + 50 * static_cast<std::uint64_t>(count);
}

std::vector<double> parse_binary(const std::string& bytes) {
  std::uint32_t count = 0;
  std::memcpy(&count, bytes.data() + 80, 4);
  std::vector<double> triangles;
  triangles.reserve(9 * std::size_t(count));
  for (std::uint32_t t = 0; t < count; ++t) {
    float values[12];
    std::memcpy(values, bytes.data() + 84 + 50 * std::size_t(t), sizeof values);
    for (int v = 3; v < 12; ++v) triangles.push_back(values[v]);
  }
  return triangles;
}

std::vector<double> parse_ascii(const std::string& path, const std::string& bytes) {
  std::istringstream in(bytes);
  std::string word;
  if (!(in >> word) || word != "solid") fail(path, "neither binary STL nor ASCII STL (\"solid\")");
  std::vector<double> triangles;
  int vertices = 0;
  long line_count = 0;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    ++line_count;
    std::istringstream words(line);
    if (!(words >> word) || word != "vertex") continue;
    double x = 0, y = 0, z = 0;
    if (!(words >> x >> y >> z))
      fail(path + ":" + std::to_string(line_count + 1), "a vertex needs three numbers");
    triangles.insert(triangles.end(), {x, y, z});
    ++vertices;
  }
  if (vertices % 3 != 0) fail(path, "the vertices do not make whole triangles");
  return triangles;
}

// Every directed edge must have its reverse exactly once and appear once.
void check_closed(const std::string& path, const std::vector<double>& t) {
  std::map<std::pair<Vertex, Vertex>, int> edges;
  const std::size_t n = t.size() / 9;
  for (std::size_t f = 0; f < n; ++f) {
    for (int e = 0; e < 3; ++e) {
      const double* a = &t[9 * f + 3 * e];
      const double* b = &t[9 * f + 3 * ((e + 1) % 3)];
      ++edges[{{a[0], a[1], a[2]}, {b[0], b[1], b[2]}}];
    }
  }
  for (const auto& [edge, uses] : edges) {
    const auto back = edges.find({edge.second, edge.first});
    if (uses != 1 || back == edges.end() || back->second != 1) {
      std::ostringstream where;
      where << "the surface is not closed: the edge (" << edge.first[0] << ", " << edge.first[1]
            << ", " << edge.first[2] << ") - (" << edge.second[0] << ", " << edge.second[1] << ", "
            << edge.second[2] << ") is not shared by exactly two triangles in opposite directions";
      fail(path, where.str());
    }
  }
}

}  // namespace

double enclosed_volume(const std::vector<double>& t) {
  double six_v = 0.0;
  for (std::size_t f = 0; f + 9 <= t.size(); f += 9) {
    const double* a = &t[f];
    const double* b = &t[f + 3];
    const double* c = &t[f + 6];
    six_v += a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
             a[2] * (b[0] * c[1] - b[1] * c[0]);
  }
  return six_v / 6.0;
}

double surface_area(const std::vector<double>& t) {
  double area = 0.0;
  for (std::size_t f = 0; f + 9 <= t.size(); f += 9) {
    double u[3], v[3];
    for (int d = 0; d < 3; ++d) u[d] = t[f + 3 + d] - t[f + d], v[d] = t[f + 6 + d] - t[f + d];
    const double cx = u[1] * v[2] - u[2] * v[1];
    const double cy = u[2] * v[0] - u[0] * v[2];
    const double cz = u[0] * v[1] - u[1] * v[0];
    area += 0.5 * std::sqrt(cx * cx + cy * cy + cz * cz);
  }
  return area;
}

std::vector<double> read_stl(const std::string& path) {
  const std::string bytes = read_bytes(path);
  std::vector<double> triangles = is_binary(bytes) ? parse_binary(bytes) : parse_ascii(path, bytes);
  if (triangles.empty()) fail(path, "the STL file has no triangles");
  check_closed(path, triangles);
  const double volume = enclosed_volume(triangles);
  if (!(std::abs(volume) > 0.0)) fail(path, "the surface encloses no volume");
  if (volume < 0.0) {  // inward normals: reverse every triangle
    for (std::size_t f = 0; f < triangles.size(); f += 9)
      for (int d = 0; d < 3; ++d) std::swap(triangles[f + 3 + d], triangles[f + 6 + d]);
  }
  return triangles;
}

}  // namespace cb::io
