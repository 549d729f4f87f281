// Throughput of the slab's interior transport (CharacteristicTransport, the
// kernel of Model = slab): node-updates per second per rank for the upwind
// scheme (42)-(43) and Lax-Wendroff, at CFL 0.9, on 2^22 cells split over the
// ranks (each rank exchanges one ghost node with each neighbour per step).
// Run under mpirun to load several cores; rank 0 prints one line per scheme:
//   slab_<scheme>_updates_per_s_per_rank RATE ranks P
// A node-update reads b+ and b- (6 doubles) and writes them (6 doubles):
// 96 bytes at least, the figure bench/run.sh divides the triad bandwidth by.

#include <models/slab/characteristic_transport.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

int
main(int argc, char **argv)
{
  using namespace stickslip;
  Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  const MPI_Comm                   comm = MPI_COMM_WORLD;
  const unsigned int n_cells = argc > 1 ? std::atoi(argv[1]) : (1u << 22);
  const unsigned int n_steps = argc > 2 ? std::atoi(argv[2]) : 60;
  const double       H = 0.05, c1 = 3141.9, c2 = 5784.6;
  const double       dt = 0.9 * H / n_cells / c2;
  for (const auto scheme :
       {Slab::InteriorScheme::upwind, Slab::InteriorScheme::lax_wendroff})
    {
      Slab::CharacteristicTransport transport(
        comm, n_cells, H, c1, c2, dt, scheme);
      transport.initialize(
        [](const double z, const unsigned int k) {
          return std::sin(40 * z + k);
        },
        [](const double z, const unsigned int k) {
          return 1e-3 * std::cos(40 * z + k);
        });
      double best = 1e300;
      for (unsigned int repetition = 0; repetition < 3; ++repetition)
        {
          MPI_Barrier(comm);
          const auto start = std::chrono::steady_clock::now();
          for (unsigned int n = 0; n < n_steps; ++n)
            {
              transport.advance();
              if (transport.owns_bottom())
                transport.set_bottom_velocity({{0., 0., 0.}});
            }
          MPI_Barrier(comm);
          best = std::min(best,
                          std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count());
        }
      const unsigned int ranks = Utilities::MPI::n_mpi_processes(comm);
      const double       rate  = double(n_cells + 1) * n_steps / best / ranks;
      const double       check = transport.max_normal_characteristic();
      if (Utilities::MPI::this_mpi_process(comm) == 0)
        std::printf("slab_%s_updates_per_s_per_rank %.4g ranks %u check %.3f\n",
                    scheme == Slab::InteriorScheme::upwind ? "upwind" :
                                                             "lax_wendroff",
                    rate,
                    ranks,
                    check);
    }
  return 0;
}
