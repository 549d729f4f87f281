#include <deal.II/base/quadrature.h>

#include <deal.II/fe/fe_values.h>

#include <base/input_error.h>
#include <base/local_values.h>
#include <linear_algebra/elasticity_amg.h>

#include <array>

#ifdef STICKSLIP_USE_PETSC_LA
#  include <deal.II/lac/petsc_precondition.h>

#  include <petscksp.h>
#else
#  include <Epetra_MultiVector.h>
#  include <Teuchos_ParameterList.hpp>
#endif

namespace stickslip
{
  namespace
  {
    /**
     * The value of rigid-body mode @p mode at a support point @p x (relative
     * to the centroid) in component @p component: translations first, then
     * the rotations (2D: about z; 3D: about x, y, z).
     */
    template <int dim>
    double
    mode_value(const unsigned int   mode,
               const unsigned int   component,
               const Tensor<1, dim> x)
    {
      if (mode < dim)
        return mode == component ? 1. : 0.;
      // The rotation about axis a moves x by e_a x (x): a = 2 (z) in 2D.
      const unsigned int          axis = dim == 2 ? 2 : mode - dim;
      const std::array<double, 3> p{{x[0], x[1], dim == 3 ? x[dim - 1] : 0.}};
      const std::array<double, 3> e{
        {axis == 0 ? 1. : 0., axis == 1 ? 1. : 0., axis == 2 ? 1. : 0.}};
      const std::array<double, 3> cross{{e[1] * p[2] - e[2] * p[1],
                                         e[2] * p[0] - e[0] * p[2],
                                         e[0] * p[1] - e[1] * p[0]}};
      return cross[component];
    }
  } // namespace



  template <int dim>
  std::vector<DistributedVector>
  rigid_body_modes(const DoFHandler<dim> &dofs)
  {
    const auto               &fe = dofs.get_fe();
    const Quadrature<dim>     support(fe.get_unit_support_points());
    FEValues<dim>             values(fe, support, update_quadrature_points);
    const MPI_Comm            comm  = dofs.get_communicator();
    const IndexSet           &owned = dofs.locally_owned_dofs();
    std::vector<Point<dim>>   point(owned.n_elements());
    std::vector<unsigned int> component(owned.n_elements());
    std::vector<types::global_dof_index> indices(fe.n_dofs_per_cell());
    for (const auto &cell : dofs.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          values.reinit(cell);
          cell->get_dof_indices(indices);
          for (unsigned int i = 0; i < indices.size(); ++i)
            if (owned.is_element(indices[i]))
              {
                const auto k = owned.index_within_set(indices[i]);
                point[k]     = values.quadrature_point(i);
                component[k] = fe.system_to_component_index(i).first;
              }
        }
    // About the centroid: the rotations then nearly orthogonal to the
    // translations (the vectors are orthonormalized where they are used).
    Tensor<1, dim> centroid;
    for (const auto &x : point)
      centroid += x;
    for (unsigned int d = 0; d < dim; ++d)
      centroid[d] = Utilities::MPI::sum(centroid[d], comm);
    centroid /= std::max<double>(1., Utilities::MPI::sum(point.size(), comm));

    const unsigned int             n_modes = dim * (dim + 1) / 2;
    std::vector<DistributedVector> modes(n_modes);
    for (unsigned int m = 0; m < n_modes; ++m)
      {
        modes[m].reinit(owned, comm);
        {
          LocalValues entries(modes[m]);
          for (std::size_t k = 0; k < entries.size(); ++k)
            entries[k] =
              mode_value<dim>(m, component[k], point[k] - Point<dim>(centroid));
        }
        modes[m].compress(VectorOperation::insert);
      }
    return modes;
  }



#ifdef STICKSLIP_USE_PETSC_LA
  /**
   * deal.II 9.4 wraps no GAMG: a PETSc PC of type GAMG on the matrix, the
   * modes attached to it as its near-null space (orthonormalized, as
   * MatNullSpaceCreate requires), tunable by PETSc's -pc_gamg_* options.
   */
  class ElasticityAmg::Gamg : public PETScWrappers::PreconditionBase
  {
  public:
    Gamg(const DistributedMatrix              &matrix_in,
         const std::vector<DistributedVector> &modes)
    {
      matrix = static_cast<Mat>(matrix_in);
      std::vector<Vec> basis(modes.size());
      for (std::size_t m = 0; m < modes.size(); ++m)
        {
          AssertThrow(VecDuplicate(modes[m], &basis[m]) == 0,
                      ExcMessage("VecDuplicate"));
          VecCopy(modes[m], basis[m]);
          // Modified Gram-Schmidt against the earlier ones.
          for (std::size_t j = 0; j < m; ++j)
            {
              PetscScalar dot;
              VecDot(basis[m], basis[j], &dot);
              VecAXPY(basis[m], -dot, basis[j]);
            }
          VecNormalize(basis[m], nullptr);
        }
      MatNullSpace near_null_space;
      AssertThrow(MatNullSpaceCreate(PetscObjectComm(
                                       reinterpret_cast<PetscObject>(matrix)),
                                     PETSC_FALSE,
                                     basis.size(),
                                     basis.data(),
                                     &near_null_space) == 0,
                  ExcMessage("MatNullSpaceCreate"));
      MatSetNearNullSpace(matrix, near_null_space);
      MatNullSpaceDestroy(&near_null_space);
      for (Vec &v : basis)
        VecDestroy(&v);

      create_pc();
      PCSetType(pc, PCGAMG);
      // A bad value in PETSc's options (PETSC_OPTIONS="-pc_gamg_threshold
      // abc") is an error PETSc prints; the run must not go on with the
      // default in its place. The options are the same on every rank.
      if (PCSetFromOptions(pc) != 0)
        throw InputError(
          "PETSc refused an option of the algebraic multigrid (GAMG), as "
          "its message above says: correct it in PETSC_OPTIONS (or the "
          "options file that sets it)");
      AssertThrow(PCSetUp(pc) == 0, ExcMessage("GAMG set-up failed"));
    }
  };
#endif



