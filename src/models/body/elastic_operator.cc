#include <deal.II/base/quadrature_lib.h>

#include <deal.II/fe/fe_values.h>

#include <deal.II/lac/lapack_full_matrix.h>

#include <deal.II/matrix_free/fe_evaluation.h>

#include <models/body/elastic_operator.h>

#include <cmath>
#include <limits>
#include <map>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    template <int dim>
    ElasticOperator<dim>::ElasticOperator(
      const DoFHandler<dim>           &dof_handler,
      const AffineConstraints<double> &constraints,
      const unsigned int               degree,
      const double                     lambda,
      const double                     shear_modulus)
      : degree(degree)
      , lambda(lambda)
      , shear_modulus(shear_modulus)
    {
      typename MatrixFree<dim, double>::AdditionalData additional_data;
      // One thread per MPI rank (stickslip runs flat MPI).
      additional_data.tasks_parallel_scheme =
        MatrixFree<dim, double>::AdditionalData::none;
      additional_data.mapping_update_flags =
        update_gradients | update_JxW_values;
      data.reinit(mapping,
                  dof_handler,
                  constraints,
                  QGauss<1>(degree + 1),
                  additional_data);
    }



    template <int dim>
    void
    ElasticOperator<dim>::initialize_dof_vector(BodyVector &vector) const
    {
      data.initialize_dof_vector(vector);
    }



    template <int dim>
    template <int p>
    void
    ElasticOperator<dim>::local_apply(
      const MatrixFree<dim, double>               &data,
      BodyVector                                  &product,
      const BodyVector                            &displacement,
      const std::pair<unsigned int, unsigned int> &cells) const
    {
      FEEvaluation<dim, p, p + 1, dim, double> phi(data);
      for (unsigned int cell = cells.first; cell < cells.second; ++cell)
        {
          phi.reinit(cell);
          phi.gather_evaluate(displacement, EvaluationFlags::gradients);
          for (unsigned int q = 0; q < phi.n_q_points; ++q)
            {
              const auto strain     = phi.get_symmetric_gradient(q);
              auto       stress     = (2 * shear_modulus) * strain;
              const auto dilatation = lambda * trace(strain);
              for (unsigned int d = 0; d < dim; ++d)
                stress[d][d] += dilatation;
              phi.submit_symmetric_gradient(stress, q);
            }
          phi.integrate_scatter(EvaluationFlags::gradients, product);
        }
    }



    template <int dim>
    void
    ElasticOperator<dim>::apply(BodyVector       &product,
                                const BodyVector &displacement) const
    {
      if (degree == 1)
        data.cell_loop(
          &ElasticOperator::local_apply<1>, this, product, displacement, true);
      else
        data.cell_loop(
          &ElasticOperator::local_apply<2>, this, product, displacement, true);
    }



    template <int dim>
    const MatrixFree<dim, double> &
    ElasticOperator<dim>::matrix_free() const
    {
      return data;
    }



    template <int dim>
    std::size_t
    ElasticOperator<dim>::memory_consumption() const
    {
      return data.memory_consumption();
    }



    namespace
    {
      /**
       * The largest eigenvalue of M_e^{-1} K_e for the cell of @p fe_values
       * (reinitialized on it): K_e by Gauss quadrature, the lumped M_e by
       * the Gauss-Lobatto rule of @p lobatto_values.
       */
      template <int dim>
      double
      cell_eigenvalue(const FEValues<dim> &fe_values,
                      const FEValues<dim> &lobatto_values,
                      const double         density,
                      const double         lambda,
                      const double         shear_modulus)
      {
        const FiniteElement<dim> &fe = fe_values.get_fe();
        const unsigned int        n  = fe.n_dofs_per_cell();
        std::vector<double>       mass(n, 0.);
        for (unsigned int i = 0; i < n; ++i)
          for (const unsigned int q : lobatto_values.quadrature_point_indices())
            mass[i] += density *
                       lobatto_values.shape_value_component(
                         i, q, fe.system_to_component_index(i).first) *
                       lobatto_values.JxW(q);
        LAPACKFullMatrix<double> matrix(n, n);
        for (unsigned int i = 0; i < n; ++i)
          for (unsigned int j = 0; j < n; ++j)
            {
              double entry = 0;
              for (const unsigned int q : fe_values.quadrature_point_indices())
                {
                  Tensor<2, dim> grad_i, grad_j;
                  for (unsigned int c = 0; c < dim; ++c)
                    {
                      grad_i[c] = fe_values.shape_grad_component(i, q, c);
                      grad_j[c] = fe_values.shape_grad_component(j, q, c);
                    }
                  const Tensor<2, dim> strain_i = symmetrize(grad_i);
                  const Tensor<2, dim> strain_j = symmetrize(grad_j);
                  entry +=
                    (lambda * trace(strain_i) * trace(strain_j) +
                     2 * shear_modulus * scalar_product(strain_i, strain_j)) *
                    fe_values.JxW(q);
                }
              matrix(i, j) = entry / std::sqrt(mass[i] * mass[j]);
            }
        matrix.set_property(LAPACKSupport::symmetric);
        Vector<double>     eigenvalues;
        FullMatrix<double> eigenvectors;
        // K_e is positive semidefinite: every eigenvalue lies above -1.
        matrix.compute_eigenvalues_symmetric(-1.,
                                             std::numeric_limits<double>::max(),
                                             0.,
                                             eigenvalues,
                                             eigenvectors);
        double largest = 0;
        for (const double value : eigenvalues)
          largest = std::max(largest, value);
        return largest;
      }



      /**
       * The shape of a cell up to translation, rounded to 1e-12 of its
       * diameter: cells with the same key have the same element matrices.
       */
      template <int dim>
      std::vector<long long>
      shape_key(const typename DoFHandler<dim>::active_cell_iterator &cell)
      {
        const double           scale = cell->diameter() * 1e-12;
        std::vector<long long> key;
        key.push_back(std::llround(std::log2(cell->diameter()) * 1e6));
        for (const unsigned int v : cell->vertex_indices())
          for (unsigned int d = 0; d < dim; ++d)
            key.push_back(
              std::llround((cell->vertex(v)[d] - cell->vertex(0)[d]) / scale));
        return key;
      }
    } // namespace



    template <int dim>
    double
    element_eigenvalue_bound(const DoFHandler<dim> &dof_handler,
                             const unsigned int     degree,
                             const double           density,
                             const double           lambda,
                             const double           shear_modulus,
                             const MPI_Comm         comm)
    {
      const FiniteElement<dim>                &fe = dof_handler.get_fe();
      FEValues<dim>                            fe_values(fe,
                              QGauss<dim>(degree + 1),
                              update_gradients | update_JxW_values);
      FEValues<dim>                            lobatto_values(fe,
                                   QGaussLobatto<dim>(degree + 1),
                                   update_values | update_JxW_values);
      std::map<std::vector<long long>, double> known;
      double                                   largest = 0;
      for (const auto &cell : dof_handler.active_cell_iterators())
        if (cell->is_locally_owned())
          {
            const auto key   = shape_key<dim>(cell);
            auto       entry = known.find(key);
            if (entry == known.end())
              {
                fe_values.reinit(cell);
                lobatto_values.reinit(cell);
                entry = known
                          .emplace(key,
                                   cell_eigenvalue(fe_values,
                                                   lobatto_values,
                                                   density,
                                                   lambda,
                                                   shear_modulus))
                          .first;
              }
            largest = std::max(largest, entry->second);
          }
      return Utilities::MPI::max(largest, comm);
    }



    template class ElasticOperator<2>;
    template class ElasticOperator<3>;
    template double
    element_eigenvalue_bound<2>(const DoFHandler<2> &,
                                const unsigned int,
                                const double,
                                const double,
                                const double,
                                const MPI_Comm);
    template double
    element_eigenvalue_bound<3>(const DoFHandler<3> &,
                                const unsigned int,
                                const double,
                                const double,
                                const double,
                                const MPI_Comm);
  } // namespace Body
} // namespace stickslip
