#include <deal.II/numerics/data_out.h>
#include <deal.II/numerics/data_out_faces.h>

#include <models/body/body_output.h>

#include <cmath>

namespace stickslip
{
  namespace Body
  {
    namespace
    {
      /** The faces of the boundary @p id of the owned cells. */
      template <int dim>
      class ContactFaces : public DataOutFaces<dim>
      {
      public:
        using FaceDescriptor = typename DataOutFaces<dim>::FaceDescriptor;

        explicit ContactFaces(const types::boundary_id id)
          : DataOutFaces<dim>(true)
          , id(id)
        {}

        FaceDescriptor
        first_face() override
        {
          const auto cell = this->triangulation->begin_active();
          return advance({cell, 0}, true);
        }

        FaceDescriptor
        next_face(const FaceDescriptor &face) override
        {
          return advance(face, false);
        }

      private:
        /** @p face if @p include_this and it is one, else the next one. */
        FaceDescriptor
        advance(FaceDescriptor face, const bool include_this) const
        {
          const auto end  = this->triangulation->end();
          bool       skip = !include_this;
          while (face.first != end)
            {
              if (face.first->is_active() && face.first->is_locally_owned())
                for (; face.second < GeometryInfo<dim>::faces_per_cell;
                     ++face.second)
                  {
                    if (skip)
                      {
                        skip = false;
                        continue;
                      }
                    if (face.first->face(face.second)->at_boundary() &&
                        face.first->face(face.second)->boundary_id() == id)
                      return face;
                  }
              skip = false;
              ++face.first;
              face.second = 0;
            }
          return face;
        }

        const types::boundary_id id;
      };



      /** Names of one vector field's components, as one vector. */
      template <int dim>
      std::vector<DataComponentInterpretation::DataComponentInterpretation>
      as_vector()
      {
        return std::vector<
          DataComponentInterpretation::DataComponentInterpretation>(
          dim, DataComponentInterpretation::component_is_part_of_vector);
      }
    } // namespace



    template <int dim>
    StressPostprocessor<dim>::StressPostprocessor(const double lambda,
                                                  const double shear_modulus)
      : lambda(lambda)
      , shear_modulus(shear_modulus)
    {}



    template <int dim>
    void
    StressPostprocessor<dim>::evaluate_vector_field(
      const DataPostprocessorInputs::Vector<dim> &inputs,
      std::vector<Vector<double>>                &computed) const
    {
      for (unsigned int q = 0; q < inputs.solution_gradients.size(); ++q)
        {
          SymmetricTensor<2, 3> stress; // plane strain: e_zz = 0 in 2D
          double                trace = 0;
          for (unsigned int d = 0; d < dim; ++d)
            trace += inputs.solution_gradients[q][d][d];
          for (unsigned int a = 0; a < dim; ++a)
            for (unsigned int b = a; b < dim; ++b)
              stress[a][b] =
                shear_modulus * (inputs.solution_gradients[q][a][b] +
                                 inputs.solution_gradients[q][b][a]);
          for (unsigned int d = 0; d < 3; ++d)
            stress[d][d] += lambda * trace;
          const SymmetricTensor<2, 3> stress_deviator = deviator(stress);
          unsigned int                k               = 0;
          for (unsigned int a = 0; a < 3; ++a)
            for (unsigned int b = a; b < 3; ++b)
              if ((a < dim && b < dim) || (dim == 2 && a == 2 && b == 2))
                computed[q][k++] = stress[a][b];
          computed[q][k] = std::sqrt(1.5 * (stress_deviator * stress_deviator));
        }
    }



    template <int dim>
    std::vector<std::string>
    StressPostprocessor<dim>::get_names() const
    {
      if (dim == 2)
        return {
          "stress_xx", "stress_xy", "stress_yy", "stress_zz", "von_mises"};
      return {"stress_xx",
              "stress_xy",
              "stress_xz",
              "stress_yy",
              "stress_yz",
              "stress_zz",
              "von_mises"};
    }



    template <int dim>
    UpdateFlags
    StressPostprocessor<dim>::get_needed_update_flags() const
    {
      return update_gradients;
    }



    template <int dim>
    BodyOutput<dim>::BodyOutput(const BodyDiscretization<dim> &discretization,
                                const double                   lambda,
                                const double                   shear_modulus)
      : discretization(discretization)
      , stress(lambda, shear_modulus)
    {}



