#include <deal.II/base/quadrature_lib.h>

#include <deal.II/matrix_free/fe_evaluation.h>

#include <base/local_values.h>
#include <models/string/matrix_free_operator.h>

#include <type_traits>

namespace stickslip
{
  namespace
  {
    /**
     * Call @p f with std::integral_constant<int, p> for the run-time
     * degree p = 1..4: FEEvaluation takes the degree as a template
     * argument (its loops are unrolled for it).
     */
    template <typename Function>
    void
    with_degree(const unsigned int degree, const Function &f)
    {
      switch (degree)
        {
          case 1:
            f(std::integral_constant<int, 1>());
            break;
          case 2:
            f(std::integral_constant<int, 2>());
            break;
          case 3:
            f(std::integral_constant<int, 3>());
            break;
          default:
            f(std::integral_constant<int, 4>());
            break;
        }
    }
  } // namespace



  template <int dim>
  MatrixFreeCells<dim>::MatrixFreeCells(
    const DoFHandler<dim>           &dof_handler,
    const AffineConstraints<double> &constraints,
    const unsigned int               degree,
    const bool                       quadrature_points)
    : fe_degree(degree)
  {
    AssertThrow(degree >= 1 && degree <= 4, ExcNotImplemented());
    typename MatrixFree<dim, double>::AdditionalData additional_data;
    // One thread per MPI rank (stickslip runs flat MPI).
    additional_data.tasks_parallel_scheme =
      MatrixFree<dim, double>::AdditionalData::none;
    additional_data.mapping_update_flags =
      update_values | update_gradients | update_JxW_values |
      (quadrature_points ? update_quadrature_points : update_default);
    matrix_free.reinit(mapping,
                       dof_handler,
                       constraints,
                       QGauss<1>(degree + 1),
                       additional_data);
    matrix_free.initialize_dof_vector(source_vector);
    matrix_free.initialize_dof_vector(result_vector);

    unsigned int k = 0;
    for (const auto i : dof_handler.locally_owned_dofs())
      {
        if (constraints.is_constrained(i))
          constrained.push_back(k);
        ++k;
      }
  }



  template <int dim>
  const MatrixFree<dim, double> &
  MatrixFreeCells<dim>::data() const
  {
    return matrix_free;
  }



  template <int dim>
  unsigned int
  MatrixFreeCells<dim>::degree() const
  {
    return fe_degree;
  }



  template <int dim>
  const std::vector<unsigned int> &
  MatrixFreeCells<dim>::constrained_rows() const
  {
    return constrained;
  }



  template <int dim>
  void
  MatrixFreeCells<dim>::copy_in(const DistributedVector &x) const
  {
    AssertDimension(x.locally_owned_size(), source_vector.locally_owned_size());
    ConstLocalValues in(x);
    // The ghosts of the last product are stale: MatrixFree refreshes them
    // only for a vector that says it has none.
    source_vector.zero_out_ghost_values();
    for (std::size_t k = 0; k < in.size(); ++k)
      source_vector.local_element(k) = in[k];
  }



  template <int dim>
  void
  MatrixFreeCells<dim>::copy_out(DistributedVector &product) const
  {
    LocalValues out(product);
    for (std::size_t k = 0; k < out.size(); ++k)
      out[k] = result_vector.local_element(k);
  }



  template <int dim>
  typename MatrixFreeCells<dim>::WorkVector &
  MatrixFreeCells<dim>::source() const
  {
    return source_vector;
  }



  template <int dim>
  typename MatrixFreeCells<dim>::WorkVector &
  MatrixFreeCells<dim>::result() const
  {
    return result_vector;
  }



  template <int dim>
  std::size_t
  MatrixFreeCells<dim>::memory_consumption() const
  {
    return matrix_free.memory_consumption() +
           source_vector.memory_consumption() +
           result_vector.memory_consumption() +
           constrained.size() * sizeof(unsigned int);
  }



  template <int dim>
  MatrixFreeStringOperator<dim>::MatrixFreeStringOperator(
    std::shared_ptr<const MatrixFreeCells<dim>> cells,
    const Form                                  form,
    const DistributedVector                    &diagonal,
    const DistributedVector                    &row_sums,
    const std::string                          &chosen_by,
    const Function<dim>                        *wave_speed,
    const std::optional<double>                &constant_speed)
    : cells(std::move(cells))
    , form(form)
    , setting(chosen_by)
    , diagonal_values(diagonal)
    , row_sums(row_sums)
    , constant_coefficient(1.)
  {
    AssertThrow(this->cells->source().locally_owned_size() ==
                  diagonal.locally_owned_size(),
                ExcInternalError());
    if (form != Form::mass)
      return;
    if (constant_speed)
      constant_coefficient = 1. / (*constant_speed * *constant_speed);
    else
      {
        Assert(wave_speed != nullptr, ExcInternalError());
        set_coefficient(*wave_speed);
      }
  }



