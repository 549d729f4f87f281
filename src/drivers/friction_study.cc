#include <base/expressions.h>
#include <base/local_values.h>
#include <drivers/friction_study.h>
#include <models/chain/chain_model.h>
#include <models/chain/chain_parameters.h>
#include <models/common/friction_evolution.h>
#include <models/gearbox/gearbox_model.h>
#include <models/gearbox/gearbox_parameters.h>
#include <models/ode/ode_model.h>
#include <models/ode/ode_parameters.h>
#include <models/string/string_model.h>
#include <models/string/string_parameters.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace stickslip
{
  namespace
  {
    const double not_measured = std::numeric_limits<double>::quiet_NaN();

    double
    observed_order(const double e_coarse,
                   const double e_fine,
                   const double dt_coarse,
                   const double dt_fine)
    {
      if (!(e_coarse > 0) || !(e_fine > 0))
        return not_measured;
      return std::log(e_coarse / e_fine) / std::log(dt_coarse / dt_fine);
    }

    /** Least-squares slope of log e against log dt. */
    double
    fitted_slope(const std::vector<double> &dt, const std::vector<double> &e)
    {
      double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
      for (unsigned int i = 0; i < dt.size(); ++i)
        if (e[i] > 0)
          {
            const double x = std::log(dt[i]), y = std::log(e[i]);
            n += 1;
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
          }
      if (n < 2)
        return not_measured;
      return (n * sxy - sx * sy) / (n * sxx - sx * sx);
    }
  } // namespace



  /**
   * The errors of a run against a reference solution, accumulated step by
   * step: discrete L2 in time and max norms of x and v (weighted by the
   * model's nodal weights for field models), and the L2 norm of the
   * step-averaged multiplier.
   */
  class FrictionStudy::ErrorObserver : public StepObserver
  {
  public:
    ErrorObserver(const FrictionEvolution &evolution,
                  const ReferenceSolution &reference,
                  const Model             &model)
      : evolution(evolution)
      , reference(reference)
      , model(model)
      , exact_x(model.system().locally_owned, model.system().comm)
      , exact_v(model.system().locally_owned, model.system().comm)
      , sum_x(0)
      , sum_v(0)
      , max_x(0)
      , max_v(0)
      , local_sum_lambda(0)
      , sum_lambda_total(0)
    {}

    void
    after_step(const TimeStep &step) override
    {
      const FrictionState &state = evolution.state();
      reference.values(step.next_time, exact_x, exact_v);
      exact_x -= state.displacement;
      exact_v -= state.velocity;
      const double ex2 = norm_squared(exact_x);
      const double ev2 = norm_squared(exact_v);
      sum_x += step.size * ex2;
      sum_v += step.size * ev2;
      max_x = std::max(max_x, std::sqrt(ex2));
      max_v = std::max(max_v, std::sqrt(ev2));
      if (reference.has_multiplier())
        local_sum_lambda +=
          reference.multiplier_error_squared(step.time,
                                             step.next_time,
                                             state.multiplier);
    }

    void
    register_state(CheckpointArchive &archive) override
    {
      for (double *x : {&sum_x, &sum_v, &max_x, &max_v, &sum_lambda_total})
        archive.add(*x);
      // The rank-local multiplier sum travels as its total, held by rank 0.
      const MPI_Comm comm = model.system().comm;
      archive.before_write.push_back([this, comm]() {
        sum_lambda_total = Utilities::MPI::sum(local_sum_lambda, comm);
      });
      archive.after_read.push_back([this, comm]() {
        local_sum_lambda =
          Utilities::MPI::this_mpi_process(comm) == 0 ? sum_lambda_total : 0.;
      });
    }

    StepSizeErrors
    errors(const double dt) const
    {
      return {dt,
              std::sqrt(sum_x),
              std::sqrt(sum_v),
              reference.has_multiplier() ?
                std::sqrt(
                  Utilities::MPI::sum(local_sum_lambda, model.system().comm)) :
                not_measured,
              max_x,
              max_v};
    }

  private:
    /** Squared norm of @p error: Euclidean, or weighted by the model. */
    double
    norm_squared(const DistributedVector &error) const
    {
      const DistributedVector *weights = model.error_weights();
      if (weights == nullptr)
        return error.norm_sqr();
      ConstLocalValues e(error);
      ConstLocalValues w(*weights);
      double           sum = 0;
      for (std::size_t k = 0; k < e.size(); ++k)
        sum += w[k] * e[k] * e[k];
      return Utilities::MPI::sum(sum, model.system().comm);
    }

    const FrictionEvolution &evolution;
    const ReferenceSolution &reference;
    const Model             &model;
    DistributedVector        exact_x, exact_v;
    double                   sum_x, sum_v, max_x, max_v;
    double                   local_sum_lambda, sum_lambda_total;
  };



  /** Records a fine reference run at every step (RecordedReference). */
  class FrictionStudy::RecordingObserver : public StepObserver
  {
  public:
    RecordingObserver(const FrictionEvolution &evolution,
                      RecordedReference       &recording)
      : evolution(evolution)
      , recording(recording)
    {}

    void
    start(const double) override
    {
      record();
    }

    void
    after_step(const TimeStep &) override
    {
      record();
    }

  private:
    void
    record()
    {
      const FrictionState &state = evolution.state();
      recording.record(state.displacement, state.velocity, state.multiplier);
    }

    const FrictionEvolution &evolution;
    RecordedReference       &recording;
  };



  FrictionStudy::FrictionStudy(const Parameters::Run    &parameters,
                               std::unique_ptr<Model>    model,
                               const ParameterSource    &source,
                               const ConditionalOStream &pcout,
                               TimerOutput              &timer)
    : parameters(parameters)
    , friction_model(std::move(model))
    , source(source)
    , pcout(pcout)
    , timer(timer)
    , time_steps(parameters.time.time_steps())
  {
    const FrictionSystem &system = friction_model->system();
    const InclusionForm  *form   = friction_model->inclusion_form();
    for (const double dt : time_steps)
      integrators.push_back(
        create_time_integrator(parameters, system, source, dt, form));
    const double reference_dt = parameters.time.reference_time_step;
    if (reference_dt > 0)
      {
        parameters.time.n_steps(reference_dt, source);
        reference_integrator = create_time_integrator(
          parameters, system, source, reference_dt, form);
      }
  }



  FrictionStudy::~FrictionStudy() = default;



  Model &
  FrictionStudy::model()
  {
    return *friction_model;
  }



  void
  FrictionStudy::check_snapshots_allowed(const bool resume) const
  {
    if (!parameters.output.checkpoints_enabled() && !resume)
      return;
    const std::string what = resume ? "--resume" :
                             parameters.output.checkpoint_interval > 0 ?
                                      "Output/Checkpoint interval" :
                                      "Output/Checkpoint wall interval";
    if (time_steps.size() > 1 || parameters.time.reference_time_step > 0)
      throw InputError(what + ": snapshots are for single runs; this "
                              "one is a convergence study (Time/"
                              "Convergence time steps or Reference time "
                              "step)");
    if (!integrators.front()->supports_checkpoints())
      throw InputError(what + ": the scheme '" +
                       integrators.front()->description() +
                       "' keeps an adaptive state that cannot be "
                       "restored exactly; use lie, strang or centered");
  }



  FrictionStudy::StepSizeErrors
  FrictionStudy::run_step_size(RunLoop                 &loop,
                               const unsigned int       i,
                               const bool               with_outputs,
                               const bool               resume,
                               const ReferenceSolution *reference)
  {
    const double                   dt   = time_steps[i];
    const TimeGrid                 grid = parameters.time.grid(dt, source);
    FrictionEvolution              evolution(*friction_model, *integrators[i]);
    std::unique_ptr<ErrorObserver> errors;
    if (reference != nullptr)
      errors =
        std::make_unique<ErrorObserver>(evolution, *reference, *friction_model);
    if (with_outputs)
      loop.run(evolution, grid, errors.get(), resume);
    else
      loop.run_without_outputs(evolution, grid, errors.get());
    if (errors == nullptr)
      return {dt,
              not_measured,
              not_measured,
              not_measured,
              not_measured,
              not_measured};
    return errors->errors(dt);
  }



  void
  FrictionStudy::run_reference(RunLoop &loop)
  {
    const double dt = parameters.time.reference_time_step;
    pcout << "  reference run:" << std::endl;
    auto recording =
      std::make_unique<RecordedReference>(parameters.time.initial_time, dt);
    FrictionEvolution evolution(*friction_model, *reference_integrator);
    RecordingObserver observer(evolution, *recording);
    loop.run_without_outputs(evolution,
                             parameters.time.grid(dt, source),
                             &observer);
    recorded_reference = std::move(recording);
  }



  void
  FrictionStudy::run(RunDirectory &directory, const bool resume)
  {
    check_snapshots_allowed(resume);
    if (!resume)
      directory.start_fresh();
    pcout << "stickslip: " << friction_model->description() << '\n'
          << "  scheme: " << integrators.front()->description() << '\n'
          << "  output: " << directory.file("") << std::endl;

    RunLoop                  loop(directory, parameters.output, pcout, timer);
    const ReferenceSolution *reference = friction_model->exact_reference();
    if (reference_integrator != nullptr)
      {
        run_reference(loop);
        reference = recorded_reference.get();
      }
    // history.csv and the fields come from the smallest time step.
    unsigned int finest = 0;
    for (unsigned int i = 1; i < time_steps.size(); ++i)
      if (time_steps[i] < time_steps[finest])
        finest = i;
    std::vector<StepSizeErrors> errors;
    for (unsigned int i = 0; i < time_steps.size(); ++i)
      errors.push_back(run_step_size(loop, i, i == finest, resume, reference));

    if (reference != nullptr)
      report_errors(errors, directory);
    pcout << "  wrote " << directory.file("history.csv")
          << (reference != nullptr ? ", errors.csv" : "")
          << (friction_model->has_field_output() &&
                  parameters.output.field_output ?
                ", solution.pvd" :
                "")
          << std::endl;
  }



  void
  FrictionStudy::run_once(RunDirectory &directory)
  {
    Parameters::Output output       = parameters.output;
    output.checkpoint_interval      = 0;
    output.checkpoint_wall_interval = 0;
    RunLoop           loop(directory, output, pcout, timer);
    const double      dt = parameters.time.time_step;
    FrictionEvolution evolution(*friction_model, *integrators.front());
    loop.run(evolution, parameters.time.grid(dt, source), nullptr, false);
    pcout << "  wrote " << directory.file("history.csv") << std::endl;
  }



  void
  FrictionStudy::report_errors(const std::vector<StepSizeErrors> &errors,
                               const OutputDirectory &directory) const
  {
    CsvTable table({"dt",
                    "error_x",
                    "error_v",
                    "error_lambda",
                    "max_error_x",
                    "max_error_v",
                    "order_x",
                    "order_v",
                    "order_lambda"});
    pcout << "\n  errors (discrete L2 in time; lambda: L2 of the step-averaged "
             "multiplier)\n"
          << "  dt          error_x     error_v     error_lambda  order_x  "
             "order_v  order_lambda\n";
    std::vector<double> dts, ex, ev, el;
    for (unsigned int i = 0; i < errors.size(); ++i)
      {
        const StepSizeErrors &e = errors[i];
        double ox = not_measured, ov = not_measured, ol = not_measured;
        if (i > 0)
          {
            const StepSizeErrors &p = errors[i - 1];
            ox =
              observed_order(p.displacement_l2, e.displacement_l2, p.dt, e.dt);
            ov = observed_order(p.velocity_l2, e.velocity_l2, p.dt, e.dt);
            ol = observed_order(p.multiplier_l2, e.multiplier_l2, p.dt, e.dt);
          }
        table.add_row({e.dt,
                       e.displacement_l2,
                       e.velocity_l2,
                       e.multiplier_l2,
                       e.displacement_max,
                       e.velocity_max,
                       ox,
                       ov,
                       ol});
        char line[200];
        std::snprintf(
          line,
          sizeof(line),
          "  %-10.4g  %-10.4e  %-10.4e  %-12.4e  %7.3f  %7.3f  %7.3f",
          e.dt,
          e.displacement_l2,
          e.velocity_l2,
          e.multiplier_l2,
          ox,
          ov,
          ol);
        pcout << line << '\n';
        dts.push_back(e.dt);
        ex.push_back(e.displacement_l2);
        ev.push_back(e.velocity_l2);
        el.push_back(e.multiplier_l2);
      }
    if (errors.size() > 1)
      {
        char line[200];
        std::snprintf(line,
                      sizeof(line),
                      "  least-squares slopes: x %.3f, v %.3f, lambda %.3f",
                      fitted_slope(dts, ex),
                      fitted_slope(dts, ev),
                      fitted_slope(dts, el));
        pcout << line << '\n';
      }
    pcout << std::endl;
    directory.write_atomically("errors.csv", table.to_string());
  }



  std::unique_ptr<Model>
  make_checked_model(const ModelEntry::ModelFactory &make_model,
                     const Parameters::Run          &parameters,
                     ParameterHandler               &prm,
                     const ParameterSource          &source,
                     const MPI_Comm                  comm)
  {
    parameters.time.check_steps(source);
    std::unique_ptr<Model> model = make_model(parameters, prm, source, comm);
    model->system().check_initial_data(parameters.time.initial_time);
    return model;
  }



  void
  check_output_intervals(const Parameters::Run    &parameters,
                         const ParameterSource    &source,
                         const ConditionalOStream &pcout,
                         const bool                checkpoints)
  {
    for (const double dt : parameters.time.time_steps())
      pcout << parameters.output.check_intervals(
        dt,
        parameters.time.convergence_time_steps.empty() ?
          "Time/Time step" :
          "Time/Convergence time steps",
        checkpoints,
        source);
  }



  namespace
  {
    /**
     * The entry of a friction-system model made by @p make_model: it reads
     * the numerics' subsections and runs as a FrictionStudy; @p controlled:
     * it reads Control too (a ControlDriver's models).
     */
    ModelEntry
    friction_model(ModelEntry                     entry,
                   const ModelEntry::ModelFactory make_model,
                   const bool                     controlled)
    {
      entry.subsections.insert(
        entry.subsections.end(),
        {"Splitting", "Friction", "Centered scheme", "Linear solver"});
      entry.make_study = [make_model](const ModelEntry::StudyInputs &in) {
        const Parameters::Run &parameters = in.parameters;
        auto                   study =
          std::make_unique<FrictionStudy>(parameters,
                                          make_checked_model(make_model,
                                                             parameters,
                                                             in.prm,
                                                             in.source,
                                                             in.comm),
                                          in.source,
                                          in.pcout,
                                          in.timer);
        check_output_intervals(parameters, in.source, in.pcout, true);
        return std::unique_ptr<Study>(std::move(study));
      };
      if (controlled)
        entry.make_controlled_model = make_model;
      return entry;
    }



    /**
     * The factory of a finite-dof model @p ModelType built from its
     * parsed @p ParametersType, the source and the communicator.
     */
    template <typename ModelType, typename ParametersType>
    ModelEntry::ModelFactory
    finite_dof_factory()
    {
      return [](const Parameters::Run &,
                ParameterHandler      &prm,
                const ParameterSource &source,
                const MPI_Comm         comm) -> std::unique_ptr<Model> {
        ParametersType parameters;
        parameters.parse(prm, source);
        return std::make_unique<ModelType>(parameters, source, comm);
      };
    }



    /**
     * Set the entry @p path ("Sub/Name") of @p prm to @p value unless the
     * file or the command line set it.
     */
    void
    set_unless_given(ParameterHandler      &prm,
                     const ParameterSource &source,
                     const std::string     &path,
                     const std::string     &value)
    {
      if (source.is_set(path))
        return;
      const auto slash = path.find('/');
      prm.enter_subsection(path.substr(0, slash));
      prm.set(path.substr(slash + 1), value);
      prm.leave_subsection();
    }
  } // namespace



  ModelEntry
  ode_model()
  {
    ModelEntry entry;
    entry.name        = "ode";
    entry.description = "finite-dof friction system written in the parameter "
                        "file, Glowinski et al. 2006, 2005";
    entry.declare_parameters = &OdeParameters::declare_parameters;
    entry.subsections        = {"ODE", "Control"};
    return friction_model(entry,
                          finite_dof_factory<OdeModel, OdeParameters>(),
                          true);
  }



  ModelEntry
  gearbox_model()
  {
    ModelEntry entry;
    entry.name = "gearbox";
    entry.description =
      "gear box efficiency problem, Glowinski et al. 2006, eq. (54)";
    entry.declare_parameters = &GearboxParameters::declare_parameters;
    entry.subsections        = {"Gear box", "Control"};
    return friction_model(entry,
                          finite_dof_factory<GearboxModel, GearboxParameters>(),
                          true);
  }



  ModelEntry
  string_model()
  {
    // A diagonal mass matrix makes the explicit elastic step (alpha = 0)
    // and the closed-form friction step exact and cheapest: what every
    // lumped string and membrane example uses (prm/string.prm).
    static const std::vector<std::pair<std::string, std::string>> lumped = {
      {"Splitting/Friction substeps", "1"},
      {"Splitting/Elastic substeps", "1"},
      {"Splitting/Elastic implicitness", "0"},
      {"Friction/Solver", "closed form"}};
    ModelEntry entry;
    entry.name               = "string";
    entry.description        = "frictional wave string, dim 1, or membrane, "
                               "dim 2; Glowinski et al. 2006, eq. (23)";
    entry.dimensions         = {1, 2};
    entry.dimensions_meaning = "1 (string) or 2 (membrane)";
    entry.declare_parameters = &StringParameters::declare_parameters;
    entry.subsections        = {"String"};
    for (const auto &[path, value] : lumped)
      entry.chosen_entries.push_back(path);
    entry.chosen_how =
      "with String/Mass = lumped, 1, 1, 0 and closed form: the explicit "
      "scheme of every lumped string and membrane example; else the "
      "defaults of Splitting and Friction";
    entry.apply_defaults = [](ParameterHandler      &prm,
                              const ParameterSource &source) {
      prm.enter_subsection("String");
      const bool is_lumped = prm.get("Mass") == "lumped";
      prm.leave_subsection();
      if (is_lumped)
        for (const auto &[path, value] : lumped)
          set_unless_given(prm, source, path, value);
    };
    return friction_model(
      entry,
      [](const Parameters::Run &parameters,
         ParameterHandler      &prm,
         const ParameterSource &source,
         const MPI_Comm         comm) -> std::unique_ptr<Model> {
        StringParameters string;
        string.parse(prm, source, parameters.dimension);
        if (parameters.dimension == 1)
          return std::make_unique<StringModel<1>>(string,
                                                  parameters.time,
                                                  source,
                                                  comm);
        return std::make_unique<StringModel<2>>(string,
                                                parameters.time,
                                                source,
                                                comm);
      },
      false);
  }



  ModelEntry
  chain_model()
  {
    ModelEntry entry;
    entry.name               = "chain";
    entry.description        = "masses, springs and St-Venant elements, "
                               "Bastien & Lamarque 2009";
    entry.declare_parameters = &ChainParameters::declare_parameters;
    entry.subsections        = {"Chain"};
    return friction_model(
      entry,
      [](const Parameters::Run &parameters,
         ParameterHandler      &prm,
         const ParameterSource &source,
         const MPI_Comm         comm) -> std::unique_ptr<Model> {
        ChainParameters chain;
        chain.parse(prm, source);
        return std::make_unique<ChainModel>(chain,
                                            parameters.time,
                                            source,
                                            comm);
      },
      false);
  }
} // namespace stickslip
