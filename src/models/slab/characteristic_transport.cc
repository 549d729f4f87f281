#include <base/local_values.h>
#include <models/slab/characteristic_transport.h>

#include <algorithm>
#include <cmath>

namespace stickslip
{
  namespace Slab
  {
    CharacteristicTransport::CharacteristicTransport(
      const MPI_Comm       comm,
      const unsigned int   n_cells,
      const double         height,
      const double         c1,
      const double         c2,
      const double         time_step,
      const InteriorScheme scheme)
      : comm(comm)
      , n_global_cells(n_cells)
      , dz(height / n_cells)
      , speeds{{c1, c1, c2}}
      , courant{{c1 * time_step / (height / n_cells),
                 c1 * time_step / (height / n_cells),
                 c2 * time_step / (height / n_cells)}}
      , scheme(scheme)
      , rank(Utilities::MPI::this_mpi_process(comm))
      , n_ranks(Utilities::MPI::n_mpi_processes(comm))
    {
      // Contiguous blocks of the N_z + 1 nodes, sizes differing by at most 1.
      const unsigned int n_nodes = n_cells + 1;
      const unsigned int base = n_nodes / n_ranks, extra = n_nodes % n_ranks;
      first = rank * base + std::min(rank, extra);
      end   = first + base + (rank < extra ? 1 : 0);
      for (auto *arrays : {&plus, &minus, &new_plus, &new_minus})
        for (auto &a : *arrays)
          a.assign(end - first + 2, 0.);
    }



    unsigned int
    CharacteristicTransport::local(const unsigned int i) const
    {
      return i + 1 - first;
    }



    void
    CharacteristicTransport::exchange_ghosts()
    {
      // Pack the 6 values of the first and last owned nodes; receive the
      // neighbours' into the ghost slots. Ranks without a neighbour on one
      // side use MPI_PROC_NULL, which makes the transfer a no-op.
      const int left  = rank > 0 ? int(rank) - 1 : MPI_PROC_NULL;
      const int right = rank + 1 < n_ranks ? int(rank) + 1 : MPI_PROC_NULL;
      const unsigned int n_local = end - first;
      double send_left[6], send_right[6], from_left[6], from_right[6];
      for (unsigned int k = 0; k < 3; ++k)
        {
          send_left[k]      = plus[k][1];
          send_left[3 + k]  = minus[k][1];
          send_right[k]     = plus[k][n_local];
          send_right[3 + k] = minus[k][n_local];
        }
      MPI_Sendrecv(send_left,
                   6,
                   MPI_DOUBLE,
                   left,
                   71,
                   from_right,
                   6,
                   MPI_DOUBLE,
                   right,
                   71,
                   comm,
                   MPI_STATUS_IGNORE);
      MPI_Sendrecv(send_right,
                   6,
                   MPI_DOUBLE,
                   right,
                   72,
                   from_left,
                   6,
                   MPI_DOUBLE,
                   left,
                   72,
                   comm,
                   MPI_STATUS_IGNORE);
      for (unsigned int k = 0; k < 3; ++k)
        {
          if (right != MPI_PROC_NULL)
            {
              plus[k][n_local + 1]  = from_right[k];
              minus[k][n_local + 1] = from_right[3 + k];
            }
          if (left != MPI_PROC_NULL)
            {
              plus[k][0]  = from_left[k];
              minus[k][0] = from_left[3 + k];
            }
        }
    }



    void
    CharacteristicTransport::advance()
    {
      exchange_ghosts();
      const unsigned int n_local = end - first;
      // Local index range of nodes with both neighbours (global 1..N_z-1).
      const unsigned int lo = local(std::max(first, 1u));
      const unsigned int hi = local(std::min(end, n_global_cells)); // exclusive
      for (unsigned int k = 0; k < 3; ++k)
        {
          const double d                    = courant[k];
          const double *const __restrict bp = plus[k].data();
          const double *const __restrict bm = minus[k].data();
          double *const __restrict np       = new_plus[k].data();
          double *const __restrict nm       = new_minus[k].data();
          if (scheme == InteriorScheme::upwind)
            {
              // (42): b+ comes from above, (43): b- from below.
              for (unsigned int j = lo; j < hi; ++j)
                np[j] = bp[j] + d * (bp[j + 1] - bp[j]);
              for (unsigned int j = lo; j < hi; ++j)
                nm[j] = bm[j] + d * (bm[j - 1] - bm[j]);
            }
          else
            {
              // Lax-Wendroff for b+_t - c b+_z = 0 and b-_t + c b-_z = 0.
              const double half_d = 0.5 * d, half_d2 = 0.5 * d * d;
              // The same three weights at every node (two separate loops
              // vectorize better than one).
              const double wp_left  = half_d2 - half_d,
                           wp_right = half_d2 + half_d, w_mid = 1 - d * d;
              for (unsigned int j = lo; j < hi; ++j)
                np[j] =
                  wp_left * bp[j - 1] + w_mid * bp[j] + wp_right * bp[j + 1];
              for (unsigned int j = lo; j < hi; ++j)
                nm[j] =
                  wp_right * bm[j - 1] + w_mid * bm[j] + wp_left * bm[j + 1];
            }
          // Outflow nodes keep the upwind update (a linear interpolation,
          // second-order accurate in the value and not accumulated since
          // the node is refreshed from the interior every step).
          if (first == 0)
            {
              const unsigned int j = local(0);
              np[j]                = bp[j] + d * (bp[j + 1] - bp[j]);
              nm[j] = bm[j]; // incoming: set by the contact boundary
            }
          if (end == n_global_cells + 1)
            {
              const unsigned int j = local(n_global_cells);
              nm[j]                = bm[j] + d * (bm[j - 1] - bm[j]);
              np[j]                = -nm[j]; // (46): u_t(t, H) = 0
            }
          std::swap(plus[k], new_plus[k]);
          std::swap(minus[k], new_minus[k]);
        }
      (void)n_local;
    }