  template <int dim>
  void
  MatrixFreeStringOperator<dim>::set_coefficient(
    const Function<dim> &wave_speed)
  {
    const MatrixFree<dim, double> &data = cells->data();
    with_degree(cells->degree(), [&](const auto degree) {
      constexpr int                          p = decltype(degree)::value;
      FEEvaluation<dim, p, p + 1, 1, double> phi(data);
      const unsigned int                     n_q = phi.n_q_points;
      coefficient.resize(data.n_cell_batches() * n_q);
      for (unsigned int cell = 0; cell < data.n_cell_batches(); ++cell)
        {
          phi.reinit(cell);
          for (unsigned int q = 0; q < n_q; ++q)
            {
              const auto              points = phi.quadrature_point(q);
              VectorizedArray<double> value(1.);
              for (unsigned int lane = 0;
                   lane < data.n_active_entries_per_cell_batch(cell);
                   ++lane)
                {
                  Point<dim> x;
                  for (unsigned int d = 0; d < dim; ++d)
                    x[d] = points[d][lane];
                  const double c = wave_speed.value(x);
                  value[lane]    = 1. / (c * c);
                }
              coefficient[cell * n_q + q] = value;
            }
        }
    });
  }



  template <int dim>
  template <int p>
  void
  MatrixFreeStringOperator<dim>::local_apply(
    const MatrixFree<dim, double>               &data,
    WorkVector                                  &product,
    const WorkVector                            &x,
    const std::pair<unsigned int, unsigned int> &cell_range) const
  {
    FEEvaluation<dim, p, p + 1, 1, double> phi(data);
    const unsigned int                     n_q = phi.n_q_points;
    for (unsigned int cell = cell_range.first; cell < cell_range.second; ++cell)
      {
        phi.reinit(cell);
        if (form == Form::stiffness)
          {
            phi.gather_evaluate(x, EvaluationFlags::gradients);
            for (unsigned int q = 0; q < n_q; ++q)
              phi.submit_gradient(phi.get_gradient(q), q);
            phi.integrate_scatter(EvaluationFlags::gradients, product);
          }
        else
          {
            phi.gather_evaluate(x, EvaluationFlags::values);
            for (unsigned int q = 0; q < n_q; ++q)
              phi.submit_value((coefficient.empty() ?
                                  make_vectorized_array(constant_coefficient) :
                                  coefficient[cell * n_q + q]) *
                                 phi.get_value(q),
                               q);
            phi.integrate_scatter(EvaluationFlags::values, product);
          }
      }
  }



  template <int dim>
  void
  MatrixFreeStringOperator<dim>::cell_loop() const
  {
    with_degree(cells->degree(), [this](const auto degree) {
      constexpr int p = decltype(degree)::value;
      cells->data().cell_loop(&MatrixFreeStringOperator::local_apply<p>,
                              this,
                              cells->result(),
                              cells->source(),
                              true);
    });
  }



  template <int dim>
  void
  MatrixFreeStringOperator<dim>::vmult(DistributedVector       &product,
                                       const DistributedVector &x) const
  {
    cells->copy_in(x);
    cell_loop();
    // The constrained rows of the assembled matrix: their diagonal only.
    {
      ConstLocalValues diagonal(diagonal_values);
      WorkVector      &source = cells->source();
      WorkVector      &result = cells->result();
      for (const unsigned int k : cells->constrained_rows())
        result.local_element(k) = diagonal[k] * source.local_element(k);
    }
    cells->copy_out(product);
  }



  template <int dim>
  const DistributedVector &
  MatrixFreeStringOperator<dim>::diagonal() const
  {
    return diagonal_values;
  }



  template <int dim>
  const DistributedVector &
  MatrixFreeStringOperator<dim>::row_sum_bound() const
  {
    return row_sums;
  }



  template <int dim>
  std::string
  MatrixFreeStringOperator<dim>::chosen_by() const
  {
    return setting;
  }



  template <int dim>
  std::size_t
  MatrixFreeStringOperator<dim>::memory_consumption() const
  {
    return cells->memory_consumption() + coefficient.memory_consumption() +
           2 * row_sums.locally_owned_size() * sizeof(double);
  }



  template class MatrixFreeCells<1>;
  template class MatrixFreeCells<2>;
  template class MatrixFreeStringOperator<1>;
  template class MatrixFreeStringOperator<2>;
} // namespace stickslip
