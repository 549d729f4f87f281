// A STREAM-like triad a = b + s c, the memory-bandwidth limit the benchmarks
// compare against. Run under mpirun to load several cores at once: every
// rank measures its own bandwidth while the others run, and rank 0 prints
// the per-rank mean in GB/s (bytes counted: 3 x 8 per element, no
// write-allocate). Arrays of 2^25 doubles (256 MiB each) defeat the caches.

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int
main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = 0, n_ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);
  const std::size_t n =
    argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (1ull << 25);
  std::vector<double> a(n, 0.), b(n, 1.), c(n, 2.);
  const double        s    = 3.;
  double              best = 1e300;
  for (int repetition = 0; repetition < 10; ++repetition)
    {
      MPI_Barrier(MPI_COMM_WORLD);
      const auto start = std::chrono::steady_clock::now();
      for (std::size_t i = 0; i < n; ++i)
        a[i] = b[i] + s * c[i];
      const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
      best = std::min(best, seconds);
    }
  const double bandwidth = 3. * 8. * n / best / 1e9;
  double       sum       = 0;
  MPI_Reduce(&bandwidth, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("triad_GBps_per_rank %.3f ranks %d check %.1f\n",
                sum / n_ranks,
                n_ranks,
                a[n / 2]);
  MPI_Finalize();
  return 0;
}
