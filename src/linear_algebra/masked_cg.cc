#include <linear_algebra/masked_cg.h>

namespace stickslip
{
  MaskedCG::MaskedCG(const Product        &product,
                     MaskedPreconditioner &preconditioner,
                     const double          tolerance,
                     const bool            zero_start)
    : product(product)
    , preconditioner(preconditioner)
    , tolerance(tolerance)
    , zero_start(zero_start)
    , iterations(0)
  {}



  unsigned long
  MaskedCG::n_iterations() const
  {
    return iterations;
  }



  void
  MaskedCG::reinit_vectors(const DistributedVector &layout, const bool jacobi)
  {
    // The Jacobi passes apply D^{-1} themselves: no P^{-1} r vector.
    for (DistributedVector *vector :
         {&residual, &direction, &product_of_direction, &preconditioned})
      if (vector->size() == 0 && (vector != &preconditioned || !jacobi))
        vector->reinit(layout.locally_owned_elements(),
                       layout.get_mpi_communicator());
  }



  void
  MaskedCG::update_direction(Sums &sums, const bool first)
  {
    // p = z + beta p with z = P^{-1} r, beta = (r.z)/(r.z)_previous.
    const DistributedVector *jacobi = preconditioner.jacobi_inverse_diagonal();
    if (jacobi == nullptr)
      {
        preconditioner.vmult(preconditioned, residual);
        sums.r_dot_z = residual * preconditioned;
        if (first)
          direction = preconditioned;
        else
          direction.sadd(sums.r_dot_z / sums.previous_r_dot_z,
                         1.,
                         preconditioned);
        return;
      }
    // r = 0 and p = 0 off S: so is the new p.
    const double     beta = sums.r_dot_z / sums.previous_r_dot_z;
    ConstLocalValues r_values(residual);
    ConstLocalValues d_values(*jacobi);
    LocalValues      p_values(direction);
    const double    *r         = r_values.data();
    const double    *inverse_d = d_values.data();
    double          *p         = p_values.data();
    for (std::size_t k = 0; k < p_values.size(); ++k)
      p[k] = r[k] * inverse_d[k] + beta * p[k];
  }



  MaskedCG::Sums
  MaskedCG::sum_over_ranks(const Sums &local, const MPI_Comm comm) const
  {
    std::array<double, 3> sums = {
      {local.r_dot_z, local.r_dot_r, local.n_above_limit}};
    MPI_Allreduce(MPI_IN_PLACE, sums.data(), 3, MPI_DOUBLE, MPI_SUM, comm);
    Sums global;
    global.r_dot_z       = sums[0];
    global.r_dot_r       = sums[1];
    global.n_above_limit = sums[2];
    return global;
  }
} // namespace stickslip
