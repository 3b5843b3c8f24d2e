// Statistics of MD time series for the validation tests: means, standard
// errors from block averages (Allen & Tildesley, Computer Simulation of
// Liquids, 2nd ed., sec. 8.4) and a linear drift with its standard error.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace cb::test {

inline double mean_of(const std::vector<double>& x) {
  double sum = 0.0;
  for (double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}

// The standard error of the mean of independent samples `x` (block averages).
inline double standard_error_of(const std::vector<double>& x) {
  const double m = mean_of(x);
  double var = 0.0;
  for (double v : x) var += (v - m) * (v - m);
  const double n = static_cast<double>(x.size());
  return std::sqrt(var / (n - 1.0) / n);
}

// The means of `blocks` consecutive blocks of equal length (a remainder at the end is dropped).
inline std::vector<double> block_means(const std::vector<double>& x, int blocks) {
  const std::size_t per = x.size() / static_cast<std::size_t>(blocks);
  std::vector<double> means(static_cast<std::size_t>(blocks), 0.0);
  for (std::size_t b = 0; b < means.size(); ++b)
    for (std::size_t k = b * per; k < (b + 1) * per; ++k) means[b] += x[k] / per;
  return means;
}

struct Drift {
  double slope = 0.0;           // least-squares slope of y against t
  double standard_error = 0.0;  // from the residuals of the block means
};

// The slope of y(t) fitted to `blocks` block means (correlated samples
// averaged first), with its standard error from the fit's residuals.
inline Drift linear_drift(const std::vector<double>& t, const std::vector<double>& y, int blocks) {
  const std::vector<double> tb = block_means(t, blocks), yb = block_means(y, blocks);
  const double tm = mean_of(tb), ym = mean_of(yb);
  double stt = 0.0, sty = 0.0;
  for (std::size_t b = 0; b < tb.size(); ++b) {
    stt += (tb[b] - tm) * (tb[b] - tm);
    sty += (tb[b] - tm) * (yb[b] - ym);
  }
  Drift drift;
  drift.slope = sty / stt;
  double residual = 0.0;
  for (std::size_t b = 0; b < tb.size(); ++b) {
    const double r = yb[b] - ym - drift.slope * (tb[b] - tm);
    residual += r * r;
  }
  drift.standard_error = std::sqrt(residual / (static_cast<double>(tb.size()) - 2.0) / stt);
  return drift;
}

// Pressure and volume of an NPT run sampled after a step, in `blocks` block
// averages: <P>, <V> and var V (about the mean of all samples), each with
// the standard error of its block values.
struct NptSample {
  double p = 0.0, p_error = 0.0, v = 0.0, v_error = 0.0, var = 0.0, var_error = 0.0;
};

inline NptSample npt_sample(const std::vector<double>& step, const std::vector<double>& press,
                            const std::vector<double>& vol, double after_step, int blocks) {
  std::vector<double> p, v;
  for (std::size_t k = 0; k < step.size(); ++k) {
    if (step[k] <= after_step) continue;
    p.push_back(press[k]);
    v.push_back(vol[k]);
  }
  const double v_mean = mean_of(v);
  std::vector<double> squares;
  for (double x : v) squares.push_back((x - v_mean) * (x - v_mean));
  const std::vector<double> block_p = block_means(p, blocks), block_v = block_means(v, blocks),
                            block_var = block_means(squares, blocks);
  return {mean_of(block_p),           standard_error_of(block_p), mean_of(block_v),
          standard_error_of(block_v), mean_of(block_var),         standard_error_of(block_var)};
}

// The isothermal compressibility two ways (Allen & Tildesley): from the
// volume fluctuations at the middle pressure, var V / (k_B T <V>), and from
// the response -(<V>(P + dP) - <V>(P - dP)) / (2 dP <V>(P)); with errors.
struct Compressibility {
  double fluctuation = 0.0, fluctuation_error = 0.0, response = 0.0, response_error = 0.0;
};

inline Compressibility compressibility(const NptSample& low, const NptSample& mid,
                                       const NptSample& high, double pressure_step, double kt) {
  const double v = mid.v, span = 2.0 * pressure_step;
  return {mid.var / (kt * v), mid.var_error / (kt * v), -(high.v - low.v) / (span * v),
          std::hypot(high.v_error, low.v_error) / (span * v)};
}

}  // namespace cb::test
