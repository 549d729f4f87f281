#include <base/expressions.h>
#include <drivers/slab_study.h>
#include <models/slab/slab_evolution.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace stickslip
{
  namespace
  {
    /** Linear interpolation of a series at time t (t within its range). */
    double
    interpolate(const std::vector<double> &times,
                const std::vector<double> &values,
                const double               t)
    {
      const auto upper = std::lower_bound(times.begin(), times.end(), t);
      if (upper == times.begin())
        return values.front();
      if (upper == times.end())
        return values.back();
      const std::size_t j = upper - times.begin();
      const double      w = (t - times[j - 1]) / (times[j] - times[j - 1]);
      return (1 - w) * values[j - 1] + w * values[j];
    }


  } // namespace



  /** Records the contact node's quantities at every step of a run. */
  class SlabStudy::SeriesObserver : public StepObserver
  {
  public:
    SeriesObserver(const Slab::SlabEvolution &evolution,
                   BoundarySeries            &series,
                   const MPI_Comm             comm)
      : evolution(evolution)
      , series(series)
      , rank0(Utilities::MPI::this_mpi_process(comm) == 0)
    {}

    void
    start(const double t0) override
    {
      record(t0);
    }

    void
    after_step(const TimeStep &step) override
    {
      record(step.next_time);
    }

  private:
    void
    record(const double t)
    {
      if (!rank0)
        return;
      const Slab::BoundaryState &state = evolution.boundary_state();
      series.time.push_back(t);
      series.gap.push_back(state.gap);
      series.pressure.push_back(state.pressure);
      series.slip_1.push_back(state.velocity[0] -
                              evolution.foundation_velocity());
      series.slip_2.push_back(state.velocity[1]);
    }

    const Slab::SlabEvolution &evolution;
    BoundarySeries            &series;
    const bool                 rank0;
  };



  SlabStudy::SlabStudy(const Parameters::Run      &parameters,
                       const Slab::SlabParameters &slab,
                       const ParameterSource      &source,
                       const MPI_Comm              comm,
                       const ConditionalOStream   &pcout,
                       TimerOutput                &timer)
    : parameters(parameters)
    , comm(comm)
    , pcout(pcout)
    , timer(timer)
    , problem(slab, parameters.time, source, comm, pcout)
  {}



  void
  SlabStudy::run(RunDirectory &directory, const bool resume)
  {
    const std::vector<Slab::Discretization> &runs = problem.runs();
    if ((resume || parameters.output.checkpoints_enabled()) && runs.size() > 1)
      throw InputError(std::string(resume ? "--resume" :
                                   parameters.output.checkpoint_interval > 0 ?
                                            "Output/Checkpoint interval" :
                                            "Output/Checkpoint wall interval") +
                       ": snapshots are for single runs; this file asks "
                       "for a refinement study (Slab/Convergence cells)");
    if (!resume)
      directory.start_fresh();
    pcout << "stickslip: " << problem.description() << '\n'
          << "  output: " << directory.file("") << std::endl;

    // Outputs come from the finest run; every run records its boundary
    // series when a refinement study is asked for.
    unsigned int finest = 0;
    for (unsigned int k = 1; k < runs.size(); ++k)
      if (runs[k].n_cells > runs[finest].n_cells)
        finest = k;
    const bool                  study = runs.size() > 1;
    std::vector<BoundarySeries> series(runs.size());
    RunLoop loop(directory, parameters.output, pcout, timer);
    for (unsigned int k = 0; k < runs.size(); ++k)
      {
        Slab::SlabEvolution evolution(problem, runs[k], comm);
        SeriesObserver      observer(evolution, series[k], comm);
        const TimeGrid      grid{problem.initial_time(),
                            runs[k].time_step,
                            runs[k].n_steps};
        if (k == finest)
          loop.run(evolution, grid, study ? &observer : nullptr, resume);
        else
          loop.run_without_outputs(evolution, grid, &observer);
      }
    if (study)
      write_refinement_table(series, directory);
    pcout << "  wrote " << directory.file("history.csv")
          << (study ? ", refinement.csv" : "")
          << (parameters.output.field_output ? ", solution.pvd" : "")
          << std::endl;
  }



  void
  SlabStudy::write_refinement_table(const std::vector<BoundarySeries> &series,
                                    const OutputDirectory &directory) const
  {
    const std::vector<Slab::Discretization> &runs = problem.runs();
    // Differences between successive runs, measured at the time levels
    // of the coarser run (the finer one interpolated linearly in time):
    // max norms as in Renard 2001, Fig. 3, and the L1-in-time norm for the
    // pressure, which jumps at re-contact (doc/theory.md §4.9.2).
    CsvTable table({"n_cells",
                    "dz",
                    "dt",
                    "diff_slip_velocity_max",
                    "diff_slip_velocity_l1",
                    "diff_normal_displacement_max",
                    "diff_pressure_l1",
                    "diff_pressure_max"});
    pcout << "\n  successive differences (run k against run k-1, at the "
             "time levels of run k-1)\n"
          << "  N_z       dt           |dv_s|max    |dv_s|L1     |dw|max      "
             "|dS|L1       |dS|max\n";
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (unsigned int k = 0; k < runs.size(); ++k)
      {
        double dv = nan, dv1 = nan, dw = nan, ds1 = nan, dsmax = nan;
        if (k > 0 && Utilities::MPI::this_mpi_process(comm) == 0)
          {
            const BoundarySeries &coarse = series[k - 1], &fine = series[k];
            dv = dv1 = dw = ds1 = dsmax = 0;
            const double final_t =
              std::min(coarse.time.back(), fine.time.back());
            for (std::size_t j = 0; j < coarse.time.size(); ++j)
              {
                const double t = coarse.time[j];
                if (t > final_t + 1e-12 * final_t)
                  break;
                const double v1 = interpolate(fine.time, fine.slip_1, t);
                const double v2 = interpolate(fine.time, fine.slip_2, t);
                const double dvj =
                  std::hypot(v1 - coarse.slip_1[j], v2 - coarse.slip_2[j]);
                dv = std::max(dv, dvj);
                dw = std::max(dw,
                              std::abs(interpolate(fine.time, fine.gap, t) -
                                       coarse.gap[j]));
                const double ds =
                  std::abs(interpolate(fine.time, fine.pressure, t) -
                           coarse.pressure[j]);
                dsmax = std::max(dsmax, ds);
                if (j > 0)
                  {
                    ds1 += ds * (coarse.time[j] - coarse.time[j - 1]);
                    dv1 += dvj * (coarse.time[j] - coarse.time[j - 1]);
                  }
              }
          }
        table.add_row({double(runs[k].n_cells),
                       problem.parameters().height / runs[k].n_cells,
                       runs[k].time_step,
                       dv,
                       dv1,
                       dw,
                       ds1,
                       dsmax});
        char line[200];
        std::snprintf(
          line,
          sizeof(line),
          "  %-8u  %-11.4e  %-11.4e  %-11.4e  %-11.4e  %-11.4e  %-11.4e",
          runs[k].n_cells,
          runs[k].time_step,
          dv,
          dv1,
          dw,
          ds1,
          dsmax);
        pcout << line << '\n';
      }
    pcout << std::endl;
    directory.write_atomically("refinement.csv", table.to_string());
  }



  ModelEntry
  slab_model()
  {
    ModelEntry entry;
    entry.name               = "slab";
    entry.description        = "Renard's elastic slab, Renard 2001";
    entry.declare_parameters = &Slab::SlabParameters::declare_parameters;
    entry.subsections        = {"Slab"};
    entry.own_time_scheme    = "integrates in time by its own scheme (the "
                               "characteristics of Renard 2001)";
    // Time/Time step's default (1e-3 s) is far above the stability bound
    // of any slab (dz/c2, about 1e-7 s): a file that leaves the step to the
    // slab (its template among them) runs at CFL number 1.
    entry.chosen_entries = {"Slab/CFL number"};
    entry.chosen_how     = "1, dt = dz/c2, the exact transport of the "
                           "characteristics (Renard 2001, §7.1), stable on "
                           "every grid; set 0 to take Time/Time step";
    entry.apply_defaults = [](ParameterHandler      &prm,
                              const ParameterSource &source) {
      if (source.is_set("Slab/CFL number"))
        return;
      prm.enter_subsection("Slab");
      prm.set("CFL number", "1");
      prm.leave_subsection();
    };
    entry.make_study = [](const ModelEntry::StudyInputs &in) {
      Slab::SlabParameters slab;
      slab.parse(in.prm, in.source);
      if (slab.cfl_number == 0) // else the slab chooses its own step
        in.pcout << in.parameters.output.check_intervals(
          in.parameters.time.time_step, "Time/Time step", true, in.source);
      return std::unique_ptr<Study>(std::make_unique<SlabStudy>(
        in.parameters, slab, in.source, in.comm, in.pcout, in.timer));
    };
    return entry;
  }
} // namespace stickslip
