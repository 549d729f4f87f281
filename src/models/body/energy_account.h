#ifndef stickslip_models_body_energy_account_h
#define stickslip_models_body_energy_account_h

#include <base/checkpoint.h>
#include <base/global.h>

#include <array>

namespace stickslip
{
  namespace Body
  {
    /**
     * The works done since t0, each rank summing over the nodes it owns
     * (no communication in a step): history rows and snapshots see the
     * totals over the ranks. A snapshot stores the totals and a resumed run
     * gives them to rank 0, so that they survive a resume on another number
     * of ranks.
     */
    class EnergyAccount
    {
    public:
      /** What the totals are, in order. */
      enum Entry
      {
        dissipated, ///< friction work on the slip, >= 0
        data,       ///< loads, prescribed displacements, moving foundation
        impact,     ///< the rest of the nodal corrections' work (<= 0)
        ambiguous,  ///< node-steps whose friction step had several solutions
        iterations, ///< of the slip-speed solves
        n_entries
      };

      EnergyAccount();

      /** This rank's share of @p entry. */
      double &
      operator[](const Entry entry);

      /** The totals over the ranks (collective). */
      std::array<double, n_entries>
      totals(const MPI_Comm comm) const;

      /** Every share zero. */
      void
      clear();

      /** Register the totals for snapshots (collective when written or read).
       */
      void
      register_state(CheckpointArchive &archive, const MPI_Comm comm);

    private:
      std::array<double, n_entries> local;
      std::array<double, n_entries> saved;
    };
  } // namespace Body
} // namespace stickslip

#endif
