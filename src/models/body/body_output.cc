#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q1.h>

#include <deal.II/numerics/data_out.h>

#include <models/body/body_output.h>

#include <array>
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
      // sigma = lambda tr(eps) I + 2 G eps (plane strain in 2D: eps_zz = 0,
      // sigma_zz = lambda tr(eps)), and von Mises sqrt(3/2 dev:dev) written
      // out as sqrt(((s_xx - s_yy)^2 + (s_yy - s_zz)^2 + (s_zz - s_xx)^2)/2
      // + 3 (s_xy^2 + s_xz^2 + s_yz^2)): in plain arithmetic (a
      // SymmetricTensor<2, 3> and its deviator cost 23% of the HDF5 volume
      // output, 4 calls per Q1 cell).
      const double trace   = ::dealii::trace(gradient);
      double       s[3][3] = {};
      for (unsigned int a = 0; a < dim; ++a)
        for (unsigned int b = a; b < dim; ++b)
          s[a][b] = shear_modulus * (gradient[a][b] + gradient[b][a]);
      for (unsigned int d = 0; d < 3; ++d)
        s[d][d] += lambda * trace;
      unsigned int k = 0;
      for (unsigned int a = 0; a < 3; ++a)
        for (unsigned int b = a; b < 3; ++b)
          if ((a < dim && b < dim) || (dim == 2 && a == 2 && b == 2))
            computed[k++] = s[a][b];
      const double d01 = s[0][0] - s[1][1], d12 = s[1][1] - s[2][2],
                   d20 = s[2][2] - s[0][0];
      computed[k]      = std::sqrt(
        0.5 * (d01 * d01 + d12 * d12 + d20 * d20) +
        3. * (s[0][1] * s[0][1] + s[0][2] * s[0][2] + s[1][2] * s[1][2]));
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
      // them). distribute() is collective: every rank calls it, also one
      // that holds no periodic unknown (a rank-local test deadlocked the
      // middle rank of a mesh periodic in x on 3 ranks).
      for (BodyVector *field : {&displacement, &velocity})
        {
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
      // The gradient at each support point x_k of a cell, as MappingQ1 and
      // FEValues give it (DataOut's default mapping), computed here from
      // the reference gradients, tabulated once: grad u(x_k) = (sum_j u_j
      // e_c(j) grad^ phi_b(j)(x^_k)) J_k^-1, J_k = sum_v X_v grad^ N_v(x^_k)
      // (N_v the d-linear functions of the vertices X_v). FEValues made the
      // volume output 37 ms at 8e4 cells (body_fronts_2d.prm), 90% of it
      // here.
      const DoFHandler<dim>    &dofs     = discretization.dof_handler();
      const FiniteElement<dim> &fe       = dofs.get_fe();
      const FiniteElement<dim> &base     = fe.base_element(0);
      const auto               &corners  = hdf5->sub_cell_corners();
      const unsigned int        n_stress = stress.get_names().size();
      const unsigned int        n_points = base.n_dofs_per_cell();
      const unsigned int        n_dofs   = fe.n_dofs_per_cell();
      constexpr unsigned int n_vertices  = GeometryInfo<dim>::vertices_per_cell;
      const std::vector<Point<dim>> &points = base.get_unit_support_points();
      std::vector<Tensor<1, dim>>    shape_gradient(n_points * n_points);
      std::vector<Tensor<1, dim>>    vertex_gradient(n_points * n_vertices);
      for (unsigned int k = 0; k < n_points; ++k)
        {
          for (unsigned int b = 0; b < n_points; ++b)
            shape_gradient[k * n_points + b] = base.shape_grad(b, points[k]);
          for (unsigned int v = 0; v < n_vertices; ++v)
            vertex_gradient[k * n_vertices + v] =
              GeometryInfo<dim>::d_linear_shape_function_gradient(points[k], v);
        }
      std::vector<std::pair<unsigned int, unsigned int>> component_of(n_dofs);
      for (unsigned int i = 0; i < n_dofs; ++i)
        component_of[i] = fe.system_to_component_index(i);

      std::vector<types::global_dof_index> indices(n_dofs);
      std::vector<double>                  u(n_dofs);
      std::vector<double>                  at_points(n_points * n_stress);
      std::vector<std::vector<double>>     values(n_stress + 1);
      const std::size_t n_values = hdf5->cells().size() * corners.size();
      for (auto &field : values)
        field.reserve(n_values);
      for (const auto &cell : hdf5->cells())
        {
          cell->get_dof_indices(indices);
          for (unsigned int i = 0; i < n_dofs; ++i)
            u[i] = displacement(indices[i]);
          std::array<Point<dim>, n_vertices> vertex;
          for (unsigned int v = 0; v < n_vertices; ++v)
            vertex[v] = cell->vertex(v);
          for (unsigned int k = 0; k < n_points; ++k)
            {
              Tensor<2, dim> jacobian, reference_gradient;
              for (unsigned int v = 0; v < n_vertices; ++v)
                jacobian +=
                  outer_product(vertex[v], vertex_gradient[k * n_vertices + v]);
              for (unsigned int i = 0; i < n_dofs; ++i)
                reference_gradient[component_of[i].first] +=
                  u[i] * shape_gradient[k * n_points + component_of[i].second];
              stress.values(reference_gradient * invert(jacobian),
                            &at_points[k * n_stress]);
            }
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
