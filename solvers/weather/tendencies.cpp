// Launch sites of the directional flux and tendency kernels.
#include "solvers/weather/tendencies.hpp"

#include "core/axis_dispatch.hpp"
#include "kernels/weather/diffusion.hpp"
#include "kernels/weather/exact_thermo.hpp"

namespace cb::weather {
namespace {

using kernels::weather::buoyancy;
using kernels::weather::face_flux;
using kernels::weather::face_pressure;
using kernels::weather::face_viscosity;
using kernels::weather::FluxParams;
using kernels::weather::inertial_momentum_tendency;
using kernels::weather::interpolate4;
using kernels::weather::inviscid_face_flux;
using kernels::weather::limited_flux;
using kernels::weather::momentum_forcing;
using kernels::weather::outflow_factor;
using kernels::weather::stage_update;
using kernels::weather::sweep_tendency;
using kernels::weather::total_density_perturbation;
using kernels::weather::tracer_diffusive_flux;
using kernels::weather::tracer_face_flux;
using kernels::weather::vapour_factor;
using kernels::weather::Var;
using kernels::weather::Vars;
using Policy3 = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>;

// The theta equation's divergence term of exact thermodynamics (kernels/weather/exact_thermo.hpp)
// takes the normal velocity of each face, which the flux kernel stores beside the face's
// pressure (component 1 of the face field), and the background's rho theta.
struct ExactTheta {
  bool enabled;
  Column rho_theta;
};

// The faces along `axis` of the owned cells: one more than cells along it.
struct Box {
  Int3 begin, end;  // padded (i, j, k) of the first and one past the last
};

Box owned_faces(const Int3& n, const Int3& g, int axis) {
  Int3 end{g[0] + n[0], g[1] + n[1], g[2] + n[2]};
  end[axis] += 1;
  return {g, end};
}

Policy3 policy_of(const Box& b) {
  return Policy3({b.begin[2], b.begin[1], b.begin[0]}, {b.end[2], b.end[1], b.end[0]});
}

using Team = Kokkos::TeamPolicy<ExecSpace>;

// The rows along x of a box of faces, one team each (pressures_of, inviscid_fluxes): a row's
// (k, j) from its team's rank, and its faces i0 <= i < i1.
struct FaceRows {
  int i0, i1, j0, nj, k0;
  KOKKOS_INLINE_FUNCTION int k(const Team::member_type& team) const {
    return k0 + team.league_rank() / nj;
  }
  KOKKOS_INLINE_FUNCTION int j(const Team::member_type& team) const {
    return j0 + team.league_rank() % nj;
  }
};

FaceRows rows_of(const Box& b) {
  return {b.begin[0], b.end[0], b.begin[1], b.end[1] - b.begin[1], b.begin[2]};
}

Team teams_of(const Box& b) {
  return Team((b.end[2] - b.begin[2]) * (b.end[1] - b.begin[1]), 1, Team::vector_length_max());
}

// Distance in memory between neighbouring cells along Axis (LayoutRight: i is contiguous).
template <int Axis>
std::ptrdiff_t stride_along(const Field& s) {
  return Axis == 0 ? 1 : Axis == 1 ? s.stride(2) : s.stride(1);
}

// The flux and tendency kernels of one direction and variable count.
template <int Axis, int NVars>
struct Directional {
  // The face pressures (pressures_of), then the fluxes: by rows for dry runs without
  // viscosity (inviscid_fluxes), otherwise by the general kernel, whose instantiation with
  // Optional = false (dry, no eddy viscosity) has the optional parts compiled away.
  static void fluxes(const Field& s, const Field& flux, const Column& r, const Column& rt,
                     const Column& r_int, const Column& rt_int, const Column& p_int,
                     const WaterColumns& hy_ratio, const FluxParams& params, int wall_low,
                     int wall_high, int ntracers, bool water_dynamics, const Field& eddy,
                     real inverse_prandtl, const Field& pressure, const Box& faces) {
    (water_dynamics ? pressures_of<true> : pressures_of<false>)(s, pressure, r, rt, r_int, rt_int,
                                                                p_int, faces);
    const bool optional = ntracers > 0 || water_dynamics || eddy.extent(0) > 0;
    if (!optional && !(params.viscosity > 0 || params.diffusivity > 0)) {
      return inviscid_fluxes(s, flux, r, rt, r_int, rt_int, p_int, params.hv, wall_low, wall_high,
                             pressure, faces);
    }
    (optional ? fluxes_of<true> : fluxes_of<false>)(s, flux, r, rt, r_int, rt_int, p_int, hy_ratio,
                                                    params, wall_low, wall_high, ntracers,
                                                    water_dynamics, eddy, inverse_prandtl, pressure,
                                                    policy_of(faces));
  }

