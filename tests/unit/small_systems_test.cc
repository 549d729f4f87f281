// Unit tests of the small-system helpers of issue 17: the plain-array
// Cholesky factorization (src/linear_algebra/dense_tools.h), replication of
// a distributed vector (copy on one rank, sum on several: identical
// numbers) and the process set-up before MPI_Init and after it
// (src/base/process_setup.h).
// The Cholesky case is exact: A = L L^T with the integer factor
// L = [2 0 0; 1 3 0; -1 2 4] gives A = [4 2 -2; 2 10 5; -2 5 21], and every
// operation of the factorization and of the solve of A x = A (1, -2, 3) is
// exact in double precision (integers, square roots of perfect squares,
// exact quotients), so the comparisons are ==.
#include <deal.II/lac/full_matrix.h>

#include <base/global.h>
#include <base/local_values.h>
#include <base/process_setup.h>
#include <linear_algebra/dense_tools.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_small_systems
{
  using namespace stickslip;

  TEST(DenseCholesky, ExactIntegerFactor)
  {
    FullMatrix<double> a(3, 3);
    const double       values[3][3] = {{4, 2, -2}, {2, 10, 5}, {-2, 5, 21}};
    for (unsigned int i = 0; i < 3; ++i)
      for (unsigned int j = 0; j < 3; ++j)
        a(i, j) = values[i][j];
    DenseCholesky cholesky;
    EXPECT_EQ(cholesky.size(), 0u);
    cholesky.factorize(a);
    EXPECT_EQ(cholesky.size(), 3u);
    // b = A (1, -2, 3) = (4 - 4 - 6, 2 - 20 + 15, -2 - 10 + 63).
    double x[3] = {-6, -3, 51};
    cholesky.solve(x);
    EXPECT_EQ(x[0], 1.);
    EXPECT_EQ(x[1], -2.);
    EXPECT_EQ(x[2], 3.);
  }

  TEST(DenseCholesky, RefusesIndefinite)
  {
    FullMatrix<double> a(2, 2);
    a(0, 0) = 1;
    a(0, 1) = a(1, 0) = 2;
    a(1, 1)           = 1; // eigenvalues 3 and -1
    DenseCholesky cholesky;
    EXPECT_THROW(cholesky.factorize(a), std::exception);
  }

  // v_i = i + 1 on any number of ranks; replicated, every rank sees all of
  // it, and copy_owned() puts each rank's part back.
  TEST(Replicate, SameOnEveryRank)
  {
    const MPI_Comm     comm = MPI_COMM_WORLD;
    const unsigned int n    = 7;
    const IndexSet owned    = Utilities::create_evenly_distributed_partitioning(
      Utilities::MPI::this_mpi_process(comm),
      Utilities::MPI::n_mpi_processes(comm),
      n);
    DistributedVector vector(owned, comm), back(owned, comm);
    {
      LocalValues values(vector);
      std::size_t k = 0;
      for (const auto i : owned)
        values[k++] = i + 1.;
    }
    dealii::Vector<double> all;
    replicate(vector, comm, all);
    ASSERT_EQ(all.size(), n);
    for (unsigned int i = 0; i < n; ++i)
      EXPECT_EQ(all[i], i + 1.);
    copy_owned(all, back);
    ConstLocalValues original(vector), copied(back);
    for (std::size_t k = 0; k < original.size(); ++k)
      EXPECT_EQ(copied[k], original[k]);
  }

  // A process started by mpirun carries its variables: nothing is set.
  // Without them the two Open MPI variables are set, the user's own value
  // kept. (MPI is already running here: only the environment is tested.)
  TEST(ProcessSetup, SingletonVariables)
  {
    const char       *launched = std::getenv("OMPI_COMM_WORLD_SIZE");
    const std::string saved    = launched != nullptr ? launched : "";
    unsetenv("OMPI_MCA_pml");
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    EXPECT_TRUE(started_by_mpi_launcher());
    EXPECT_FALSE(prepare_singleton_mpi_start());
    EXPECT_EQ(std::getenv("OMPI_MCA_pml"), nullptr);

    unsetenv("OMPI_COMM_WORLD_SIZE");
    unsetenv("OMPI_COMM_WORLD_RANK");
    unsetenv("PMIX_RANK");
    unsetenv("PMI_RANK");
    unsetenv("PMI_SIZE");
    EXPECT_FALSE(started_by_mpi_launcher());
    EXPECT_TRUE(prepare_singleton_mpi_start());
    EXPECT_EQ(std::string(std::getenv("OMPI_MCA_pml")), "ob1");
    EXPECT_FALSE(prepare_singleton_mpi_start()) << "it is set now";
    setenv("OMPI_MCA_pml", "ucx", 1); // the user's choice wins
    EXPECT_FALSE(prepare_singleton_mpi_start());
    EXPECT_EQ(std::string(std::getenv("OMPI_MCA_pml")), "ucx");
    if (launched != nullptr)
      setenv("OMPI_COMM_WORLD_SIZE", saved.c_str(), 1);
  }

  // After limit_blas_threads() (the gtest main does not call it): one
  // thread each, and OpenBLAS, where loaded, at one thread; the variables it
  // sets for child processes are not taken for the user's.
  TEST(ProcessSetup, OneBlasThread)
  {
    if (std::getenv("OPENBLAS_NUM_THREADS") != nullptr ||
        std::getenv("GOTO_NUM_THREADS") != nullptr ||
        std::getenv("OMP_NUM_THREADS") != nullptr)
      GTEST_SKIP() << "the user's thread variables are set";
    limit_blas_threads();
    const std::string text = thread_description();
    EXPECT_EQ(text.rfind("1 thread each", 0), 0u) << text;
    if (text.find("OpenBLAS") != std::string::npos)
      EXPECT_NE(text.find("(OpenBLAS: 1 thread)"), std::string::npos) << text;
    EXPECT_EQ(std::string(std::getenv("OPENBLAS_NUM_THREADS")), "1");
    EXPECT_EQ(thread_description().find("set by"), std::string::npos)
      << thread_description();
  }
} // namespace unit_small_systems
