#ifndef stickslip_models_slab_slab_parameters_h
#define stickslip_models_slab_slab_parameters_h

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>
#include <friction/friction_law.h>

#include <string>
#include <vector>

namespace stickslip
{
  namespace Slab
  {
    /** Interior schemes for the characteristics b+ and b-. */
    enum class InteriorScheme
    {
      upwind,      ///< Renard 2001, eqs. (42)-(43), first order, exact at CFL 1
      lax_wendroff ///< second order, exact at CFL 1 as well
    };

    /** Treatment of the unilateral contact at x3 = 0. */
    enum class ContactTreatment
    {
      non_regularized, ///< Renard 2001, eqs. (47)-(48)
      regularized      ///< Renard 2001, eqs. (49)-(50), normal compliance 1/eta
    };

    /**
     * The `Slab` subsection: Renard's elastic slab (Renard 2001, doc/theory.md
     * §4). Parsing checks every value and throws an InputError naming the
     * parameter; checks that need the mesh (CFL) are done by the simulation.
     */
    struct SlabParameters
    {
      // Material and geometry (SI units).
      double lambda;              ///< Lame lambda [Pa]
      double shear_modulus;       ///< G [Pa]
      double density;             ///< rho [kg/m^3]
      double height;              ///< H [m]
      double compression;         ///< D [m]: top displacement (0, 0, -D)
      double foundation_velocity; ///< v_* [m/s] along x1

      // Initial data u^0(z), u^1(z) (three muParser expressions of z each).
      std::string initial_displacement;
      std::string initial_velocity;

      // Discretization.
      unsigned int              n_cells;
      std::vector<unsigned int> convergence_cells;
      double                    cfl_number; ///< 0: dt from Time/Time step
      InteriorScheme            interior_scheme;

      // Boundary x3 = 0.
      ContactTreatment contact;
      double           eta;     ///< compliance of (37) [m/Pa]
      double           epsilon; ///< surface mass of (29) [kg/m^2]
      double           theta;   ///< theta of the boundary schemes
      /** Slab/Friction law: mu at the contact node (at x = 0). */
      Parameters::FrictionLaw friction;

      bool write_profiles;

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);

      /** Shear wave speed c1 = sqrt(G/rho). */
      double
      c1() const;
      /** Longitudinal wave speed c2 = sqrt((lambda + 2G)/rho). */
      double
      c2() const;
      /**
       * The friction law of the contact node: Slab/Friction law at x = 0
       * (its values were checked by parse()).
       */
      FrictionLaw
      friction_law() const;

    private:
      /** Range checks of the values read, InputErrors naming the parameter. */
      void
      check(const ParameterSource &source) const;

      /** The list of grids of a refinement study (positive integers). */
      void
      check_convergence_cells(const std::vector<double> &cells,
                              const std::string         &text,
                              const ParameterSource     &source);
    };
  } // namespace Slab
} // namespace stickslip

#endif
