#ifndef stickslip_models_body_body_data_h
#define stickslip_models_body_body_data_h

#include <deal.II/base/function_parser.h>

#include <base/global.h>
#include <base/input_error.h>
#include <models/body/body_discretization.h>
#include <models/body/body_parameters.h>

#include <memory>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    /** One prescribed unknown: u_i = u_D(x_i, t) of one component. */
    template <int dim>
    struct PrescribedUnknown
    {
      unsigned int local;     ///< index into the owned range
      unsigned int condition; ///< which Body/Displacement k
      unsigned int component;
      Point<dim>   point;
    };

    /**
     * The data of the body as functions: body force, tractions, prescribed
     * displacements, initial data and the distributed friction threshold,
     * parsed from their muParser expressions (InputErrors name the
     * parameter), and which of them need work at every step.
     */
    template <int dim>
    class BodyData
    {
    public:
      BodyData(const BodyParameters &parameters, const ParameterSource &source);

      /** Whether a load vector exists (a body force or a traction not
       * identically 0). */
      bool
      has_load() const;

      /** Whether the load must be assembled again at every step (it depends on
       * t). */
      bool
      load_depends_on_time() const;

      /** The body force, or null if it is 0. */
      const Function<dim> *
      body_force() const;

      std::vector<Traction<dim>>
      tractions() const;

      const Function<dim> &
      initial_displacement() const;

      const Function<dim> &
      initial_velocity() const;

      /** Whether u0 (u1) is the expression 0: no interpolation needed. */
      bool
      initial_displacement_is_zero() const;
      bool
      initial_velocity_is_zero() const;

      /** g(x), or null without distributed friction. */
      const Function<dim> *
      distributed_friction() const;

      /**
       * The prescribed unknowns of the owned nodes of @p discretization: a
       * node of several conditions takes the last one's (Body/Displacement
       * 3 over 2 over 1).
       */
      std::vector<PrescribedUnknown<dim>>
      prescribed_unknowns(const BodyDiscretization<dim> &discretization) const;

      /** u_D of @p unknown at time @p t. */
      double
      prescribed_value(const PrescribedUnknown<dim> &unknown,
                       const double                  t) const;

      /** "Body/Displacement k/Value" of @p unknown's condition. */
      std::string
      prescribed_parameter(const PrescribedUnknown<dim> &unknown) const;

    private:
      const BodyParameters                              parameters;
      std::unique_ptr<FunctionParser<dim>>              force;
      std::vector<std::unique_ptr<FunctionParser<dim>>> traction_values;
      std::vector<std::unique_ptr<FunctionParser<dim>>> displacement_values;
      std::unique_ptr<FunctionParser<dim>> u0, u1, friction_threshold;
      bool                                 time_dependent_load;
    };
  } // namespace Body
} // namespace stickslip

#endif