  ElasticityAmg::ElasticityAmg(const DistributedMatrix              &matrix,
                               const std::vector<DistributedVector> &modes_in)
    : n_modes(modes_in.size())
  {
#ifdef STICKSLIP_USE_PETSC_LA
    gamg = std::make_unique<Gamg>(matrix, modes_in);
#else
    // deal.II's ML parameters for an elliptic problem, the null space then
    // replaced by the modes (ML keeps a pointer: they live in this object).
    TrilinosWrappers::PreconditionAMG::AdditionalData data;
    data.elliptic = true;
    Teuchos::ParameterList              list;
    std::unique_ptr<Epetra_MultiVector> unused;
    data.set_parameters(list, unused, matrix);
    modes =
      std::make_unique<Epetra_MultiVector>(matrix.trilinos_matrix().DomainMap(),
                                           n_modes);
    for (unsigned int m = 0; m < n_modes; ++m)
      {
        ConstLocalValues entries(modes_in[m]);
        for (std::size_t k = 0; k < entries.size(); ++k)
          (*modes)[m][k] = entries[k];
      }
    list.set("null space: type", "pre-computed");
    list.set("null space: dimension", static_cast<int>(n_modes));
    list.set("null space: vectors", modes->Values());
    ml.initialize(matrix, list);
#endif
  }



  ElasticityAmg::~ElasticityAmg() = default;



  void
  ElasticityAmg::vmult(DistributedVector       &dst,
                       const DistributedVector &src) const
  {
#ifdef STICKSLIP_USE_PETSC_LA
    gamg->vmult(dst, src);
#else
    ml.vmult(dst, src);
#endif
  }



  std::string
  ElasticityAmg::name()
  {
#ifdef STICKSLIP_USE_PETSC_LA
    const std::string method = "PETSc GAMG";
#else
    const std::string method = "Trilinos ML";
#endif
    return method + " (smoothed aggregation, the rigid-body modes)";
  }



  template std::vector<DistributedVector>
  rigid_body_modes<2>(const DoFHandler<2> &);
  template std::vector<DistributedVector>
  rigid_body_modes<3>(const DoFHandler<3> &);
} // namespace stickslip