    bool
    CharacteristicTransport::owns_bottom() const
    {
      return first == 0;
    }



    std::array<double, 3>
    CharacteristicTransport::bottom_incoming() const
    {
      return {{plus[0][1], plus[1][1], plus[2][1]}};
    }



    void
    CharacteristicTransport::set_bottom_velocity(
      const std::array<double, 3> &velocity)
    {
      for (unsigned int k = 0; k < 3; ++k)
        minus[k][1] = 2 * velocity[k] - plus[k][1];
    }



    unsigned int
    CharacteristicTransport::first_node() const
    {
      return first;
    }



    unsigned int
    CharacteristicTransport::end_node() const
    {
      return end;
    }



    unsigned int
    CharacteristicTransport::n_cells() const
    {
      return n_global_cells;
    }



    double
    CharacteristicTransport::cell_size() const
    {
      return dz;
    }



    double
    CharacteristicTransport::b_plus(const unsigned int k,
                                    const unsigned int i) const
    {
      return plus[k][local(i)];
    }



    double
    CharacteristicTransport::b_minus(const unsigned int k,
                                     const unsigned int i) const
    {
      return minus[k][local(i)];
    }



    double
    CharacteristicTransport::velocity(const unsigned int k,
                                      const unsigned int i) const
    {
      return 0.5 * (plus[k][local(i)] + minus[k][local(i)]);
    }



    double
    CharacteristicTransport::gradient(const unsigned int k,
                                      const unsigned int i) const
    {
      return 0.5 * (plus[k][local(i)] - minus[k][local(i)]) / speeds[k];
    }



    double
    CharacteristicTransport::max_normal_characteristic() const
    {
      double local_max = 0;
      for (unsigned int i = first; i < end; ++i)
        local_max = std::max({local_max,
                              std::abs(plus[2][local(i)]),
                              std::abs(minus[2][local(i)])});
      return Utilities::MPI::max(local_max, comm);
    }



    const std::array<double, 3> &
    CharacteristicTransport::courant_numbers() const
    {
      return courant;
    }



    void
    CharacteristicTransport::register_state(CheckpointArchive &archive)
    {
      IndexSet owned(n_global_cells + 1);
      owned.add_range(first, end);
      for (unsigned int k = 0; k < 3; ++k)
        {
          snapshot_plus[k].reinit(owned, comm);
          snapshot_minus[k].reinit(owned, comm);
          archive.add(snapshot_plus[k]);
          archive.add(snapshot_minus[k]);
        }
      archive.before_write.emplace_back([this]() {
        for (unsigned int k = 0; k < 3; ++k)
          {
            LocalValues to_plus(snapshot_plus[k]), to_minus(snapshot_minus[k]);
            for (unsigned int i = first; i < end; ++i)
              {
                to_plus[i - first]  = plus[k][local(i)];
                to_minus[i - first] = minus[k][local(i)];
              }
          }
      });
      archive.after_read.emplace_back([this]() {
        for (unsigned int k = 0; k < 3; ++k)
          {
            ConstLocalValues from_plus(snapshot_plus[k]),
              from_minus(snapshot_minus[k]);
            for (unsigned int i = first; i < end; ++i)
              {
                plus[k][local(i)]  = from_plus[i - first];
                minus[k][local(i)] = from_minus[i - first];
              }
          }
        exchange_ghosts();
      });
    }
  } // namespace Slab
} // namespace stickslip
