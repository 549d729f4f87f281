#include <base/local_values.h>
#include <models/chain/chain_inclusion.h>
#include <models/chain/static_increment_solver.h>

#include <cmath>

namespace stickslip
{
  /** The work vectors and the static solver of one implicit Euler run. */
  class ChainInclusion::ChainStepper : public InclusionForm::Stepper
  {
  public:
    ChainStepper(const ChainInclusion &form, const Parameters::Numerics &run)
      : form(form)
      , owned(form.thresholds.locally_owned_elements())
      , comm(form.thresholds.get_mpi_communicator())
      , is_static(owned.n_elements())
      , inverse_mass(owned.n_elements())
      , load_now(owned, comm)
      , load_next(owned, comm)
      , elastic_force(owned, comm)
      , right_hand_side(owned, comm)
      , increment(owned, comm)
      , n_massive(0)
      , n_static(0)
    {
      for (std::size_t k = 0; k < is_static.size(); ++k)
        {
          is_static[k] = form.data.masses[k] > 0 ? 0 : 1;
          (is_static[k] ? n_static : n_massive) += 1;
          inverse_mass[k] = is_static[k] ? 0. : 1. / form.data.masses[k];
        }
      n_static  = Utilities::MPI::sum(n_static, comm);
      n_massive = Utilities::MPI::sum(n_massive, comm);
      if (n_static > 0)
        solver =
          std::make_unique<StaticIncrementSolver>(form.stiffness,
                                                  form.diagonal,
                                                  form.upper,
                                                  form.thresholds,
                                                  is_static,
                                                  run.linear_solver.tolerance,
                                                  run.friction.max_iterations);
    }

    InclusionForm::StepWork
    step(const TimeStep &time_step, FrictionState &state) override
    {
      const double            t = time_step.time, h = time_step.size;
      InclusionForm::StepWork work{0, 0.};
      // K V^n, the elastic force of every row at t_n.
      form.stiffness.vmult(elastic_force, state.displacement);

      if (n_massive > 0)
        {
          // Case 1: V^{n+1} = V^n + h V'^n, V'^{n+1} = S_{h alpha/m}(Z),
          // Z = V'^n + h (F(t_n) - K V^n)/m (doc/theory.md §5.6).
          form.load(t, load_now);
          ConstLocalValues    f(load_now);
          ConstLocalValues    kv(elastic_force);
          LocalValues         x(state.displacement);
          LocalValues         v(state.velocity);
          LocalValues         lambda(state.multiplier);
          LocalValues         stick(state.stick);
          const double *const alphas = form.data.thresholds.data();
          for (std::size_t k = 0; k < is_static.size(); ++k)
            if (!is_static[k])
              {
                const double alpha = alphas[k];
                const double z = v[k] + h * (f[k] - kv[k]) * inverse_mass[k];
                x[k] += h * v[k];
                const double threshold = h * alpha * inverse_mass[k];
                const double v_new =
                  std::copysign(std::max(std::abs(z) - threshold, 0.), z);
                v[k] = v_new;
                lambda[k] =
                  alpha > 0 ?
                    std::min(1., std::max(-1., (z - v_new) / threshold)) :
                    0.;
                stick[k] = (alpha > 0 && v_new == 0.) ? 1. : 0.;
                work.local_dissipation += h * alpha * std::abs(v_new);
              }
        }

      if (n_static > 0)
        {
          // Case 2: the elastic predictor with the massless rows frozen and
          // the massive ones moved, z = K V~ - F(t_{n+1}) (with the load
          // increment in place of h F'(t_n), doc/theory.md §6.2), projected on
          // C in the metric of K^{-1}: K dV + alpha lambda = -z.
          form.load(time_step.next_time, load_next);
          if (n_massive > 0)
            form.stiffness.vmult(elastic_force, state.displacement);
          {
            ConstLocalValues f(load_next);
            ConstLocalValues kv(elastic_force);
            LocalValues      b(right_hand_side);
            for (std::size_t k = 0; k < is_static.size(); ++k)
              b[k] = is_static[k] ? f[k] - kv[k] : 0.;
          }
          work.iterations +=
            solver->solve(right_hand_side, increment, state.multiplier);
          ConstLocalValues dv(increment);
          LocalValues      x(state.displacement);
          LocalValues      v(state.velocity);
          LocalValues      stick(state.stick);
          for (std::size_t k = 0; k < is_static.size(); ++k)
            if (is_static[k])
              {
                const double alpha = form.data.thresholds[k];
                x[k] += dv[k];
                v[k]     = dv[k] / h;
                stick[k] = (alpha > 0 && dv[k] == 0.) ? 1. : 0.;
                work.local_dissipation += alpha * std::abs(dv[k]);
              }
        }
      return work;
    }

  private:
    const ChainInclusion      &form;
    const IndexSet             owned;
    const MPI_Comm             comm;
    std::vector<unsigned char> is_static;
    std::vector<double>        inverse_mass;
    DistributedVector load_now, load_next, elastic_force, right_hand_side,
      increment;
    unsigned long                          n_massive, n_static;
    std::unique_ptr<StaticIncrementSolver> solver;
  };



  ChainInclusion::ChainInclusion(const ChainData           &data,
                                 const DistributedMatrix   &stiffness,
                                 const std::vector<double> &diagonal,
                                 const std::vector<double> &upper,
                                 const DistributedVector   &thresholds,
                                 const LoadFunction        &load)
    : data(data)
    , stiffness(stiffness)
    , diagonal(diagonal)
    , upper(upper)
    , thresholds(thresholds)
    , load(load)
  {}



  std::unique_ptr<InclusionForm::Stepper>
  ChainInclusion::create_stepper(const Parameters::Numerics &run,
                                 const ParameterSource &,
                                 const double) const
  {
    return std::make_unique<ChainStepper>(*this, run);
  }



  std::string
  ChainInclusion::description() const
  {
    switch (data.regime)
      {
        case ChainRegime::dynamical:
          return "dynamical chain, M = diag(I, 1/m) diagonal: explicit "
                 "step with a soft threshold per mass";
        case ChainRegime::semi_dynamical:
          return "semi-dynamical chain, minimization (5.3): soft threshold "
                 "for m_n, K^{-1}-metric box projection (active set, "
                 "tridiagonal block-Jacobi CG) for the massless masses";
        case ChainRegime::quasistatic:
          break;
      }
    return "quasistatic chain, M = K: projection onto the box C in the "
           "K^{-1} metric (active set on the incremental problem, "
           "tridiagonal block-Jacobi CG)";
  }
} // namespace stickslip
