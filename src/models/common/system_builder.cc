#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/lapack_full_matrix.h>

#include <base/expressions.h>
#include <base/local_values.h>
#include <base/selection.h>
#include <models/common/system_builder.h>

#include <cmath>

namespace stickslip
{
  void
  build_small_system(const FullMatrix<double>  &mass,
                     const FullMatrix<double>  &stiffness,
                     const std::vector<double> &friction_weights,
                     FrictionSystem            &system)
  {
    const unsigned int d    = mass.m();
    const MPI_Comm     comm = system.comm;
    system.locally_owned    = Utilities::create_evenly_distributed_partitioning(
      Utilities::MPI::this_mpi_process(comm),
      Utilities::MPI::n_mpi_processes(comm),
      d);

    DynamicSparsityPattern pattern(d, d);
    for (unsigned int i = 0; i < d; ++i)
      for (unsigned int j = 0; j < d; ++j)
        if (i == j || mass(i, j) != 0 || stiffness(i, j) != 0)
          pattern.add(i, j);

    system.mass.reinit(system.locally_owned,
                       system.locally_owned,
                       pattern,
                       comm);
    system.stiffness.reinit(system.locally_owned,
                            system.locally_owned,
                            pattern,
                            comm);
    system.has_stiffness = false;
    for (const auto i : system.locally_owned)
      for (unsigned int j = 0; j < d; ++j)
        if (pattern.exists(i, j))
          {
            system.mass.set(i, j, mass(i, j));
            system.stiffness.set(i, j, stiffness(i, j));
          }
    for (unsigned int i = 0; i < d; ++i)
      for (unsigned int j = 0; j < d; ++j)
        if (stiffness(i, j) != 0)
          system.has_stiffness = true;
    system.mass.compress(VectorOperation::insert);
    system.stiffness.compress(VectorOperation::insert);

    system.friction_weights.reinit(system.locally_owned, comm);
    set_owned_values(friction_weights, system.friction_weights);
    system.initial_displacement.reinit(system.locally_owned, comm);
    system.initial_velocity.reinit(system.locally_owned, comm);
  }



  void
  set_owned_values(const std::vector<double> &values, DistributedVector &vector)
  {
    const IndexSet owned = vector.locally_owned_elements();
    LocalValues    local(vector);
    std::size_t    k = 0;
    for (const auto i : owned)
      local[k++] = values[i];
  }



  bool
  is_positive_definite(const FullMatrix<double> &matrix)
  {
    const unsigned int n = matrix.m();
    FullMatrix<double> L(n, n);
    double             largest = 0;
    for (unsigned int i = 0; i < n; ++i)
      largest = std::max(largest, std::abs(matrix(i, i)));
    for (unsigned int j = 0; j < n; ++j)
      {
        double pivot = matrix(j, j);
        for (unsigned int k = 0; k < j; ++k)
          pivot -= L(j, k) * L(j, k);
        if (!(pivot > 1e-14 * largest))
          return false;
        L(j, j) = std::sqrt(pivot);
        for (unsigned int i = j + 1; i < n; ++i)
          {
            double value = matrix(i, j);
            for (unsigned int k = 0; k < j; ++k)
              value -= L(i, k) * L(j, k);
            L(i, j) = value / L(j, j);
          }
      }
    return true;
  }



  double
  smallest_eigenvalue(const FullMatrix<double> &matrix)
  {
    LAPACKFullMatrix<double> copy(matrix.m());
    copy = matrix;
    copy.compute_eigenvalues();
    double smallest = std::numeric_limits<double>::max();
    for (unsigned int i = 0; i < matrix.m(); ++i)
      smallest = std::min(smallest, copy.eigenvalue(i).real());
    return smallest;
  }



  double
  relative_asymmetry(const FullMatrix<double> &matrix)
  {
    double largest = 0, asymmetry = 0;
    for (unsigned int i = 0; i < matrix.m(); ++i)
      for (unsigned int j = 0; j < matrix.n(); ++j)
        {
          largest = std::max(largest, std::abs(matrix(i, j)));
          asymmetry =
            std::max(asymmetry, std::abs(matrix(i, j) - matrix(j, i)));
        }
    return largest > 0 ? asymmetry / largest : 0;
  }



  std::vector<double>
  parse_component_values(const std::string     &text,
                         const unsigned int     n_components,
                         const std::string     &path,
                         const ParameterSource &source)
  {
    const std::vector<double> values = parse_number_list(text, path, source);
    if (values.size() != n_components)
      throw_bad_parameter(source,
                          path,
                          text,
                          "it must list " + std::to_string(n_components) +
                            " values, one per component of M (found " +
                            std::to_string(values.size()) + ")");
    return values;
  }



  std::string
  gamma_law_names()
  {
    return "none|smooth|piecewise linear";
  }



  GammaLaw::Type
  parse_gamma_law(const std::string &name, const std::string &path)
  {
    return parse_selection<GammaLaw::Type>(name,
                                           {{"none", GammaLaw::Type::none},
                                            {"smooth", GammaLaw::Type::smooth},
                                            {"piecewise linear",
                                             GammaLaw::Type::piecewise_linear}},
                                           path);
  }



  void
  check_gamma_law(const GammaLaw::Type       type,
                  const std::vector<double> &beta,
                  const std::vector<double> &epsilon,
                  const std::string         &beta_path,
                  const std::string         &epsilon_path,
                  const ParameterSource     &source)
  {
    if (type == GammaLaw::Type::none)
      return;
    Assert(beta.size() == epsilon.size(), ExcInternalError());
    const auto component = [&](const unsigned int i) {
      return beta.size() == 1 ? std::string() :
                                " (component " + std::to_string(i + 1) + ")";
    };
    for (unsigned int i = 0; i < beta.size(); ++i)
      {
        if (!(beta[i] > 0 && beta[i] < 1))
          throw_bad_parameter(
            source,
            beta_path,
            format_number(beta[i]),
            "beta must lie in the open interval (0, 1) "
            "(Glowinski et al. 2006, §1: static friction c exceeds "
            "kinetic friction c (1 - beta) > 0)" +
              component(i));
        if (!(epsilon[i] > 0))
          throw_bad_parameter(source,
                              epsilon_path,
                              format_number(epsilon[i]),
                              "eps must be positive" + component(i));
      }
  }
} // namespace stickslip
