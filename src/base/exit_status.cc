#include <base/exit_status.h>
#include <base/input_error.h>
#include <base/memory_stage.h>
#include <base/parameter_file.h>
#include <base/signals.h>

#include <new>

namespace stickslip
{
  Failure
  current_failure(const MPI_Comm comm)
  {
    const std::string rank =
      std::to_string(Utilities::MPI::this_mpi_process(comm));
    try
      {
        throw;
      }
    catch (Interrupted &interruption)
      {
        return {std::string("stickslip: interrupted by ") + interruption.what(),
                3,
                true};
      }
    catch (RunError &error)
      {
        return {std::string("stickslip: run failed: ") + error.what(), 2, true};
      }
    catch (InputError &error)
      {
        return {std::string("stickslip: error: ") + error.what(), 1, true};
      }
    catch (std::bad_alloc &)
      {
        return {"stickslip: run failed on rank " + rank +
                  ": out of memory (std::bad_alloc) while " +
                  (MemoryStage::current().empty() ? std::string("running") :
                                                    MemoryStage::current()) +
                  ". The memory of the machine (or the limit of ulimit -v) "
                  "is too small for this size: use fewer cells or unknowns, "
                  "or more nodes",
                2,
                false};
      }
    catch (std::exception &error)
      {
        return {"stickslip: error on rank " + rank + ": " +
                  short_reason(error.what()),
                1,
                false};
      }
    catch (...)
      {
        return {"stickslip: unknown error on rank " + rank, 1, false};
      }
  }
} // namespace stickslip
