// The friction step Glowinski et al. 2006, eq. (38) on the consistent-mass
// string,
//   M W + tau C lambda = b,  lambda_i in Sgn(w_i),
// i.e. W = argmin 1/2 W.MW + tau sum c_i |w_i| - b.W, solved by the core's
// semismooth Newton, projection (39)-(41) and penalty/Newton (67)-(74)
// solvers and by PETSc's bound-constrained TAO solvers on the smooth
// reformulation a PETSc user would write: W = W+ - W-, W+- >= 0,
//   min 1/2 (W+ - W-).M(W+ - W-) + tau c.(W+ + W-) - b.(W+ - W-),
// Hessian [[M, -M], [-M, M]] assembled as one AIJ matrix of size 2n.
//
// Fairness: every solver starts cold (lambda = 0, W+- = 0) and every
// iterative one stops on the same KKT residual of (38) in multiplier units,
//   eta(W) = max_i max(dist(mu_i, [-1, 1]), |l_i - P(l_i + m_ii w_i/(tau
//   c_i))|), mu = (b - MW)/(tau c), l = P(mu),
// which is zero exactly at the solution: TAO through a convergence test
// (its own cost, one product with M, is excluded from its time), the
// projection solver through its multiplier-change tolerance (checked
// afterwards), semismooth Newton through its own check of the same residual
// (Friction/Tolerance = the target, Newton step CG tolerance = forcing: its
// default settings), checked again here.
//
// Times are the best of three cold solves (one for the slow projection and
// penalty runs).
//
// Usage: stickslip_friction_step_solvers [n [tolerance [TAO seconds cap
//          [solvers [repetitions]]]]]
// solvers: "all" (the default) or a comma-separated list of the names below
// (e.g. "semismooth_newton" or "tao_blmvm", to profile one of them alone);
// repetitions: cold solves per solver, the best one reported (3).
// Rank 0 prints one line per solver:
//   friction_bench <solver> iterations <k> seconds <t> rel_diff_w <e> ...

#include <deal.II/lac/dynamic_sparsity_pattern.h>

#include <petsctao.h>

