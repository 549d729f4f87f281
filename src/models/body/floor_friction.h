#ifndef stickslip_models_body_floor_friction_h
#define stickslip_models_body_floor_friction_h

#include <base/global.h>
#include <base/input_error.h>
#include <friction/contact_node.h>
#include <models/body/body_discretization.h>

#include <vector>

namespace stickslip
{
  namespace Body
  {
    /**
     * Friction of the whole body against the plane it lies in (Body/
     * Distributed friction, doc/body.md): the force g lambda per unit
     * area with lambda in Dir(u_t), the isotropic (vector) analogue of the
     * frictional string of Glowinski et al. 2006, eq. (23). Lumped like the
     * string (doc/body.md): at node i the threshold is g_i w_i, w_i = int
     * phi_i, and the implicit Euler step of the predicted velocity v_pr, m_i (v
     * - v_pr)/dt in -g_i w_i Dir(v), is the tangential step of the node solver
     * with impedance Z = m_i/(w_i dt), pressure g_i and mu = 1: v = 0 if |v_pr|
     * <= g_i/Z, else v = v_pr (1 - g_i/(Z |v_pr|)). A stuck node keeps v = 0
     * exactly.
     */
    template <int dim>
    class FloorFriction
    {
    public:
      /**
       * The owned nodes of @p discretization with g(x) (@p threshold, its
       * parameter Body/Distributed friction) > 0 and no prescribed
       * component (@p prescribed, by the local index of a node's first
       * unknown); masses @p mass, weights @p weights = int phi_i. A negative
       * or non-finite g is an InputError quoting @p threshold_text, the
       * value as written, and the first node where it fails.
       */
      FloorFriction(const BodyDiscretization<dim> &discretization,
                    const Function<dim>           &threshold,
                    const std::string             &threshold_text,
                    const BodyVector              &mass,
                    const BodyVector              &weights,
                    const std::vector<bool>       &prescribed,
                    const ParameterSource         &source);

      /**
       * Correct the predicted velocities @p velocity for the friction of a
       * step of size @p dt (@p previous: the velocities of the last step);
       * returns the friction work on the slip, dt w_i g_i |v| >= 0, and the
       * rest of the correction's work with the mean velocity of the step
       * (as ContactWork::impact_work). No communication.
       */
      std::pair<double, double>
      step(const double dt, const BodyVector &previous, BodyVector &velocity);

      /** Fraction of the friction nodes at rest after the last step
       * (collective). */
      double
      stick_fraction() const;

      unsigned int
      n_local_nodes() const;

    private:
      const MPI_Comm                             comm;
      const ContactNode                          solver;
      std::vector<std::array<unsigned int, dim>> unknowns;
      std::vector<double>                        impedance_dt; ///< m_i/w_i
      std::vector<double>                        threshold;    ///< g_i
      std::vector<double>                        weight;       ///< w_i
      unsigned long                              n_stuck;
    };
  } // namespace Body
} // namespace stickslip

#endif