  // The pressure of every face (kernels/weather/flux.hpp face_pressure), moist: with the vapour
  // factor of the face's interpolated vapour. A pass of its own, one team per (k, j) row of
  // faces with a vector loop along the row: a loop of little more than the power function,
  // which CPU compilers vectorise (the library pow is a call that stops them; GCC vectorises
  // neither MDRangePolicy's tile loops nor loads through a View's index operator in a vector
  // loop, hence the row pointers), and on GPUs a row's faces on consecutive lanes.
  template <bool Moist>
  static void pressures_of(const Field& s, const Field& pressure, const Column& r, const Column& rt,
                           const Column& r_int, const Column& rt_int, const Column& p_int,
                           const Box& faces) {
    const FaceRows rows = rows_of(faces);
    const std::ptrdiff_t step = stride_along<Axis>(s);
    Kokkos::parallel_for(
        "weather::face_pressures", teams_of(faces), KOKKOS_LAMBDA(const Team::member_type& team) {
          const int k = rows.k(team), j = rows.j(team);
          const kernels::weather::FaceBackground bg =
              face_background<Axis>(r, rt, r_int, rt_int, p_int, k);
          const real* rho = &s(Var::dens, k, j, 0);
          const real* rho_theta = &s(Var::rhot, k, j, 0);
          const real* vapour = &s(Moist ? NVars : Var::dens, k, j, 0);
          real* p = &pressure(0, k, j, 0);
          real rho_bar[4];  // of the four cells about the row, as gather_mixing_ratio adds it
          for (int c = 0; c < 4; ++c) rho_bar[c] = real(r(k + (c - 2) * (Axis == 2)));
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, rows.i0, rows.i1), [&](int i) {
            real factor = 1;
            if (Moist) {
              real qv[4];
              for (int c = 0; c < 4; ++c) {
                const std::ptrdiff_t at = i + (c - 2) * step;
                qv[c] = vapour[at] / (rho[at] + rho_bar[c]);
              }
              factor = vapour_factor(interpolate4(qv[0], qv[1], qv[2], qv[3]));
            }
            const real rho_face =
                interpolate4(rho[i - 2 * step], rho[i - step], rho[i], rho[i + step]);
            const real rho_theta_face = interpolate4(rho_theta[i - 2 * step], rho_theta[i - step],
                                                     rho_theta[i], rho_theta[i + step]);
            p[i] = face_pressure(rho_face, rho_theta_face, bg, factor);
          });
        });
  }

  // One row of faces for inviscid_row: the rows of the NVars variables about it (variable v's
  // at in + v * in_var, cell i + c along the sweep at offset c * step), its pressures, and its
  // fluxes (variable v's at out + v * out_var).
  struct FaceRow {
    const real* in;
    const real* p;
    real* out;
    std::ptrdiff_t in_var, step, out_var;
    int i0, i1;
    real hv;
  };

