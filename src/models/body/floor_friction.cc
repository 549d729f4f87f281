#include <base/expressions.h>
#include <models/body/floor_friction.h>

#include <cmath>
#include <tuple>

namespace stickslip
{
  namespace Body
  {
    namespace
    {
      /** mu = 1: the threshold g is the whole friction force per area. */
      ContactLaw
      unit_coulomb_law()
      {
        return ContactLaw{
          NormalContactLaw::unilateral,
          1.,
          ClosingVelocity::closes_gap,
          FrictionCoefficient(FrictionCoefficient::Law::constant, 1., 1., 1.),
          2};
      }
    } // namespace



    template <int dim>
    FloorFriction<dim>::FloorFriction(
      const BodyDiscretization<dim> &discretization,
      const Function<dim>           &threshold_function,
      const std::string             &threshold_text,
      const BodyVector              &mass,
      const BodyVector              &weights,
      const std::vector<bool>       &prescribed,
      const ParameterSource         &source)
      : comm(discretization.communicator())
      , solver(unit_coulomb_law())
      , n_stuck(0)
    {
      static_assert(dim <= 3, "three components at most");
      bool       bad       = false;
      double     bad_value = 0;
      Point<dim> bad_point;
      for (const Node<dim> &node : discretization.nodes())
        {
          const double g = threshold_function.value(node.point);
          if (!(g >= 0) || !std::isfinite(g))
            {
              if (!bad)
                std::tie(bad_value, bad_point) = std::make_pair(g, node.point);
              bad = true;
            }
          else if (g > 0 && !prescribed[node.unknowns[0]])
            {
              unknowns.push_back(node.unknowns);
              impedance_dt.push_back(mass.local_element(node.unknowns[0]) /
                                     weights.local_element(node.unknowns[0]));
              threshold.push_back(g);
              weight.push_back(weights.local_element(node.unknowns[0]));
            }
        }
      // The first rank with a bad node tells its value and place.
      const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
      const unsigned int owner   = Utilities::MPI::min(
        bad ? Utilities::MPI::this_mpi_process(comm) : n_ranks, comm);
      if (owner < n_ranks)
        {
          bad_value = Utilities::MPI::broadcast(comm, bad_value, owner);
          bad_point = Utilities::MPI::broadcast(comm, bad_point, owner);
          throw_bad_parameter(source,
                              "Body/Distributed friction",
                              threshold_text,
                              "g(x) must be a finite number >= 0 at every "
                              "node, and it is " +
                                format_number(bad_value) + " at the node " +
                                describe_point(bad_point, "x,y,z"));
        }
    }



    template <int dim>
    std::pair<double, double>
    FloorFriction<dim>::step(const double      dt,
                             const BodyVector &previous,
                             BodyVector       &velocity)
    {
      double dissipation = 0, correction = 0;
      n_stuck = 0;
      for (std::size_t k = 0; k < unknowns.size(); ++k)
        {
          const double impedance = impedance_dt[k] / dt;
          Tangential   r         = {{0., 0.}};
          for (unsigned int d = 0; d < dim && d < 2; ++d)
            r[d] = impedance * velocity.local_element(unknowns[k][d]);
          // mu is constant: exactly one solution, whatever the last slip.
          const TangentialUpdate update =
            solver.tangential_step(impedance, threshold[k], r, {{0., 0.}});
          const double mass = impedance_dt[k] * weight[k];
          for (unsigned int d = 0; d < dim && d < 2; ++d)
            {
              const unsigned int i = unknowns[k][d];
              correction += mass *
                            (update.slip[d] - velocity.local_element(i)) * 0.5 *
                            (previous.local_element(i) + update.slip[d]);
              dissipation +=
                dt * weight[k] * update.friction_force[d] * update.slip[d];
              velocity.local_element(i) = update.slip[d];
            }
          n_stuck += update.stick ? 1 : 0;
        }
      return {dissipation, correction + dissipation};
    }



    template <int dim>
    double
    FloorFriction<dim>::stick_fraction() const
    {
      const double stuck =
        Utilities::MPI::sum(static_cast<double>(n_stuck), comm);
      const double all =
        Utilities::MPI::sum(static_cast<double>(unknowns.size()), comm);
      return all > 0 ? stuck / all : 0.;
    }



    template <int dim>
    unsigned int
    FloorFriction<dim>::n_local_nodes() const
    {
      return unknowns.size();
    }



    template class FloorFriction<2>;
    template class FloorFriction<3>;
  } // namespace Body
} // namespace stickslip
