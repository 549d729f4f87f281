#include <deal.II/base/config.h>

#include <base/process_setup.h>
#include <base/version.h>

#ifdef STICKSLIP_USE_PETSC_LA
#  include <petscversion.h>
#else
#  include <Trilinos_version.h>
#endif

#include <unistd.h>

#include <ctime>

namespace stickslip
{
  extern const char *const build_version;



  std::string
  stickslip_version()
  {
    return build_version;
  }



  std::string
  library_versions()
  {
    std::string text = "deal.II " DEAL_II_PACKAGE_VERSION;
#ifdef STICKSLIP_USE_PETSC_LA
    text += ", PETSc " + std::to_string(PETSC_VERSION_MAJOR) + "." +
            std::to_string(PETSC_VERSION_MINOR) + "." +
            std::to_string(PETSC_VERSION_SUBMINOR);
#else
    text += ", Trilinos " TRILINOS_VERSION_STRING;
#endif
    char mpi[MPI_MAX_LIBRARY_VERSION_STRING];
    int  length = 0;
    MPI_Get_library_version(mpi, &length);
    std::string mpi_name(mpi, length);
    // The first line, up to its first comma ("Open MPI v4.1.4, package ...").
    mpi_name = mpi_name.substr(0, mpi_name.find_first_of(",\n"));
    return text + ", " + mpi_name;
  }



  std::string
  run_stamp(const MPI_Comm comm)
  {
    char host[256] = "unknown host";
    ::gethostname(host, sizeof(host) - 1);
    char              date[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(date,
                  sizeof(date),
                  "%Y-%m-%d %H:%M:%S UTC",
                  std::gmtime(&now));
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    return "# stickslip " + stickslip_version() + "\n# " + library_versions() +
           "\n# " + std::to_string(n_ranks) + " MPI rank" +
           (n_ranks > 1 ? "s" : "") + ", " + thread_description() + ", host " +
           host + ", " + date + "\n";
  }
} // namespace stickslip
