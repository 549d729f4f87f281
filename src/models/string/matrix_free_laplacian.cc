#include <deal.II/base/quadrature_lib.h>
#include <deal.II/matrix_free/fe_evaluation.h>

#include <base/local_values.h>
#include <models/string/matrix_free_laplacian.h>

namespace stickslip
{
  template <int dim>
  MatrixFreeLaplacian<dim>::MatrixFreeLaplacian(
    const DoFHandler<dim> &          dof_handler,
    const AffineConstraints<double> &constraints,
    const unsigned int               degree,
    const DistributedVector &        diagonal,
    const DistributedVector &        row_sums,
    const std::string &              chosen_by)
    : degree(degree)
    , setting(chosen_by)
    , diagonal_values(diagonal)
    , row_sums(row_sums)
  {
    AssertThrow(degree >= 1 && degree <= 4, ExcNotImplemented());
    typename MatrixFree<dim, double>::AdditionalData additional_data;
    // One thread per MPI rank (stickslip runs flat MPI).
    additional_data.tasks_parallel_scheme =
      MatrixFree<dim, double>::AdditionalData::none;
    additional_data.mapping_update_flags = update_gradients | update_JxW_values;
    data.reinit(mapping,
                dof_handler,
                constraints,
                QGauss<1>(degree + 1),
                additional_data);
    data.initialize_dof_vector(source);
    data.initialize_dof_vector(result);
    AssertThrow(source.locally_owned_size() == diagonal.locally_owned_size(),
                ExcInternalError());

    unsigned int k = 0;
    for (const auto i : dof_handler.locally_owned_dofs())
      {
        if (constraints.is_constrained(i))
          constrained_rows.push_back(k);
        ++k;
      }
  }



  template <int dim>
  template <int p>
  void
  MatrixFreeLaplacian<dim>::local_apply(
    const MatrixFree<dim, double> &              data,
    WorkVector &                                 product,
    const WorkVector &                           x,
    const std::pair<unsigned int, unsigned int> &cells) const
  {
    FEEvaluation<dim, p, p + 1, 1, double> phi(data);
    for (unsigned int cell = cells.first; cell < cells.second; ++cell)
      {
        phi.reinit(cell);
        phi.gather_evaluate(x, EvaluationFlags::gradients);
        for (unsigned int q = 0; q < phi.n_q_points; ++q)
          phi.submit_gradient(phi.get_gradient(q), q);
        phi.integrate_scatter(EvaluationFlags::gradients, product);
      }
  }



  template <int dim>
  void
  MatrixFreeLaplacian<dim>::vmult(DistributedVector &      product,
                                  const DistributedVector &x) const
  {
    {
      ConstLocalValues in(x);
      // The ghosts of the last product are stale: MatrixFree refreshes
      // them only for a vector that says it has none.
      source.zero_out_ghost_values();
      for (std::size_t k = 0; k < in.size(); ++k)
        source.local_element(k) = in[k];
    }
    switch (degree)
      {
        case 1:
          data.cell_loop(&MatrixFreeLaplacian::local_apply<1>, this, result, source, true);
          break;
        case 2:
          data.cell_loop(&MatrixFreeLaplacian::local_apply<2>, this, result, source, true);
          break;
        case 3:
          data.cell_loop(&MatrixFreeLaplacian::local_apply<3>, this, result, source, true);
          break;
        default:
          data.cell_loop(&MatrixFreeLaplacian::local_apply<4>, this, result, source, true);
          break;
      }
    // The constrained rows of the assembled matrix: their diagonal only.
    {
      ConstLocalValues diagonal(diagonal_values);
      for (const unsigned int k : constrained_rows)
        result.local_element(k) = diagonal[k] * source.local_element(k);
    }
    LocalValues out(product);
    for (std::size_t k = 0; k < out.size(); ++k)
      out[k] = result.local_element(k);
  }



  template <int dim>
  const DistributedVector &
  MatrixFreeLaplacian<dim>::diagonal() const
  {
    return diagonal_values;
  }



  template <int dim>
  const DistributedVector &
  MatrixFreeLaplacian<dim>::row_sum_bound() const
  {
    return row_sums;
  }



  template <int dim>
  std::string
  MatrixFreeLaplacian<dim>::chosen_by() const
  {
    return setting;
  }



  template <int dim>
  std::size_t
  MatrixFreeLaplacian<dim>::memory_consumption() const
  {
    return data.memory_consumption() + source.memory_consumption() +
           result.memory_consumption() +
           constrained_rows.size() * sizeof(unsigned int) +
           2 * row_sums.locally_owned_size() * sizeof(double);
  }



  template class MatrixFreeLaplacian<1>;
  template class MatrixFreeLaplacian<2>;
} // namespace stickslip
