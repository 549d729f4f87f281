#include <deal.II/base/data_out_base.h>

#include <base/checkpoint.h>
#include <base/expressions.h>
#include <base/progress.h>
#include <base/signals.h>
#include <base/time_grid.h>
#include <models/slab/slab_output.h>
#include <models/slab/slab_simulation.h>

#include <muParser.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace stickslip
{
  namespace Slab
  {
    namespace
    {
      /**
       * Three muParser expressions of z (u^0 or u^1), checked with an
       * InputError naming @p path. Derivatives (u^0_,3) are taken by
       * fourth-order central differences with step 1e-3 H (relative error
       * about 1e-12 for data varying on the scale H).
       */
      std::unique_ptr<FunctionParser<1>>
      parse_profile(const std::string &    text,
                    const std::string &    path,
                    const double           height,
                    const ParameterSource &source)
      {
        const std::vector<std::string> pieces = split_and_trim(text, ';');
        if (pieces.size() != 3)
          throw_bad_parameter(source,
                              path,
                              text,
                              "three expressions of z separated by ';' (one "
                              "per displacement component), found " +
                                std::to_string(pieces.size()));
        for (const std::string &piece : pieces)
          try
            {
              mu::Parser check;
              double     z = 0;
              check.DefineVar("z", &z);
              for (const auto &constant : expression_constants())
                check.DefineConst(constant.first, constant.second);
              check.SetExpr(piece);
              check.Eval();
            }
          catch (mu::Parser::exception_type &e)
            {
              throw_bad_parameter(source,
                                  path,
                                  text,
                                  "'" + piece +
                                    "' is not a valid muParser expression of "
                                    "z: " + e.GetMsg());
            }
        auto function =
          std::make_unique<FunctionParser<1>>(3, 0., 1e-3 * height);
        function->initialize("z", pieces, expression_constants(), false);
        function->set_formula(AutoDerivativeFunction<1>::FourthOrder);
        return function;
      }



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


      /**
       * Restore the field-output list and the history rows from a
       * snapshot's meta text, after checking that the snapshot is of this
       * discretization.
       */
      void
      restore_meta(const std::string &                          meta,
                   const double                                 time_step,
                   const unsigned int                           n_cells,
                   std::vector<std::pair<double, std::string>> &pvd,
                   CsvTable &                                   history)
      {
        std::istringstream in(meta);
        std::string        word;
        while (in >> word && word != "dt")
          {
          }
        double       saved_dt    = 0;
        unsigned int saved_cells = 0;
        in >> saved_dt >> word >> saved_cells;
        if (std::abs(saved_dt - time_step) > 1e-12 * time_step ||
            saved_cells != n_cells)
          throw InputError("the snapshot was written with N_z = " +
                           std::to_string(saved_cells) + " and dt = " +
                           format_number(saved_dt) + ", this run has N_z = " +
                           std::to_string(n_cells) + " and dt = " +
                           format_number(time_step) +
                           ": resume with the same 'Slab/Number of cells', "
                           "'Slab/CFL number' and 'Time/Time step'");
        read_outputs_and_history(in, pvd, history);
      }
    } // namespace



    void
    SlabSimulation::declare_parameters(ParameterHandler &prm)
    {
      Slab::Parameters::declare_parameters(prm);
    }



    SlabSimulation::SlabSimulation(ParameterHandler &        prm,
                                   const ParameterSource &   source,
                                   const MPI_Comm            comm,
                                   const ConditionalOStream &pcout)
      : prm(prm)
      , source(source)
      , comm(comm)
      , pcout(pcout)
      , output("", false, comm)
    {
      parameters.parse(prm, source);
      output_parameters.parse(prm, source);
      output = OutputDirectory(output_parameters.directory,
                               output_parameters.overwrite,
                               comm);

      prm.enter_subsection("Time");
      initial_time = prm.get_double("Initial time");
      final_time   = prm.get_double("Final time");
      time_step    = prm.get_double("Time step");
      const std::string list = prm.get("Convergence time steps");
      prm.leave_subsection();
      if (!(final_time > initial_time))
        throw_bad_parameter(source,
                            "Time/Final time",
                            format_number(final_time),
                            "it must be larger than Time/Initial time = " +
                              format_number(initial_time));
      if (!is_blank(list))
        throw_bad_parameter(source,
                            "Time/Convergence time steps",
                            list,
                            "the slab refines at constant dt/dz: leave it "
                            "empty and list the grids in Slab/Convergence "
                            "cells (with Slab/CFL number)");
      if (parameters.cfl_number == 0 && !(time_step > 0))
        throw_bad_parameter(source,
                            "Time/Time step",
                            format_number(time_step),
                            "the time step must be positive (or set Slab/CFL "
                            "number > 0)");

      displacement_function = parse_profile(parameters.initial_displacement,
                                            "Slab/Initial displacement",
                                            parameters.height,
                                            source);
      velocity_function     = parse_profile(parameters.initial_velocity,
                                        "Slab/Initial velocity",
                                        parameters.height,
                                        source);
      check_initial_data();

      const std::vector<unsigned int> cells =
        parameters.convergence_cells.empty() ?
          std::vector<unsigned int>{parameters.n_cells} :
          parameters.convergence_cells;
      for (const unsigned int n : cells)
        runs.push_back(discretization(n));
    }



    SlabSimulation::Discretization
    SlabSimulation::discretization(const unsigned int n_cells) const
    {
      const std::string cells_path = parameters.convergence_cells.empty() ?
                                       "Slab/Number of cells" :
                                       "Slab/Convergence cells";
      const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
      if (n_cells + 1 < 2 * n_ranks)
        throw_bad_parameter(source,
                            cells_path,
                            std::to_string(n_cells),
                            "every one of the " + std::to_string(n_ranks) +
                              " MPI ranks needs at least two of the N_z + 1 "
                              "nodes: N_z >= " +
                              std::to_string(2 * n_ranks - 1));
      Discretization d;
      d.n_cells       = n_cells;
      const double dz = parameters.height / n_cells;
      const double c2 = parameters.c2();
      if (parameters.cfl_number > 0)
        {
          // dt from the CFL number; the final time is rounded up to a whole
          // number of steps so that d2 is exactly the requested number.
          d.time_step = parameters.cfl_number * dz / c2;
          d.n_steps   = static_cast<unsigned int>(
            std::ceil((final_time - initial_time) / d.time_step - 1e-9));
        }
      else
        {
          stickslip::Parameters::Time time;
          time.initial_time = initial_time;
          time.final_time   = final_time;
          time.time_step    = time_step;
          d.time_step       = time_step;
          d.n_steps         = time.n_steps(time_step, source);
          const double d2   = c2 * time_step / dz;
          if (d2 > 1 + 1e-12)
            throw_bad_parameter(
              source,
              "Time/Time step",
              format_number(time_step),
              "the CFL condition d2 = c2 dt/dz <= 1 of the slab scheme "
              "(seed 003 §6.2, Props. 4-7) is violated: c2 = " +
                format_number(c2) + " m/s, dz = H/N_z = " + format_number(dz) +
                " m give d2 = " + format_number(d2) +
                ". Choose dt <= dz/c2 = " + format_number(dz / c2) +
                " s, fewer cells, or set Slab/CFL number");
        }
      return d;
    }



    double
    SlabSimulation::initial_displacement(const double       z,
                                         const unsigned int k) const
    {
      return displacement_function->value(Point<1>(z), k);
    }



    double
    SlabSimulation::initial_gradient(const double z, const unsigned int k) const
    {
      return displacement_function->gradient(Point<1>(z), k)[0];
    }



    double
    SlabSimulation::initial_velocity(const double z, const unsigned int k) const
    {
      return velocity_function->value(Point<1>(z), k);
    }



    void
    SlabSimulation::check_initial_data()
    {
      const double H = parameters.height, D = parameters.compression;
      // Tolerances relative to the size of the data (sampled on 101 points).
      double u_scale = D, v_scale = 0;
      for (unsigned int j = 0; j <= 100; ++j)
        for (unsigned int k = 0; k < 3; ++k)
          {
            u_scale = std::max(u_scale, std::abs(initial_displacement(j * H / 100, k)));
            v_scale = std::max(v_scale, std::abs(initial_velocity(j * H / 100, k)));
          }
      const double u_tolerance = 1e-9 * u_scale + 1e-300;
      const double v_tolerance = 1e-9 * v_scale + 1e-300;
      // A gap of round-off size (e.g. exp(-64) from a bump's tail) is
      // contact: an open gap would make the boundary free at t0.
      gap_tolerance = u_tolerance;
      const std::array<double, 3> top = {{0, 0, -D}};
      for (unsigned int k = 0; k < 3; ++k)
        {
          if (std::abs(initial_displacement(H, k) - top[k]) > u_tolerance)
            throw_bad_parameter(
              source,
              "Slab/Initial displacement",
              parameters.initial_displacement,
              "the initial displacement must match the top condition (12): "
              "u^0(H) = (0, 0, -D) with D = Slab/Compression = " +
                format_number(D) + ", but component " + std::to_string(k + 1) +
                " is " + format_number(initial_displacement(H, k)));
          if (std::abs(initial_velocity(H, k)) > v_tolerance)
            throw_bad_parameter(source,
                                "Slab/Initial velocity",
                                parameters.initial_velocity,
                                "the top is fixed: u^1(H) = 0, but component " +
                                  std::to_string(k + 1) + " is " +
                                  format_number(initial_velocity(H, k)));
        }
      const double gap = initial_displacement(0, 2);
      if (gap < -u_tolerance)
        throw_bad_parameter(
          source,
          "Slab/Initial displacement",
          parameters.initial_displacement,
          "inconsistent initial data at the contact: u^0_3(0) = " +
            format_number(gap) +
            " < 0 means the slab starts inside the foundation (seed 003 (3) "
            "needs u_3(t, 0) >= 0)");
      // Stress at an open gap or tension in contact is not an equilibrium
      // of the contact law; the first step projects it (a warning only).
      const double stress = (parameters.lambda + 2 * parameters.shear_modulus) *
                            initial_gradient(0, 2);
      const double stress_scale =
        (parameters.lambda + 2 * parameters.shear_modulus) * u_scale / H;
      if (std::abs(stress) > 1e-6 * stress_scale &&
          (gap > u_tolerance || stress > 0))
        pcout << "  warning: initial data inconsistent with the contact "
                 "condition at z = 0 (u^0_3(0) = "
              << gap << ", normal stress (lambda+2G) u^0_3,3(0) = " << stress
              << " Pa); the first time step projects them onto the contact "
                 "law (Slab/Initial displacement)."
              << std::endl;
    }



    void
    SlabSimulation::simulate(const Discretization &d,
                             const bool            write_outputs,
                             BoundarySeries *      series)
    {
      const bool rank0 = Utilities::MPI::this_mpi_process(comm) == 0;
      CharacteristicTransport transport(comm,
                                        d.n_cells,
                                        parameters.height,
                                        parameters.c1(),
                                        parameters.c2(),
                                        d.time_step,
                                        parameters.interior_scheme);
      transport.initialize(
        [&](const double z, const unsigned int k) { return initial_velocity(z, k); },
        [&](const double z, const unsigned int k) { return initial_gradient(z, k); });
      const ContactBoundary boundary(parameters, d.time_step);
      BoundaryState         state = boundary.initial_state(
        {{initial_displacement(0, 0),
          initial_displacement(0, 1),
          initial_displacement(0, 2) > gap_tolerance ? initial_displacement(0, 2) : 0.}},
        {{initial_gradient(0, 0), initial_gradient(0, 1), initial_gradient(0, 2)}},
        {{initial_velocity(0, 0), initial_velocity(0, 1), initial_velocity(0, 2)}});
      if (transport.owns_bottom())
        transport.set_bottom_velocity(
          {{state.velocity[0], state.velocity[1], state.normal_velocity}});
      const FrictionCoefficient mu = parameters.friction_coefficient();
      const double v_star = parameters.foundation_velocity;

      CsvTable history({"t",
                        "normal_displacement",
                        "contact_pressure",
                        "slip_velocity_1",
                        "slip_velocity_2",
                        "tangential_displacement_1",
                        "tangential_displacement_2",
                        "iterations",
                        "normal_velocity",
                        "friction_force_1",
                        "friction_force_2",
                        "friction_bound",
                        "stick",
                        "solutions",
                        "max_b3"});
      std::vector<std::pair<double, std::string>> pvd;
      std::unique_ptr<ProfileWriter>              writer;
      const bool fields = write_outputs && output_parameters.field_output;
      if (fields)
        writer = std::make_unique<ProfileWriter>(transport, comm);
      unsigned int n_rows = 0;

      const auto record = [&](const double t) {
        const double max_b3 = transport.max_normal_characteristic();
        if (rank0)
          {
            const double slip_1 = state.velocity[0] - v_star;
            const double slip_2 = state.velocity[1];
            history.add_row({t,
                             state.gap,
                             state.pressure,
                             slip_1,
                             slip_2,
                             state.displacement[0],
                             state.displacement[1],
                             double(state.iterations),
                             state.normal_velocity,
                             state.friction_force[0],
                             state.friction_force[1],
                             state.pressure * mu.value(std::hypot(slip_1, slip_2)),
                             state.stick ? 1. : 0.,
                             double(state.n_solutions),
                             max_b3});
          }
        if (fields && n_rows % parameters.field_output_every == 0)
          {
            const std::vector<double> profile =
              local_profile(transport, parameters.compression, comm);
            pvd.emplace_back(t, writer->write(transport, profile, t, pvd.size(), output));
            std::ostringstream text;
            DataOutBase::write_pvd_record(text, pvd);
            output.write_atomically("solution.pvd", text.str());
          }
        ++n_rows;
      };

      const double t0 = initial_time;
      const double t_end = t0 + d.n_steps * d.time_step;
      if (write_outputs && !resume)
        {
          if (parameters.write_profiles)
            write_profile_csv(local_profile(transport, parameters.compression, comm),
                              "profile-initial.csv",
                              output,
                              comm);
        }
      if (series != nullptr && rank0)
        {
          series->time.push_back(t0);
          series->gap.push_back(state.gap);
          series->pressure.push_back(state.pressure);
          series->slip_1.push_back(state.velocity[0] - v_star);
          series->slip_2.push_back(state.velocity[1]);
        }

      const double  interval    = output_parameters.interval;
      double        next_output = t0 + interval;
      unsigned long iterations = 0, multiple = 0;
      double        max_pressure = state.pressure;

      // Everything that carries over from step to step, for snapshots: b+-
      // by global node (any number of ranks reads them), the contact node's
      // state and the counters (rank 0's matter); history rows and the
      // field-output list travel in the snapshot's meta text.
      const bool snapshots =
        write_outputs && (resume || output_parameters.checkpoint_interval > 0 ||
                          output_parameters.checkpoint_wall_interval > 0);
      const double      checkpoint_interval = output_parameters.checkpoint_interval;
      double            next_checkpoint     = t0 + checkpoint_interval;
      unsigned long     completed_steps = 0, rows = 0, state_iterations = 0,
                    state_solutions = 0;
      CheckpointArchive archive;
      if (snapshots)
        transport.register_state(archive);
      for (double *x : {&state.gap,
                        &state.normal_velocity,
                        &state.pressure,
                        &state.velocity[0],
                        &state.velocity[1],
                        &state.incoming[0],
                        &state.incoming[1],
                        &state.friction_force[0],
                        &state.friction_force[1],
                        &state.displacement[0],
                        &state.displacement[1],
                        &next_output,
                        &next_checkpoint,
                        &max_pressure})
        archive.add(*x);
      for (unsigned long *c : {&completed_steps,
                               &rows,
                               &state_iterations,
                               &state_solutions,
                               &iterations,
                               &multiple})
        archive.add(*c);
      archive.add(state.stick);
      const CheckpointStore store(output.file(""), comm);
      if (snapshots)
        install_termination_handlers();
      const auto snapshot_meta = [&]() {
        std::ostringstream meta;
        meta.precision(17);
        meta << "dt " << d.time_step << "\ncells " << d.n_cells << '\n';
        write_outputs_and_history(meta, pvd, history);
        return meta.str();
      };
      unsigned int first_step = 1;
      if (snapshots && resume)
        {
          std::vector<std::string> warnings;
          const std::string        meta = store.read(archive, true, warnings);
          for (const auto &warning : warnings)
            pcout << "stickslip: warning: " << warning << std::endl;
          restore_meta(meta, d.time_step, d.n_cells, pvd, history);
          state.iterations  = state_iterations;
          state.n_solutions = state_solutions;
          n_rows            = rows;
          first_step        = completed_steps + 1;
          pcout << "  resumed at step " << completed_steps
                << " (t = " << t0 + completed_steps * d.time_step << ") from "
                << store.folder() << std::endl;
        }
      else if (write_outputs)
        record(t0);
      auto last_wall_checkpoint = std::chrono::steady_clock::now();
      ProgressReporter   progress(pcout,
                                t0,
                                t_end,
                                output_parameters.progress_interval,
                                output_parameters.quiet);
      const auto wall_start = std::chrono::steady_clock::now();
      for (unsigned int n = first_step; n <= d.n_steps; ++n)
        {
          transport.advance();
          if (transport.owns_bottom())
            {
              // The boundary node is local to rank 0: no communication, and
              // the neighbour ranks only need its interior values next step.
              boundary.step(transport.bottom_incoming(), state);
              transport.set_bottom_velocity(
                {{state.velocity[0], state.velocity[1], state.normal_velocity}});
              iterations += state.iterations;
              multiple += state.n_solutions > 1 ? 1 : 0;
              max_pressure = std::max(max_pressure, state.pressure);
            }
          const double t = t0 + n * d.time_step;
          if (series != nullptr && rank0)
            {
              series->time.push_back(t);
              series->gap.push_back(state.gap);
              series->pressure.push_back(state.pressure);
              series->slip_1.push_back(state.velocity[0] - v_star);
              series->slip_2.push_back(state.velocity[1]);
            }
          if (write_outputs &&
              (interval == 0 || t >= next_output - 1e-9 * d.time_step ||
               n == d.n_steps))
            {
              record(t);
              if (interval > 0)
                next_output = next_multiple(t0, interval, t, d.time_step);
            }
          progress.update(t);

          if (snapshots)
            {
              bool due = false;
              if (checkpoint_interval > 0 &&
                  t >= next_checkpoint - 1e-9 * d.time_step)
                {
                  due = true;
                  next_checkpoint =
                    next_multiple(t0, checkpoint_interval, t, d.time_step);
                }
              if (output_parameters.checkpoint_wall_interval > 0)
                {
                  const auto   now = std::chrono::steady_clock::now();
                  const double seconds =
                    std::chrono::duration<double>(now - last_wall_checkpoint)
                      .count();
                  // rank 0's clock decides for all
                  if (Utilities::MPI::max(
                        rank0 && seconds >= output_parameters.checkpoint_wall_interval ?
                          1 :
                          0,
                        comm) == 1)
                    {
                      due                  = true;
                      last_wall_checkpoint = now;
                    }
                }
              const int signal = termination_signal(comm);
              if ((due || signal != 0) && n < d.n_steps)
                {
                  completed_steps  = n;
                  rows             = n_rows;
                  state_iterations = state.iterations;
                  state_solutions  = state.n_solutions;
                  store.write(completed_steps, archive, snapshot_meta());
                  output.write_atomically("history.csv", history.to_string());
                }
              if (signal != 0)
                throw Interrupted(
                  std::string(signal == SIGINT ? "SIGINT" : "SIGTERM") +
                  " at step " + std::to_string(n) + " (t = " +
                  format_number(t) + "): a snapshot of this state is in " +
                  store.folder() + "; continue with --resume " +
                  output.file(""));
            }
        }
      const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start)
          .count();

      if (write_outputs)
        {
          if (parameters.write_profiles)
            write_profile_csv(local_profile(transport, parameters.compression, comm),
                              "profile-final.csv",
                              output,
                              comm);
          output.write_atomically("history.csv", history.to_string());
        }

      const double updates =
        double(d.n_cells + 1) * (d.n_steps - (first_step - 1));
      char         line[400];
      std::snprintf(line,
                    sizeof(line),
                    "  N_z = %u, dz = %.6g m, dt = %.6g s, d2 = %.6g, d1 = %.6g, "
                    "%u steps to t = %.6g s: wall %.3f s (%.3g interior "
                    "node-updates/s per rank)",
                    d.n_cells,
                    transport.cell_size(),
                    d.time_step,
                    transport.courant_numbers()[2],
                    transport.courant_numbers()[0],
                    d.n_steps,
                    t_end,
                    wall,
                    updates / wall / Utilities::MPI::n_mpi_processes(comm));
      pcout << line << std::endl;
      std::snprintf(line,
                    sizeof(line),
                    "  friction: %lu slip-speed iterations, %lu steps with "
                    "several solutions of (52) (selection rule applied); "
                    "uniqueness condition eps + dt G/c1 > dt S L_mu %s at the "
                    "largest pressure S = %.6g Pa",
                    iterations,
                    multiple,
                    boundary.unique_at(max_pressure) ? "holds" : "FAILS",
                    max_pressure);
      pcout << line << std::endl;
    }



    void
    SlabSimulation::write_refinement_table(
      const std::vector<Discretization> &runs,
      const std::vector<BoundarySeries> &series) const
    {
      // Differences between successive runs, measured at the time levels
      // of the coarser run (the finer one interpolated linearly in time):
      // max norms as in seed 003 Fig. 3, and the L1-in-time norm for the
      // pressure, which jumps at re-contact (MODELS.md §4.9.2).
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
              const double final_t = std::min(coarse.time.back(), fine.time.back());
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
                  dw = std::max(dw, std::abs(interpolate(fine.time, fine.gap, t) - coarse.gap[j]));
                  const double ds =
                    std::abs(interpolate(fine.time, fine.pressure, t) - coarse.pressure[j]);
                  dsmax = std::max(dsmax, ds);
                  if (j > 0)
                    {
                      ds1 += ds * (coarse.time[j] - coarse.time[j - 1]);
                      dv1 += dvj * (coarse.time[j] - coarse.time[j - 1]);
                    }
                }
            }
          table.add_row({double(runs[k].n_cells),
                         parameters.height / runs[k].n_cells,
                         runs[k].time_step,
                         dv,
                         dv1,
                         dw,
                         ds1,
                         dsmax});
          char line[200];
          std::snprintf(line,
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
      output.write_atomically("refinement.csv", table.to_string());
    }



    void
    SlabSimulation::resume_from_snapshot()
    {
      resume = true;
    }



    void
    SlabSimulation::run()
    {
      const bool snapshots = resume || output_parameters.checkpoint_interval > 0 ||
                             output_parameters.checkpoint_wall_interval > 0;
      if (snapshots && runs.size() > 1)
        throw InputError(std::string(resume ? "--resume" :
                                              "Output/Checkpoint interval") +
                         ": snapshots are for single runs; this file asks "
                         "for a refinement study (Slab/Convergence cells)");
      // A fresh run drops an earlier run's snapshots; a resumed one
      // continues in its own directory.
      const CheckpointStore store(output.file(""), comm);
      if (!resume)
        {
          output.prepare();
          store.clear();
        }
      else if (!std::filesystem::is_directory(store.folder()))
        throw InputError("--resume " + output_parameters.directory +
                         ": no snapshot to continue from in " + store.folder() +
                         " (was the run started with Output/Checkpoint "
                         "interval or Checkpoint wall interval?)");
      {
        std::ostringstream used;
        prm.print_parameters(used, ParameterHandler::PRM);
        output.write_atomically("parameters.prm", used.str());
      }
      pcout << "stickslip: slab model (seed 003), H = " << parameters.height
            << " m, c1 = " << parameters.c1() << " m/s, c2 = " << parameters.c2()
            << " m/s, "
            << (parameters.interior_scheme == InteriorScheme::upwind ?
                  "upwind (42)-(43)" :
                  "Lax-Wendroff")
            << " interior, "
            << (parameters.contact == ContactTreatment::regularized ?
                  "regularized" :
                  "non-regularized")
            << " contact, theta = " << parameters.theta
            << ", epsilon = " << parameters.epsilon << " kg/m^2, mu: "
            << parameters.friction_coefficient().description() << '\n'
            << "  output: " << output.file("") << std::endl;

      // Outputs come from the finest run; every run records its boundary
      // series when a refinement study is asked for.
      unsigned int finest = 0;
      for (unsigned int k = 1; k < runs.size(); ++k)
        if (runs[k].n_cells > runs[finest].n_cells)
          finest = k;
      const bool                  study = runs.size() > 1;
      std::vector<BoundarySeries> series(runs.size());
      for (unsigned int k = 0; k < runs.size(); ++k)
        simulate(runs[k], k == finest, study ? &series[k] : nullptr);
      if (study)
        write_refinement_table(runs, series);
      pcout << "  wrote " << output.file("history.csv")
            << (study ? ", refinement.csv" : "")
            << (output_parameters.field_output ? ", solution.pvd" : "")
            << std::endl;
    }
  } // namespace Slab
} // namespace stickslip
