#ifndef stickslip_linear_algebra_elasticity_amg_h
#define stickslip_linear_algebra_elasticity_amg_h

#include <deal.II/dofs/dof_handler.h>

#include <base/global.h>

#include <memory>
#include <string>
#include <vector>

#ifndef STICKSLIP_USE_PETSC_LA
#  include <deal.II/lac/trilinos_precondition.h>

class Epetra_MultiVector;
#endif

namespace stickslip
{
  /**
   * The rigid-body modes of a vector field of @p dofs (every component a
   * displacement component): dim translations and dim (dim - 1)/2
   * rotations about the centroid of the owned support points, as vectors
   * with the owned entries of @p dofs (collective). They span the kernel of
   * the elastic stiffness without constraints: the near-null space that
   * smoothed aggregation needs to coarsen elasticity well (Vanek, Mandel
   * and Brezina 1996).
   */
  template <int dim>
  std::vector<DistributedVector>
  rigid_body_modes(const DoFHandler<dim> &dofs);

  /**
   * Algebraic multigrid for a symmetric positive definite elasticity matrix
   * (K, K + c0 M): smoothed aggregation given the rigid-body modes as its
   * near-null space, PETSc's GAMG (PETSc backend) or ML (Trilinos).
   * Classical AMG on the vector problem (BoomerAMG, as make_spd_amg() sets
   * it up for the scalar operators) coarsens without the rotations: on the
   * static 2D body its CG iterations grew from 54 to 177 between 8 10^3 and
   * 1.3 10^5 unknowns (doc/body.md, "The implicit step's solver").
   * The preconditioner of deal.II's SolverCG (vmult).
   */
  class ElasticityAmg
  {
  public:
    /** Set up on @p matrix with the near-null space @p modes (collective). */
    ElasticityAmg(const DistributedMatrix              &matrix,
                  const std::vector<DistributedVector> &modes);
    ~ElasticityAmg();

    ElasticityAmg(const ElasticityAmg &) = delete;
    ElasticityAmg &
    operator=(const ElasticityAmg &) = delete;

    /** One multigrid cycle: @p dst = P^{-1} @p src (collective). */
    void
    vmult(DistributedVector &dst, const DistributedVector &src) const;

    /** "PETSc GAMG (smoothed aggregation, the rigid-body modes)". */
    static std::string
    name();

  private:
    unsigned int n_modes;
#ifdef STICKSLIP_USE_PETSC_LA
    class Gamg;
    std::unique_ptr<Gamg> gamg;
#else
    std::unique_ptr<Epetra_MultiVector> modes;
    TrilinosWrappers::PreconditionAMG   ml;
#endif
  };
} // namespace stickslip

#endif