  // Whether face i of a row is a wall: along x by its index, along y and z the whole row or
  // none (decided outside the vector loop, which GCC does not vectorise with a branch in it).
  struct WallAlongX {
    int low, high;
    KOKKOS_INLINE_FUNCTION bool operator()(int i) const { return (i == low) | (i == high); }
  };
  template <bool Wall>
  struct WallRow {
    KOKKOS_INLINE_FUNCTION bool operator()(int) const { return Wall; }
  };

  // The inviscid fluxes (inviscid_face_flux) of a row of faces, a vector loop. GCC vectorises
  // it given two options (solvers/weather/CMakeLists.txt): enough run-time checks that the
  // loads do not alias the stores, and no trapping math (the wall's select).
  template <class WallOf>
  KOKKOS_FORCEINLINE_FUNCTION static void inviscid_row(const Team::member_type& team,
                                                       const FaceRow& row,
                                                       const kernels::weather::FaceBackground& bg,
                                                       const WallOf& wall_of) {
    const std::ptrdiff_t step = Axis == 0 ? 1 : row.step;
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, row.i0, row.i1), [&](int i) {
      kernels::weather::Stencil q;
      for (int c = 0; c < 4; ++c) {
        q[c] = Vars{};
        for (int v = 0; v < NVars; ++v) q[c][v] = row.in[v * row.in_var + i + (c - 2) * step];
      }
      const Vars f = inviscid_face_flux(q, bg, row.p[i], Axis, wall_of(i), row.hv);
      for (int v = 0; v < NVars; ++v) row.out[v * row.out_var + i] = f[v];
    });
  }

  // The fluxes of dry runs without viscosity or diffusivity, one team per (k, j) row of faces
  // as the face pressures (pressures_of).
  static void inviscid_fluxes(const Field& s, const Field& flux, const Column& r, const Column& rt,
                              const Column& r_int, const Column& rt_int, const Column& p_int,
                              real hv, int wall_low, int wall_high, const Field& pressure,
                              const Box& faces) {
    const FaceRows rows = rows_of(faces);
    const std::ptrdiff_t in_var = s.stride(0), out_var = flux.stride(0);
    const std::ptrdiff_t step = stride_along<Axis>(s);
    Kokkos::parallel_for(
        "weather::inviscid_fluxes", teams_of(faces), KOKKOS_LAMBDA(const Team::member_type& team) {
          const int k = rows.k(team), j = rows.j(team);
          const FaceRow row{&s(0, k, j, 0),
                            &pressure(0, k, j, 0),
                            &flux(0, k, j, 0),
                            in_var,
                            step,
                            out_var,
                            rows.i0,
                            rows.i1,
                            hv};
          const kernels::weather::FaceBackground bg =
              face_background<Axis>(r, rt, r_int, rt_int, p_int, k);
          const int face = Axis == 1 ? j : k;
          if (Axis == 0) {
            inviscid_row(team, row, bg, WallAlongX{wall_low, wall_high});
          } else if (face == wall_low || face == wall_high) {
            inviscid_row(team, row, bg, WallRow<true>{});
          } else {
            inviscid_row(team, row, bg, WallRow<false>{});
          }
        });
  }

  template <bool Optional>
  static void fluxes_of(const Field& s, const Field& flux, const Column& r, const Column& rt,
                        const Column& r_int, const Column& rt_int, const Column& p_int,
                        const WaterColumns& hy_ratio, const FluxParams& params, int wall_low,
                        int wall_high, int ntracers, bool water_dynamics, const Field& eddy,
                        real inverse_prandtl, const Field& pressure, const Policy3& faces) {
    constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
    Kokkos::parallel_for(
        "weather::fluxes", faces, KOKKOS_LAMBDA(int k, int j, int i) {
          const int face = Axis == 0 ? i : Axis == 1 ? j : k;
          const bool wall = face == wall_low || face == wall_high;
          FluxParams p = params;
          if (Optional && eddy.extent(0) > 0) {  // Smagorinsky: K of the face, from its two cells
            p.viscosity = face_viscosity(eddy(0, k - dk, j - dj, i - di), eddy(0, k, j, i));
            p.diffusivity = p.tracer_diffusivity = p.viscosity * inverse_prandtl;
          }
          const kernels::weather::Stencil q = gather_stencil<Axis, NVars>(s, k, j, i);
          const kernels::weather::FaceBackground bg =
              face_background<Axis>(r, rt, r_int, rt_int, p_int, k);
          const Vars f = face_flux(q, bg, pressure(0, k, j, i), cell_background(r, rt, k - dk),
                                   cell_background(r, rt, k), Axis, wall, p);
          for (int v = 0; v < NVars; ++v) flux(v, k, j, i) = f[v];
          if (!Optional) return;
          const real rho_face =
              interpolate4(q[0][Var::dens], q[1][Var::dens], q[2][Var::dens], q[3][Var::dens]) +
              bg.rho;
          if (pressure.extent(0) > 1) {  // exact thermodynamics: the face's normal velocity
            constexpr int mom = Axis == 0 ? Var::umom : Axis == 1 ? Var::vmom : Var::wmom;
            pressure(1, k, j, i) =
                wall ? real(0)
                     : interpolate4(q[0][mom], q[1][mom], q[2][mom], q[3][mom]) / rho_face;
          }
          for (int t = NVars; t < NVars + ntracers; ++t) {
            const Kokkos::Array<real, 4> ratio = gather_mixing_ratio<Axis>(s, r, t, k, j, i);
            Kokkos::Array<real, 4> ratio_bar{0, 0, 0, 0};
            if (water_dynamics) ratio_bar = gather_background_ratio<Axis>(hy_ratio, t - NVars, k);
            real f_t = tracer_face_flux(ratio, ratio_bar, f[Var::dens], rho_face, p.hv, wall);
            if (!wall && p.tracer_diffusivity > 0) {
              f_t += tracer_diffusive_flux(ratio[1], ratio[2], ratio_bar[1], ratio_bar[2], rho_face,
                                           p.tracer_diffusivity, p.h);
            }
            flux(t, k, j, i) = f_t;
          }
        });
  }

  // Skamarock's factor of each owned cell and tracer (kernels/weather/tracer.hpp) against the
  // stage's update init + dt R.
  static void tracer_factors(const Field& init, const Field& flux, const Field& factor, real h,
                             real dt, int ntracers, const CellPolicy& cells) {
    constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
    Kokkos::parallel_for(
        "weather::tracer_factors", cells, KOKKOS_LAMBDA(int k, int j, int i) {
          for (int t = 0; t < ntracers; ++t) {
            factor(t, k, j, i) = outflow_factor(init(NVars + t, k, j, i), flux(NVars + t, k, j, i),
                                                flux(NVars + t, k + dk, j + dj, i + di), dt, h);
          }
        });
  }

  // out = init - dt (F_high - F_low) / h for the tracers, each face flux scaled by the factor
  // of the cell it leaves.
  static void tracer_tendencies(const Field& init, const Field& out, const Field& flux,
                                const Field& factor, real h, real dt, int ntracers,
                                const CellPolicy& cells) {
    constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
    Kokkos::parallel_for(
        "weather::tracer_tendencies", cells, KOKKOS_LAMBDA(int k, int j, int i) {
          for (int t = 0; t < ntracers; ++t) {
            const int v = NVars + t;
            const real below = factor(t, k - dk, j - dj, i - di), here = factor(t, k, j, i);
            const real above = factor(t, k + dk, j + dj, i + di);
            const real low = limited_flux(flux(v, k, j, i), below, here);
            const real high = limited_flux(flux(v, k + dk, j + dj, i + di), here, above);
            out(v, k, j, i) = stage_update(init(v, k, j, i), dt, -(high - low) / h);
          }
        });
  }

  // out = init + dt * (-(F_high - F_low) / h + sources): gravity in the vertical step (on
  // the total density with water dynamics), and the gravity_waves case's momentum forcing in
  // every step. With the water's inertia (`pressure`: the faces' pressure terms) the momentum
  // along the axis feels its pressure part and gravity through rho_d / rho_t. Exact
  // thermodynamics add the divergence term of the theta equation (ExactTheta).
  static void tendencies(const Field& s0, const Field& s, const Field& s1, const Field& flux,
                         const Field& pressure, const Column& hy_r, const WaterColumns& hy_water,
                         real h, real dt, bool forced, bool water_dynamics, bool inertia,
                         const ExactTheta& exact, const CaseSetup& c, const LocalGrid& grid,
                         const CellPolicy& cells) {
    const bool optional = forced || water_dynamics || inertia;
    (optional ? tendencies_of<true> : tendencies_of<false>)(s0, s, s1, flux, pressure, hy_r,
                                                            hy_water, h, dt, forced, water_dynamics,
                                                            inertia, exact, c, grid, cells);
  }

  template <bool Optional>
  static void tendencies_of(const Field& s0, const Field& s, const Field& s1, const Field& flux,
                            const Field& pressure, const Column& hy_r, const WaterColumns& hy_water,
                            real h, real dt, bool forced, bool water_dynamics, bool inertia,
                            const ExactTheta& exact, const CaseSetup& c, const LocalGrid& grid,
                            const CellPolicy& cells) {
    constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
    constexpr int mom = Axis == 0 ? Var::umom : Axis == 1 ? Var::vmom : Var::wmom;
    Kokkos::parallel_for(
        "weather::apply_tendencies", cells, KOKKOS_LAMBDA(int k, int j, int i) {
          real rho_pert = s(Var::dens, k, j, i), water = 0;
          if (Optional && water_dynamics) {
            water = s(NVars, k, j, i) + s(NVars + 1, k, j, i) + s(NVars + 2, k, j, i);
            if (Axis == 2) {
              const real water_bar =
                  real(hy_water(0, k)) + real(hy_water(1, k)) + real(hy_water(2, k));
              rho_pert = total_density_perturbation(rho_pert, water, water_bar);
            }
          }
          const Vars low = gather_cell<NVars>(flux, k, j, i);
          const Vars high = gather_cell<NVars>(flux, k + dk, j + dj, i + di);
          Vars tend = sweep_tendency(low, high, h, rho_pert, Axis);
          if (Optional && inertia) {
            const real gradient = -(pressure(0, k + dk, j + dj, i + di) - pressure(0, k, j, i)) / h;
            tend[mom] = inertial_momentum_tendency(-(high[mom] - low[mom]) / h, gradient,
                                                   Axis == 2 ? buoyancy(rho_pert) : real(0),
                                                   s(Var::dens, k, j, i) + real(hy_r(k)), water);
          }
          if (Optional && exact.enabled) {
            const real rho = s(Var::dens, k, j, i) + real(hy_r(k));
            tend[Var::rhot] += kernels::weather::exact::theta_divergence_tendency(
                s(Var::rhot, k, j, i) + real(exact.rho_theta(k)), s(NVars, k, j, i) / rho,
                (s(NVars + 1, k, j, i) + s(NVars + 2, k, j, i)) / rho, pressure(1, k, j, i),
                pressure(1, k + dk, j + dj, i + di), h);
          }
          if (Optional && forced) {
            const double x = grid.center(0, i), y = grid.center(1, j), z = grid.center(2, k);
            tend[Var::wmom] +=
                momentum_forcing(real(gravity_wave_forcing(c, x, y, z)), real(hy_r(k)));
          }
          for (int v = 0; v < NVars; ++v)
            s1(v, k, j, i) = stage_update(s0(v, k, j, i), dt, tend[v]);
        });
  }
};