#include <base/local_values.h>
#include <friction/penalty_newton_solver.h>
#include <friction/projection_solver.h>
#include <friction/semismooth_newton_solver.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace
{
  using namespace stickslip;

  double
  seconds_since(const std::chrono::steady_clock::time_point start)
  {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
      .count();
  }



  /** One friction step of the string: the system and its right-hand side. */
  struct StringStep
  {
    explicit StringStep(const MPI_Comm comm)
      : system(comm)
    {}

    FrictionSystem    system;
    DistributedVector b;
    DistributedVector tau_c; ///< tau c_i, for the residuals
    double            tau;
    double            g;
  };



  /**
   * The P1 string on (0, 1) with n interior nodes (the Dirichlet ends are
   * eliminated): M = h/6 [1 4 1], A = 1/h [-1 2 -1], c_i = g h. The data
   * are the string's u = sin(pi x) and a third-mode velocity w_prev = pi
   * sin(3 pi x), so that W changes sign inside; b = M w_prev - tau A u is
   * the friction step's right-hand side (Glowinski et al. 2006, eq. (26)) and g
   * = 1/2 pi/tau makes the friction threshold tau g half the velocity
   * amplitude: about a third of the nodes stick.
   */
  std::unique_ptr<StringStep>
  build_string_step(const MPI_Comm comm, const unsigned int n)
  {
    const double dt = 1e-3, P = 10; // prm/string.prm
    auto         step = std::make_unique<StringStep>(comm);
    step->tau         = dt / P;
    step->g           = 0.5 * M_PI / step->tau;
    const double h    = 1. / (n + 1);

    FrictionSystem &system = step->system;
    system.locally_owned =
      Utilities::MPI::create_evenly_distributed_partitioning(comm, n);
    const IndexSet &owned = system.locally_owned;

    DynamicSparsityPattern pattern(n, n, owned);
    for (const auto i : owned)
      for (unsigned int j = (i > 0 ? i - 1 : 0);
           j <= std::min<unsigned int>(i + 1, n - 1);
           ++j)
        pattern.add(i, j);
    DistributedMatrix stiffness;
    system.mass.reinit(owned, owned, pattern, comm);
    stiffness.reinit(owned, owned, pattern, comm);
    for (const auto i : owned)
      {
        system.mass.set(i, i, 4 * h / 6);
        stiffness.set(i, i, 2 / h);
        for (const auto j : {i - 1, i + 1})
          if (j < n) // i - 1 wraps around for i = 0
            {
              system.mass.set(i, j, h / 6);
              stiffness.set(i, j, -1 / h);
            }
      }
    system.mass.compress(VectorOperation::insert);
    stiffness.compress(VectorOperation::insert);

    DistributedVector u(owned, comm), w_prev(owned, comm), scratch(owned, comm);
    system.friction_weights.reinit(owned, comm);
    step->tau_c.reinit(owned, comm);
    step->b.reinit(owned, comm);
    {
      LocalValues  u_values(u), w_values(w_prev);
      LocalValues  c(system.friction_weights), tau_c(step->tau_c);
      unsigned int k = 0;
      for (const auto i : owned)
        {
          const double x = (i + 1) * h;
          u_values[k]    = std::sin(M_PI * x);
          w_values[k]    = M_PI * std::sin(3 * M_PI * x);
          c[k]           = step->g * h;
          tau_c[k]       = step->tau * c[k];
          ++k;
        }
    }
    system.mass.vmult(step->b, w_prev);
    stiffness.vmult(scratch, u);
    step->b.add(-step->tau, scratch);
    system.finalize();
    return step;
  }



  /**
   * The KKT residual eta(W) of (38) in multiplier units (see the head of
   * the file), from W, MW and the data as raw owned arrays.
   */
  double
  kkt_residual(const double     *w,
               const double     *mw,
               const double     *b,
               const double     *tau_c,
               const double     *mass_diagonal,
               const std::size_t n,
               const MPI_Comm    comm)
  {
    double eta = 0;
    for (std::size_t k = 0; k < n; ++k)
      {
        const double mu   = (b[k] - mw[k]) / tau_c[k];
        const double l    = std::min(1., std::max(-1., mu));
        const double z    = l + mass_diagonal[k] * w[k] / tau_c[k];
        const double comp = std::abs(l - std::min(1., std::max(-1., z)));
        eta               = std::max({eta, std::abs(mu - l), comp});
      }
    return Utilities::MPI::max(eta, comm);
  }



  /** The owned entries of a PETSc vector as a raw array, read only. */
  struct ReadArray
  {
    explicit ReadArray(const DistributedVector &vector)
      : vector(static_cast<const Vec &>(vector))
    {
      VecGetArrayRead(this->vector, &data);
    }

    ~ReadArray()
    {
      VecRestoreArrayRead(vector, &data);
    }

    const Vec     vector;
    const double *data;
  };



  /** The measures reported for every solver. */
  struct Accuracy
  {
    double eta;             ///< KKT residual, multiplier units
    double complementarity; ///< max |lambda - P(lambda + rho_i c_i w_i)|
    double equilibrium;     ///< |MW + tau C lambda - b| / |b|
    double rel_diff_w;      ///< max |W - W_ssn| / max |W_ssn|
  };



  Accuracy
  measure(const StringStep        &step,
          const DistributedVector &w,
          const DistributedVector &lambda,
          const DistributedVector *reference)
  {
    const FrictionSystem &system = step.system;
    DistributedVector     mw(system.locally_owned, system.comm);
    system.mass.vmult(mw, w);
    Accuracy accuracy;
    {
      const ReadArray w_values(w), mw_values(mw), b(step.b), tau_c(step.tau_c),
        d(system.mass_diagonal());
      accuracy.eta = kkt_residual(w_values.data,
                                  mw_values.data,
                                  b.data,
                                  tau_c.data,
                                  d.data,
                                  system.locally_owned.n_elements(),
                                  system.comm);
      // rho_i c_i w_i = m_ii w_i/(tau c_i): the scaling of the semismooth
      // Newton solver's complementarity function.
      const ReadArray l(lambda);
      double          comp = 0;
      for (std::size_t k = 0; k < system.locally_owned.n_elements(); ++k)
        comp = std::max(
          comp,
          std::abs(l.data[k] -
                   std::min(1.,
                            std::max(-1.,
                                     l.data[k] + d.data[k] * w_values.data[k] /
                                                   tau_c.data[k]))));
      accuracy.complementarity = Utilities::MPI::max(comp, system.comm);
    }
    DistributedVector r(mw);
    DistributedVector tcl(lambda);
    tcl.scale(step.tau_c);
    r += tcl;
    r -= step.b;
    accuracy.equilibrium = r.l2_norm() / step.b.l2_norm();
    accuracy.rel_diff_w  = std::numeric_limits<double>::quiet_NaN();
    if (reference)
      {
        DistributedVector difference(w);
        difference -= *reference;
        accuracy.rel_diff_w =
          difference.linfty_norm() / reference->linfty_norm();
      }
    return accuracy;
  }



  void
  print_line(const MPI_Comm      comm,
             const std::string  &solver,
             const unsigned int  n,
             const unsigned long iterations,
             const double        seconds,
             const Accuracy     &accuracy,
             const bool          converged,
             const std::string  &extra = "")
  {
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      std::printf(
        "friction_bench %s iterations %lu seconds %.4g rel_diff_w %.3g"
        " n %u eta %.3g complementarity %.3g equilibrium %.3g"
        " converged %d%s\n",
        solver.c_str(),
        iterations,
        seconds,
        accuracy.rel_diff_w,
        n,
        accuracy.eta,
        accuracy.complementarity,
        accuracy.equilibrium,
        converged ? 1 : 0,
        extra.c_str());
    std::fflush(stdout);
  }



  /** Data of the TAO callbacks: the split problem on PETSc objects. */
  struct SplitProblem
  {
    Mat                                   mass;
    Vec                                   w, mw, b, tau_c, mass_diagonal;
    PetscInt                              n_local;
    MPI_Comm                              comm;
    double                                tolerance;
    PetscInt                              max_iterations;
    double                                time_cap;
    std::chrono::steady_clock::time_point start;
    double                                test_seconds;
    unsigned long                         n_evaluations;
    double                                last_eta;
  };



  /** W = X+ - X- into p.w, then p.mw = M W. */
  PetscErrorCode
  difference_and_product(SplitProblem &p, Vec X)
  {
    const PetscScalar *x;
    PetscScalar       *w;
    PetscCall(VecGetArrayRead(X, &x));
    PetscCall(VecGetArray(p.w, &w));
    for (PetscInt k = 0; k < p.n_local; ++k)
      w[k] = x[k] - x[p.n_local + k];
    PetscCall(VecRestoreArray(p.w, &w));
    PetscCall(VecRestoreArrayRead(X, &x));
    PetscCall(MatMult(p.mass, p.w, p.mw));
    return 0;
  }



  PetscErrorCode
  objective_and_gradient(Tao, Vec X, PetscReal *f, Vec G, void *context)
  {
    SplitProblem &p = *static_cast<SplitProblem *>(context);
    PetscCall(difference_and_product(p, X));
    ++p.n_evaluations;
    const PetscScalar *x, *w, *mw, *b, *tau_c;
    PetscScalar       *g;
    PetscCall(VecGetArrayRead(X, &x));
    PetscCall(VecGetArrayRead(p.w, &w));
    PetscCall(VecGetArrayRead(p.mw, &mw));
    PetscCall(VecGetArrayRead(p.b, &b));
    PetscCall(VecGetArrayRead(p.tau_c, &tau_c));
    PetscCall(VecGetArray(G, &g));
    double local = 0;
    for (PetscInt k = 0; k < p.n_local; ++k)
      {
        const double r = mw[k] - b[k];
        local +=
          w[k] * (0.5 * mw[k] - b[k]) + tau_c[k] * (x[k] + x[p.n_local + k]);
        g[k]             = r + tau_c[k];
        g[p.n_local + k] = -r + tau_c[k];
      }
    PetscCall(VecRestoreArray(G, &g));
    PetscCall(VecRestoreArrayRead(p.tau_c, &tau_c));
    PetscCall(VecRestoreArrayRead(p.b, &b));
    PetscCall(VecRestoreArrayRead(p.mw, &mw));
    PetscCall(VecRestoreArrayRead(p.w, &w));
    PetscCall(VecRestoreArrayRead(X, &x));
    *f = Utilities::MPI::sum(local, p.comm);
    return 0;
  }



  /** The Hessian is constant: assembled once, nothing to do here. */
  PetscErrorCode
  constant_hessian(Tao, Vec, Mat, Mat, void *)
  {
    return 0;
  }



  /** Stop on eta(W) <= tolerance, the measure every solver is held to. */
  PetscErrorCode
  kkt_convergence_test(Tao tao, void *context)
  {
    SplitProblem &p          = *static_cast<SplitProblem *>(context);
    const auto    test_start = std::chrono::steady_clock::now();
    Vec           X;
    PetscInt      iteration;
    PetscCall(TaoGetSolution(tao, &X));
    PetscCall(TaoGetIterationNumber(tao, &iteration));
    PetscCall(difference_and_product(p, X));
    const PetscScalar *w, *mw, *b, *tau_c, *d;
    PetscCall(VecGetArrayRead(p.w, &w));
    PetscCall(VecGetArrayRead(p.mw, &mw));
    PetscCall(VecGetArrayRead(p.b, &b));
    PetscCall(VecGetArrayRead(p.tau_c, &tau_c));
    PetscCall(VecGetArrayRead(p.mass_diagonal, &d));
    p.last_eta = kkt_residual(w, mw, b, tau_c, d, p.n_local, p.comm);
    PetscCall(VecRestoreArrayRead(p.mass_diagonal, &d));
    PetscCall(VecRestoreArrayRead(p.tau_c, &tau_c));
    PetscCall(VecRestoreArrayRead(p.b, &b));
    PetscCall(VecRestoreArrayRead(p.mw, &mw));
    PetscCall(VecRestoreArrayRead(p.w, &w));
    if (p.last_eta <= p.tolerance)
      PetscCall(TaoSetConvergedReason(tao, TAO_CONVERGED_USER));
    else if (iteration >= p.max_iterations)
      PetscCall(TaoSetConvergedReason(tao, TAO_DIVERGED_MAXITS));
    else if (seconds_since(p.start) > p.time_cap)
      PetscCall(TaoSetConvergedReason(tao, TAO_DIVERGED_USER));
    else
      PetscCall(TaoSetConvergedReason(tao, TAO_CONTINUE_ITERATING));
    p.test_seconds += seconds_since(test_start);
    return 0;
  }



  /**
   * H = [[M, -M], [-M, M]] on the split unknowns, each rank owning its
   * (W+, W-) block pair: global index 2 s_r + k for w+_i and 2 s_r + n_r + k
   * for w-_i (i = s_r + k owned by rank r).
   */
  Mat
  assemble_split_hessian(const Mat mass, const MPI_Comm comm)
  {
    PetscInt        first, last;
    const PetscInt *ranges;
    PetscMPIInt     n_ranks;
    MatGetOwnershipRange(mass, &first, &last);
    MatGetOwnershipRanges(mass, &ranges);
    MPI_Comm_size(comm, &n_ranks);
    const auto split_index = [&](const PetscInt i, const bool minus) {
      const PetscInt r =
        std::upper_bound(ranges, ranges + n_ranks + 1, i) - ranges - 1;
      return 2 * ranges[r] + (minus ? ranges[r + 1] - ranges[r] : 0) +
             (i - ranges[r]);
    };
    const PetscInt n_local = last - first;
    Mat            hessian;
    MatCreateAIJ(comm,
                 2 * n_local,
                 2 * n_local,
                 PETSC_DETERMINE,
                 PETSC_DETERMINE,
                 6,
                 nullptr,
                 6,
                 nullptr,
                 &hessian);
    for (PetscInt i = first; i < last; ++i)
      {
        PetscInt           n_columns;
        const PetscInt    *columns;
        const PetscScalar *values;
        MatGetRow(mass, i, &n_columns, &columns, &values);
        std::vector<PetscInt>    split_columns(2 * n_columns);
        std::vector<PetscScalar> plus_row(2 * n_columns),
          minus_row(2 * n_columns);
        for (PetscInt j = 0; j < n_columns; ++j)
          {
            split_columns[j]             = split_index(columns[j], false);
            split_columns[n_columns + j] = split_index(columns[j], true);
            plus_row[j]                  = values[j];
            plus_row[n_columns + j]      = -values[j];
            minus_row[j]                 = -values[j];
            minus_row[n_columns + j]     = values[j];
          }
        MatRestoreRow(mass, i, &n_columns, &columns, &values);
        const PetscInt rows[2] = {split_index(i, false), split_index(i, true)};
        MatSetValues(hessian,
                     1,
                     &rows[0],
                     2 * n_columns,
                     split_columns.data(),
                     plus_row.data(),
                     INSERT_VALUES);
        MatSetValues(hessian,
                     1,
                     &rows[1],
                     2 * n_columns,
                     split_columns.data(),
                     minus_row.data(),
                     INSERT_VALUES);
      }
    MatAssemblyBegin(hessian, MAT_FINAL_ASSEMBLY);
    MatAssemblyEnd(hessian, MAT_FINAL_ASSEMBLY);
    return hessian;
  }



  /**
   * PETSc's solvers for bound-constrained minimization: Newton with a line
   * search or a trust region (BNLS, BNTR, TRON) and the quadratic-program
   * solvers (GPCG, BQPIP), all with the assembled Hessian; quasi-Newton
   * (BQNLS, BQNKLS, BLMVM) and nonlinear CG (BNCG) with the gradient only.
   */
  const std::vector<TaoType> tao_solvers = {TAOBNLS,
                                            TAOBNTR,
                                            TAOTRON,
                                            TAOGPCG,
                                            TAOBQPIP,
                                            TAOBQNLS,
                                            TAOBQNKLS,
                                            TAOBNCG,
                                            TAOBLMVM};



  bool
  uses_hessian(const TaoType type)
  {
    for (const TaoType with_hessian :
         {TAOBNLS, TAOBNTR, TAOBNTL, TAOTRON, TAOGPCG, TAOBQPIP})
      if (std::string(type) == with_hessian)
        return true;
    return false;
  }



  struct TaoOutcome
  {
    unsigned long      iterations;
    unsigned long      n_evaluations;
    long               linear_iterations;
    double             seconds;
    double             setup_seconds;
    TaoConvergedReason reason;
    PetscErrorCode     error; ///< of TaoSolve (the solver gave up)
  };



  /** Solve the split problem with TAO solver @p type; W into @p w. */
  TaoOutcome
  solve_with_tao(const StringStep  &step,
                 const TaoType      type,
                 const double       tolerance,
                 const double       time_cap,
                 DistributedVector &w)
  {
    const FrictionSystem &system = step.system;
    const MPI_Comm        comm   = system.comm;
    TaoOutcome            outcome;
    MPI_Barrier(comm);
    const auto setup_start = std::chrono::steady_clock::now();

    SplitProblem p;
    p.mass = static_cast<const Mat &>(system.mass);
    VecDuplicate(static_cast<const Vec &>(step.b), &p.w);
    VecDuplicate(static_cast<const Vec &>(step.b), &p.mw);
    p.b              = static_cast<const Vec &>(step.b);
    p.tau_c          = static_cast<const Vec &>(step.tau_c);
    p.mass_diagonal  = static_cast<const Vec &>(system.mass_diagonal());
    p.n_local        = system.locally_owned.n_elements();
    p.comm           = comm;
    p.tolerance      = tolerance;
    p.max_iterations = 1000000;
    p.time_cap       = time_cap;
    p.test_seconds   = 0;
    p.n_evaluations  = 0;
    p.last_eta       = 0;

    Mat hessian =
      uses_hessian(type) ? assemble_split_hessian(p.mass, comm) : nullptr;
    Vec x, lower, upper;
    VecCreateMPI(comm, 2 * p.n_local, PETSC_DETERMINE, &x);
    VecDuplicate(x, &lower);
    VecDuplicate(x, &upper);
    VecSet(x, 0.);
    VecSet(lower, 0.);
    VecSet(upper, PETSC_INFINITY);

    Tao tao;
    TaoCreate(comm, &tao);
    TaoSetType(tao, type);
    TaoSetSolution(tao, x);
    TaoSetVariableBounds(tao, lower, upper);
    TaoSetObjectiveAndGradient(tao, nullptr, objective_and_gradient, &p);
    if (hessian)
      TaoSetHessian(tao, hessian, hessian, constant_hessian, &p);
    // The KKT test below replaces TAO's gradient tolerances.
    TaoSetTolerances(tao, 0., 0., 0.);
    TaoSetMaximumIterations(tao, 1000000);
    TaoSetMaximumFunctionEvaluations(tao, 100000000);
    TaoSetConvergenceTest(tao, kkt_convergence_test, &p);
    if (hessian)
      {
        // Jacobi, as for semismooth Newton's masked CG (TRON's default
        // ILU fails on the reduced Hessian); -tao_* options still override.
        KSP ksp;
        PC  pc;
        TaoGetKSP(tao, &ksp);
        if (ksp)
          {
            KSPGetPC(ksp, &pc);
            PCSetType(pc, PCJACOBI);
          }
      }
    TaoSetFromOptions(tao);
    TaoSetUp(tao);
    MPI_Barrier(comm);
    outcome.setup_seconds = seconds_since(setup_start);

    p.start       = std::chrono::steady_clock::now();
    outcome.error = TaoSolve(tao);
    MPI_Barrier(comm);
    outcome.seconds = seconds_since(p.start) - p.test_seconds;

    PetscInt iterations, linear_iterations;
    TaoGetIterationNumber(tao, &iterations);
    TaoGetLinearSolveIterations(tao, &linear_iterations);
    TaoGetConvergedReason(tao, &outcome.reason);
    outcome.iterations        = iterations;
    outcome.linear_iterations = linear_iterations;
    outcome.n_evaluations     = p.n_evaluations;

    difference_and_product(p, x);
    VecCopy(p.w, static_cast<const Vec &>(w));

    TaoDestroy(&tao);
    if (hessian)
      MatDestroy(&hessian);
    VecDestroy(&x);
    VecDestroy(&lower);
    VecDestroy(&upper);
    VecDestroy(&p.w);
    VecDestroy(&p.mw);
    return outcome;
  }



  /** The multiplier a W determines: lambda = P((b - MW)/(tau c)). */
  void
  multiplier_of(const StringStep        &step,
                const DistributedVector &w,
                DistributedVector       &lambda)
  {
    step.system.mass.vmult(lambda, w);
    LocalValues      l(lambda);
    ConstLocalValues b(step.b), tau_c(step.tau_c);
    for (std::size_t k = 0; k < l.size(); ++k)
      l[k] = std::min(1., std::max(-1., (b[k] - l[k]) / tau_c[k]));
  }



  double
  stick_fraction(const DistributedVector &w, const MPI_Comm comm)
  {
    ConstLocalValues values(w);
    unsigned long    stuck = 0;
    for (std::size_t k = 0; k < values.size(); ++k)
      stuck += values[k] == 0.;
    return double(Utilities::MPI::sum(stuck, comm)) / w.size();
  }



  /** Cold-started semismooth Newton solve; returns iterations, seconds. */
  std::pair<unsigned int, double>
  run_semismooth_newton(const StringStep               &step,
                        const Parameters::Friction     &friction,
                        const Parameters::LinearSolver &linear_solver,
                        DistributedVector              &w,
                        DistributedVector              &lambda,
                        unsigned long                  &linear_iterations,
                        const unsigned int              repetitions)
  {
    const FrictionSystem  &system = step.system;
    SemismoothNewtonSolver solver(system, friction, linear_solver);
    solver.set_substep(step.tau);
    DistributedVector warm_start(system.locally_owned, system.comm);
    // Best of three cold solves: one solve is a tenth of a second, within
    // the noise of a shared machine.
    double       seconds    = 1e300;
    unsigned int iterations = 0;
    for (unsigned int repetition = 0; repetition < repetitions; ++repetition)
      {
        w                             = 0;
        warm_start                    = 0;
        const unsigned long cg_before = solver.n_linear_iterations();
        MPI_Barrier(system.comm);
        const auto start = std::chrono::steady_clock::now();
        iterations       = solver.solve(step.b, w, lambda, warm_start);
        MPI_Barrier(system.comm);
        seconds           = std::min(seconds, seconds_since(start));
        linear_iterations = solver.n_linear_iterations() - cg_before;
      }
    return {iterations, seconds};
  }



  /** Which solvers to run (the fourth argument) and how often. */
  struct Selection
  {
    Selection(const int argc, char **argv)
      : list(argc > 4 ? std::string(",") + argv[4] + "," : ",all,")
      , repetitions(argc > 5 ? std::max(1, std::atoi(argv[5])) : 3)
    {}

    bool
    operator()(const std::string &solver) const
    {
      return list == ",all," ||
             list.find("," + solver + ",") != std::string::npos;
    }

    const std::string  list;
    const unsigned int repetitions;
  };
} // namespace



