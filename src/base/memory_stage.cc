#include <base/memory_stage.h>

#include <exception>

namespace stickslip
{
  namespace
  {
    std::string &
    stage()
    {
      static std::string current_stage;
      return current_stage;
    }
  } // namespace



  MemoryStage::MemoryStage(const std::string &description)
    : previous(stage())
    , exceptions_at_start(std::uncaught_exceptions())
  {
    stage() = description;
  }



  MemoryStage::~MemoryStage()
  {
    // Unwinding: keep the stage for main()'s message.
    if (std::uncaught_exceptions() == exceptions_at_start)
      stage() = previous;
  }



  const std::string &
  MemoryStage::current()
  {
    return stage();
  }



  void
  MemoryStage::reset()
  {
    stage().clear();
  }
} // namespace stickslip
