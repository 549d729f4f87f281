#include <base/expressions.h>
#include <base/parameter_file.h>
#include <base/selection.h>
#include <models/slab/slab_parameters.h>

#include <cmath>

namespace stickslip
{
  namespace Slab
  {
    namespace
    {
      /** The slab's material, geometry, data and grid. */
      void
      declare_slab_and_grid(ParameterHandler &prm)
      {
        prm.declare_entry("Lambda",
                          "107e9",
                          Patterns::Double(),
                          "Lame coefficient lambda [Pa]; lambda + 2G > 0.");
        prm.declare_entry("Shear modulus",
                          "77e9",
                          Patterns::Double(),
                          "Lame coefficient G [Pa], > 0.");
        prm.declare_entry("Density",
                          "7800",
                          Patterns::Double(),
                          "Mass density rho > 0 [kg/m^3] of the slab.");
        prm.declare_entry("Height",
                          "0.05",
                          Patterns::Double(),
                          "Height H > 0 [m] of the slab.");
        prm.declare_entry(
          "Compression",
          "1e-5",
          Patterns::Double(),
          "Compression D >= 0 [m]: the top x3 = H is held at "
          "the displacement (0, 0, -D) (Renard 2001, eq. (12)).");
        prm.declare_entry("Foundation velocity",
                          "0.1",
                          Patterns::Double(),
                          "Velocity v_* [m/s] of the rigid foundation along x1"
                          " (Renard 2001, eq. (8)).");
        prm.declare_entry("Initial displacement",
                          "0; 0; -1e-5*z/0.05",
                          Patterns::Anything(),
                          "Initial displacement u^0(z) [m]: three muParser "
                          "expressions of z separated by ';'. Must satisfy "
                          "u^0(H) = (0, 0, -D) and u^0_3(0) >= 0 (no initial "
                          "penetration).");
        prm.declare_entry("Initial velocity",
                          "0; 0; 0",
                          Patterns::Anything(),
                          "Initial velocity u^1(z) [m/s]: three muParser "
                          "expressions of z separated by ';'. Must satisfy "
                          "u^1(H) = 0.");
        prm.declare_entry("Number of cells",
                          "100",
                          Patterns::Integer(1),
                          "Number N_z of cells of the uniform grid z_i = i "
                          "H/N_z over the height.");
        prm.declare_entry("Convergence cells",
                          "",
                          Patterns::Anything(),
                          "Comma-separated list of N_z. When not empty, one "
                          "invocation runs every N_z of the list with the "
                          "same CFL number (constant dt/dz, as in Renard 2001, "
                          "§7.1) and writes refinement.csv with the "
                          "differences between successive runs. Needs CFL "
                          "number > 0.");
        prm.declare_entry("CFL number",
                          "0",
                          Patterns::Double(),
                          "When > 0, dt = CFL number * dz / c2 (so that "
                          "d2 = c2 dt/dz equals it) and Time/Time step is "
                          "ignored; the run takes ceil((T - t0)/dt) steps. "
                          "0: dt = Time/Time step. In both cases d2 <= 1 is "
                          "required.");
      }



      /** The schemes of the interior and of the contact, the friction law. */
      void
      declare_schemes_and_friction(ParameterHandler &prm)
      {
        prm.declare_entry(
          "Interior scheme",
          "upwind",
          Patterns::Selection("upwind|lax-wendroff"),
          "Scheme of the interior transport along the "
          "characteristics. upwind: Renard 2001, eqs. (42)-(43) (first "
          "order; the paper "
          "calls it Lax-Wendroff), lax-wendroff: second-order "
          "Lax-Wendroff on the characteristics. Both are exact "
          "at CFL number 1.");
        prm.declare_entry("Contact",
                          "non-regularized",
                          Patterns::Selection("non-regularized|regularized"),
                          "Unilateral contact at x3 = 0: non-regularized "
                          "implicit Euler (47)-(48), or regularized (49)-(50) "
                          "with normal compliance eta.");
        prm.declare_entry("Regularization eta",
                          "1e-15",
                          Patterns::Double(),
                          "Normal compliance eta > 0 [m/Pa] of Contact = "
                          "regularized: the penetration is eta times the "
                          "contact pressure S (Renard 2001, eq. (37)).");
        prm.declare_entry(
          "Surface mass epsilon",
          "10",
          Patterns::Double(),
          "Mass per area epsilon >= 0 [kg/m^2] added on the "
          "contact boundary (Renard 2001, eqs. (29)-(36), (52)); 0 "
          "solves the unperturbed inclusion (Renard 2001, eq. (25)).");
        prm.declare_entry(
          "Boundary theta",
          "1",
          Patterns::Double(),
          "Implicitness theta in [1/2, 1] of the contact-boundary schemes: 1 "
          "is the implicit Euler scheme of the paper (Renard 2001, eqs. (47)-(52)), 1/2"
          " the trapezoidal variant it calls more accurate.");
        Parameters::FrictionLaw::declare_parameters(
          prm, {"Slab", "fig2", "0.8", "0.5", 256});
        prm.declare_entry("Write profiles",
                          "false",
                          Patterns::Bool(),
                          "Write profile-initial.csv and profile-final.csv "
                          "(z, u_t, u_,3, u at every node, gathered on rank 0; "
                          "for tests and small grids).");
      }
    } // namespace



