#ifndef stickslip_base_memory_stage_h
#define stickslip_base_memory_stage_h

#include <string>

namespace stickslip
{
  /**
   * What the run is doing, for the message of an out-of-memory failure:
   * std::bad_alloc says nothing of what was being allocated. A stage that
   * allocates much (the mesh, the DoF numbering, the matrices, the vectors,
   * the time loop, the output) holds a MemoryStage naming itself and the
   * size it attempts (cells, unknowns) for its duration. A stage left by an
   * exception stays current, so that main() can name it.
   */
  class MemoryStage
  {
  public:
    explicit MemoryStage(const std::string &description);
    ~MemoryStage();

    MemoryStage(const MemoryStage &) = delete;
    MemoryStage &
    operator=(const MemoryStage &) = delete;

    /** The innermost stage in progress (or left by an exception), or "". */
    static const std::string &
    current();

    /**
     * Forget a stage left by an exception: the next run of a batch starts
     * with none, as a lone run does.
     */
    static void
    reset();

  private:
    std::string previous;
    int         exceptions_at_start;
  };
} // namespace stickslip

#endif
