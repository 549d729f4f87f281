#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q1.h>

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
          Tensor<2, dim> gradient;
          for (unsigned int a = 0; a < dim; ++a)
            gradient[a] = inputs.solution_gradients[q][a];
          values(gradient, computed[q].begin());
        }
    }



    template <int dim>
    void
    StressPostprocessor<dim>::values(const Tensor<2, dim> &gradient,
                                     double               *computed) const
    {
      SymmetricTensor<2, 3> stress; // plane strain: e_zz = 0 in 2D
      const double          trace = ::dealii::trace(gradient);
      for (unsigned int a = 0; a < dim; ++a)
        for (unsigned int b = a; b < dim; ++b)
          stress[a][b] = shear_modulus * (gradient[a][b] + gradient[b][a]);
      for (unsigned int d = 0; d < 3; ++d)
        stress[d][d] += lambda * trace;
      const SymmetricTensor<2, 3> stress_deviator = deviator(stress);
      unsigned int                k               = 0;
      for (unsigned int a = 0; a < 3; ++a)
        for (unsigned int b = a; b < 3; ++b)
          if ((a < dim && b < dim) || (dim == 2 && a == 2 && b == 2))
            computed[k++] = stress[a][b];
      computed[k] = std::sqrt(1.5 * (stress_deviator * stress_deviator));
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
          const std::vector<std::vector<double>> cell_values =
            hdf5_cell_values(displacement);
          const std::vector<std::string> names = cell_field_names();
          std::vector<typename Hdf5FieldWriter<dim>::CellField> cell_fields;
          for (unsigned int f = 0; f < names.size(); ++f)
            cell_fields.emplace_back(names[f], &cell_values[f]);
          record = hdf5->write(t,
                               index,
                               {{"displacement", &displacement},
                                {"velocity", &velocity}},
                               cell_fields,
                               files);
        }
      else
        record = write_vtu(t, index, displacement, velocity, files);
      for (BodyVector *field : {&displacement, &velocity})
        field->zero_out_ghost_values();
      return record;
    }



    template <int dim>
    std::vector<std::string>
    BodyOutput<dim>::cell_field_names() const
    {
      std::vector<std::string> names = stress.get_names();
      names.emplace_back("subdomain");
      return names;
    }



    template <int dim>
    std::vector<std::vector<double>>
    BodyOutput<dim>::hdf5_cell_values(const BodyVector &displacement) const
    {
      const DoFHandler<dim> &dofs     = discretization.dof_handler();
      const auto            &corners  = hdf5->sub_cell_corners();
      const unsigned int     n_stress = stress.get_names().size();
      const unsigned int     n_points =
        dofs.get_fe().base_element(0).n_dofs_per_cell();
      const MappingQ1<dim> mapping; // DataOut's default mapping
      FEValues<dim>        fe_values(
        mapping,
        dofs.get_fe(),
        Quadrature<dim>(
          dofs.get_fe().base_element(0).get_unit_support_points()),
        update_gradients);
      const FEValuesExtractors::Vector displacements(0);
      std::vector<Tensor<2, dim>>      gradients(n_points);
      std::vector<double>              at_points(n_points * n_stress);
      std::vector<std::vector<double>> values(n_stress + 1);
      const std::size_t n_values = hdf5->cells().size() * corners.size();
      for (auto &field : values)
        field.reserve(n_values);
      for (const auto &cell : hdf5->cells())
        {
          fe_values.reinit(cell);
          fe_values[displacements].get_function_gradients(displacement,
                                                          gradients);
          for (unsigned int j = 0; j < n_points; ++j)
            stress.values(gradients[j], &at_points[j * n_stress]);
          for (const auto &sub_cell : corners)
            for (unsigned int f = 0; f < n_stress; ++f)
              {
                double sum = 0;
                for (const unsigned int j : sub_cell)
                  sum += at_points[j * n_stress + f];
                values[f].push_back(sum / sub_cell.size());
              }
        }
      values[n_stress].assign(
        n_values, dofs.get_triangulation().locally_owned_subdomain());
      return values;
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