    template <int dim>
    std::string
    BodyOutput<dim>::write_volume(const double       t,
                                  const unsigned int index,
                                  BodyVector        &displacement,
                                  BodyVector        &velocity,
                                  const FieldFiles  &files) const
    {
      // Periodic copies get their masters' values (the dynamics never read
      // them).
      for (BodyVector *field : {&displacement, &velocity})
        {
          discretization.constraints().distribute(*field);
          field->update_ghost_values();
        }
      const DoFHandler<dim> &dofs = discretization.dof_handler();
      DataOut<dim>           data_out;
      data_out.attach_dof_handler(dofs);
      data_out.add_data_vector(displacement,
                               std::vector<std::string>(dim, "displacement"),
                               DataOut<dim>::type_dof_data,
                               as_vector<dim>());
      data_out.add_data_vector(velocity,
                               std::vector<std::string>(dim, "velocity"),
                               DataOut<dim>::type_dof_data,
                               as_vector<dim>());
      data_out.add_data_vector(displacement, stress);
      Vector<float> subdomain(dofs.get_triangulation().n_active_cells());
      for (auto &value : subdomain)
        value = dofs.get_triangulation().locally_owned_subdomain();
      data_out.add_data_vector(subdomain, "subdomain");
      data_out.build_patches(discretization.fe().degree);
      DataOutBase::VtkFlags flags(t, index);
      flags.compression_level = DataOutBase::VtkFlags::best_speed;
      data_out.set_flags(flags);
      const std::string record = files.write(index, data_out);
      for (BodyVector *field : {&displacement, &velocity})
        field->zero_out_ghost_values();
      return record;
    }



    template <int dim>
    std::string
    BodyOutput<dim>::write_contact(const double               t,
                                   const unsigned int         index,
                                   BodyVector                &displacement,
                                   const ContactSurface<dim> &contact,
                                   const types::boundary_id   contact_id,
                                   const FieldFiles          &files) const
    {
      const std::vector<std::string> names =
        ContactSurface<dim>::scalar_field_names();
      std::vector<BodyVector> scalars(names.size() / dim);
      BodyVector              traction, slip;
      for (BodyVector &field : scalars)
        discretization.initialize_vector(field);
      discretization.initialize_vector(traction);
      discretization.initialize_vector(slip);
      contact.fill_fields(scalars, traction, slip);
      std::vector<BodyVector *> fields = {&displacement, &traction, &slip};
      for (BodyVector &field : scalars)
        fields.push_back(&field);
      for (BodyVector *field : fields)
        {
          discretization.constraints().distribute(*field);
          field->update_ghost_values();
        }
      const std::vector<
        DataComponentInterpretation::DataComponentInterpretation>
        scalars_only(dim, DataComponentInterpretation::component_is_scalar);
      ContactFaces<dim> data_out(contact_id);
      data_out.attach_dof_handler(discretization.dof_handler());
      for (unsigned int k = 0; k < scalars.size(); ++k)
        data_out.add_data_vector(
          scalars[k],
          std::vector<std::string>(names.begin() + k * dim,
                                   names.begin() + (k + 1) * dim),
          DataOutFaces<dim>::type_dof_data,
          scalars_only);
      data_out.add_data_vector(displacement,
                               std::vector<std::string>(dim, "displacement"),
                               DataOutFaces<dim>::type_dof_data,
                               as_vector<dim>());
      data_out.add_data_vector(traction,
                               std::vector<std::string>(dim,
                                                        "friction_traction"),
                               DataOutFaces<dim>::type_dof_data,
                               as_vector<dim>());
      data_out.add_data_vector(slip,
                               std::vector<std::string>(dim, "slip_velocity"),
                               DataOutFaces<dim>::type_dof_data,
                               as_vector<dim>());
      data_out.build_patches(discretization.fe().degree);
      DataOutBase::VtkFlags flags(t, index);
      flags.compression_level = DataOutBase::VtkFlags::best_speed;
      data_out.set_flags(flags);
      const std::string record = files.write(index, data_out, "contact");
      displacement.zero_out_ghost_values();
      return record;
    }



    template class StressPostprocessor<2>;
    template class StressPostprocessor<3>;
    template class BodyOutput<2>;
    template class BodyOutput<3>;
  } // namespace Body
} // namespace stickslip
