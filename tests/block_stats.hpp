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

}  // namespace cb::test
