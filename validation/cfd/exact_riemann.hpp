// Exact solution of the Riemann problem for the 1-D Euler equations of an ideal
// gas, after E. F. Toro, "Riemann Solvers and Numerical Methods for Fluid
// Dynamics", 3rd ed. (Springer 2009), chapter 4: the pressure function (4.5)-
// (4.7) and its derivative (4.37), the adaptive initial guess (4.46)-(4.49),
// Newton iteration for the star pressure, u* from (4.9), and the sampling of
// the self-similar solution (section 4.5, figures 4.14 and 4.15) including the
// rarefaction fans (4.56), (4.63).
//
// Host code for the validation only (tests and the profile program); the
// solver's kernels never include it. Vacuum is not handled: data whose
// pressure positivity condition (4.40) fails are refused.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace cb::validation {

// Primitive state of an ideal gas: density, velocity, pressure.
struct Primitive {
  double rho = 0;
  double u = 0;
  double p = 0;
};

// The star region between the two non-linear waves; rho_left / rho_right are
// the densities on either side of the contact.
struct StarState {
  double p = 0;
  double u = 0;
  double rho_left = 0;
  double rho_right = 0;
  int iterations = 0;
};

namespace detail {

inline double sound_speed(const Primitive& w, double gamma) {
  return std::sqrt(gamma * w.p / w.rho);
}

// f_K(p) of Toro (4.6)-(4.7) and its derivative (4.37) for side K.
struct PressureFunction {
  double value;
  double derivative;
};

inline PressureFunction pressure_function(double p, const Primitive& w, double gamma) {
  const double a = sound_speed(w, gamma);
  if (p > w.p) {  // shock
    const double A = 2.0 / ((gamma + 1.0) * w.rho);
    const double B = (gamma - 1.0) / (gamma + 1.0) * w.p;
    const double root = std::sqrt(A / (p + B));
    return {(p - w.p) * root, root * (1.0 - 0.5 * (p - w.p) / (B + p))};
  }
  const double ratio = p / w.p;  // rarefaction
  const double z = (gamma - 1.0) / (2.0 * gamma);
  return {2.0 * a / (gamma - 1.0) * (std::pow(ratio, z) - 1.0),
          std::pow(ratio, -(gamma + 1.0) / (2.0 * gamma)) / (w.rho * a)};
}

// Adaptive non-iterative guess, Toro (4.46)-(4.49): PVRS where the pressure
// ratio is small and the guess lies between the two pressures, otherwise the
// two-rarefaction or the two-shock approximation.
inline double initial_pressure(const Primitive& L, const Primitive& R, double gamma) {
  const double aL = sound_speed(L, gamma);
  const double aR = sound_speed(R, gamma);
  const double p_pv =
      std::max(0.0, 0.5 * (L.p + R.p) - 0.125 * (R.u - L.u) * (L.rho + R.rho) * (aL + aR));
  const double p_min = std::min(L.p, R.p);
  const double p_max = std::max(L.p, R.p);
  if (p_max / p_min < 2.0 && p_pv >= p_min && p_pv <= p_max) return p_pv;
  if (p_pv < p_min) {
    const double z = (gamma - 1.0) / (2.0 * gamma);
    const double num = aL + aR - 0.5 * (gamma - 1.0) * (R.u - L.u);
    const double den = aL / std::pow(L.p, z) + aR / std::pow(R.p, z);
    return std::pow(num / den, 1.0 / z);
  }
  const auto g = [gamma, p_pv](const Primitive& w) {
    const double A = 2.0 / ((gamma + 1.0) * w.rho);
    const double B = (gamma - 1.0) / (gamma + 1.0) * w.p;
    return std::sqrt(A / (p_pv + B));
  };
  const double gL = g(L);
  const double gR = g(R);
  return std::max(1e-12 * p_min, (gL * L.p + gR * R.p - (R.u - L.u)) / (gL + gR));
}

// Density behind the wave of side K at star pressure p: shock (4.50)/(4.57)
// or the isentrope (4.53)/(4.60).
inline double star_density(double p, const Primitive& w, double gamma) {
  const double ratio = p / w.p;
  if (p > w.p) {
    const double g = (gamma - 1.0) / (gamma + 1.0);
    return w.rho * (ratio + g) / (g * ratio + 1.0);
  }
  return w.rho * std::pow(ratio, 1.0 / gamma);
}

inline void check_state(const Primitive& w, const char* side) {
  if (!(w.rho > 0) || !(w.p > 0) || !std::isfinite(w.u)) {
    throw std::invalid_argument(std::string("exact Riemann solver: the ") + side +
                                " state needs rho > 0, p > 0 and a finite u");
  }
}

}  // namespace detail

