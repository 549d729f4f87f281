#include <base/expressions.h>
#include <models/body/body_data.h>

#include <map>

namespace stickslip
{
  namespace Body
  {
    namespace
    {
      /**
       * The dim-component function of @p text (in @p variables); "0" stands
       * for the zero vector of any dimension.
       */
      template <int dim>
      std::unique_ptr<FunctionParser<dim>>
      vector_field(const std::string     &text,
                   const std::string     &variables,
                   const std::string     &path,
                   const ParameterSource &source)
      {
        return parse_function<dim>(
          expand_zero_vector(text, dim), variables, path, source, dim);
      }
    } // namespace



    template <int dim>
    BodyData<dim>::BodyData(const BodyParameters  &parameters,
                            const ParameterSource &source)
      : parameters(parameters)
      , time_dependent_load(false)
    {
      const std::string variables   = parameters.variables();
      const std::string coordinates = parameters.coordinates();
      if (!is_zero_expression(parameters.body_force))
        {
          force = vector_field<dim>(parameters.body_force,
                                    variables,
                                    "Body/Body force",
                                    source);
          time_dependent_load =
            expression_uses_variable(parameters.body_force, variables, "t");
        }
      for (const auto &condition : parameters.tractions)
        {
          traction_values.push_back(vector_field<dim>(
            condition.value, variables, condition.path + "/Value", source));
          time_dependent_load =
            time_dependent_load ||
            expression_uses_variable(condition.value, variables, "t");
        }
      for (const auto &condition : parameters.displacements)
        displacement_values.push_back(vector_field<dim>(
          condition.value, variables, condition.path + "/Value", source));
      u0 = vector_field<dim>(parameters.initial_displacement,
                             coordinates,
                             "Body/Initial displacement",
                             source);
      u1 = vector_field<dim>(parameters.initial_velocity,
                             coordinates,
                             "Body/Initial velocity",
                             source);
      if (parameters.has_distributed_friction())
        friction_threshold =
          parse_function<dim>(parameters.distributed_friction,
                              coordinates,
                              "Body/Distributed friction",
                              source);
    }



    template <int dim>
    bool
    BodyData<dim>::has_load() const
    {
      return force != nullptr || !traction_values.empty();
    }



    template <int dim>
    bool
    BodyData<dim>::load_depends_on_time() const
    {
      return time_dependent_load;
    }



    template <int dim>
    const Function<dim> *
    BodyData<dim>::body_force() const
    {
      return force.get();
    }



    template <int dim>
    std::vector<Traction<dim>>
    BodyData<dim>::tractions() const
    {
      std::vector<Traction<dim>> result;
      for (unsigned int k = 0; k < traction_values.size(); ++k)
        result.push_back(
          {parameters.tractions[k].boundary_ids, traction_values[k].get()});
      return result;
    }



    template <int dim>
    const Function<dim> &
    BodyData<dim>::initial_displacement() const
    {
      return *u0;
    }



    template <int dim>
    const Function<dim> &
    BodyData<dim>::initial_velocity() const
    {
      return *u1;
    }



    template <int dim>
    bool
    BodyData<dim>::initial_displacement_is_zero() const
    {
      return is_zero_expression(parameters.initial_displacement);
    }



    template <int dim>
    bool
    BodyData<dim>::initial_velocity_is_zero() const
    {
      return is_zero_expression(parameters.initial_velocity);
    }



    template <int dim>
    const Function<dim> *
    BodyData<dim>::distributed_friction() const
    {
      return friction_threshold.get();
    }



    template <int dim>
    std::vector<PrescribedUnknown<dim>>
    BodyData<dim>::prescribed_unknowns(
      const BodyDiscretization<dim> &discretization) const
    {
      // By local index, so that a later condition replaces an earlier one.
      std::map<unsigned int, PrescribedUnknown<dim>> prescribed;
      for (unsigned int c = 0; c < parameters.displacements.size(); ++c)
        for (const auto id : parameters.displacements[c].boundary_ids)
          for (const Node<dim> &node : discretization.nodes(id))
            for (unsigned int d = 0; d < dim; ++d)
              if (parameters.displacements[c].components[d])
                prescribed[node.unknowns[d]] = {node.unknowns[d],
                                                c,
                                                d,
                                                node.point};
      std::vector<PrescribedUnknown<dim>> result;
      for (const auto &entry : prescribed)
        result.push_back(entry.second);
      return result;
    }



    template <int dim>
    double
    BodyData<dim>::prescribed_value(const PrescribedUnknown<dim> &unknown,
                                    const double                  t) const
    {
      FunctionParser<dim> &function = *displacement_values[unknown.condition];
      function.set_time(t);
      return function.value(unknown.point, unknown.component);
    }



    template <int dim>
    std::string
    BodyData<dim>::prescribed_parameter(
      const PrescribedUnknown<dim> &unknown) const
    {
      return parameters.displacements[unknown.condition].path + "/Value";
    }



    template class BodyData<2>;
    template class BodyData<3>;
  } // namespace Body
} // namespace stickslip
