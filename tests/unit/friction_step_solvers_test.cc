// Unit tests of the friction-step solvers (src/friction/*_solver.h, built by
// create_friction_step_solver): each solves, for one sub-step tau,
//
//   M W + tau C lambda = b,   lambda_i in Sgn(w_i) (c_i > 0),  lambda_i = 0
//   (c_i = 0),
//
// the optimality system of the strictly convex W = argmin 1/2 MV.V +
// tau sum c_i |v_i| - b.V, so W is unique, and so is lambda_i where c_i > 0
// (row i gives it from W). Each system below has a solution derived by hand
// in its comment; a candidate that satisfies every row and every sign
// condition is the solution.
//
// Tolerances (eps = 2.2e-16 the machine epsilon, every datum of order 1;
// the errors measured when this was written are given in brackets):
// - closed form: one division per entry, exact where the data are
//   (4 eps allows for the rounded ones, e.g. 1.2/1.5) [eps/2];
// - semismooth Newton: once the sets are right, one backward-stable
//   Cholesky solve with M (condition number at most
//   (2 + sqrt 2)/(2 - sqrt 2) = 5.8) and one residual: 16 eps [1.5 eps];
// - projection: stops when the multiplier changes by at most
//   max(Friction/Tolerance = 1e-14, its noise floor 16 eps rho c |W| ~ 1e-14);
//   the iteration contracts by q <= 0.47 on these systems (derived below),
//   so lambda is within q/(1 - q) 1e-14 <= 0.9e-14 and W within
//   |M^{-1}| tau c times that <= 1.6e-14 of the solution: 1e-13 [1.2e-14];
// - penalty/Newton: solves the penalized problem (67), whose multiplier
//   differs from lambda by O(sqrt(eps)) where stuck and sliding components
//   are coupled (doc/theory.md §1.10); against the penalized solution, derived
//   in closed form below, Newton converges quadratically (stopped at a step
//   <= 1e-14), leaving the round-off of the order-one terms of F (A mu,
//   beta, x^2/eps) and of W = M^{-1}(...): 64 eps [5 eps].
//
// The whole executable also runs under mpirun -np 2 (the rows split over
// the ranks, a rank may own none): the results are the same.
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/full_matrix.h>