// The instantiation of Directional for a run-time axis and variable count.
template <template <int, int> class Kernel, class... Args>
void dispatch(int axis, int nvars, Args&&... args) {
  with_axis(axis, [&](auto a) {
    if (nvars == 4) return Kernel<decltype(a)::value, 4>::run(args...);
    Kernel<decltype(a)::value, 5>::run(args...);
  });
}

template <int Axis, int NVars>
struct FluxLaunch {
  template <class... Args>
  static void run(Args&&... args) {
    Directional<Axis, NVars>::fluxes(args...);
  }
};

template <int Axis, int NVars>
struct TracerFactorLaunch {
  template <class... Args>
  static void run(Args&&... args) {
    Directional<Axis, NVars>::tracer_factors(args...);
  }
};

template <int Axis, int NVars>
struct TracerTendencyLaunch {
  template <class... Args>
  static void run(Args&&... args) {
    Directional<Axis, NVars>::tracer_tendencies(args...);
  }
};

template <int Axis, int NVars>
struct TendencyLaunch {
  template <class... Args>
  static void run(Args&&... args) {
    Directional<Axis, NVars>::tendencies(args...);
  }
};

}  // namespace

void WeatherSolver::compute_fluxes(const Field& state, int axis, double dt) {
  FluxParams p{};
  p.h = real(params_.geometry.spacing(axis));
  p.hv = kernels::weather::hyperviscosity(real(params_.hv_beta), p.h, real(dt));
  p.viscosity = real(params_.viscosity);
  p.diffusivity = real(params_.diffusivity);
  p.tracer_diffusivity = real(params_.tracer_diffusivity);
  // Padded indices of the wall faces along the axis (none: out of range).
  const int g = ghost_[axis], n = decomposition_.local_cells()[axis];
  const int wall_low = decomposition_.at_physical_boundary(axis, 0) ? g : -1;
  const int wall_high = decomposition_.at_physical_boundary(axis, 1) ? g + n : -1;
  const Box faces = owned_faces(decomposition_.local_cells(), ghost_, axis);
  dispatch<FluxLaunch>(axis, params_.dynamic_variables(), state, flux_, hy_dens_cell_,
                       hy_dens_theta_cell_, hy_dens_int_, hy_dens_theta_int_, hy_pressure_int_,
                       hy_water_ratio_, p, wall_low, wall_high, params_.tracers(),
                       params_.moisture.dynamics, eddy_, real(1 / params_.turbulence.prandtl),
                       face_pressure_, faces);
}