    void
    SlabParameters::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Slab");
      declare_slab_and_grid(prm);
      declare_schemes_and_friction(prm);
      prm.leave_subsection();
      // The output schedule moved to the Output subsection (RunLoop).
      declare_moved_entry("Slab/Field output every",
                          "Output/Field output every");
    }



    void
    SlabParameters::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      prm.enter_subsection("Slab");
      lambda               = prm.get_double("Lambda");
      shear_modulus        = prm.get_double("Shear modulus");
      density              = prm.get_double("Density");
      height               = prm.get_double("Height");
      compression          = prm.get_double("Compression");
      foundation_velocity  = prm.get_double("Foundation velocity");
      initial_displacement = prm.get("Initial displacement");
      initial_velocity     = prm.get("Initial velocity");
      n_cells              = prm.get_integer("Number of cells");
      const std::string         cells_text = prm.get("Convergence cells");
      const std::vector<double> cells =
        parse_number_list(cells_text, "Slab/Convergence cells", source);
      cfl_number = prm.get_double("CFL number");
      interior_scheme =
        parse_selection<InteriorScheme>(prm.get("Interior scheme"),
                                        {{"upwind", InteriorScheme::upwind},
                                         {"lax-wendroff",
                                          InteriorScheme::lax_wendroff}},
                                        "Slab/Interior scheme");
      contact = parse_selection<ContactTreatment>(
        prm.get("Contact"),
        {{"regularized", ContactTreatment::regularized},
         {"non-regularized", ContactTreatment::non_regularized}},
        "Slab/Contact");
      eta     = prm.get_double("Regularization eta");
      epsilon = prm.get_double("Surface mass epsilon");
      theta   = prm.get_double("Boundary theta");
      friction.parse(prm, "Slab", source);
      write_profiles = prm.get_bool("Write profiles");
      prm.leave_subsection();
      check(source);
      check_convergence_cells(cells, cells_text, source);
    }



    void
    SlabParameters::check(const ParameterSource &source) const
    {
      const auto require = [&](const bool         condition,
                               const std::string &name,
                               const double       value,
                               const std::string &allowed) {
        if (!condition)
          throw_bad_parameter(source,
                              "Slab/" + name,
                              format_number(value),
                              allowed);
      };
      require(shear_modulus > 0,
              "Shear modulus",
              shear_modulus,
              "G must be > 0");
      require(lambda + 2 * shear_modulus > 0,
              "Lambda",
              lambda,
              "lambda + 2G must be > 0 (longitudinal wave speed c2)");
      require(density > 0, "Density", density, "rho must be > 0");
      require(height > 0, "Height", height, "H must be > 0");
      require(compression >= 0,
              "Compression",
              compression,
              "D must be >= 0: the top is pushed down by (0, 0, -D), "
              "Renard 2001, eq. (12)");
      require(std::isfinite(foundation_velocity),
              "Foundation velocity",
              foundation_velocity,
              "it must be a finite number");
      require(cfl_number >= 0 && cfl_number <= 1,
              "CFL number",
              cfl_number,
              "0 (use Time/Time step) or 0 < CFL <= 1: the scheme needs "
              "d2 = c2 dt/dz <= 1 (Renard 2001, §6.2, Props. 4-7)");
      require(eta > 0,
              "Regularization eta",
              eta,
              "eta must be > 0 (compliance of the regularized contact (37))");
      require(epsilon >= 0,
              "Surface mass epsilon",
              epsilon,
              "epsilon must be >= 0 (surface mass of (29))");
      require(theta >= 0.5 && theta <= 1,
              "Boundary theta",
              theta,
              "theta must lie in [1/2, 1]");
      // The law at the slab's node x = 0 (an expression of x is allowed).
      std::string problem;
      FrictionLawField<1>(friction, "x", source).at(Point<1>(), problem);
      if (!problem.empty())
        throw InputError(problem);
    }



    void
    SlabParameters::check_convergence_cells(const std::vector<double> &cells,
                                            const std::string         &text,
                                            const ParameterSource     &source)
    {
      for (const double n : cells)
        if (!(n >= 1) || n != std::floor(n) || n > 1e9)
          throw_bad_parameter(source,
                              "Slab/Convergence cells",
                              format_number(n),
                              "every entry must be a positive integer");
      convergence_cells.assign(cells.begin(), cells.end());
      if (!convergence_cells.empty() && !(cfl_number > 0))
        throw_bad_parameter(source,
                            "Slab/Convergence cells",
                            text,
                            "a refinement study keeps dt/dz constant: set "
                            "Slab/CFL number > 0");
    }



    double
    SlabParameters::c1() const
    {
      return std::sqrt(shear_modulus / density);
    }



    double
    SlabParameters::c2() const
    {
      return std::sqrt((lambda + 2 * shear_modulus) / density);
    }



    FrictionLaw
    SlabParameters::friction_law() const
    {
      std::string problem;
      return FrictionLawField<1>(friction, "x", ParameterSource())
        .at(Point<1>(), problem);
    }
  } // namespace Slab
} // namespace stickslip
