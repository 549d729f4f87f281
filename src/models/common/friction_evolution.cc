#include <base/divergence_check.h>
#include <base/expressions.h>
#include <base/local_values.h>
#include <models/common/friction_evolution.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace stickslip
{
  namespace
  {
    // max_k |v_k| over this rank's entries; infinity if one is not finite
    // (so that the global maximum is not finite either).
    double
    largest_magnitude(const DistributedVector &vector)
    {
      ConstLocalValues values(vector);
      double           largest = 0;
      for (std::size_t k = 0; k < values.size(); ++k)
        {
          const double magnitude = std::abs(values[k]);
          if (!std::isfinite(magnitude))
            return std::numeric_limits<double>::infinity();
          largest = std::max(largest, magnitude);
        }
      return largest;
    }
  } // namespace



  namespace
  {
    /**
     * What the summary's stick fraction counts: the nodes of a model with
     * fields (string, membrane, chain), the unknowns of a finite-dof system
     * (ode, gear box: P3's "nodes" would be its two masses).
     */
    RestMonitor::FrictionNames
    friction_names(const Model &model)
    {
      RestMonitor::FrictionNames names;
      if (!model.has_field_output())
        {
          names.all   = "frictional unknown";
          names.share = "of the frictional unknowns";
          names.none  = "no frictional unknown";
        }
      return names;
    }



    /** The max norm of the data: the scale against which a run runs away. */
    double
    data_scale(const FrictionSystem &system)
    {
      return std::max(1.,
                      system.initial_displacement.linfty_norm() +
                        system.initial_velocity.linfty_norm());
    }
  } // namespace



  FrictionEvolution::FrictionEvolution(const Model    &model,
                                       TimeIntegrator &integrator)
    : model(model)
    , integrator(integrator)
    , runaway_size(1e12 * data_scale(model.system()))
    , serial(Utilities::MPI::n_mpi_processes(model.system().comm) == 1)
    , iterations_at_last_row(0)
    , dissipated_total(0)
    , rest(friction_names(model), true)
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
    initial_multiplier(t0);
    initial_multiplier_set = true;
  }



  void
  FrictionEvolution::initial_multiplier(const double t0)
  {
    // lambda(t0) in Sgn(v(t0)) from the equation at t0, M V' + A X +
    // C (lambda - gamma(V)) = f + g: sign(v_i) where v_i != 0; where v_i = 0
    // the multiplier that holds the unknown at rest (V'_i = 0) against the
    // net force r = f + C gamma(V) + g - A X, projected on [-1, 1]: lambda_i
    // = P(r_i / c_i) (exact when every unknown rests; with a coupled M and
    // some unknowns moving, the value a rest of this one alone would need).
    // The force is computed into the stick flags and A X into the
    // multiplier itself (each entry of lambda reads only its own entry of
    // A X): no temporaries of the state's size at the set-up's end, where
    // the memory peaks. The flags are then 0 again, as in a new state.
    const FrictionSystem &system  = model.system();
    DistributedVector    &force   = current.stick;
    DistributedVector    &elastic = current.multiplier;
    system.explicit_force(t0, current.velocity, force);
    if (system.has_stiffness)
      system.apply_stiffness(elastic, current.displacement);
    else
      elastic = 0;
    {
      ConstLocalValues c(system.friction_weights);
      ConstLocalValues v(current.velocity);
      ConstLocalValues f(force);
      LocalValues      lambda(current.multiplier);
      for (std::size_t k = 0; k < lambda.size(); ++k)
        {
          const double ax = lambda[k];
          if (!(c[k] > 0))
            lambda[k] = 0;
          else if (v[k] != 0)
            lambda[k] = v[k] > 0 ? 1. : -1.;
          else
            lambda[k] = std::max(-1., std::min(1., (f[k] - ax) / c[k]));
        }
    }
    current.stick = 0;
  }



  void
  FrictionEvolution::advance(const TimeStep &step)
  {
    if (initial_multiplier_set)
      {
        // The integrators start from lambda = 0 as they always did (the
        // chain's static solver takes it as its first guess): the t0
        // multiplier is an output.
        current.multiplier     = 0;
        initial_multiplier_set = false;
      }
    integrator.advance(step, current);
    model.complete_state(step.next_time, current);
    // One reduction per step finds the largest displacement and velocity
    // and whether a datum became non-finite on some rank; such data are
    // named before the state they spoil.
    const FrictionSystem &system    = model.system();
    double                local[3]  = {largest_magnitude(current.displacement),
                                       largest_magnitude(current.velocity),
                       system.non_finite_data.found_here() ? 1. : 0.};
    double                global[3] = {local[0], local[1], local[2]};
    if (!serial)
      Utilities::MPI::max(local, system.comm, global);
    if (global[2] > 0)
      system.non_finite_data.throw_if_found(system.comm, false);

    check_divergence(global[0] + global[1],
                     runaway_size,
                     step,
                     "more than 1e12 times the initial data",
                     integrator.divergence_causes());
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
      dissipated_total =
        Utilities::MPI::sum(integrator.statistics.local_dissipated_energy,
                            comm);
    });
    archive.after_read.push_back([this, comm]() {
      integrator.statistics.local_dissipated_energy =
        Utilities::MPI::this_mpi_process(comm) == 0 ? dissipated_total : 0.;
    });
    for (auto *c : {&iterations_at_last_row,
                    &integrator.statistics.friction_solves,
                    &integrator.statistics.friction_iterations})
      archive.add(*c);
    integrator.register_state(archive);
    rest.register_state(archive);
    model.describe_unknown_locations(archive);
  }



  bool
  FrictionEvolution::numbering_independent_of_partition() const
  {
    return model.numbering_independent_of_partition();
  }



  OutputSeries
  FrictionEvolution::output_series()
  {
    OutputSeries series;
    series.history = {model.history_columns(),
                      [this](const double t) { return history_row(t); }};
    if (model.has_field_output())
      series.fields.push_back(
        {FieldFiles::main_series,
         [this](const double       t,
                const unsigned int index,
                const FieldFiles  &files) {
           return model.write_fields(t, current, index, files);
         }});
    return series;
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
      iterations - iterations_at_last_row);
    iterations_at_last_row        = iterations;
    const auto [kinetic, elastic] = model.energies(t, current);
    const double dissipated =
      Utilities::MPI::sum(integrator.statistics.local_dissipated_energy,
                          model.system().comm);
    record_motion({t, kinetic, elastic, dissipated, stick_fraction(), 0.});
    return row;
  }



  void
  FrictionEvolution::record_motion(RestMonitor::Row row)
  {
    // The largest speed of the unknowns without mass (NaN: none), and each
    // unknown's velocity and mass in a system of a few.
    const FrictionSystem &system = model.system();
    const std::size_t     n      = system.size();
    const bool            few    = n <= RestMonitor::max_listed_unknowns;
    std::vector<double>   velocity(few ? n : 0, 0.), mass(few ? n : 0, 0.);
    // 1 stuck, 0 not, NaN without friction (summed over the ranks: each
    // unknown is owned once, the others add 0).
    std::vector<double> stuck(few ? n : 0, 0.);
    double              speed = -1; // -1: no unknown without mass here
    {
      ConstLocalValues m(system.mass_diagonal());
      ConstLocalValues v(current.velocity);
      ConstLocalValues c(system.friction_weights);
      ConstLocalValues flags(current.stick);
      std::size_t      k = 0;
      for (const auto i : system.locally_owned)
        {
          if (m[k] == 0)
            speed = std::max(speed, std::abs(v[k]));
          if (few)
            {
              velocity[i] = v[k];
              mass[i]     = m[k];
              stuck[i]    = c[k] > 0 ? (flags[k] > 0 ? 1. : 0.) :
                                       std::numeric_limits<double>::quiet_NaN();
            }
          ++k;
        }
    }
    if (!serial)
      {
        speed = Utilities::MPI::max(speed, system.comm);
        if (few)
          {
            Utilities::MPI::sum(velocity, system.comm, velocity);
            Utilities::MPI::sum(mass, system.comm, mass);
            Utilities::MPI::sum(stuck, system.comm, stuck);
          }
      }
    row.massless_speed =
      speed < 0 ? std::numeric_limits<double>::quiet_NaN() : speed;
    rest.record(row);
    if (few)
      rest.record_unknowns(velocity, mass, stuck);
  }



  double
  FrictionEvolution::stick_fraction() const
  {
    const FrictionSystem &system       = model.system();
    unsigned long         n_frictional = 0, n_stuck = 0;
    ConstLocalValues      c(system.friction_weights);
    ConstLocalValues      stuck(current.stick);
    for (std::size_t k = 0; k < c.size(); ++k)
      if (c[k] > 0)
        {
          ++n_frictional;
          if (stuck[k] > 0)
            ++n_stuck;
        }
    n_frictional = Utilities::MPI::sum(n_frictional, system.comm);
    n_stuck      = Utilities::MPI::sum(n_stuck, system.comm);
    return n_frictional > 0 ? double(n_stuck) / n_frictional :
                              std::numeric_limits<double>::quiet_NaN();
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
    const std::string physical = rest.summary();
    return physical.empty() ? std::string(line) : line + ("\n" + physical);
  }



  const FrictionState &
  FrictionEvolution::state() const
  {
    return current;
  }
} // namespace stickslip