void WeatherSolver::limit_tracer_fluxes(const Field& init, int axis, double dt) {
  dispatch<TracerFactorLaunch>(axis, params_.dynamic_variables(), init, flux_, tracer_factor_,
                               real(params_.geometry.spacing(axis)), real(dt), params_.tracers(),
                               owned_cells(decomposition_.local_cells(), ghost_));
}

void WeatherSolver::apply_tracer_tendencies(const Field& init, const Field& out, int axis,
                                            double dt) {
  dispatch<TracerTendencyLaunch>(axis, params_.dynamic_variables(), init, out, flux_,
                                 tracer_factor_, real(params_.geometry.spacing(axis)), real(dt),
                                 params_.tracers(),
                                 owned_cells(decomposition_.local_cells(), ghost_));
}

void WeatherSolver::apply_tendencies(const Field& init, const Field& forcing, const Field& out,
                                     int axis, double dt) {
  const ExactTheta exact{params_.moisture.exact, hy_dens_theta_cell_};
  dispatch<TendencyLaunch>(
      axis, params_.dynamic_variables(), init, forcing, out, flux_, face_pressure_, hy_dens_cell_,
      hy_water_cell_, real(params_.geometry.spacing(axis)), real(dt),
      setup_.kind == Case::gravity_waves, params_.moisture.dynamics, params_.moisture.inertia,
      exact, setup_, local_grid(), owned_cells(decomposition_.local_cells(), ghost_));
}

}  // namespace cb::weather
