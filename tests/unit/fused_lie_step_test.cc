// Unit tests of FusedLieStep (src/time/fused_lie_step.h): the Lie step with
// P = Q = 1, alpha = 0, a lumped M and the closed form, fused into two passes
// around one product with A, must give the bits of the step it replaces,
// FrictionSubsteps followed by ElasticSubsteps (the multiplier set to 0 and
// the stick flag to 1 first, as SplittingIntegrator does): the same
// operations in the same order, so the tolerance is zero. The system is a
// chain of 37 springs of varying stiffness with a lumped mass, friction
// weights that leave some unknowns free (c = 0), some stuck and some sliding,
// over 40 steps; with a zero force, with a forcing f(t), with a velocity
// weakening gamma law, and with a displacement changed between two steps (as
// a model's complete_state may do: the kept product A X must be recomputed).
// The whole executable also runs under mpirun -np 2.
#include <deal.II/lac/dynamic_sparsity_pattern.h>

#include <base/input_error.h>
#include <friction/friction_parameters.h>
#include <friction/friction_step_solver.h>
#include <friction/friction_system.h>
#include <time/elastic_substeps.h>
#include <time/friction_substeps.h>
#include <time/fused_lie_step.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_fused_lie_step
{
  using namespace stickslip;

  constexpr unsigned int d       = 37;
  constexpr double       dt      = 0.05;
  constexpr unsigned int n_steps = 40;

  /** The chain: stiffness k_e = 1 + (e % 3)/2, masses 0.8 + (i % 5)/10. */
  void
  fill_chain(FrictionSystem &system)
  {
    const MPI_Comm comm  = system.comm;
    system.locally_owned = Utilities::create_evenly_distributed_partitioning(
      Utilities::MPI::this_mpi_process(comm),
      Utilities::MPI::n_mpi_processes(comm),
      d);
    DynamicSparsityPattern diagonal(d, d), tridiagonal(d, d);
    for (unsigned int i = 0; i < d; ++i)
      {
        diagonal.add(i, i);
        for (unsigned int j = (i > 0 ? i - 1 : 0); j <= std::min(i + 1, d - 1);
             ++j)
          tridiagonal.add(i, j);
      }
    system.mass.reinit(system.locally_owned,
                       system.locally_owned,
                       diagonal,
                       comm);
    system.stiffness.reinit(system.locally_owned,
                            system.locally_owned,
                            tridiagonal,
                            comm);
    const auto k = [](const unsigned int e) { return 1. + (e % 3) / 2.; };
    for (const auto i : system.locally_owned)
      {
        system.mass.set(i, i, 0.8 + (i % 5) / 10.);
        // Springs e = i - 1 (to i - 1) and e = i (to i + 1); free ends.
        double diagonal_entry = 0;
        if (i > 0)
          {
            system.stiffness.set(i, i - 1, -k(i - 1));
            diagonal_entry += k(i - 1);
          }
        if (i + 1 < d)
          {
            system.stiffness.set(i, i + 1, -k(i));
            diagonal_entry += k(i);
          }
        system.stiffness.set(i, i, diagonal_entry);
      }
    system.mass.compress(VectorOperation::insert);
    system.stiffness.compress(VectorOperation::insert);
    system.has_stiffness = true;
    // c = 0 (free), 30 (stuck: c dt = 1.5 above |M V| here) or 0.5..1.
    system.friction_weights.reinit(system.locally_owned, comm);
    for (const auto i : system.locally_owned)
      system.friction_weights[i] = i % 4 == 0 ? 0. :
                                   i % 4 == 1 ? 30. :
                                                0.5 + (i % 3) / 4.;
    system.friction_weights.compress(VectorOperation::insert);
    system.forcing_is_zero = true;
    system.forcing = [](const double, DistributedVector &out) { out = 0; };
    system.finalize();
  }



  void
  set_forcing(FrictionSystem &system)
  {
    system.forcing_is_zero = false;
    system.forcing         = [](const double t, DistributedVector &out) {
      for (const auto i : out.locally_owned_elements())
        out[i] = 0.7 * std::sin(3 * t + i);
      out.compress(VectorOperation::insert);
    };
  }



  void
  set_gamma(FrictionSystem &system)
  {
    DistributedVector beta(system.locally_owned, system.comm);
    DistributedVector epsilon(system.locally_owned, system.comm);
    beta    = 0.3;
    epsilon = 0.1;
    system.gamma.reinit(GammaLaw::Type::smooth, beta, epsilon);
  }



  FrictionState
  initial_state(const FrictionSystem &system)
  {
    FrictionState state;
    state.reinit(system.locally_owned, system.comm);
    for (const auto i : system.locally_owned)
      {
        state.displacement[i] = std::sin(0.4 * i);
        state.velocity[i]     = 2 * std::cos(0.7 * i);
      }
    state.displacement.compress(VectorOperation::insert);
    state.velocity.compress(VectorOperation::insert);
    return state;
  }



  /** Where two vectors differ in a bit, or -1. */
  long
  first_difference(const DistributedVector &a, const DistributedVector &b)
  {
    for (const auto i : a.locally_owned_elements())
      {
        const double x = a(i), y = b(i);
        if (std::memcmp(&x, &y, sizeof(double)) != 0)
          return i;
      }
    return -1;
  }



  /**
   * Run both steps n_steps times; with @p change_at > 0, add 0.01 to the
   * displacement's first owned entry before step @p change_at in both.
   */
  void
  expect_same_bits(const FrictionSystem &system,
                   const unsigned int    change_at = 0)
  {
    Parameters::Friction friction{};
    friction.solver = Parameters::FrictionSolverType::closed_form;
    Parameters::LinearSolver linear_solver{};
    linear_solver.type              = Parameters::LinearSolverType::automatic;
    linear_solver.tolerance         = 1e-14;
    linear_solver.direct_size_limit = 1000;
    Parameters::Splitting splitting{1, 1, 0.};
    const ParameterSource source;

    FrictionSubsteps friction_step(
      system,
      create_friction_step_solver(friction, linear_solver, system, source),
      1,
      1,
      dt);
    ElasticSubsteps elastic_step(system, splitting, linear_solver, source, dt);
    FusedLieStep    fused(system, dt);
    FrictionState   passes      = initial_state(system);
    FrictionState   fused_state = initial_state(system);
    IntegratorStatistics passes_statistics, fused_statistics;
    unsigned int         n_stuck = 0, n_sliding = 0;
    for (unsigned int n = 0; n < n_steps; ++n)
      {
        if (change_at > 0 && n == change_at &&
            system.locally_owned.n_elements() > 0)
          for (FrictionState *state : {&passes, &fused_state})
            {
              const auto i = *system.locally_owned.begin();
              state->displacement[i] += 0.01;
            }
        for (FrictionState *state : {&passes, &fused_state})
          state->displacement.compress(VectorOperation::add);
        const TimeStep step{n, n * dt, (n + 1) * dt, dt};
        passes.multiplier = 0;
        passes.stick      = 1.;
        friction_step.advance(step,
                              0,
                              1.,
                              passes.velocity,
                              passes.multiplier,
                              passes.stick,
                              passes_statistics);
        elastic_step.advance(step, passes.displacement, passes.velocity);
        fused.advance(step, fused_state, fused_statistics);

        EXPECT_EQ(first_difference(passes.displacement,
                                   fused_state.displacement),
                  -1)
          << "step " << n;
        EXPECT_EQ(first_difference(passes.velocity, fused_state.velocity), -1)
          << "step " << n;
        EXPECT_EQ(first_difference(passes.multiplier, fused_state.multiplier),
                  -1)
          << "step " << n;
        EXPECT_EQ(first_difference(passes.stick, fused_state.stick), -1)
          << "step " << n;
        for (const auto i : system.locally_owned)
          if (system.friction_weights(i) > 0)
            ++(fused_state.stick(i) > 0 ? n_stuck : n_sliding);
      }
    EXPECT_EQ(passes_statistics.local_dissipated_energy,
              fused_statistics.local_dissipated_energy);
    EXPECT_EQ(passes_statistics.friction_solves,
              fused_statistics.friction_solves);
    // Not vacuous: both regimes occur (over all ranks).
    EXPECT_GT(Utilities::MPI::sum(n_stuck, system.comm), 0u);
    EXPECT_GT(Utilities::MPI::sum(n_sliding, system.comm), 0u);
  }



  TEST(FusedLieStep, SameBitsWithoutForce)
  {
    FrictionSystem system(MPI_COMM_WORLD);
    fill_chain(system);
    expect_same_bits(system);
  }



  TEST(FusedLieStep, SameBitsWithForcing)
  {
    FrictionSystem system(MPI_COMM_WORLD);
    fill_chain(system);
    set_forcing(system);
    expect_same_bits(system);
  }



  TEST(FusedLieStep, SameBitsWithGammaLaw)
  {
    FrictionSystem system(MPI_COMM_WORLD);
    fill_chain(system);
    set_gamma(system);
    expect_same_bits(system);
  }



  TEST(FusedLieStep, SameBitsAfterTheDisplacementChanged)
  {
    FrictionSystem system(MPI_COMM_WORLD);
    fill_chain(system);
    expect_same_bits(system, 7);
  }



  TEST(FusedLieStep, AppliesOnlyToItsCase)
  {
    FrictionSystem system(MPI_COMM_WORLD);
    fill_chain(system);
    Parameters::Numerics run{};
    run.time.scheme = Parameters::Scheme::lie;
    run.splitting   = {1, 1, 0.};
    EXPECT_TRUE(FusedLieStep::applies(run, system, true));
    EXPECT_FALSE(FusedLieStep::applies(run, system, false));
    run.splitting = {2, 1, 0.};
    EXPECT_FALSE(FusedLieStep::applies(run, system, true));
    run.splitting = {1, 2, 0.};
    EXPECT_FALSE(FusedLieStep::applies(run, system, true));
    run.splitting = {1, 1, 0.25};
    EXPECT_FALSE(FusedLieStep::applies(run, system, true));
    run.splitting   = {1, 1, 0.};
    run.time.scheme = Parameters::Scheme::strang;
    EXPECT_FALSE(FusedLieStep::applies(run, system, true));
  }
} // namespace unit_fused_lie_step