#include <base/input_error.h>
#include <friction/friction_parameters.h>
#include <friction/friction_step_solver.h>
#include <friction/friction_system.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_friction_step_solvers
{
  using namespace stickslip;

  constexpr double eps = std::numeric_limits<double>::epsilon();

  constexpr double closed_form_tolerance       = 4 * eps;
  constexpr double semismooth_newton_tolerance = 16 * eps;
  constexpr double projection_tolerance        = 1e-13;
  constexpr double penalty_newton_tolerance    = 64 * eps;

  /**
   * Fill @p system with the dense @p mass (replicated data, rows split
   * evenly over the ranks) and the friction weights @p c, as a model does.
   */
  void
  fill_system(const FullMatrix<double>  &mass,
              const std::vector<double> &c,
              FrictionSystem            &system)
  {
    const unsigned int d    = mass.m();
    const MPI_Comm     comm = system.comm;
    system.locally_owned    = Utilities::create_evenly_distributed_partitioning(
      Utilities::MPI::this_mpi_process(comm),
      Utilities::MPI::n_mpi_processes(comm),
      d);
    DynamicSparsityPattern pattern(d, d);
    for (unsigned int i = 0; i < d; ++i)
      for (unsigned int j = 0; j < d; ++j)
        if (i == j || mass(i, j) != 0)
          pattern.add(i, j);
    system.mass.reinit(system.locally_owned,
                       system.locally_owned,
                       pattern,
                       comm);
    for (const auto i : system.locally_owned)
      for (unsigned int j = 0; j < d; ++j)
        if (pattern.exists(i, j))
          system.mass.set(i, j, mass(i, j));
    system.mass.compress(VectorOperation::insert);
    system.friction_weights.reinit(system.locally_owned, comm);
    for (const auto i : system.locally_owned)
      system.friction_weights[i] = c[i];
    system.friction_weights.compress(VectorOperation::insert);
    system.finalize();
  }



  DistributedVector
  distributed(const std::vector<double> &values, const FrictionSystem &system)
  {
    DistributedVector vector(system.locally_owned, system.comm);
    for (const auto i : system.locally_owned)
      vector[i] = values[i];
    vector.compress(VectorOperation::insert);
    return vector;
  }



  /** Every entry on every rank (collective). */
  std::vector<double>
  replicated(const DistributedVector &vector, const MPI_Comm comm)
  {
    std::vector<double> values(vector.size(), 0.);
    for (const auto i : vector.locally_owned_elements())
      values[i] = vector(i);
    std::vector<double> sums(values.size());
    Utilities::MPI::sum(values, comm, sums);
    return sums;
  }



  FullMatrix<double>
  dense(const std::vector<std::vector<double>> &rows)
  {
    FullMatrix<double> matrix(rows.size(), rows.size());
    for (unsigned int i = 0; i < rows.size(); ++i)
      for (unsigned int j = 0; j < rows.size(); ++j)
        matrix(i, j) = rows[i][j];
    return matrix;
  }



  /** The parameters the factory reads: Friction and Linear solver. */
  struct SolverParameters
  {
    Parameters::Friction     friction;
    Parameters::LinearSolver linear_solver;
  };

  SolverParameters
  run_parameters(const Parameters::FrictionSolverType solver,
                 const double                         penalty_epsilon = 1e-4)
  {
    SolverParameters run{};
    run.friction.solver          = solver;
    run.friction.tolerance       = 1e-14;
    run.friction.max_iterations  = 10000;
    run.friction.projection_rho  = 0; // automatic: 1/(tau beta_d)
    run.friction.penalty_epsilon = penalty_epsilon;
    run.linear_solver.type       = Parameters::LinearSolverType::automatic;
    run.linear_solver.tolerance  = 1e-14;
    run.linear_solver.direct_size_limit = 1000;
    return run;
  }



  /** W, lambda and the iteration count of one solve. */
  struct StepResult
  {
    std::vector<double> w;
    std::vector<double> lambda;
    unsigned int        iterations;
  };



  /**
   * One friction step on the system (M, c) with @p solver, from the
   * multiplier @p warm_start (zero: a cold start).
   */
  StepResult
  solve_step(const FullMatrix<double>            &mass,
             const std::vector<double>           &c,
             const double                         tau,
             const std::vector<double>           &b,
             const Parameters::FrictionSolverType solver,
             const double                         penalty_epsilon = 1e-4,
             std::vector<double>                  warm_start      = {})
  {
    FrictionSystem system(MPI_COMM_WORLD);
    fill_system(mass, c, system);
    const SolverParameters run = run_parameters(solver, penalty_epsilon);
    const ParameterSource  source;
    const std::unique_ptr<FrictionStepSolver> step_solver =
      create_friction_step_solver(run.friction,
                                  run.linear_solver,
                                  system,
                                  source);
    step_solver->set_substep(tau);

    if (warm_start.empty())
      warm_start.assign(b.size(), 0.);
    const DistributedVector right_hand_side = distributed(b, system);
    DistributedVector       w(system.locally_owned, system.comm);
    DistributedVector       lambda(system.locally_owned, system.comm);
    DistributedVector       start = distributed(warm_start, system);
    const unsigned int      iterations =
      step_solver->solve(right_hand_side, w, lambda, start);
    return {replicated(w, system.comm),
            replicated(lambda, system.comm),
            iterations};
  }



  void
  expect_solution(const StepResult          &result,
                  const std::vector<double> &w,
                  const std::vector<double> &lambda,
                  const double               tolerance)
  {
    ASSERT_EQ(result.w.size(), w.size());
    for (unsigned int i = 0; i < w.size(); ++i)
      {
        EXPECT_NEAR(result.w[i], w[i], tolerance) << "w_" << i;
        EXPECT_NEAR(result.lambda[i], lambda[i], tolerance) << "lambda_" << i;
      }
  }



  using Solver = Parameters::FrictionSolverType;

  /** The solvers with their round-off tolerances (see the file comment). */
  struct SolverCase
  {
    Solver      solver;
    double      tolerance;
    const char *name;
  };

  const SolverCase every_solver[] = {
    {Solver::closed_form, closed_form_tolerance, "ClosedForm"},
    {Solver::projection, projection_tolerance, "Projection"},
    {Solver::penalty_newton, penalty_newton_tolerance, "PenaltyNewton"},
    {Solver::semismooth_newton,
     semismooth_newton_tolerance,
     "SemismoothNewton"}};

  /** The solvers that accept a non-diagonal M (not the closed form). */
  const SolverCase general_mass_solvers[] = {{Solver::projection,
                                              projection_tolerance,
                                              "Projection"},
                                             {Solver::semismooth_newton,
                                              semismooth_newton_tolerance,
                                              "SemismoothNewton"}};

  /** GoogleTest prints a parameter by its name (not its bytes). */
  void
  PrintTo(const SolverCase &solver_case, std::ostream *out)
  {
    *out << solver_case.name;
  }

  std::string
  solver_name(const ::testing::TestParamInfo<SolverCase> &info)
  {
    return info.param.name;
  }



  // ---- Diagonal M: every solver, the exact solution Glowinski et al. 2006,
  // eq. (53): lambda_i = P_[-1,1](b_i/(tau c_i)), w_i = S_{tau c_i}(b_i)/m_i.
  // The penalty method is exact here too: with one component, or uncoupled
  // ones, each penalized multiplier is clipped back to +-1 when sliding and
  // the penalty is inactive when stuck.
  class DiagonalMassTest : public ::testing::TestWithParam<SolverCase>
  {};

  // 1 dof, m = 2, c = 3, tau = 1/2 (tau c = 1.5), |b| = 1.2 <= tau c:
  // stuck, w = 0, lambda = b/(tau c) = 0.8.
  TEST_P(DiagonalMassTest, OneDofStick)
  {
    const auto result =
      solve_step(dense({{2.}}), {3.}, 0.5, {1.2}, GetParam().solver);
    expect_solution(result, {0.}, {0.8}, GetParam().tolerance);
    // Stuck means exactly at rest for the closed form and semismooth Newton.
    if (GetParam().solver == Solver::closed_form ||
        GetParam().solver == Solver::semismooth_newton)
      {
        EXPECT_EQ(result.w[0], 0.);
      }
  }

  // 1 dof, m = 2, tau c = 1.5, b = +-4: sliding, lambda = sign(b) = +-1,
  // w = (b - tau c lambda)/m = +-(4 - 1.5)/2 = +-1.25.
  TEST_P(DiagonalMassTest, OneDofSlip)
  {
    expect_solution(
      solve_step(dense({{2.}}), {3.}, 0.5, {4.}, GetParam().solver),
      {1.25},
      {1.},
      GetParam().tolerance);
    expect_solution(
      solve_step(dense({{2.}}), {3.}, 0.5, {-4.}, GetParam().solver),
      {-1.25},
      {-1.},
      GetParam().tolerance);
  }

  // At the threshold |b| = tau c (b = 1.5) both descriptions agree: w = 0,
  // lambda = 1.
  TEST_P(DiagonalMassTest, OneDofAtThreshold)
  {
    expect_solution(
      solve_step(dense({{2.}}), {3.}, 0.5, {1.5}, GetParam().solver),
      {0.},
      {1.},
      GetParam().tolerance);
  }

  // 2 dofs, M = diag(2, 4), c = (1, 0), tau = 1, b = (3, 2): component 1
  // slides (|3| > 1): w_1 = (3 - 1)/2 = 1, lambda_1 = 1; component 2 is
  // frictionless: lambda_2 = 0, w_2 = b_2/m_2 = 0.5.
  TEST_P(DiagonalMassTest, FrictionlessComponent)
  {
    const auto result = solve_step(
      dense({{2., 0.}, {0., 4.}}), {1., 0.}, 1., {3., 2.}, GetParam().solver);
    expect_solution(result, {1., 0.5}, {1., 0.}, GetParam().tolerance);
    EXPECT_EQ(result.lambda[1], 0.) << "a frictionless multiplier is exactly 0";
  }

  INSTANTIATE_TEST_SUITE_P(FrictionStepSolvers,
                           DiagonalMassTest,
                           ::testing::ValuesIn(every_solver),
                           solver_name);



  // ---- Coupled M (not diagonal): one component stuck, one sliding.
  class CoupledMassTest : public ::testing::TestWithParam<SolverCase>
  {};

  // 2 dofs, M = [2 1; 1 2], C = I, tau = 1, b = (3/2, 3). Try w_1 = 0 (stuck)
  // and w_2 > 0 (lambda_2 = 1): row 2: 2 w_2 + 1 = 3 -> w_2 = 1 > 0;
  // row 1: w_2 + lambda_1 = 3/2 -> lambda_1 = 1/2 in [-1, 1]. So
  // W = (0, 1), lambda = (1/2, 1).
  // Projection: beta_d = lambda_max(M^{-1}) = 1 (eigenvalues of M: 1, 3),
  // rho = 1/(tau beta_d) = 1; on the stuck component the iteration is
  // lambda_1 <- lambda_1 + rho (M^{-1})_11 (...), q = 1 - (M^{-1})_11 = 1/3.
  TEST_P(CoupledMassTest, TwoDofStickAndSlip)
  {
    const auto result = solve_step(
      dense({{2., 1.}, {1., 2.}}), {1., 1.}, 1., {1.5, 3.}, GetParam().solver);
    expect_solution(result, {0., 1.}, {0.5, 1.}, GetParam().tolerance);
  }

  // 3 dofs, M = [2 1 0; 1 2 1; 0 1 2], c = (1, 1, 0), tau = 1,
  // b = (5/4, 7/2, 2). Try w_1 = 0 (stuck), lambda_2 = 1 (w_2 > 0),
  // lambda_3 = 0 (frictionless): rows 2 and 3: 2 w_2 + w_3 = 7/2 - 1,
  // w_2 + 2 w_3 = 2 -> w_2 = 1 > 0, w_3 = 1/2; row 1: w_2 + lambda_1 = 5/4
  // -> lambda_1 = 1/4. So W = (0, 1, 1/2), lambda = (1/4, 1, 0).
  // Projection: M^{-1} = [3 -2 1; -2 4 -2; 1 -2 3]/4, beta_d = largest
  // eigenvalue of C M^{-1} C = [3 -2; -2 4]/4 on (1, 2), (7 + sqrt 17)/8
  // = 1.39, rho = 0.719; q = 1 - rho (M^{-1})_11 = 1 - 0.719 * 3/4 = 0.46.
  TEST_P(CoupledMassTest, ThreeDofStickSlipAndFrictionless)
  {
    const auto result =
      solve_step(dense({{2., 1., 0.}, {1., 2., 1.}, {0., 1., 2.}}),
                 {1., 1., 0.},
                 1.,
                 {1.25, 3.5, 2.},
                 GetParam().solver);
    expect_solution(result,
                    {0., 1., 0.5},
                    {0.25, 1., 0.},
                    GetParam().tolerance);
    EXPECT_EQ(result.lambda[2], 0.) << "a frictionless multiplier is exactly 0";
  }

  INSTANTIATE_TEST_SUITE_P(FrictionStepSolvers,
                           CoupledMassTest,
                           ::testing::ValuesIn(general_mass_solvers),
                           solver_name);



  // ---- Penalty/Newton on the coupled systems: the exact solution of the
  // penalized problem (67). With A = tau C M^{-1} C and beta = C M^{-1} b on
  // the frictional components, Newton solves (70)
  //   A mu - beta + [((mu - 1)^+)^2 - ((mu + 1)^-)^2]/eps = 0.
  // With mu_1 inside (-1, 1) and mu_2 = 1 + x, x > 0: row 1 gives
  // mu_1 = (beta_1 - A_12 mu_2)/A_11, and row 2 then
  //   x^2/eps + s x - (g - s) = 0,  s = A_22 - A_12^2/A_11,
  //   g = beta_2 - A_21 beta_1/A_11,
  // whose positive root is x = 2 (g - s)/(s + sqrt(s^2 + 4 (g - s)/eps))
  // (the form without cancellation); x <= sqrt(eps (g - s)). The solver
  // reports lambda = P_Lambda(mu) = (mu_1, 1) and W = M^{-1}(b - tau C lambda).
  double
  penalty_overshoot(const double s, const double g, const double epsilon)
  {
    return 2 * (g - s) / (s + std::sqrt(s * s + 4 * (g - s) / epsilon));
  }

  // 2 dofs as in TwoDofStickAndSlip: M^{-1} = [2 -1; -1 2]/3, A = M^{-1},
  // beta = M^{-1} b = (0, 3/2): s = 2/3 - (1/9)/(2/3) = 1/2, g = 3/2,
  // mu_1 = (0 + (1 + x)/3)/(2/3) = (1 + x)/2,
  // W = M^{-1}(3/2 - (1 + x)/2, 2) = (-x/3, 1 + x/6).
  TEST(FrictionStepSolvers, PenaltyNewtonTwoDofPenalizedClosedForm)
  {
    for (const double epsilon : {1e-4, 1e-8})
      {
        const double x      = penalty_overshoot(0.5, 1.5, epsilon);
        const auto   result = solve_step(dense({{2., 1.}, {1., 2.}}),
                                       {1., 1.},
                                       1.,
                                       {1.5, 3.},
                                       Solver::penalty_newton,
                                       epsilon);
        SCOPED_TRACE("eps = " + std::to_string(epsilon));
        expect_solution(result,
                        {-x / 3, 1 + x / 6},
                        {(1 + x) / 2, 1.},
                        penalty_newton_tolerance);
        // The consistency error of (67): O(sqrt(eps)).
        EXPECT_LE(x, std::sqrt(epsilon * (1.5 - 0.5)));
        EXPECT_GT(x, 0.9 * std::sqrt(epsilon * (1.5 - 0.5)));
      }
  }

  // 3 dofs as in ThreeDofStickSlipAndFrictionless, frictional set (1, 2):
  // A = [3 -2; -2 4]/4, beta = (M^{-1} b)_(1,2) = (-5/16, 15/8):
  // s = 1 - (1/4)/(3/4) = 2/3, g = 15/8 - (-1/2)(-5/16)/(3/4) = 5/3,
  // mu_1 = (-5/16 + (1 + x)/2)/(3/4) = 1/4 + 2x/3, and
  // W = M^{-1}(b - (1/4 + 2x/3, 1, 0)) = M^{-1}(1 - 2x/3, 5/2, 2)
  //   = (-x/2, 1 + x/3, 1/2 - x/6).
  TEST(FrictionStepSolvers, PenaltyNewtonThreeDofPenalizedClosedForm)
  {
    const double epsilon = 1e-4;
    const double x       = penalty_overshoot(2. / 3, 5. / 3, epsilon);
    const auto   result =
      solve_step(dense({{2., 1., 0.}, {1., 2., 1.}, {0., 1., 2.}}),
                 {1., 1., 0.},
                 1.,
                 {1.25, 3.5, 2.},
                 Solver::penalty_newton,
                 epsilon);
    expect_solution(result,
                    {-x / 2, 1 + x / 3, 0.5 - x / 6},
                    {0.25 + 2 * x / 3, 1., 0.},
                    penalty_newton_tolerance);
    EXPECT_EQ(result.lambda[2], 0.);
  }



  // ---- All solvers agree on one coupled system, each to its tolerance:
  // semismooth Newton and projection to round-off, penalty/Newton at
  // eps = 1e-10 to its consistency error: |lambda - lambda_eps| = 2x/3 with
  // x <= sqrt(eps (g - s)) = 1e-5, and |W - W_eps| <= |M^{-1}| 2x/3 =
  // 2x/(3 (2 - sqrt 2)) = 1.14 x; 2 sqrt(eps) bounds both.
  TEST(FrictionStepSolvers, AllSolversAgreeOnCoupledSystem)
  {
    const FullMatrix<double> M =
      dense({{2., 1., 0.}, {1., 2., 1.}, {0., 1., 2.}});
    const std::vector<double> c = {1., 1., 0.};
    const std::vector<double> b = {1.25, 3.5, 2.};
    const auto   reference = solve_step(M, c, 1., b, Solver::semismooth_newton);
    const auto   projection = solve_step(M, c, 1., b, Solver::projection);
    const double epsilon    = 1e-10;
    const auto   penalty =
      solve_step(M, c, 1., b, Solver::penalty_newton, epsilon);
    expect_solution(projection,
                    reference.w,
                    reference.lambda,
                    projection_tolerance + semismooth_newton_tolerance);
    expect_solution(penalty,
                    reference.w,
                    reference.lambda,
                    2 * std::sqrt(epsilon));
  }



  // ---- Semismooth Newton on a diagonal M: its complementarity scaling
  // rho_i = m_ii/(tau c_i^2) makes the first set update exact (from the
  // stuck guess lambda_i = P(b_i/(tau c_i)), the closed form's multiplier).
  // Warm-started with the closed form's multiplier (the sets of the
  // solution, as from the previous time step) it needs exactly 1 iteration
  // and returns the closed form bitwise. From a cold start (all stuck) it
  // needs 1 iteration when nothing slides and 2 when something does: one
  // to find the sets, one to confirm them.
  TEST(FrictionStepSolvers, SemismoothNewtonDiagonalMassIterations)
  {
    const FullMatrix<double> M =
      dense({{2., 0., 0.}, {0., 4., 0.}, {0., 0., 1.}});
    const std::vector<double> c   = {3., 1., 2.};
    const double              tau = 0.5;
    // tau c = (1.5, 0.5, 1): component 1 stuck, 2 sliding up, 3 sliding down.
    const std::vector<double> b = {1.2, 2.5, -3.};
    const auto closed_form      = solve_step(M, c, tau, b, Solver::closed_form);
    expect_solution(closed_form,
                    {0., (2.5 - 0.5) / 4, (-3. + 1.) / 1},
                    {0.8, 1., -1.},
                    closed_form_tolerance);

    const auto warm = solve_step(
      M, c, tau, b, Solver::semismooth_newton, 1e-4, closed_form.lambda);
    EXPECT_EQ(warm.iterations, 1u);
    for (unsigned int i = 0; i < b.size(); ++i)
      {
        EXPECT_EQ(warm.w[i], closed_form.w[i]) << i;
        EXPECT_EQ(warm.lambda[i], closed_form.lambda[i]) << i;
      }

    const auto cold = solve_step(M, c, tau, b, Solver::semismooth_newton);
    EXPECT_EQ(cold.iterations, 2u);
    expect_solution(cold,
                    closed_form.w,
                    closed_form.lambda,
                    closed_form_tolerance);

    const auto all_stuck =
      solve_step(M, c, tau, {1.2, 0.25, -0.5}, Solver::semismooth_newton);
    EXPECT_EQ(all_stuck.iterations, 1u);
    expect_solution(all_stuck,
                    {0., 0., 0.},
                    {0.8, 0.5, -0.5},
                    closed_form_tolerance);
  }



  // ---- The factory refuses the closed form for a non-diagonal M, naming
  // the parameter.
  TEST(FrictionStepSolvers, ClosedFormRefusesNonDiagonalMass)
  {
    FrictionSystem system(MPI_COMM_WORLD);
    fill_system(dense({{2., 1.}, {1., 2.}}), {1., 1.}, system);
    const SolverParameters run = run_parameters(Solver::closed_form);
    const ParameterSource  source;
    try
      {
        create_friction_step_solver(run.friction,
                                    run.linear_solver,
                                    system,
                                    source);
        ADD_FAILURE() << "no InputError";
      }
    catch (const InputError &error)
      {
        EXPECT_NE(std::string(error.what()).find("Friction/Solver"),
                  std::string::npos)
          << error.what();
        EXPECT_NE(std::string(error.what()).find("diagonal"), std::string::npos)
          << error.what();
      }
  }
} // namespace unit_friction_step_solvers
