// Unit tests of the plain-array steps of tiny systems (issue 17):
// DenseCholesky's banded factorization (src/linear_algebra/dense_tools.h),
// ReplicatedSemismoothNewton (src/friction/replicated_semismooth_newton.h)
// and the split and centered steps on replicated arrays
// (src/time/replicated_splitting_step.h, replicated_centered_step.h).
//
// Each is compared with the path it replaces, on the same data:
// - the banded Cholesky with the textbook dense one (written out below):
//   the skipped products are exact zeros, so the solutions agree bit for
//   bit;
// - the replicated semismooth Newton with SemismoothNewtonSolver's dense
//   path on the distributed system: the same sets, factors and residuals,
//   bit for bit, and the same iteration counts;
// - SplittingIntegrator and CenteredIntegrator with and without
//   FrictionSystem::replicated_forcing (which selects the plain-array
//   step): the same operations in the same order. With a BLAS whose axpy
//   rounds a x + y twice (the reference BLAS) the states are equal bit for
//   bit: the tolerance is 0. OpenBLAS computes axpy with fused
//   multiply-adds (one rounding) on vectors long enough for its kernels,
//   which changes the last bit of PETSc's sums; the friction steps amplify
//   that over 200 steps to at most 2.0e-11 of the largest value (measured,
//   1 and 2 ranks): the tolerance is then 1e-9. Which BLAS is in use is
//   found by one axpy whose two roundings differ from one.
// The systems are chains of 12 to 30 masses with a consistent (tridiagonal)
// or lumped mass, some unknowns free (c = 0), some stuck, some sliding,
// forced by 0.8 sin(3 t + i); the checks count both regimes, so they are
// not vacuous. The whole executable also runs under mpirun -np 2.
#include <deal.II/lac/full_matrix.h>

