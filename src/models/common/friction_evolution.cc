#include <base/expressions.h>
#include <models/common/friction_evolution.h>

#include <cmath>
#include <cstdio>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** The max norm of the data: the scale against which a run runs away. */
    double
    data_scale(const FrictionSystem &system)
    {
      return std::max(1.,
                      system.initial_displacement.linfty_norm() +
                        system.initial_velocity.linfty_norm());
    }
  } // namespace



  FrictionEvolution::FrictionEvolution(const Model &   model,
                                       TimeIntegrator &integrator,
                                       const bool      field_output)
    : model(model)
    , integrator(integrator)
    , field_output(field_output && model.has_field_output())
    , runaway_size(1e12 * data_scale(model.system()))
    , iterations_at_last_row(0)
    , advanced(false)
    , dissipated_total(0)
  {
    const FrictionSystem &system = model.system();
    current.reinit(system.locally_owned, system.comm);
  }



  std::string
  FrictionEvolution::description() const
  {
    return model.description();
  }



  void
  FrictionEvolution::initialize(const double t0)
  {
    const FrictionSystem &system = model.system();
    current.displacement         = system.initial_displacement;
    current.velocity             = system.initial_velocity;
    model.complete_state(t0, current);
  }



  void
  FrictionEvolution::advance(const TimeStep &step)
  {
    integrator.advance(step.time, step.size, current);
    model.complete_state(step.next_time, current);
    advanced = true;
    // Data that became non-finite are named before the state they spoil.
    model.system().non_finite_data.throw_if_found(model.system().comm, false);

    const double size =
      current.displacement.linfty_norm() + current.velocity.linfty_norm();
    if (std::isfinite(size) && size <= runaway_size)
      return;
    std::ostringstream message;
    message << "the run diverged at step " << step.index
            << " (t = " << step.next_time << ", dt = " << step.size
            << "): the displacement or velocity "
            << (std::isfinite(size) ?
                  "ran away (max norm " + format_number(size) +
                    ", more than 1e12 times the initial data)" :
                  std::string("is not finite"))
            << ". Likely causes: an elastic step beyond its stability limit "
               "(Splitting/Elastic implicitness < 1/4, the CFL condition), a given rho or r "
               "outside its range, a friction solver tolerance or iteration "
               "limit too loose, or data that are not finite (a forcing or "
               "boundary expression giving nan or inf, such as a division by "
               "zero)";
    throw RunError(message.str());
  }



  void
  FrictionEvolution::register_state(CheckpointArchive &archive)
  {
    for (auto *v : {&current.displacement,
                    &current.velocity,
                    &current.multiplier,
                    &current.stick})
      archive.add(*v);
    // The rank-local friction work travels as its total, held by rank 0
    // on resume (the partition may differ).
    archive.add(dissipated_total);
    const MPI_Comm comm = model.system().comm;
    archive.before_write.push_back([this, comm]() {
      dissipated_total = Utilities::MPI::sum(
        integrator.statistics.local_dissipated_energy, comm);
    });
    archive.after_read.push_back([this, comm]() {
      integrator.statistics.local_dissipated_energy =
        Utilities::MPI::this_mpi_process(comm) == 0 ? dissipated_total : 0.;
      advanced = true;
    });
    for (auto *c : {&iterations_at_last_row,
                    &integrator.statistics.friction_solves,
                    &integrator.statistics.friction_iterations})
      archive.add(*c);
    integrator.register_state(archive);
    model.describe_unknown_locations(archive);
  }



  bool
  FrictionEvolution::numbering_independent_of_partition() const
  {
    return model.numbering_independent_of_partition();
  }



  std::vector<std::string>
  FrictionEvolution::history_columns() const
  {
    return model.history_columns();
  }



  std::vector<double>
  FrictionEvolution::history_row(const double t)
  {
    const unsigned long iterations = integrator.statistics.friction_iterations;
    const std::vector<double> row  = model.history_row(
      t,
      current,
      Utilities::MPI::sum(integrator.statistics.local_dissipated_energy,
                          model.system().comm),
      iterations - iterations_at_last_row,
      advanced);
    iterations_at_last_row = iterations;
    return row;
  }



  bool
  FrictionEvolution::has_fields() const
  {
    return field_output;
  }



  std::string
  FrictionEvolution::write_fields(const double       t,
                                  const unsigned int index,
                                  const FieldFiles & files)
  {
    return model.write_fields(t, current, index, files);
  }



  std::string
  FrictionEvolution::summary(const RunStatistics &statistics) const
  {
    const auto &counters = integrator.statistics;
    char        line[256];
    std::snprintf(line,
                  sizeof(line),
                  "  dt = %-10.4g %u steps, %lu friction solves, %lu "
                  "iterations (%.2f per solve), wall %.2f s",
                  statistics.time_step,
                  statistics.n_steps,
                  counters.friction_solves,
                  counters.friction_iterations,
                  counters.friction_solves > 0 ?
                    double(counters.friction_iterations) /
                      counters.friction_solves :
                    0.,
                  statistics.wall_time);
    return line;
  }



  const FrictionState &
  FrictionEvolution::state() const
  {
    return current;
  }
} // namespace stickslip
