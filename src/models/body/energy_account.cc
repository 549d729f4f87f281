#include <models/body/energy_account.h>

#include <algorithm>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    EnergyAccount::EnergyAccount()
    {
      clear();
      saved = local;
    }



    double &
    EnergyAccount::operator[](const Entry entry)
    {
      return local[entry];
    }



    std::array<double, EnergyAccount::n_entries>
    EnergyAccount::totals(const MPI_Comm comm) const
    {
      const std::vector<double> values(local.begin(), local.end());
      std::vector<double>       summed(n_entries);
      Utilities::MPI::sum(values, comm, summed);
      std::array<double, n_entries> sums;
      std::copy(summed.begin(), summed.end(), sums.begin());
      return sums;
    }



    void
    EnergyAccount::clear()
    {
      local.fill(0.);
    }



    void
    EnergyAccount::register_state(CheckpointArchive &archive,
                                  const MPI_Comm     comm)
    {
      for (double &value : saved)
        archive.add(value);
      archive.before_write.push_back([this, comm]() { saved = totals(comm); });
      archive.after_read.push_back([this, comm]() {
        // Every rank read the totals; rank 0 carries them on.
        const bool rank0 = Utilities::MPI::this_mpi_process(comm) == 0;
        for (unsigned int k = 0; k < n_entries; ++k)
          local[k] = rank0 ? saved[k] : 0.;
      });
    }
  } // namespace Body
} // namespace stickslip
