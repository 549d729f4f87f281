#ifndef stickslip_drivers_batch_file_h
#define stickslip_drivers_batch_file_h

#include <base/command_line.h>
#include <base/global.h>

#include <string>
#include <vector>

namespace stickslip
{
  /** One run of a batch: its command line and the line it was read from. */
  struct BatchEntry
  {
    unsigned int line;
    CommandLine  command;
  };

  /**
   * The runs of `stickslip --batch FILE` (FILE "-": standard input), every
   * line checked before the first run starts: a line that is not a run's
   * command line is an InputError naming the file and the line (every such
   * line, not only the first), so that a typo near the end of a long batch
   * does not surface after hours of runs. What a run's own parameters say is
   * checked by the run, as a lone stickslip would.
   *
   * Rank 0 reads the file and broadcasts its text (collective): under
   * mpirun only rank 0 is given standard input, and one reading makes every
   * rank run the same lines even if the file changes meanwhile. Every rank
   * then parses the same text, so errors are thrown alike on every rank.
   */
  std::vector<BatchEntry>
  read_batch_file(const std::string &file_name, const MPI_Comm comm);

  /** The batch file's name in messages ("standard input" for "-"). */
  std::string
  batch_file_description(const std::string &file_name);
} // namespace stickslip

#endif
