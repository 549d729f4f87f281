// The main() of every unit-test executable: MPI and PETSc initialized once
// for the process by deal.II's MPI_InitFinalize (as in the application's
// main), GoogleTest on every rank. Rank 0 prints GoogleTest's usual report;
// the other ranks print only their failed assertions, prefixed by the rank,
// and the exit status is that of the worst rank, so a failure on any rank
// fails the test under mpirun.
#include <deal.II/base/mpi.h>

#include <gtest/gtest.h>

#include <cstdio>

namespace
{
  /** Failed assertions of a rank other than 0, one line each. */
  class RankFailurePrinter : public ::testing::EmptyTestEventListener
  {
  public:
    explicit RankFailurePrinter(const unsigned int rank)
      : rank(rank)
    {}

    void
    OnTestPartResult(const ::testing::TestPartResult &result) override
    {
      if (result.failed())
        std::printf("[rank %u] %s:%d: Failure\n%s\n",
                    rank,
                    result.file_name() != nullptr ? result.file_name() : "?",
                    result.line_number(),
                    result.summary());
    }

  private:
    const unsigned int rank;
  };
} // namespace



int
main(int argc, char **argv)
{
  dealii::Utilities::MPI::MPI_InitFinalize mpi_initialization(argc, argv, 1);
  ::testing::InitGoogleTest(&argc, argv);

  const unsigned int rank =
    dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD);
  if (rank > 0)
    {
      ::testing::TestEventListeners &listeners =
        ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
      listeners.Append(new RankFailurePrinter(rank));
    }

  const int status = RUN_ALL_TESTS();
  return dealii::Utilities::MPI::max(status, MPI_COMM_WORLD);
}