int
main(int argc, char **argv)
{
  using namespace stickslip;
  Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  const MPI_Comm                   comm = MPI_COMM_WORLD;
  const unsigned int               n = argc > 1 ? std::atoi(argv[1]) : 1000000;
  const double tolerance             = argc > 2 ? std::atof(argv[2]) : 1e-6;
  const double time_cap              = argc > 3 ? std::atof(argv[3]) : 120;
  const bool   root = Utilities::MPI::this_mpi_process(comm) == 0;

  Parameters::Friction friction;
  friction.solver          = Parameters::FrictionSolverType::semismooth_newton;
  friction.tolerance       = tolerance;
  friction.max_iterations  = 100000;
  friction.projection_rho  = 0;
  friction.penalty_epsilon = 1e-12;
  friction.regularization_eta  = 1e-3;
  friction.arkode_tolerance    = 1e-8;
  friction.newton_cg_tolerance = 0; // forcing, the default
  Parameters::LinearSolver linear_solver;
  linear_solver.type              = Parameters::LinearSolverType::automatic;
  linear_solver.tolerance         = 1e-13;
  linear_solver.direct_size_limit = 20000;
  const ParameterSource source;

  const auto      step   = build_string_step(comm, n);
  FrictionSystem &system = step->system;
  const IndexSet &owned  = system.locally_owned;

  // The reference: semismooth Newton with the tight CG of earlier versions
  // (Friction/Newton step CG tolerance = 1e-13), when it is selected.
  const Selection      selected(argc, argv);
  const unsigned int   repetitions = selected.repetitions;
  Parameters::Friction tight(friction);
  tight.newton_cg_tolerance = 1e-13;
  DistributedVector        w_ssn(owned, comm), lambda_ssn(owned, comm);
  const DistributedVector *reference = nullptr;
  if (selected("semismooth_newton_tight_cg"))
    {
      unsigned long tight_cg                       = 0;
      const auto [tight_iterations, tight_seconds] = run_semismooth_newton(
        *step, tight, linear_solver, w_ssn, lambda_ssn, tight_cg, repetitions);
      reference = &w_ssn;
      // Collective: on every rank, not inside the root's printf.
      const double stuck = stick_fraction(w_ssn, comm);
      if (root)
        std::printf(
          "friction_bench_problem n %u tau %g g %g stick_fraction %.3f"
          " tolerance %g ranks %u\n",
          n,
          step->tau,
          step->g,
          stuck,
          tolerance,
          Utilities::MPI::n_mpi_processes(comm));
      print_line(comm,
                 "semismooth_newton_tight_cg",
                 n,
                 tight_iterations,
                 tight_seconds,
                 measure(*step, w_ssn, lambda_ssn, reference),
                 true,
                 " cg_iterations " + std::to_string(tight_cg));
    }

  // Semismooth Newton at its default settings, held to the common target
  // (Friction/Tolerance = tolerance): the inexact-Newton CG tolerance.
  if (selected("semismooth_newton"))
    {
      DistributedVector w(owned, comm), lambda(owned, comm);
      unsigned long     cg             = 0;
      const auto [iterations, seconds] = run_semismooth_newton(
        *step, friction, linear_solver, w, lambda, cg, repetitions);
      const Accuracy accuracy = measure(*step, w, lambda, reference);
      print_line(comm,
                 "semismooth_newton",
                 n,
                 iterations,
                 seconds,
                 accuracy,
                 accuracy.eta <= tolerance,
                 " cg_iterations " + std::to_string(cg));
    }
  // And at the default Friction/Tolerance (1e-12), for the record.
  if (selected("semismooth_newton_tolerance_1e-12"))
    {
      Parameters::Friction strict(friction);
      strict.tolerance = 1e-12;
      DistributedVector w(owned, comm), lambda(owned, comm);
      unsigned long     cg             = 0;
      const auto [iterations, seconds] = run_semismooth_newton(
        *step, strict, linear_solver, w, lambda, cg, repetitions);
      const Accuracy accuracy = measure(*step, w, lambda, reference);
      print_line(comm,
                 "semismooth_newton_tolerance_1e-12",
                 n,
                 iterations,
                 seconds,
                 accuracy,
                 accuracy.eta <= strict.tolerance,
                 " cg_iterations " + std::to_string(cg));
    }

  // Projection (39)-(41), automatic rho; the mass solver's setup apart. It
  // stops on the change of lambda, not on eta: the loosest power-of-ten
  // tolerance whose result meets eta <= tolerance is the one reported.
  if (selected("projection"))
    {
      Parameters::Friction tightened(friction);
      for (unsigned int attempt = 0; attempt < 4; ++attempt)
        {
          MPI_Barrier(comm);
          const auto       setup_start = std::chrono::steady_clock::now();
          ProjectionSolver solver(system, tightened, linear_solver, source);
          solver.set_substep(step->tau);
          const double      setup = seconds_since(setup_start);
          DistributedVector w(owned, comm), lambda(owned, comm),
            warm_start(owned, comm);
          MPI_Barrier(comm);
          const auto         start = std::chrono::steady_clock::now();
          const unsigned int iterations =
            solver.solve(step->b, w, lambda, warm_start);
          MPI_Barrier(comm);
          const double   seconds  = seconds_since(start);
          const Accuracy accuracy = measure(*step, w, lambda, reference);
          if (accuracy.eta <= tolerance || attempt == 3)
            {
              char extra[96];
              std::snprintf(extra,
                            sizeof(extra),
                            " setup_seconds %.3g lambda_change_tolerance %g",
                            setup,
                            tightened.tolerance);
              print_line(comm,
                         "projection",
                         n,
                         iterations,
                         seconds,
                         accuracy,
                         accuracy.eta <= tolerance,
                         extra);
              break;
            }
          tightened.tolerance /= 10;
        }
    }

  // Penalty/Newton is dense (tau C M^-1 C): at its largest accepted size,
  // against semismooth Newton at the same size.
  if (selected("penalty_newton_small"))
    {
      const unsigned int small_n     = PenaltyNewtonSolver::max_size;
      const auto         small       = build_string_step(comm, small_n);
      const IndexSet    &small_owned = small->system.locally_owned;
      DistributedVector w_ref(small_owned, comm), lambda_ref(small_owned, comm);
      unsigned long     cg                     = 0;
      const auto [ref_iterations, ref_seconds] = run_semismooth_newton(
        *small, friction, linear_solver, w_ref, lambda_ref, cg, repetitions);
      print_line(comm,
                 "semismooth_newton_small",
                 small_n,
                 ref_iterations,
                 ref_seconds,
                 measure(*small, w_ref, lambda_ref, &w_ref),
                 true);
      MPI_Barrier(comm);
      auto                setup_start = std::chrono::steady_clock::now();
      PenaltyNewtonSolver solver(small->system, friction, source);
      solver.set_substep(small->tau);
      const double      setup = seconds_since(setup_start);
      DistributedVector w(small_owned, comm), lambda(small_owned, comm),
        warm_start(small_owned, comm);
      MPI_Barrier(comm);
      const auto         start = std::chrono::steady_clock::now();
      const unsigned int iterations =
        solver.solve(small->b, w, lambda, warm_start);
      MPI_Barrier(comm);
      const double   seconds  = seconds_since(start);
      const Accuracy accuracy = measure(*small, w, lambda, &w_ref);
      char           extra[96];
      std::snprintf(extra,
                    sizeof(extra),
                    " setup_seconds %.3g epsilon %g",
                    setup,
                    friction.penalty_epsilon);
      print_line(comm,
                 "penalty_newton_small",
                 small_n,
                 iterations,
                 seconds,
                 accuracy,
                 accuracy.eta <= tolerance,
                 extra);
      if (root)
        std::printf(
          "friction_bench_note penalty_newton refuses n > %u"
          " (dense tau C M^-1 C, Glowinski et al. 2006, eq. (63)); run at n = %u\n",
          PenaltyNewtonSolver::max_size,
          small_n);
    }

  // PETSc's bound-constrained solvers on the split problem.
  for (const TaoType type : tao_solvers)
    {
      if (!selected(std::string("tao_") + type))
        continue;
      // Best of three like semismooth Newton, unless a solve takes long.
      DistributedVector w(owned, comm), lambda(owned, comm);
      TaoOutcome outcome = solve_with_tao(*step, type, tolerance, time_cap, w);
      for (unsigned int repetition = 1;
           repetition < repetitions && outcome.seconds < 10;
           ++repetition)
        {
          const TaoOutcome again =
            solve_with_tao(*step, type, tolerance, time_cap, w);
          if (again.seconds < outcome.seconds)
            outcome = again;
        }
      multiplier_of(*step, w, lambda);
      const Accuracy accuracy = measure(*step, w, lambda, reference);
      char           extra[192];
      std::snprintf(extra,
                    sizeof(extra),
                    " setup_seconds %.3g objective_gradient_evaluations %lu"
                    " ksp_iterations %ld reason %s%s",
                    outcome.setup_seconds,
                    outcome.n_evaluations,
                    outcome.linear_iterations,
                    TaoConvergedReasons[outcome.reason],
                    outcome.error ? "_PETSC_ERROR" : "");
      print_line(comm,
                 std::string("tao_") + type,
                 n,
                 outcome.iterations,
                 outcome.seconds,
                 accuracy,
                 outcome.reason == TAO_CONVERGED_USER,
                 extra);
    }
  return 0;
}
