#ifndef stickslip_drivers_study_h
#define stickslip_drivers_study_h

#include <base/run_directory.h>

namespace stickslip
{
  /**
   * What a run of stickslip does once every input has been checked: a
   * single run, a convergence or refinement study, or a control search,
   * writing into the (locked) output directory. Built by the chosen
   * model's entry in the model registry (ModelEntry::make_study).
   */
  class Study
  {
  public:
    virtual ~Study() = default;

    /**
     * Run it: a fresh start, or (@p resume) the continuation of an
     * interrupted run from its newest snapshot in @p directory.
     */
    virtual void
    run(RunDirectory &directory, const bool resume) = 0;
  };
} // namespace stickslip

#endif
