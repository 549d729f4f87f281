#ifndef stickslip_models_slab_slab_problem_h
#define stickslip_models_slab_slab_problem_h

#include <deal.II/base/function_parser.h>

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>
#include <models/slab/slab_parameters.h>
#include <time/time_parameters.h>

#include <memory>
#include <string>
#include <vector>

namespace stickslip
{
  namespace Slab
  {
    /** The discretization of one run of the slab. */
    struct Discretization
    {
      unsigned int n_cells;
      double       time_step;
      unsigned int n_steps;
    };



    /**
     * Renard's elastic slab (Renard 2001, doc/theory.md) as a problem: the
     * Slab parameters, the initial data u^0, u^1 (checked against the top
     * condition and the contact law), and the discretizations of the runs
     * (one, or the grids of a refinement study, at a constant dt/dz when
     * Slab/CFL number is set). Every check happens in the constructor,
     * before anything is written.
     */
    class SlabProblem
    {
    public:
      /** Check (collective; an InputError if bad). */
      SlabProblem(const SlabParameters     &slab,
                  const Parameters::Time   &time,
                  const ParameterSource    &source,
                  const MPI_Comm            comm,
                  const ConditionalOStream &pcout);

      const SlabParameters &
      parameters() const;

      /** The runs: one, or the grids of Slab/Convergence cells. */
      const std::vector<Discretization> &
      runs() const;

      double
      initial_time() const;

      /** u^0, u^0_,3 or u^1 at z, component k. */
      double
      initial_displacement(const double z, const unsigned int k) const;
      double
      initial_gradient(const double z, const unsigned int k) const;
      double
      initial_velocity(const double z, const unsigned int k) const;

      /** |u^0_3(0)| below this is contact (a gap of round-off size). */
      double
      gap_tolerance() const;

      /** One line for the log. */
      std::string
      description() const;

    private:
      Discretization
      discretization(const unsigned int n_cells) const;

      /** Check u^0, u^1 at z = 0 and H; sets the gap tolerance. */
      void
      check_initial_data();

      /**
       * u^0, u^0_,3 and u^1 are finite at every node of every grid of the
       * run (an InputError naming the first point otherwise).
       */
      void
      check_finite_initial_data() const;

      const ParameterSource             &source;
      const MPI_Comm                     comm;
      const ConditionalOStream          &pcout;
      const SlabParameters               slab;
      const Parameters::Time             time;
      double                             contact_gap_tolerance;
      std::unique_ptr<FunctionParser<1>> displacement_function;
      std::unique_ptr<FunctionParser<1>> velocity_function;
      std::vector<Discretization>        discretizations;
    };
  } // namespace Slab
} // namespace stickslip

#endif
