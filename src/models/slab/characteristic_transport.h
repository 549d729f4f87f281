#ifndef stickslip_models_slab_characteristic_transport_h
#define stickslip_models_slab_characteristic_transport_h

#include <base/checkpoint.h>
#include <base/global.h>
#include <models/slab/slab_parameters.h>

#include <array>
#include <vector>

namespace stickslip
{
  namespace Slab
  {
    /**
     * The characteristics b+- = u_t +- C u_,3 (Renard 2001, eqs. (16)-(20),
     * sign of (17) corrected) at the nodes z_i = i dz, i = 0..N_z, of the slab,
     * distributed over the ranks of a communicator in contiguous blocks
     * (rank r owns nodes [first, end)). Both schemes are 3-point stencils,
     * so one ghost node on each side, refreshed by MPI_Sendrecv with the two
     * neighbour ranks, is all the communication of a time step; no rank
     * waits for any other than its neighbours, and the arithmetic of every
     * node is the same for any partition (results independent of the
     * number of ranks to the last bit).
     *
     * The class advances the interior (42)-(43) (upwind) or Lax-Wendroff,
     * and closes the top z = H by (45)-(46); the bottom node's incoming
     * b- is set by the contact boundary (set_bottom_velocity).
     */
    class CharacteristicTransport
    {
    public:
      CharacteristicTransport(const MPI_Comm       comm,
                              const unsigned int   n_cells,
                              const double         height,
                              const double         c1,
                              const double         c2,
                              const double         time_step,
                              const InteriorScheme scheme);

      /** b+- from u_t and u_,3 at the owned nodes (the initial data). */
      template <typename VelocityFunction, typename GradientFunction>
      void
      initialize(const VelocityFunction &velocity,
                 const GradientFunction &gradient);

      /** One time step of the interior and the top (steps 1-2 of §4.6). */
      void
      advance();

      /** Whether this rank owns the contact node z = 0. */
      bool
      owns_bottom() const;

      /** b+(t, 0) (only on the owner of node 0). */
      std::array<double, 3>
      bottom_incoming() const;

      /**
       * Close the bottom node with its velocity u_t(t, 0) (step 6 of §4.6):
       * b- = 2 u_t - b+, i.e. u_,3 = C^{-1}(b+ - u_t).
       */
      void
      set_bottom_velocity(const std::array<double, 3> &velocity);

      /** Refresh the ghost nodes (before reading neighbours' values). */
      void
      exchange_ghosts();

      /** First owned node and one past the last. */
      unsigned int
      first_node() const;
      unsigned int
      end_node() const;
      unsigned int
      n_cells() const;
      double
      cell_size() const;

      /** b+ and b- of component k at global node i (owned or ghost). */
      double
      b_plus(const unsigned int k, const unsigned int i) const;
      double
      b_minus(const unsigned int k, const unsigned int i) const;

      /** u_t = (b+ + b-)/2 and u_,3 = C^{-1}(b+ - b-)/2 at node i. */
      double
      velocity(const unsigned int k, const unsigned int i) const;
      double
      gradient(const unsigned int k, const unsigned int i) const;

      /** max |b_3+-| over all nodes (Prop. 4 bound B_3max; collective). */
      double
      max_normal_characteristic() const;

      /**
       * Register b+ and b- of the owned nodes with a snapshot archive, by
       * global node number, so that a snapshot resumes on any number of
       * ranks: the whole state of the interior (the ghosts are refreshed
       * after reading). Allocates six vectors of the nodes for staging.
       */
      void
      register_state(CheckpointArchive &archive);

      /** Courant numbers d_k = c_k dt/dz. */
      const std::array<double, 3> &
      courant_numbers() const;

    private:
      /** Local index of global node i (ghost on the left is 0). */
      unsigned int
      local(const unsigned int i) const;

      const MPI_Comm              comm;
      const unsigned int          n_global_cells;
      const double                dz;
      const std::array<double, 3> speeds;
      const std::array<double, 3> courant;
      const InteriorScheme        scheme;
      const unsigned int          rank;
      const unsigned int          n_ranks;
      unsigned int                first;
      unsigned int                end;

      // b+ and b- per component on owned nodes plus one ghost each side,
      // and scratch arrays for the new time level (swapped every step).
      std::array<std::vector<double>, 3> plus, minus, new_plus, new_minus;

      // b+ and b- of the owned nodes as distributed vectors, for snapshots.
      std::array<DistributedVector, 3> snapshot_plus, snapshot_minus;
    };



    template <typename VelocityFunction, typename GradientFunction>
    void
    CharacteristicTransport::initialize(const VelocityFunction &velocity,
                                        const GradientFunction &gradient)
    {
      for (unsigned int i = first; i < end; ++i)
        {
          const double z = i * dz;
          for (unsigned int k = 0; k < 3; ++k)
            {
              const double v = velocity(z, k), g = gradient(z, k);
              plus[k][local(i)]  = v + speeds[k] * g;
              minus[k][local(i)] = v - speeds[k] * g;
            }
        }
      exchange_ghosts();
    }
  } // namespace Slab
} // namespace stickslip

#endif
