#ifndef stickslip_base_version_h
#define stickslip_base_version_h

#include <base/global.h>

#include <string>

namespace stickslip
{
  /** The version of this build: `git describe` of its sources. */
  std::string
  stickslip_version();

  /** The versions of deal.II, the linear-algebra backend and MPI. */
  std::string
  library_versions();

  /**
   * The lines that start parameters.prm and log.txt, each beginning with
   * "# ": the stickslip version, the libraries, the number of MPI ranks of
   * @p comm and the threads of each (thread_description()), the host and
   * the date (UTC).
   */
  std::string
  run_stamp(const MPI_Comm comm);
} // namespace stickslip

#endif