#include <base/local_values.h>
#include <friction/friction_parameters.h>
#include <friction/friction_system.h>
#include <friction/replicated_semismooth_newton.h>
#include <friction/semismooth_newton_solver.h>
#include <linear_algebra/dense_tools.h>
#include <models/common/system_builder.h>
#include <time/centered_integrator.h>
#include <time/splitting_integrator.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_replicated_steps
{
  using namespace stickslip;

  /** Bitwise equality of two doubles. */
  bool
  same_bits(const double a, const double b)
  {
    return std::memcmp(&a, &b, sizeof(double)) == 0;
  }



  /** A symmetric positive definite matrix of half-bandwidth @p band. */
  FullMatrix<double>
  banded_spd(const unsigned int n, const unsigned int band)
  {
    FullMatrix<double> a(n, n);
    for (unsigned int i = 0; i < n; ++i)
      {
        a(i, i) = 2. * band + 1. + 0.1 * std::sin(1.7 * i);
        for (unsigned int k = 1; k <= band && k <= i; ++k)
          a(i, i - k) = a(i - k, i) = -0.9 + 0.05 * std::cos(i + 0.3 * k);
      }
    return a;
  }



  /** The dense Cholesky solve of A x = b in the textbook order. */
  std::vector<double>
  dense_solve(const FullMatrix<double> &a, std::vector<double> x)
  {
    const unsigned int n = a.m();
    FullMatrix<double> l(n, n);
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int j = 0; j <= i; ++j)
        {
          double sum = a(i, j);
          for (unsigned int k = 0; k < j; ++k)
            sum -= l(i, k) * l(j, k);
          l(i, j) = i == j ? std::sqrt(sum) : sum / l(j, j);
        }
    for (unsigned int i = 0; i < n; ++i)
      {
        double sum = x[i];
        for (unsigned int k = 0; k < i; ++k)
          sum -= l(i, k) * x[k];
        x[i] = sum / l(i, i);
      }
    for (unsigned int i = n; i-- > 0;)
      {
        double sum = x[i];
        for (unsigned int k = i + 1; k < n; ++k)
          sum -= l(k, i) * x[k];
        x[i] = sum / l(i, i);
      }
    return x;
  }



  TEST(DenseCholesky, BandedEqualsDense)
  {
    for (const unsigned int band : {0u, 1u, 2u, 5u, 39u})
      {
        const FullMatrix<double> a = banded_spd(40, band);
        std::vector<double>      b(40);
        for (unsigned int i = 0; i < 40; ++i)
          b[i] = std::sin(0.9 * i) + 0.5;
        DenseCholesky cholesky;
        cholesky.factorize(a);
        EXPECT_EQ(cholesky.bandwidth(), band);
        std::vector<double> x = b;
        cholesky.solve(x.data());
        const std::vector<double> reference = dense_solve(a, b);
        for (unsigned int i = 0; i < 40; ++i)
          EXPECT_TRUE(same_bits(x[i], reference[i]))
            << "band " << band << ", entry " << i << ": " << x[i] << " vs "
            << reference[i];
      }
  }



  // A diagonal matrix is a band of width 0: square roots and two divisions,
  // as the dense factorization does.
  TEST(DenseCholesky, Diagonal)
  {
    FullMatrix<double> a(3, 3);
    a(0, 0) = 3;
    a(1, 1) = 7;
    a(2, 2) = 0.1;
    DenseCholesky cholesky;
    cholesky.factorize(a);
    EXPECT_EQ(cholesky.bandwidth(), 0u);
    double                    x[3]      = {1, 2, 3};
    const std::vector<double> reference = dense_solve(a, {1, 2, 3});
    cholesky.solve(x);
    for (unsigned int i = 0; i < 3; ++i)
      EXPECT_TRUE(same_bits(x[i], reference[i])) << i;
  }



  /**
   * A chain of @p d masses: M = tridiag(1/6, 2/3, 1/6) (consistent) or I
   * (lumped), A = 40 tridiag(-1, 2, -1), c_i = 0 for i % 5 == 0, 3 for i
   * % 5 == 1 (mostly stuck), else 0.5 + (i % 3)/4. The forcing is given
   * both ways, so that the caller chooses the path.
   */
  void
  fill_chain(FrictionSystem    &system,
             const unsigned int d,
             const bool         consistent)
  {
    FullMatrix<double>  mass(d, d), stiffness(d, d);
    std::vector<double> weights(d);
    for (unsigned int i = 0; i < d; ++i)
      {
        mass(i, i)      = consistent ? 2. / 3 : 1.;
        stiffness(i, i) = 80;
        if (i > 0)
          {
            mass(i, i - 1) = mass(i - 1, i) = consistent ? 1. / 6 : 0.;
            stiffness(i, i - 1) = stiffness(i - 1, i) = -40;
          }
        weights[i] = i % 5 == 0 ? 0. : i % 5 == 1 ? 3. : 0.5 + (i % 3) / 4.;
      }
    build_small_system(mass, stiffness, weights, system);
    for (const auto i : system.locally_owned)
      {
        system.initial_displacement[i] = 0.1 * std::sin(0.4 * i);
        system.initial_velocity[i]     = std::cos(0.7 * i);
      }
    system.initial_displacement.compress(VectorOperation::insert);
    system.initial_velocity.compress(VectorOperation::insert);
    system.forcing = [](const double t, DistributedVector &out) {
      LocalValues values(out);
      std::size_t k = 0;
      for (const auto i : out.locally_owned_elements())
        values[k++] = 0.8 * std::sin(3 * t + i);
    };
    system.finalize();
  }



  /** The replicated forcing of fill_chain(): selects the plain-array steps. */
  void
  replicate_forcing(FrictionSystem &system)
  {
    const unsigned int d      = system.size();
    system.replicated_forcing = [d](const double t, double *out) {
      for (unsigned int i = 0; i < d; ++i)
        out[i] = 0.8 * std::sin(3 * t + i);
    };
  }



  /** The gamma law of Glowinski et al. 2006, eq. (2) with beta = 0.3, eps =
   * 0.1. */
  void
  set_gamma(FrictionSystem &system)
  {
    DistributedVector beta(system.locally_owned, system.comm);
    DistributedVector epsilon(system.locally_owned, system.comm);
    beta    = 0.3;
    epsilon = 0.1;
    system.gamma.reinit(GammaLaw::Type::smooth, beta, epsilon);
  }



  Parameters::Numerics
  numerics(const Parameters::Scheme scheme)
  {
    Parameters::Numerics run{};
    run.time.scheme        = scheme;
    run.splitting          = {3, 2, 0.25};
    run.friction.solver    = Parameters::FrictionSolverType::semismooth_newton;
    run.friction.tolerance = 1e-12;
    run.friction.max_iterations = 1000;
    run.linear_solver.type      = Parameters::LinearSolverType::automatic;
    run.linear_solver.tolerance = 1e-14;
    run.linear_solver.direct_size_limit = 1000;
    run.centered.multiplier_solver =
      Parameters::CenteredMultiplierSolver::fixed_point;
    run.centered.tolerance      = 1e-12;
    run.centered.max_iterations = 100000;
    run.centered.warm_start     = true;
    return run;
  }



  /**
   * Whether PETSc's axpy (the BLAS of the process) rounds a x + y once, as
   * a fused multiply-add: 0.1 * 10 rounds to 1, so y = -1 + 0.1 * 10 is 0
   * with two roundings and 2^-54 with one.
   */
  bool
  blas_fuses_axpy()
  {
    const IndexSet    all = complete_index_set(64);
    DistributedVector y(all, MPI_COMM_SELF), x(all, MPI_COMM_SELF);
    y = -1.;
    x = 10.;
    y.add(0.1, x);
    return y.linfty_norm() != 0.;
  }



  /** The largest |entry| of @p v over the ranks. */
  double
  max_norm(const DistributedVector &v)
  {
    return v.linfty_norm();
  }



  /**
   * Run @p run on the chain of @p d masses for @p n_steps steps of 0.01
   * twice, by the distributed and by the plain-array step, and compare the
   * states at every step (relative to their largest value).
   */
  void
  expect_same_runs(const Parameters::Numerics &run,
                   const unsigned int          d,
                   const bool                  consistent,
                   const bool                  gamma,
                   const unsigned int          n_steps = 200)
  {
    const double   dt = 0.01;
    FrictionSystem general(MPI_COMM_WORLD), plain(MPI_COMM_WORLD);
    for (FrictionSystem *system : {&general, &plain})
      {
        fill_chain(*system, d, consistent);
        if (gamma)
          set_gamma(*system);
      }
    replicate_forcing(plain);
    const ParameterSource source;
    auto                  general_step =
      create_time_integrator(run, general, source, dt, nullptr);
    auto plain_step = create_time_integrator(run, plain, source, dt, nullptr);
    ASSERT_EQ(general_step->description().find("plain arrays"),
              std::string::npos);
    ASSERT_NE(plain_step->description().find("plain arrays"), std::string::npos)
      << plain_step->description();

    FrictionState a, b;
    for (FrictionState *state : {&a, &b})
      {
        state->reinit(general.locally_owned, general.comm);
        state->displacement = general.initial_displacement;
        state->velocity     = general.initial_velocity;
      }
    double       largest_difference = 0;
    unsigned int n_stuck = 0, n_moving = 0;
    for (unsigned int n = 0; n < n_steps; ++n)
      {
        const TimeStep step{n + 1, n * dt, (n + 1) * dt, dt};
        general_step->advance(step, a);
        plain_step->advance(step, b);
        for (const auto &pair :
             {std::make_pair(&a.displacement, &b.displacement),
              std::make_pair(&a.velocity, &b.velocity),
              std::make_pair(&a.multiplier, &b.multiplier)})
          {
            DistributedVector difference = *pair.first;
            difference -= *pair.second;
            largest_difference =
              std::max(largest_difference,
                       max_norm(difference) /
                         std::max(1., max_norm(*pair.first)));
          }
        DistributedVector stick_difference = a.stick;
        stick_difference -= b.stick;
        EXPECT_EQ(max_norm(stick_difference), 0.) << "step " << n;
        for (const auto i : general.locally_owned)
          if (general.friction_weights(i) > 0)
            ++(a.stick(i) > 0 ? n_stuck : n_moving);
      }
    const bool fused =
      Utilities::MPI::max(blas_fuses_axpy() ? 1 : 0, general.comm) > 0;
    std::cout << "  " << general_step->description()
              << "\n  largest difference " << largest_difference
              << (fused ? " (BLAS axpy fused)" : " (BLAS axpy rounded twice)")
              << std::endl;
    EXPECT_LE(largest_difference, fused ? 1e-9 : 0.);
    EXPECT_EQ(general_step->statistics.friction_solves,
              plain_step->statistics.friction_solves);
    EXPECT_EQ(general_step->statistics.friction_iterations,
              plain_step->statistics.friction_iterations);
    EXPECT_NEAR(general_step->statistics.local_dissipated_energy,
                plain_step->statistics.local_dissipated_energy,
                1e-12 *
                  std::abs(general_step->statistics.local_dissipated_energy));
    EXPECT_GT(Utilities::MPI::sum(n_stuck, general.comm), 0u);
    EXPECT_GT(Utilities::MPI::sum(n_moving, general.comm), 0u);
  }



  TEST(ReplicatedSplitting, LieConsistentMassSemismoothNewton)
  {
    expect_same_runs(numerics(Parameters::Scheme::lie), 30, true, true);
  }



  TEST(ReplicatedSplitting, StrangConsistentMassSemismoothNewton)
  {
    expect_same_runs(numerics(Parameters::Scheme::strang), 12, true, false);
  }



  TEST(ReplicatedSplitting, LieLumpedClosedFormLeapfrog)
  {
    Parameters::Numerics run = numerics(Parameters::Scheme::lie);
    run.friction.solver      = Parameters::FrictionSolverType::closed_form;
    run.splitting            = {2, 3, 0.};
    expect_same_runs(run, 20, false, true);
  }



  TEST(ReplicatedSplitting, LieLumpedSemismoothNewtonImplicit)
  {
    expect_same_runs(numerics(Parameters::Scheme::lie), 20, false, false);
  }



  TEST(ReplicatedCentered, FixedPoint)
  {
    expect_same_runs(numerics(Parameters::Scheme::centered), 12, true, false);
  }



  TEST(ReplicatedCentered, SemismoothNewton)
  {
    Parameters::Numerics run = numerics(Parameters::Scheme::centered);
    run.centered.multiplier_solver =
      Parameters::CenteredMultiplierSolver::friction_solver;
    expect_same_runs(run, 30, true, false);
  }



  TEST(ReplicatedCentered, ClosedFormExplicit)
  {
    Parameters::Numerics run = numerics(Parameters::Scheme::centered);
    run.centered.multiplier_solver =
      Parameters::CenteredMultiplierSolver::friction_solver;
    run.friction.solver = Parameters::FrictionSolverType::closed_form;
    run.splitting.alpha = 0;
    expect_same_runs(run, 20, false, false);
  }



  // The friction step alone, 60 solves with changing right-hand sides and
  // the warm start of the previous solve, against the distributed solver's
  // dense path: the same bits and iteration counts.
  TEST(ReplicatedSemismoothNewton, SameAsDistributedDensePath)
  {
    const unsigned int d = 25;
    FrictionSystem     system(MPI_COMM_WORLD);
    fill_chain(system, d, true);
    Parameters::Numerics   run = numerics(Parameters::Scheme::lie);
    SemismoothNewtonSolver distributed(system, run.friction, run.linear_solver);
    // The weights as the replicated solver sees them.
    const dealii::Vector<double> c =
      replicate(system.friction_weights, system.comm);
    ReplicatedSemismoothNewton solver(system.replicated_mass(),
                                      std::vector<double>(c.begin(), c.end()),
                                      1000);
    const double               tau = 0.002;
    distributed.set_substep(tau);
    solver.set_substep(tau);
    DistributedVector b(system.locally_owned, system.comm), w(b), lambda(b),
      warm(b);
    std::vector<double> b_all(d), w_all(d), lambda_all(d), warm_all(d, 0.);
    unsigned int        n_stuck = 0, n_slipping = 0;
    for (unsigned int n = 0; n < 60; ++n)
      {
        for (unsigned int i = 0; i < d; ++i)
          b_all[i] = 0.02 * std::sin(0.3 * n + 1.1 * i);
        set_owned_values(b_all, b);
        const unsigned int iterations = distributed.solve(b, w, lambda, warm);
        EXPECT_EQ(solver.solve(b_all.data(),
                               w_all.data(),
                               lambda_all.data(),
                               warm_all.data()),
                  iterations)
          << "solve " << n;
        const dealii::Vector<double> w_distributed = replicate(w, system.comm);
        const dealii::Vector<double> lambda_distributed =
          replicate(lambda, system.comm);
        for (unsigned int i = 0; i < d; ++i)
          {
            EXPECT_TRUE(w_all[i] == w_distributed[i]) << n << ", " << i;
            EXPECT_TRUE(same_bits(lambda_all[i], lambda_distributed[i]))
              << n << ", " << i;
            if (c[i] > 0)
              ++(w_all[i] == 0 ? n_stuck : n_slipping);
          }
      }
    EXPECT_GT(n_stuck, 0u);
    EXPECT_GT(n_slipping, 0u);
  }
} // namespace unit_replicated_steps
