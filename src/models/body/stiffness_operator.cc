#include <deal.II/base/quadrature_lib.h>

#include <deal.II/fe/fe_values.h>

#include <deal.II/lac/lapack_full_matrix.h>

#include <models/body/stiffness_operator.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    template <int dim>
    void
    cell_stiffness(const FEValues<dim> &fe_values,
                   const double         lambda,
                   const double         shear_modulus,
                   FullMatrix<double>  &matrix)
    {
      const unsigned int n = fe_values.get_fe().n_dofs_per_cell();
      // The strain of every shape function at every point, once.
      std::vector<std::vector<SymmetricTensor<2, dim>>> strains(
        n, std::vector<SymmetricTensor<2, dim>>(fe_values.n_quadrature_points));
      for (unsigned int i = 0; i < n; ++i)
        for (const unsigned int q : fe_values.quadrature_point_indices())
          {
            Tensor<2, dim> gradient;
            for (unsigned int c = 0; c < dim; ++c)
              gradient[c] = fe_values.shape_grad_component(i, q, c);
            strains[i][q] = symmetrize(gradient);
          }
      for (unsigned int i = 0; i < n; ++i)
        for (unsigned int j = 0; j <= i; ++j)
          {
            double entry = 0;
            for (const unsigned int q : fe_values.quadrature_point_indices())
              entry += (lambda * trace(strains[i][q]) * trace(strains[j][q]) +
                        2 * shear_modulus * (strains[i][q] * strains[j][q])) *
                       fe_values.JxW(q);
            matrix(i, j) = matrix(j, i) = entry;
          }
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
        FullMatrix<double> stiffness(n, n);
        cell_stiffness(fe_values, lambda, shear_modulus, stiffness);
        // M_e^{-1/2} K_e M_e^{-1/2}, scaled one factor at a time (the
        // product of two tiny masses underflows). Data that over- or
        // underflow give no bound (LAPACK would stop the program on them).
        LAPACKFullMatrix<double> matrix(n, n);
        for (unsigned int i = 0; i < n; ++i)
          for (unsigned int j = 0; j < n; ++j)
            {
              matrix(i, j) =
                stiffness(i, j) / std::sqrt(mass[i]) / std::sqrt(mass[j]);
              if (!std::isfinite(matrix(i, j)))
                return std::numeric_limits<double>::quiet_NaN();
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
    } // namespace



    template <int dim>
    std::vector<long long>
    cell_shape_key(const typename DoFHandler<dim>::active_cell_iterator &cell)
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



    template <int dim>
    unsigned int
    count_cell_shapes(const DoFHandler<dim> &dof_handler,
                      const unsigned int     limit)
    {
      std::set<std::vector<long long>> shapes;
      for (const auto &cell : dof_handler.active_cell_iterators())
        if (cell->is_locally_owned())
          {
            shapes.insert(cell_shape_key<dim>(cell));
            if (shapes.size() > limit)
              break;
          }
      return shapes.size();
    }



    namespace
    {
      /**
       * Body/Stiffness operator = auto takes the element kernels if there is
       * at most one distinct cell shape per this many owned cells. Their
       * K u reads one element matrix per distinct shape, n^2 doubles (n
       * unknowns per cell), next to the cells' indices: with every cell its
       * own shape it reads more bytes than the assembled matrix. Measured
       * (BENCHMARKS.md, section 84_stiffness_operators; 1 rank, Q1, time
       * loop of the kernels over the assembled matrix's): one shape 0.36
       * (2D) and 0.28 (3D), a quarter of the cells each its own shape
       * 0.42 and 0.58, every cell its own shape 1.30 and 1.72 (1.08 on
       * cylinder_2d_0.msh). Linear in the share of cells with their own
       * shape, the kernels stop paying at about 0.7 (2D) and 0.5 (3D) of
       * the cells; a quarter, where they were measured 1.7 to 2.4 times
       * faster, leaves a margin for the noise of a shared machine.
       */
      constexpr unsigned int cells_per_kernel_shape = 4;
    } // namespace



    template <int dim>
    StiffnessChoice
    choose_stiffness_operator(const DoFHandler<dim> &dof_handler,
                              const unsigned int     degree,
                              const bool             explicit_scheme)
    {
      // The implicit and quasi-static steps solve with their own assembled
      // K + c0 M: their residual's K u must be summed as that matrix's
      // product, or the active set's iteration stalls at the difference
      // (body_implicit_law_noise_floor failed with the element kernels).
      if (!explicit_scheme)
        return {degree == 1 ? StiffnessKind::assembled :
                              StiffnessKind::matrix_free,
                "the implicit and quasi-static steps take the operator of "
                "their linear solver"};
      const MPI_Comm comm  = dof_handler.get_communicator();
      unsigned int   owned = 0;
      for (const auto &cell : dof_handler.active_cell_iterators())
        owned += cell->is_locally_owned() ? 1 : 0;
      const unsigned int limit  = std::max(1u, owned / cells_per_kernel_shape);
      const unsigned int shapes = count_cell_shapes(dof_handler, limit);
      const bool         few =
        Utilities::MPI::min(shapes <= limit ? 1u : 0u, comm) == 1u;
      if (few)
        {
          const unsigned int total   = Utilities::MPI::sum(shapes, comm);
          const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
          return {StiffnessKind::element_kernels,
                  std::to_string(total) + " distinct cell shape" +
                    (total == 1 ? "" : "s") +
                    (n_ranks == 1 ? "" :
                                    ", counted on each rank's cells and "
                                    "summed")};
        }
      const std::string many = "more than 1 distinct cell shape per " +
                               std::to_string(cells_per_kernel_shape) +
                               " cells, too many for the element kernels";
      return {degree == 1 ? StiffnessKind::assembled :
                            StiffnessKind::matrix_free,
              many};
    }



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
            const auto key   = cell_shape_key<dim>(cell);
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
            largest = std::isnan(entry->second) || std::isnan(largest) ?
                        std::numeric_limits<double>::quiet_NaN() :
                        std::max(largest, entry->second);
          }
      // A nan on any rank makes the bound nan on every rank.
      const bool failed =
        Utilities::MPI::logical_or(!std::isfinite(largest), comm);
      return failed ? std::numeric_limits<double>::quiet_NaN() :
                      Utilities::MPI::max(largest, comm);
    }



    template void
    cell_stiffness<2>(const FEValues<2> &,
                      const double,
                      const double,
                      FullMatrix<double> &);
    template void
    cell_stiffness<3>(const FEValues<3> &,
                      const double,
                      const double,
                      FullMatrix<double> &);
    template std::vector<long long>
    cell_shape_key<2>(const DoFHandler<2>::active_cell_iterator &);
    template std::vector<long long>
    cell_shape_key<3>(const DoFHandler<3>::active_cell_iterator &);
    template unsigned int
    count_cell_shapes<2>(const DoFHandler<2> &, const unsigned int);
    template unsigned int
    count_cell_shapes<3>(const DoFHandler<3> &, const unsigned int);
    template StiffnessChoice
    choose_stiffness_operator<2>(const DoFHandler<2> &,
                                 const unsigned int,
                                 const bool);
    template StiffnessChoice
    choose_stiffness_operator<3>(const DoFHandler<3> &,
                                 const unsigned int,
                                 const bool);
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
