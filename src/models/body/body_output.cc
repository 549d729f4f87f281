#include <deal.II/numerics/data_out.h>

#include <models/body/body_output.h>

#include <cmath>

namespace stickslip
{
  namespace Body
  {
    namespace
    {
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
          if (discretization.constraints().n_constraints() > 0)
            discretization.constraints().distribute(*field);
          field->update_ghost_values();
        }
      std::string record;
      if (files.format() == FieldFiles::Format::hdf5)
        {
          if (!hdf5 || hdf5_directory != files.output_directory().path())
            {
              hdf5 = std::make_unique<Hdf5FieldWriter<dim>>(
                discretization.dof_handler(), files);
              hdf5_directory = files.output_directory().path();
            }
          record = hdf5->write(t,
                               index,
                               {{"displacement", &displacement},
                                {"velocity", &velocity}},
                               files);
        }
      else
        record = write_vtu(t, index, displacement, velocity, files);
      for (BodyVector *field : {&displacement, &velocity})
        field->zero_out_ghost_values();
      return record;
    }



    template <int dim>
    std::string
    BodyOutput<dim>::write_vtu(const double       t,
                               const unsigned int index,
                               const BodyVector  &displacement,
                               const BodyVector  &velocity,
                               const FieldFiles  &files) const
    {
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
      return files.write(index, data_out);
    }



    template class StressPostprocessor<2>;
    template class StressPostprocessor<3>;
    template class BodyOutput<2>;
    template class BodyOutput<3>;
  } // namespace Body
} // namespace stickslip