// p*, u* and the star densities by Newton iteration on f(p) = f_L + f_R + du
// (Toro 4.5), stopped when the relative change 2|p_k+1 - p_k|/(p_k+1 + p_k)
// (Toro 4.44) is below `tolerance`.
inline StarState solve_star(const Primitive& L, const Primitive& R, double gamma,
                            double tolerance = 1e-14) {
  detail::check_state(L, "left");
  detail::check_state(R, "right");
  const double aL = detail::sound_speed(L, gamma);
  const double aR = detail::sound_speed(R, gamma);
  if (2.0 * (aL + aR) / (gamma - 1.0) <= R.u - L.u) {  // Toro (4.40)
    throw std::invalid_argument("exact Riemann solver: these states generate vacuum");
  }
  StarState star;
  double p = detail::initial_pressure(L, R, gamma);
  for (star.iterations = 1; star.iterations <= 100; ++star.iterations) {
    const auto fL = detail::pressure_function(p, L, gamma);
    const auto fR = detail::pressure_function(p, R, gamma);
    double next = p - (fL.value + fR.value + R.u - L.u) / (fL.derivative + fR.derivative);
    if (next <= 0) next = 0.5 * p;  // f is increasing and concave: stay on p > 0
    const double change = 2.0 * std::abs(next - p) / (next + p);
    p = next;
    if (change < tolerance) break;
  }
  if (star.iterations > 100) {
    throw std::runtime_error("exact Riemann solver: Newton iteration did not converge");
  }
  const double fL = detail::pressure_function(p, L, gamma).value;
  const double fR = detail::pressure_function(p, R, gamma).value;
  star.p = p;
  star.u = 0.5 * (L.u + R.u) + 0.5 * (fR - fL);  // Toro (4.9)
  star.rho_left = detail::star_density(p, L, gamma);
  star.rho_right = detail::star_density(p, R, gamma);
  return star;
}

// The solution at speed s = (x - x0) / t, Toro section 4.5.
inline Primitive sample(const Primitive& L, const Primitive& R, const StarState& star, double gamma,
                        double s) {
  const double gm = (gamma - 1.0) / (gamma + 1.0);
  const double z = (gamma - 1.0) / (2.0 * gamma);
  const double q = (gamma + 1.0) / (2.0 * gamma);
  if (s <= star.u) {
    const double aL = detail::sound_speed(L, gamma);
    if (star.p > L.p) {  // left shock, speed (4.52)
      const double shock = L.u - aL * std::sqrt(q * star.p / L.p + z);
      return s <= shock ? L : Primitive{star.rho_left, star.u, star.p};
    }
    const double head = L.u - aL;  // left rarefaction (4.55)
    const double tail = star.u - aL * std::pow(star.p / L.p, z);
    if (s <= head) return L;
    if (s >= tail) return Primitive{star.rho_left, star.u, star.p};
    const double c = 2.0 / (gamma + 1.0) + gm / aL * (L.u - s);  // fan (4.56)
    return {L.rho * std::pow(c, 2.0 / (gamma - 1.0)),
            2.0 / (gamma + 1.0) * (aL + 0.5 * (gamma - 1.0) * L.u + s),
            L.p * std::pow(c, 2.0 * gamma / (gamma - 1.0))};
  }
  const double aR = detail::sound_speed(R, gamma);
  if (star.p > R.p) {  // right shock, speed (4.59)
    const double shock = R.u + aR * std::sqrt(q * star.p / R.p + z);
    return s >= shock ? R : Primitive{star.rho_right, star.u, star.p};
  }
  const double head = R.u + aR;  // right rarefaction (4.62)
  const double tail = star.u + aR * std::pow(star.p / R.p, z);
  if (s >= head) return R;
  if (s <= tail) return Primitive{star.rho_right, star.u, star.p};
  const double c = 2.0 / (gamma + 1.0) - gm / aR * (R.u - s);  // fan (4.63)
  return {R.rho * std::pow(c, 2.0 / (gamma - 1.0)),
          2.0 / (gamma + 1.0) * (-aR + 0.5 * (gamma - 1.0) * R.u + s),
          R.p * std::pow(c, 2.0 * gamma / (gamma - 1.0))};
}

// A Riemann problem with the interface at x0, solved once and sampled anywhere.
class ExactRiemann {
 public:
  ExactRiemann(const Primitive& left, const Primitive& right, double gamma, double x0 = 0.5)
      : left_(left), right_(right), gamma_(gamma), x0_(x0), star_(solve_star(left, right, gamma)) {}

  const StarState& star() const { return star_; }

  // The state at position x and time t > 0 (the initial data at t <= 0).
  Primitive at(double x, double t) const {
    if (t <= 0) return x < x0_ ? left_ : right_;
    return sample(left_, right_, star_, gamma_, (x - x0_) / t);
  }

  // Position at time t of the right-facing shock (only where star.p > right.p).
  double right_shock_position(double t) const {
    const double aR = detail::sound_speed(right_, gamma_);
    const double q = (gamma_ + 1.0) / (2.0 * gamma_);
    const double z = (gamma_ - 1.0) / (2.0 * gamma_);
    return x0_ + t * (right_.u + aR * std::sqrt(q * star_.p / right_.p + z));
  }

 private:
  Primitive left_, right_;
  double gamma_, x0_;
  StarState star_;
};

}  // namespace cb::validation
