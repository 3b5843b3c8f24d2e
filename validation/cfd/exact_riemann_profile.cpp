// Prints the exact solution of a 1-D Euler Riemann problem (validation/cfd/
// exact_riemann.hpp, Toro ch. 4) at time t, sampled at the centres of `cells`
// equal cells on [lo, hi]:
//
//   cfd_exact_riemann --left RHO,U,P --right RHO,U,P --time T
//                     [--gamma 1.4] [--x0 0.5] [--cells 400] [--lo 0] [--hi 1]
//                     [--star-only]
//
// Output: comment lines starting with '#' (the star state), then "x rho u p"
// per line. --star-only prints only "p_star u_star rho_star_left
// rho_star_right". Exit 2 on bad arguments.
#include "exact_riemann.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>

namespace {

using cb::validation::Primitive;

struct Options {
  Primitive left{-1, 0, -1}, right{-1, 0, -1};
  double gamma = 1.4, x0 = 0.5, time = -1, lo = 0, hi = 1;
  int cells = 400;
  bool star_only = false;
};

double to_number(const std::string& text, const std::string& option) {
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw std::invalid_argument(option + ": not a number: '" + text + "'");
  }
  return value;
}

Primitive to_state(const std::string& text, const std::string& option) {
  std::istringstream in(text);
  std::string parts[3];
  int n = 0;
  while (n < 3 && std::getline(in, parts[n], ',')) ++n;
  std::string rest;
  if (n != 3 || std::getline(in, rest)) {
    throw std::invalid_argument(option + " wants RHO,U,P; got '" + text + "'");
  }
  return {to_number(parts[0], option), to_number(parts[1], option), to_number(parts[2], option)};
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--star-only") {
      o.star_only = true;
      continue;
    }
    if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value (or is unknown)");
    const std::string value = argv[++i];
    if (arg == "--left")
      o.left = to_state(value, arg);
    else if (arg == "--right")
      o.right = to_state(value, arg);
    else if (arg == "--gamma")
      o.gamma = to_number(value, arg);
    else if (arg == "--x0")
      o.x0 = to_number(value, arg);
    else if (arg == "--time")
      o.time = to_number(value, arg);
    else if (arg == "--lo")
      o.lo = to_number(value, arg);
    else if (arg == "--hi")
      o.hi = to_number(value, arg);
    else if (arg == "--cells")
      o.cells = static_cast<int>(to_number(value, arg));
    else
      throw std::invalid_argument("unknown option " + arg);
  }
  if (o.left.rho < 0 || o.right.rho < 0) throw std::invalid_argument("--left and --right needed");
  if (!o.star_only && !(o.time > 0)) throw std::invalid_argument("--time T > 0 needed");
  if (o.cells < 1 || !(o.hi > o.lo) || !(o.gamma > 1)) {
    throw std::invalid_argument("need --cells >= 1, --hi > --lo, --gamma > 1");
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    const cb::validation::ExactRiemann riemann(o.left, o.right, o.gamma, o.x0);
    const auto& s = riemann.star();
    if (o.star_only) {
      std::printf("%.10g %.10g %.10g %.10g\n", s.p, s.u, s.rho_left, s.rho_right);
      return 0;
    }
    std::printf("# exact Riemann solution (Toro ch. 4), gamma %g, x0 %g, t %g\n", o.gamma, o.x0,
                o.time);
    std::printf("# p_star %.10g u_star %.10g rho_star_left %.10g rho_star_right %.10g\n", s.p, s.u,
                s.rho_left, s.rho_right);
    std::printf("# x rho u p\n");
    const double dx = (o.hi - o.lo) / o.cells;
    for (int i = 0; i < o.cells; ++i) {
      const double x = o.lo + (i + 0.5) * dx;
      const Primitive w = riemann.at(x, o.time);
      std::printf("%.10g %.12g %.12g %.12g\n", x, w.rho, w.u, w.p);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cfd_exact_riemann: %s\n", e.what());
    return 2;
  }
}
