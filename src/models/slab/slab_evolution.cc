#include <deal.II/base/mpi.h>

#include <base/expressions.h>
#include <base/input_error.h>
#include <models/slab/slab_evolution.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace stickslip
{
  namespace Slab
  {
    SlabEvolution::SlabEvolution(const SlabProblem    &problem,
                                 const Discretization &discretization,
                                 const MPI_Comm        comm)
      : problem(problem)
      , parameters(problem.parameters())
      , discretization(discretization)
      , comm(comm)
      , transport(comm,
                  discretization.n_cells,
                  parameters.height,
                  parameters.c1(),
                  parameters.c2(),
                  discretization.time_step,
                  parameters.interior_scheme)
      , boundary(parameters, discretization.time_step)
      , mu(boundary.friction_law())
      , state{}
      , iterations(0)
      , multiple(0)
      , max_pressure(0)
      , last_slip_time(-std::numeric_limits<double>::infinity())
      , current_time(0)
    {}



    std::string
    SlabEvolution::description() const
    {
      return problem.description();
    }



    void
    SlabEvolution::initialize(const double t0)
    {
      const SlabProblem &p = problem;
      transport.initialize(
        [&](const double z, const unsigned int k) {
          return p.initial_velocity(z, k);
        },
        [&](const double z, const unsigned int k) {
          return p.initial_gradient(z, k);
        });
      state = boundary.initial_state({{p.initial_displacement(0, 0),
                                       p.initial_displacement(0, 1),
                                       p.initial_displacement(0, 2) >
                                           p.gap_tolerance() ?
                                         p.initial_displacement(0, 2) :
                                         0.}},
                                     {{p.initial_gradient(0, 0),
                                       p.initial_gradient(0, 1),
                                       p.initial_gradient(0, 2)}},
                                     {{p.initial_velocity(0, 0),
                                       p.initial_velocity(0, 1),
                                       p.initial_velocity(0, 2)}},
                                     t0);
      if (transport.owns_bottom())
        transport.set_bottom_velocity(
          {{state.velocity[0], state.velocity[1], state.normal_velocity}});
      max_pressure = state.pressure;
    }



    void
    SlabEvolution::advance(const TimeStep &step)
    {
      transport.advance();
      std::string failure;
      if (transport.owns_bottom())
        {
          // The boundary node is local to rank 0: the neighbour ranks only
          // need its interior values next step.
          boundary.step(transport.bottom_incoming(), state, step.next_time);
          transport.set_bottom_velocity(
            {{state.velocity[0], state.velocity[1], state.normal_velocity}});
          iterations += state.iterations;
          multiple += state.n_solutions > 1 ? 1 : 0;
          max_pressure = std::max(max_pressure, state.pressure);
          if (!state.converged)
            failure = boundary_failure(step);
        }
      if (parameters.friction.stop_time > 0)
        {
          // Whether the node slips, on every rank (it lives on rank 0).
          const double rate =
            transport.owns_bottom() && state.pressure > 0 ?
              std::hypot(state.velocity[0] - parameters.foundation_velocity,
                         state.velocity[1]) :
              0.;
          if (Utilities::MPI::max(rate, comm) >
              parameters.friction.rupture_slip_rate)
            last_slip_time = step.next_time;
          current_time = step.next_time;
        }
      // A failed solve must stop every rank, not leave NaN rows behind.
      const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
      const unsigned int owner =
        Utilities::MPI::min(failure.empty() ?
                              n_ranks :
                              Utilities::MPI::this_mpi_process(comm),
                            comm);
      if (owner < n_ranks)
        throw RunError(Utilities::MPI::broadcast(comm, failure, owner));
    }



    std::string
    SlabEvolution::boundary_failure(const TimeStep &step) const
    {
      std::ostringstream message;
      message << "the slip-speed solve (52) of the contact node z = 0 ";
      if (state.n_solutions == 0)
        message << "got data that are not finite";
      else
        message << "did not converge";
      message << " at step " << step.index
              << " (t = " << format_number(step.next_time) << "): residual "
              << format_number(state.residual) << " after " << state.iterations
              << " iterations, contact pressure "
              << format_number(state.pressure) << ", incoming b_T+ = ("
              << format_number(state.incoming[0]) << ", "
              << format_number(state.incoming[1])
              << "). Likely causes: initial or boundary data that are not "
                 "finite, or a friction law too steep for the time step "
                 "(Slab/Friction law, Time/Time step)";
      return message.str();
    }



    void
    SlabEvolution::register_state(CheckpointArchive &archive)
    {
      // b+- by global node (any number of ranks reads them), the contact
      // node's state and the counters (rank 0's matter).
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
                        &max_pressure})
        archive.add(*x);
      if (mu.has_state() || parameters.friction.stop_time > 0)
        for (double *x : {&state.friction_state,
                          &state.coefficient,
                          &state.slip,
                          &state.rupture_time,
                          &last_slip_time})
          archive.add(*x);
      for (unsigned long *c : {&iterations, &multiple})
        archive.add(*c);
      archive.add(state.stick);
      // The per-step counters of the node are unsigned ints: they travel as
      // counters through the archive's copy hooks.
      auto node_counters = std::make_shared<std::array<unsigned long, 2>>();
      archive.add((*node_counters)[0]);
      archive.add((*node_counters)[1]);
      archive.before_write.push_back([this, node_counters]() {
        (*node_counters)[0] = state.iterations;
        (*node_counters)[1] = state.n_solutions;
      });
      archive.after_read.push_back([this, node_counters]() {
        state.iterations  = (*node_counters)[0];
        state.n_solutions = (*node_counters)[1];
      });
    }



    bool
    SlabEvolution::numbering_independent_of_partition() const
    {
      return true;
    }



    OutputSeries
    SlabEvolution::output_series()
    {
      OutputSeries series;
      series.history = {history_columns(),
                        [this](const double t) { return history_row(t); }};
      series.fields.push_back({FieldFiles::main_series,
                               [this](const double       t,
                                      const unsigned int index,
                                      const FieldFiles  &files) {
                                 return write_fields(t, index, files);
                               }});
      if (parameters.write_profiles)
        series.once.push_back({[this](const OutputDirectory &directory) {
                                 write_profile("profile-initial.csv",
                                               directory);
                               },
                               [this](const OutputDirectory &directory) {
                                 write_profile("profile-final.csv", directory);
                               }});
      return series;
    }



    std::vector<std::string>
    SlabEvolution::history_columns() const
    {
      std::vector<std::string> columns = {"t",
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
                                          "max_b3"};
      // A law with a state: the state, mu, the slip and the rupture time.
      if (mu.has_state())
        for (const std::string name :
             {"friction_state", "friction_coefficient", "slip", "rupture_time"})
          columns.push_back(name);
      return columns;
    }



    std::vector<double>
    SlabEvolution::history_row(const double t) const
    {
      const double max_b3 = transport.max_normal_characteristic();
      const double slip_1 = state.velocity[0] - parameters.foundation_velocity;
      const double slip_2 = state.velocity[1];
      std::vector<double> row = {t,
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
                                 state.pressure *
                                   mu.value(std::hypot(slip_1, slip_2),
                                            state.friction_state),
                                 state.stick ? 1. : 0.,
                                 double(state.n_solutions),
                                 max_b3};
      if (mu.has_state())
        for (const double value :
             {state.friction_state,
              mu.value(std::hypot(slip_1, slip_2), state.friction_state),
              state.slip,
              state.rupture_time})
          row.push_back(value);
      return row;
    }



    std::string
    SlabEvolution::write_fields(const double       t,
                                const unsigned int index,
                                const FieldFiles  &files)
    {
      if (!writer)
        writer = std::make_unique<ProfileWriter>(transport, comm);
      const std::vector<double> profile =
        local_profile(transport, parameters.compression, comm);
      return writer->write(transport, profile, t, index, files);
    }



    void
    SlabEvolution::write_profile(const std::string     &file_name,
                                 const OutputDirectory &directory)
    {
      write_profile_csv(local_profile(transport, parameters.compression, comm),
                        file_name,
                        directory,
                        comm);
    }



    std::string
    SlabEvolution::discretization_key() const
    {
      return "cells " + std::to_string(discretization.n_cells);
    }



    std::string
    SlabEvolution::summary(const RunStatistics &statistics) const
    {
      const double updates =
        double(discretization.n_cells + 1) * statistics.steps_taken;
      char line[512];
      std::snprintf(
        line,
        sizeof(line),
        "  N_z = %u, dz = %.6g m, dt = %.6g s, d2 = %.6g, d1 = %.6g, "
        "%u steps to t = %.6g s: wall %.3f s (%.3g interior node-updates/s "
        "per rank)\n",
        discretization.n_cells,
        transport.cell_size(),
        discretization.time_step,
        transport.courant_numbers()[2],
        transport.courant_numbers()[0],
        discretization.n_steps,
        problem.initial_time() +
          discretization.n_steps * discretization.time_step,
        statistics.wall_time,
        updates / statistics.wall_time / Utilities::MPI::n_mpi_processes(comm));
      std::string text = line;
      // Where (52) may have several solutions (a decreasing friction law
      // at a high pressure), that is expected: say so in plain words.
      if (boundary.unique_at(max_pressure))
        std::snprintf(line,
                      sizeof(line),
                      "  friction: %lu slip-speed iterations; the contact "
                      "equation (52) has one solution in every step (eps + "
                      "dt G/c1 > dt S L_mu up to the largest pressure, S = "
                      "%.6g Pa)",
                      iterations,
                      max_pressure);
      else
        std::snprintf(line,
                      sizeof(line),
                      "  friction: %lu slip-speed iterations; at pressures up "
                      "to S = %.6g Pa this friction law lets the contact "
                      "equation (52) have several solutions (eps + dt G/c1 "
                      "<= dt S L_mu), as expected; %lu steps had several and "
                      "took the one nearest the previous slip "
                      "(doc/cookbook_slab.md)",
                      iterations,
                      max_pressure,
                      multiple);
      return text + line;
    }



    std::string
    SlabEvolution::stop_reason() const
    {
      const double quiet = parameters.friction.stop_time;
      if (!(quiet > 0) || !std::isfinite(last_slip_time) ||
          current_time - last_slip_time < quiet)
        return "";
      return "the contact node has not slipped faster than " +
             format_number(parameters.friction.rupture_slip_rate) +
             " m/s since t = " + format_number(last_slip_time) +
             " (Slab/Friction law/Stop after arrest = " + format_number(quiet) +
             " s)";
    }



    const BoundaryState &
    SlabEvolution::boundary_state() const
    {
      return state;
    }



    double
    SlabEvolution::foundation_velocity() const
    {
      return parameters.foundation_velocity;
    }
  } // namespace Slab
} // namespace stickslip
