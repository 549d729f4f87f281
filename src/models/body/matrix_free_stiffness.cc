#include <deal.II/base/quadrature_lib.h>

#include <deal.II/fe/fe_values.h>

#include <deal.II/matrix_free/fe_evaluation.h>

#include <models/body/matrix_free_stiffness.h>

#include <cmath>
#include <limits>
#include <map>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    template <int dim>
    MatrixFreeStiffness<dim>::MatrixFreeStiffness(
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
    MatrixFreeStiffness<dim>::initialize_dof_vector(BodyVector &vector) const
    {
      data.initialize_dof_vector(vector);
    }



    template <int dim>
    template <int p>
    void
    MatrixFreeStiffness<dim>::local_apply(
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
    MatrixFreeStiffness<dim>::apply(BodyVector       &product,
                                    const BodyVector &displacement) const
    {
      if (degree == 1)
        data.cell_loop(&MatrixFreeStiffness::local_apply<1>,
                       this,
                       product,
                       displacement,
                       true);
      else
        data.cell_loop(&MatrixFreeStiffness::local_apply<2>,
                       this,
                       product,
                       displacement,
                       true);
    }



    template <int dim>
    const MatrixFree<dim, double> &
    MatrixFreeStiffness<dim>::matrix_free() const
    {
      return data;
    }



    template <int dim>
    std::size_t
    MatrixFreeStiffness<dim>::memory_consumption() const
    {
      return data.memory_consumption();
    }



    template <int dim>
    std::string
    MatrixFreeStiffness<dim>::description() const
    {
      return "matrix-free";
    }



    template class MatrixFreeStiffness<2>;
    template class MatrixFreeStiffness<3>;
  } // namespace Body
} // namespace stickslip
