#include <base/expressions.h>
#include <base/parameter_file.h>
#include <base/selection.h>
#include <models/body/body_parameters.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace stickslip
{
  namespace Body
  {
    namespace
    {
      /** "Sub/Name" for messages. */
      std::string
      path_of(const std::string &subsection, const std::string &name)
      {
        return subsection + "/" + name;
      }



      void
      declare_mesh_entries(ParameterHandler &prm)
      {
        prm.declare_entry(
          "Mesh",
          "block",
          Patterns::Selection("block|file"),
          "block: a rectangle (Dimension = 2) or box (3) "
          "[0, Size] of Subdivisions cells, with boundary ids "
          "0 (x = 0), 1 (x = Lx), 2 (y = 0), 3 (y = Ly), and in "
          "3D 4 (z = 0), 5 (z = Lz); file: a gmsh mesh (Mesh "
          "file) whose physical tags are the boundary ids.");
        prm.declare_entry("Size",
                          "1, 1",
                          Patterns::Anything(),
                          "Lengths of the block along x, y (and z) [m].");
        prm.declare_entry("Subdivisions",
                          "1, 1",
                          Patterns::Anything(),
                          "Cells of the block along x, y (and z), before the "
                          "global refinements.");
        prm.declare_entry("Mesh file",
                          "",
                          Patterns::Anything(),
                          "gmsh .msh file (Mesh = file) of quadrilaterals "
                          "(2D) or hexahedra (3D), MSH 2.2 ASCII; a relative "
                          "path is looked up next to the parameter file "
                          "that sets it, then in the working directory (on "
                          "the command line: the working directory).");
        prm.declare_entry("Global refinements",
                          "0",
                          Patterns::Integer(0, 20),
                          "Uniform refinements of the coarse mesh.");
        prm.declare_entry("Periodic boundary pairs",
                          "",
                          Patterns::Anything(),
                          "Comma-separated pairs first:second:direction "
                          "(direction x, y or z), e.g. \"0:1:x\": the "
                          "boundary second is the translate of first along "
                          "the direction, and the displacement is periodic "
                          "(deal.II's collect_periodic_faces).");
      }



      void
      declare_material_and_data(ParameterHandler &prm)
      {
        prm.declare_entry("Density",
                          "1",
                          Patterns::Double(),
                          "Mass density rho > 0 [kg/m^3] of the body.");
        prm.declare_entry("Lame lambda",
                          "1",
                          Patterns::Double(),
                          "Lame's first parameter lambda [Pa]; lambda + 2G "
                          "> 0 and, for a positive definite energy, "
                          "lambda + 2G/dim > 0.");
        prm.declare_entry(
          "Shear modulus",
          "1",
          Patterns::Double(),
          "Shear modulus G > 0 [Pa] (Lame's second parameter).");
        prm.declare_entry("Finite element degree",
                          "1",
                          Patterns::Integer(),
                          "Degree p of FE_Q(p)^dim: 1 or 2 (Gauss-Lobatto "
                          "nodes and lumped mass).");
        prm.declare_entry(
          "Stiffness operator",
          "auto",
          Patterns::Selection("auto|assembled|matrix-free|element kernels"),
          "How K u is computed: assembled, a sparse matrix of the "
          "linear-algebra backend (PETSc or Trilinos), memory-bound, 12 B per "
          "entry (18 entries per row for Q1 in 2D, 81 in 3D); matrix-free, "
          "deal.II's MatrixFree cell loop, no matrix in memory but "
          "compute-bound (this deal.II has no SIMD vectorization); element "
          "kernels, one dense element matrix per distinct cell shape (one for "
          "a block mesh, one per cell for an unstructured mesh) applied cell "
          "by cell with the build machine's vector instructions, 4 B per node "
          "of a cell. auto: with the explicit scheme the element kernels if "
          "the mesh has few distinct cell shapes (at most 1 per 4 cells on "
          "every rank: a block mesh has 1, an unstructured one about 1 per "
          "cell), else (and with the implicit and quasi-static schemes, "
          "which solve with an assembled matrix) assembled for degree 1 and "
          "matrix-free for degree 2 (BENCHMARKS.md); the run's description "
          "says which and why.");
        prm.declare_entry(
          "Body force",
          "0",
          Patterns::Anything(),
          "Body force f(x, t) [N/m^3], dim expressions separated by ';' (0: "
          "the zero vector).");
        prm.declare_entry("Initial displacement",
                          "0",
                          Patterns::Anything(),
                          "Initial displacement u0(x) [m], dim expressions (0:"
                          " the zero vector).");
        prm.declare_entry("Initial velocity",
                          "0",
                          Patterns::Anything(),
                          "Initial velocity u1(x) [m/s], dim expressions (0: "
                          "the zero vector).");
        prm.declare_entry("Distributed friction",
                          "0",
                          Patterns::Anything(),
                          "g(x) >= 0 [N/m^2 in 2D]: friction of the whole body "
                          "on the plane it lies in, g lambda with lambda in "
                          "Dir(u_t) (isotropic; an in-plane membrane on a "
                          "rough floor, doc/body.md). Dimension = 2 only; "
                          "0: none.");
      }



      /** One boolean per component from "all" or a list such as "x, z". */
      std::vector<bool>
      parse_components(const std::string     &text,
                       const std::string     &path,
                       const unsigned int     dimension,
                       const ParameterSource &source)
      {
        std::vector<bool> mask(dimension, false);
        const std::string names = "xyz";
        for (const std::string &name : split_and_trim(text, ','))
          {
            if (name == "all")
              mask.assign(dimension, true);
            else if (name.size() == 1 && names.find(name) < dimension)
              mask[names.find(name)] = true;
            else
              throw_bad_parameter(source,
                                  path,
                                  text,
                                  std::string("all, or a comma-separated list "
                                              "of the components ") +
                                    (dimension == 2 ? "x, y" : "x, y, z"));
          }
        return mask;
      }
    } // namespace



    std::vector<types::boundary_id>
    parse_boundary_ids(const std::string     &text,
                       const std::string     &path,
                       const ParameterSource &source)
    {
      std::vector<types::boundary_id> ids;
      if (is_blank(text))
        return ids;
      for (const double id : parse_number_list(text, path, source))
        {
          if (!(id >= 0) || id != std::floor(id) || id > 1e6)
            throw_bad_parameter(source,
                                path,
                                text,
                                "boundary ids are non-negative integers");
          ids.push_back(static_cast<types::boundary_id>(id));
        }
      return ids;
    }



    void
    DisplacementCondition::declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Boundary ids",
                        "",
                        Patterns::Anything(),
                        "Comma-separated boundary ids where u = u_D(x, t) "
                        "(empty: this condition is not used).");
      prm.declare_entry("Components",
                        "all",
                        Patterns::Anything(),
                        "The prescribed components: all, or a list such as "
                        "\"x\" (a roller that slides freely along y).");
      prm.declare_entry("Value",
                        "0",
                        Patterns::Anything(),
                        "u_D(x, t) [m], dim expressions (only the prescribed "
                        "components are used; 0: the zero vector).");
    }



    void
    DisplacementCondition::parse(ParameterHandler      &prm,
                                 const std::string     &path,
                                 const unsigned int     dimension,
                                 const ParameterSource &source)
    {
      boundary_ids = parse_boundary_ids(prm.get("Boundary ids"),
                                        path_of(path, "Boundary ids"),
                                        source);
      components   = parse_components(prm.get("Components"),
                                    path_of(path, "Components"),
                                    dimension,
                                    source);
      value        = prm.get("Value");
      this->path   = path;
    }



    void
    TractionCondition::declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Boundary ids",
                        "",
                        Patterns::Anything(),
                        "Comma-separated boundary ids where sigma n = t(x, t) "
                        "(empty: not used). Boundaries with no condition are "
                        "traction free.");
      prm.declare_entry("Value",
                        "0",
                        Patterns::Anything(),
                        "t(x, t) [Pa], dim expressions (0: the zero vector).");
    }



    void
    TractionCondition::parse(ParameterHandler      &prm,
                             const std::string     &path,
                             const ParameterSource &source)
    {
      boundary_ids = parse_boundary_ids(prm.get("Boundary ids"),
                                        path_of(path, "Boundary ids"),
                                        source);
      value        = prm.get("Value");
      this->path   = path;
    }



    void
    ContactParameters::declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Boundary id",
                        "none",
                        Patterns::Anything(),
                        "The boundary id of Gamma_C, in contact with the "
                        "Counterpart (none: no contact).");
      prm.declare_entry("Normal",
                        "auto",
                        Patterns::Anything(),
                        "The outward unit normal n of the body on Gamma_C "
                        "(the foundation is a plane with this normal), "
                        "comma-separated; auto: that of the faces of "
                        "Boundary id, which must lie in one plane (1e-6).");
      prm.declare_entry("Initial gap",
                        "0",
                        Patterns::Anything(),
                        "Initial gap g0(x) >= 0 [m] to the foundation: "
                        "u.n <= g0 (0: the reference configuration touches "
                        "it; a rigid cylinder of radius R under a flat face: "
                        "x^2/(2*R), doc/body_setup.md).");
      prm.declare_entry("Foundation velocity",
                        "0",
                        Patterns::Anything(),
                        "Velocity v_*(t) [m/s] of the foundation in its plane "
                        "(normal to n), dim expressions of t (0: at rest).");
      prm.declare_entry(
        "Friction from time",
        "none",
        Patterns::Anything(),
        "Time t_f from which the friction law acts: the steps ending at "
        "t^{n+1} <= t_f are frictionless, the later ones apply the friction "
        "law to the slip increment from the frictionless state (a body "
        "pressed without friction, then sheared: doc/body.md, "
        "\"Cattaneo-Mindlin\"). none: friction at every step. Body/Time "
        "scheme = implicit or quasi-static only.");
      prm.declare_entry(
        "Counterpart",
        "rigid plane",
        Patterns::Selection("rigid plane|mirror"),
        "What Gamma_C touches. rigid plane: the rigid foundation, gap "
        "w = g0 - u.n, slip s = v_T - v_*; mirror: an identical body "
        "mirrored in the contact plane, loaded symmetrically in the normal "
        "direction and antisymmetrically in the tangential one (a fault in "
        "a homogeneous medium, two identical bodies pressed and sheared): "
        "gap w = g0 - 2 u.n, slip s = 2 v_T, and the node pair's "
        "impedances Z_n = m_i/(2 A_i dt), a = m~_i/(2 A_i dt) (the reduced "
        "mass m_i/2 of the pair; doc/theory.md §7.6; the implicit and "
        "quasi-static steps: the gap and the slip only). Exact when the normal "
        "and tangential problems decouple on Gamma_C (doc/body.md, \"The "
        "mirror counterpart\"); Foundation velocity must be 0.");
      prm.declare_entry(
        "Contact law",
        "unilateral",
        Patterns::Selection("unilateral|compliant|prescribed traction"),
        "unilateral: Signorini (Renard 2001, eqs. (3)/(14), (47)-(48)); "
        "compliant: normal compliance S = max(-gap, 0)/eta "
        "(Renard 2001, eqs. (37), (49)-(50)); prescribed traction: a fault "
        "that never opens, the normal traction on the body is -S_p n with "
        "S_p = Normal traction, and S_p bounds the friction, |f| <= "
        "S_p mu (needs Counterpart = mirror and Mass at contact nodes = "
        "lumped).");
      prm.declare_entry(
        "Normal traction",
        "0",
        Patterns::Anything(),
        "Compressive normal traction S_p(x, t) >= 0 [Pa] of Contact law = "
        "prescribed traction, an expression of the coordinates and t: the "
        "body's contact node i gets the force -A_i S_p(x_i, t^n) n in the "
        "step from t^n, and the friction bound S_p mu (doc/theory.md "
        "§7.6).");
      prm.declare_entry("Compliance",
                        "1e-12",
                        Patterns::Double(),
                        "Normal compliance eta > 0 [m/Pa] of Contact law = "
                        "compliant: the penetration is eta times the contact "
                        "pressure.");
      prm.declare_entry(
        "Surface mass",
        "0",
        Patterns::Double(),
        "Mass per area epsilon >= 0 [kg/m^2] on the contact "
        "boundary Gamma_C, added to the nodal masses (Renard 2001,"
        " eq. (29)).");
      prm.declare_entry(
        "Mass at contact nodes",
        "lumped",
        Patterns::Selection("lumped|redistributed"),
        "lumped: the contact nodes keep their lumped mass and each is "
        "stopped by an impulse (Carpenter, Taylor and Katona 1991; "
        "doc/theory.md §7.3); redistributed: the mass redistribution method "
        "(Khenous, Laborde and Renard 2008; doc/theory.md §7.5): the normal "
        "mass of the contact nodes is moved to the other nodes of their "
        "cells, and their normal displacements solve the static unilateral "
        "problem (7.5.2) at every step, the pressure its multiplier; "
        "the tangential mass and the friction step are kept. Needs Contact "
        "law = unilateral and a Normal along a coordinate axis.");
      Parameters::FrictionLaw::declare_parameters(
        prm, {"Body/Contact", "constant", "0.5", "0.5", 200});
    }



    void
    ContactParameters::parse(ParameterHandler      &prm,
                             const unsigned int     dimension,
                             const ParameterSource &source)
    {
      const std::string id_text = prm.get("Boundary id");
      enabled                   = id_text != "none";
      boundary_id               = 0;
      if (enabled)
        {
          const auto ids =
            parse_boundary_ids(id_text, "Body/Contact/Boundary id", source);
          if (ids.size() != 1)
            throw_bad_parameter(source,
                                "Body/Contact/Boundary id",
                                id_text,
                                "it must be one boundary id, or none");
          boundary_id = ids[0];
        }
      const std::string normal_text = prm.get("Normal");
      normal.assign(dimension, 0.);
      normal[dimension - 1] = -1;
      normal_from_mesh      = normal_text == "auto";
      if (!normal_from_mesh)
        normal = parse_number_list(normal_text, "Body/Contact/Normal", source);
      double length = 0;
      for (const double n : normal)
        length += n * n;
      length = std::sqrt(length);
      if (normal.size() != dimension || !(length > 0) || !std::isfinite(length))
        throw_bad_parameter(source,
                            "Body/Contact/Normal",
                            normal_text,
                            "it must be auto or " + std::to_string(dimension) +
                              " numbers, not all zero");
      for (double &n : normal)
        n /= length;
      initial_gap         = prm.get("Initial gap");
      foundation_velocity = prm.get("Foundation velocity");
      parse_friction_from_time(prm.get("Friction from time"), source);
      counterpart =
        parse_selection<Counterpart>(prm.get("Counterpart"),
                                     {{"rigid plane", Counterpart::rigid_plane},
                                      {"mirror", Counterpart::mirror}},
                                     "Body/Contact/Counterpart");
      prescribed_traction = prm.get("Contact law") == "prescribed traction";
      normal_traction     = prm.get("Normal traction");
      normal_law          = parse_selection<NormalContactLaw>(
        prescribed_traction ? std::string("unilateral") :
                                       prm.get("Contact law"),
        {{"unilateral", NormalContactLaw::unilateral},
         {"compliant", NormalContactLaw::compliant}},
        "Body/Contact/Contact law");
      compliance   = prm.get_double("Compliance");
      surface_mass = prm.get_double("Surface mass");
      redistributed_mass =
        parse_selection<bool>(prm.get("Mass at contact nodes"),
                              {{"lumped", false}, {"redistributed", true}},
                              "Body/Contact/Mass at contact nodes");
      friction.parse(prm, "Body/Contact", source);
      if (!(compliance > 0) || !std::isfinite(compliance))
        throw_bad_parameter(source,
                            "Body/Contact/Compliance",
                            format_number(compliance),
                            "eta must be a positive number");
      if (!(surface_mass >= 0) || !std::isfinite(surface_mass))
        throw_bad_parameter(source,
                            "Body/Contact/Surface mass",
                            format_number(surface_mass),
                            "epsilon must be >= 0");
      check_counterpart(source);
      if (!enabled)
        {
          // Read and checked all the same, but no node is in contact.
          prm.mark_unused("",
                          "Boundary id = none: the body has no contact "
                          "boundary, so nothing of Body/Contact is used");
          prm.get("Boundary id");
        }
      if (redistributed_mass && normal_law != NormalContactLaw::unilateral)
        throw_bad_parameter(source,
                            "Body/Contact/Mass at contact nodes",
                            "redistributed",
                            "the static normal problem of the redistributed "
                            "mass is solved for Contact law = unilateral "
                            "only (Contact law is compliant): use lumped");
      const unsigned int axes =
        std::count_if(normal.begin(), normal.end(), [](const double n) {
          return n != 0.;
        });
      if (redistributed_mass && axes != 1)
        throw_bad_parameter(source,
                            "Body/Contact/Mass at contact nodes",
                            "redistributed",
                            "the normal mass is moved within one component: "
                            "Body/Contact/Normal must be a coordinate axis "
                            "(it is " +
                              prm.get("Normal") + "): use lumped");
    }



    void
    ContactParameters::parse_friction_from_time(const std::string     &text,
                                                const ParameterSource &source)
    {
      friction_from_time = -std::numeric_limits<double>::infinity();
      if (text == "none")
        return;
      const std::vector<double> value =
        parse_number_list(text, "Body/Contact/Friction from time", source);
      if (value.size() != 1 || !std::isfinite(value[0]))
        throw_bad_parameter(
          source,
          "Body/Contact/Friction from time",
          text,
          "it must be none or one finite number t_f (the steps "
          "ending at t <= t_f are frictionless)");
      friction_from_time = value[0];
    }



    void
    ContactParameters::check_counterpart(const ParameterSource &source) const
    {
      const bool mirror = counterpart == Counterpart::mirror;
      if (prescribed_traction && !mirror)
        throw_bad_parameter(source,
                            "Body/Contact/Contact law",
                            "prescribed traction",
                            "a prescribed normal traction is a fault that "
                            "never opens, between the body and its mirror "
                            "image: it needs Body/Contact/Counterpart = "
                            "mirror (it is rigid plane)");
      if (prescribed_traction && redistributed_mass)
        throw_bad_parameter(source,
                            "Body/Contact/Mass at contact nodes",
                            "redistributed",
                            "the redistributed mass solves a unilateral "
                            "normal problem; with Contact law = prescribed "
                            "traction the normal force is given: use lumped");
      if (mirror && foundation_velocity != "0")
        throw_bad_parameter(source,
                            "Body/Contact/Foundation velocity",
                            foundation_velocity,
                            "with Counterpart = mirror the counterpart is "
                            "the body's mirror image, not a moving "
                            "foundation: the slip is 2 v_T, and Foundation "
                            "velocity must be 0");
    }



    ContactLaw
    ContactParameters::contact_law(const FrictionLaw &law) const
    {
      return ContactLaw{normal_law,
                        compliance,
                        ClosingVelocity::closes_gap,
                        law,
                        friction.root_scan_points};
    }



    void
    BodyParameters::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Body");
      declare_mesh_entries(prm);
      declare_material_and_data(prm);
      for (unsigned int k = 1; k <= n_displacement_slots; ++k)
        {
          prm.enter_subsection("Displacement " + std::to_string(k));
          DisplacementCondition::declare_parameters(prm);
          prm.leave_subsection();
        }
      for (unsigned int k = 1; k <= n_traction_slots; ++k)
        {
          prm.enter_subsection("Traction " + std::to_string(k));
          TractionCondition::declare_parameters(prm);
          prm.leave_subsection();
        }
      prm.enter_subsection("Contact");
      ContactParameters::declare_parameters(prm);
      prm.leave_subsection();
      prm.declare_entry(
        "Time scheme",
        "explicit",
        Patterns::Selection("explicit|implicit|quasi-static"),
        "explicit: central differences with the lumped mass, contact and "
        "friction node by node, dt below the stability bound (doc/body.md); "
        "implicit: Newmark's average acceleration (beta = 1/4, gamma = 1/2; "
        "or the generalized-alpha method: Spectral radius at infinity) "
        "with the lumped mass, the normal mass of the contact nodes "
        "redistributed (as Contact/Mass at contact nodes = redistributed, "
        "whatever that says), and exact unilateral contact at "
        "the end of the step by a primal-dual active-set method, with "
        "friction (Contact/Friction law: every law but time-weakening) and "
        "exact stick, any dt (doc/theory.md §7.7; Body/Linear solver); "
        "quasi-static: no inertia, K u = f + R at every "
        "step with the same contact and friction (the friction path over the "
        "load step), Time the load parameter of the loads and prescribed "
        "displacements; the prescribed unknowns must remove the rigid-body "
        "modes and Initial velocity must be 0 (doc/theory.md §7.8).");
      prm.declare_entry(
        "Spectral radius at infinity",
        "1",
        Patterns::Double(),
        "Time scheme = implicit: rho_inf in [0, 1] of the generalized-alpha "
        "method of Chung and Hulbert 1993 (doc/theory.md §7.14), the factor "
        "by which a step multiplies the modes it does not resolve (omega dt "
        ">> 1): 1 keeps them (Newmark's average acceleration, no numerical "
        "dissipation), 0 removes them in one step; second order for every "
        "value. Below 1 for a stiff body whose elastic waves the step skips "
        "(a block that sticks and slips under a slow load: its arrest rings "
        "undamped with 1); history.csv then adds numerical_dissipation.");
      prm.enter_subsection("Linear solver");
      ImplicitSolverParameters::declare_parameters(prm);
      prm.leave_subsection();
      prm.enter_subsection("Adaptive time steps");
      AdaptiveStepParameters::declare_parameters(prm);
      prm.leave_subsection();
      prm.enter_subsection("Pull spring");
      PullSpringParameters::declare_parameters(prm);
      prm.leave_subsection();
      prm.leave_subsection();
      // The output schedules moved to the Output subsection (RunLoop).
      declare_moved_entry("Body/Field output every",
                          "Output/Field output every");
      declare_moved_entry("Body/Contact output every",
                          "Output/Contact output every");
    }



    void
    BodyParameters::parse(ParameterHandler      &prm,
                          const ParameterSource &source,
                          const unsigned int     dimension)
    {
      this->dimension = dimension;
      prm.enter_subsection("Body");
      parse_mesh(prm, source);
      parse_material(prm, source);
      body_force           = prm.get("Body force");
      initial_displacement = prm.get("Initial displacement");
      initial_velocity     = prm.get("Initial velocity");
      distributed_friction = prm.get("Distributed friction");
      displacements.clear();
      for (unsigned int k = 1; k <= n_displacement_slots; ++k)
        {
          const std::string name = "Displacement " + std::to_string(k);
          prm.enter_subsection(name);
          DisplacementCondition condition;
          condition.parse(prm, "Body/" + name, dimension, source);
          prm.leave_subsection();
          if (!condition.boundary_ids.empty())
            displacements.push_back(condition);
        }
      tractions.clear();
      for (unsigned int k = 1; k <= n_traction_slots; ++k)
        {
          const std::string name = "Traction " + std::to_string(k);
          prm.enter_subsection(name);
          TractionCondition condition;
          condition.parse(prm, "Body/" + name, source);
          prm.leave_subsection();
          if (!condition.boundary_ids.empty())
            tractions.push_back(condition);
        }
      prm.enter_subsection("Contact");
      contact.parse(prm, dimension, source);
      prm.leave_subsection();
      time_scheme =
        parse_selection<TimeScheme>(prm.get("Time scheme"),
                                    {{"explicit", TimeScheme::explicit_central},
                                     {"implicit", TimeScheme::implicit_newmark},
                                     {"quasi-static",
                                      TimeScheme::quasi_static}},
                                    "Body/Time scheme");
      parse_spectral_radius(prm, source);
      prm.enter_subsection("Linear solver");
      linear_solver.parse(prm, source);
      prm.leave_subsection();
      prm.enter_subsection("Adaptive time steps");
      adaptive.parse(prm, source);
      prm.leave_subsection();
      prm.enter_subsection("Pull spring");
      pull_spring.parse(prm, dimension, source);
      prm.leave_subsection();
      if (pull_spring.enabled && !solves_implicitly())
        throw_bad_parameter(source,
                            "Body/Pull spring/Boundary id",
                            std::to_string(pull_spring.boundary_id),
                            "none with Body/Time scheme = explicit (the pull "
                            "spring is the implicit and quasi-static "
                            "schemes')");
      if (adaptive.enabled && !solves_implicitly())
        throw_bad_parameter(source,
                            "Body/Adaptive time steps/Enabled",
                            "true",
                            "false with Body/Time scheme = explicit (only "
                            "the implicit and quasi-static schemes take "
                            "adaptive steps)");
      prm.leave_subsection();
      if (solves_implicitly())
        check_implicit(source);
      else if (contact.enabled && std::isfinite(contact.friction_from_time))
        throw_bad_parameter(source,
                            "Body/Contact/Friction from time",
                            format_number(contact.friction_from_time),
                            "a delayed friction is applied by Body/Time "
                            "scheme = implicit or quasi-static only (it is "
                            "explicit): use none");
      if (has_distributed_friction() && dimension != 2)
        throw_bad_parameter(source,
                            "Body/Distributed friction",
                            distributed_friction,
                            "distributed friction against the plane of the "
                            "body is for Dimension = 2 (an in-plane membrane); "
                            "use 0 in 3D");
    }



    void
    ImplicitSolverParameters::declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry(
        "Preconditioner",
        "automatic",
        Patterns::Selection("automatic|multigrid|direct"),
        "Of the conjugate gradients on K + c0 M: multigrid (smoothed "
        "aggregation with the rigid-body modes), direct (the sparse Cholesky "
        "factor of the matrix of the current contact and stick sets: PETSc's "
        "own on one rank, MUMPS on several; Trilinos: Amesos), or automatic: "
        "direct on one rank up to Direct size limit unknowns (a tenth of it "
        "in 3D), multigrid otherwise (doc/body.md, \"The implicit step's "
        "solver\").");
      prm.declare_entry("Direct size limit",
                        "40000",
                        Patterns::Integer(),
                        "Preconditioner = automatic: the largest number of "
                        "unknowns (>= 0) of a one-rank 2D body preconditioned "
                        "by the direct factorization; a 3D body's limit is a "
                        "tenth of it (the factor's fill grows faster in 3D).");
      prm.declare_entry("Tolerance",
                        "1e-12",
                        Patterns::Double(),
                        "Relative residual tolerance (> 0) of the conjugate "
                        "gradients (with algebraic multigrid) that solve (K + "
                        "4/dt^2 M) u = b in each active-set iteration of "
                        "Body/Time scheme = implicit.");
      prm.declare_entry("Maximum iterations",
                        "1000",
                        Patterns::Integer(),
                        "Largest number (>= 1) of CG iterations of one solve; "
                        "more is a run error.");
      prm.declare_entry(
        "Maximum active-set iterations",
        "50",
        Patterns::Integer(),
        "Largest number (>= 1) of active-set (semismooth Newton) iterations "
        "of one implicit step; more is a run error (the set cycles).");
      prm.declare_entry(
        "One change at a time from",
        "0",
        Patterns::Integer(),
        "The active-set iteration (>= 1) of a step from which it changes one "
        "contact or stick flag per iteration, the one of the least index "
        "(Murty's rule: it terminates for frictionless contact), or 0: only "
        "once an iteration repeats a change of the flags that an earlier "
        "iteration of the step had made (the sets cycle) and neither a "
        "repeat by rule 3' (a law with a rate) nor a smaller adaptive step "
        "can take over (doc/theory.md §7.7).");
      prm.declare_entry(
        "Friction tolerance",
        "1e-10",
        Patterns::Double(),
        "Relative tolerance in (0, 1) of the fixed point on the slip forces "
        "of Body/Time scheme = implicit with friction (doc/theory.md §7.7): "
        "an implicit step ends when the contact and stick sets do not change "
        "and no slipping node's force mu P d changed by more than this times "
        "the largest mu P of the surface.");
      prm.declare_entry(
        "Complementarity constant",
        "0.1",
        Patterns::Double(),
        "kappa >= 0 of the stick rule of a slipping node with the constant "
        "(Coulomb) friction law (doc/theory.md §7.7, rule 3'): it sticks "
        "where |c ds - R_T| <= mu P, c = kappa times the node's diagonal of "
        "K + c0 M (Hueber, Stadler and Wohlmuth 2008), and its force and "
        "tangent are the semismooth Newton step's; 0: the rule's limit of a "
        "small c, sticking where the slip went along the force given (the "
        "rule before 2026-12-03). A law with a rate keeps the limit rule "
        "and, where it does not settle a step, repeats the step by rule 3' "
        "with the law's tangent (not with 0). Measured on the 3D thrown "
        "block: 0.1 and 0.3 settle at its stop, 0.03 and 1 do not "
        "(doc/body.md).");
    }



    void
    ImplicitSolverParameters::parse(ParameterHandler      &prm,
                                    const ParameterSource &source)
    {
      preconditioner = parse_selection<ImplicitPreconditioner>(
        prm.get("Preconditioner"),
        {{"automatic", ImplicitPreconditioner::automatic},
         {"multigrid", ImplicitPreconditioner::multigrid},
         {"direct", ImplicitPreconditioner::direct}},
        "Body/Linear solver/Preconditioner");
      const long limit = prm.get_integer("Direct size limit");
      if (limit < 0)
        throw_bad_parameter(source,
                            "Body/Linear solver/Direct size limit",
                            std::to_string(limit),
                            "it must be a number of unknowns >= 0");
      direct_size_limit     = limit;
      tolerance             = prm.get_double("Tolerance");
      const long iterations = prm.get_integer("Maximum iterations");
      const long active_set = prm.get_integer("Maximum active-set iterations");
      friction_tolerance    = prm.get_double("Friction tolerance");
      complementarity_constant = prm.get_double("Complementarity constant");
      if (!(complementarity_constant >= 0) ||
          !std::isfinite(complementarity_constant))
        throw_bad_parameter(
          source,
          "Body/Linear solver/Complementarity constant",
          format_number(complementarity_constant),
          "it must be a finite number >= 0 (0: the limit rule)");
      if (!(friction_tolerance > 0) || !(friction_tolerance < 1))
        throw_bad_parameter(source,
                            "Body/Linear solver/Friction tolerance",
                            format_number(friction_tolerance),
                            "it must be a relative tolerance in (0, 1)");
      if (!(tolerance > 0) || !(tolerance < 1))
        throw_bad_parameter(source,
                            "Body/Linear solver/Tolerance",
                            format_number(tolerance),
                            "it must be a relative tolerance in (0, 1)");
      if (iterations < 1)
        throw_bad_parameter(source,
                            "Body/Linear solver/Maximum iterations",
                            std::to_string(iterations),
                            "it must be a positive integer");
      if (active_set < 1)
        throw_bad_parameter(source,
                            "Body/Linear solver/Maximum active-set iterations",
                            std::to_string(active_set),
                            "it must be a positive integer");
      const long one_at_a_time = prm.get_integer("One change at a time from");
      if (one_at_a_time < 0)
        throw_bad_parameter(source,
                            "Body/Linear solver/One change at a time from",
                            std::to_string(one_at_a_time),
                            "an iteration >= 1, or 0 (only where the set "
                            "cycles)");
      max_iterations            = iterations;
      max_active_set_iterations = active_set;
      one_change_from           = one_at_a_time;
    }



    void
    BodyParameters::parse_spectral_radius(ParameterHandler      &prm,
                                          const ParameterSource &source)
    {
      spectral_radius = prm.get_double("Spectral radius at infinity");
      if (!(spectral_radius >= 0 && spectral_radius <= 1))
        throw_bad_parameter(
          source,
          "Body/Spectral radius at infinity",
          format_number(spectral_radius),
          "it must be a number in [0, 1] (1: Newmark's average "
          "acceleration)");
      if (spectral_radius != 1 && time_scheme != TimeScheme::implicit_newmark)
        throw_bad_parameter(source,
                            "Body/Spectral radius at infinity",
                            format_number(spectral_radius),
                            "it must be 1 with Body/Time scheme = " +
                              std::string(time_scheme ==
                                              TimeScheme::quasi_static ?
                                            "quasi-static (no inertia)" :
                                            "explicit") +
                              " (the generalized-alpha method is the "
                              "implicit scheme's)");
    }



    void
    AdaptiveStepParameters::declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry(
        "Enabled",
        "false",
        Patterns::Bool(),
        "Body/Time scheme = implicit or quasi-static: split each step of "
        "the time grid (Time/Time step, the largest substep) into substeps "
        "dt/2^l, halved (the step repeated from its start) where the active "
        "set does not settle or a substep changes more than Maximum changes "
        "per step contact and stick flags, doubled after Calm steps quiet "
        "substeps (doc/body.md). false: one step per grid step.");
      prm.declare_entry("Minimum time step",
                        "0",
                        Patterns::Double(),
                        "The smallest substep [s] (> 0 when Enabled): the "
                        "substeps are Time/Time step/2^l down to this size "
                        "(not below; at Time/Time step or above, no cut), "
                        "with l <= 40: a value below Time/Time step/2^40 is "
                        "refused. An active set that does not settle at the "
                        "smallest substep stops the run; an event there is "
                        "accepted.");
      prm.declare_entry("Maximum changes per step",
                        "0",
                        Patterns::Integer(),
                        "Largest number (>= 0) of contact nodes whose contact "
                        "or stick flag differs between the start and the end "
                        "of a substep; more halves the substep (down to "
                        "Minimum time step).");
      prm.declare_entry("Calm steps",
                        "4",
                        Patterns::Integer(),
                        "Number (>= 1) of consecutive substeps without a "
                        "contact or stick change after which the substep "
                        "doubles (up to Time/Time step).");
    }



    void
    AdaptiveStepParameters::parse(ParameterHandler      &prm,
                                  const ParameterSource &source)
    {
      enabled                   = prm.get_bool("Enabled");
      minimum_time_step         = prm.get_double("Minimum time step");
      const long        changes = prm.get_integer("Maximum changes per step");
      const long        calm    = prm.get_integer("Calm steps");
      const std::string here    = "Body/Adaptive time steps/";
      if (!(minimum_time_step >= 0) || !std::isfinite(minimum_time_step) ||
          (enabled && minimum_time_step == 0))
        throw_bad_parameter(source,
                            here + "Minimum time step",
                            format_number(minimum_time_step),
                            enabled ? "a time step > 0 [s]" :
                                      "a time step >= 0 [s]");
      if (changes < 0)
        throw_bad_parameter(source,
                            here + "Maximum changes per step",
                            std::to_string(changes),
                            "an integer >= 0");
      if (calm < 1)
        throw_bad_parameter(source,
                            here + "Calm steps",
                            std::to_string(calm),
                            "it must be a positive integer");
      max_changes = changes;
      calm_steps  = calm;
    }



    void
    PullSpringParameters::declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Boundary id",
                        "none",
                        Patterns::Anything(),
                        "The boundary whose nodes the pull spring holds (an "
                        "id >= 0), or none: no spring. Body/Time scheme = "
                        "implicit or quasi-static (doc/body.md, Slow pull).");
      prm.declare_entry(
        "Stiffness",
        "0",
        Patterns::Double(),
        "The spring's total stiffness k (> 0) [N/m; per unit "
        "length in 2D], k/N at each of the boundary's N nodes.");
      prm.declare_entry("Axis",
                        "x",
                        Patterns::Selection("x|y|z"),
                        "The direction of the pull: the spring acts on the "
                        "nodes' displacement along this axis only.");
      prm.declare_entry("Driver displacement",
                        "0",
                        Patterns::Anything(),
                        "X(t) [m], an expression of t, 0 at the initial "
                        "time: the spring's force on node i is (k/N) (X(t) - "
                        "(u_i - u_i(t0))) along the axis (e.g. 1e-3*t, a "
                        "driver at the constant velocity 1e-3 m/s).");
    }



    void
    PullSpringParameters::parse(ParameterHandler      &prm,
                                const unsigned int     dimension,
                                const ParameterSource &source)
    {
      const std::string here = "Body/Pull spring/";
      const std::string id   = prm.get("Boundary id");
      enabled                = id != "none";
      boundary_id            = 0;
      if (enabled)
        {
          const auto ids = parse_boundary_ids(id, here + "Boundary id", source);
          if (ids.size() != 1)
            throw_bad_parameter(source,
                                here + "Boundary id",
                                id,
                                "one boundary id >= 0, or none");
          boundary_id = ids[0];
        }
      stiffness = prm.get_double("Stiffness");
      if (enabled && !(stiffness > 0 && std::isfinite(stiffness)))
        throw_bad_parameter(source,
                            here + "Stiffness",
                            format_number(stiffness),
                            "a stiffness > 0 [N/m]");
      const std::string name = prm.get("Axis");
      axis                   = name == "x" ? 0 : name == "y" ? 1 : 2;
      if (axis >= dimension)
        throw_bad_parameter(source,
                            here + "Axis",
                            name,
                            "an axis of the body (x or y in 2D)");
      driver = prm.get("Driver displacement");
    }



    unsigned int
    AdaptiveStepParameters::finest_level(const double grid_step) const
    {
      unsigned int level = 0;
      while (level < max_level && std::ldexp(grid_step, -int(level + 1)) >=
                                    minimum_time_step * (1 - 1e-12))
        ++level;
      return level;
    }



    void
    AdaptiveStepParameters::check_depth(const double           grid_step,
                                        const ParameterSource &source) const
    {
      const double smallest = std::ldexp(grid_step, -int(max_level));
      if (!enabled || minimum_time_step >= smallest * (1 - 1e-12))
        return;
      throw_bad_parameter(source,
                          "Body/Adaptive time steps/Minimum time step",
                          format_number(minimum_time_step),
                          "the substeps are Time/Time step/2^l with at most " +
                            std::to_string(max_level) +
                            " halvings: the smallest allowed is "
                            "Time/Time step/2^" +
                            std::to_string(max_level) + " = " +
                            format_number(smallest) + " s (Time/Time step = " +
                            format_number(grid_step) + " s)");
    }



    void
    BodyParameters::set_contact_normal(const std::vector<double> &found,
                                       const ParameterSource     &source)
    {
      contact.normal = found;
      const unsigned int axes =
        std::count_if(found.begin(), found.end(), [](const double n) {
          return n != 0.;
        });
      std::string text;
      for (const double c : found)
        text += (text.empty() ? "" : ", ") + format_number(c);
      if (contact.redistributed_mass && axes != 1)
        throw_bad_parameter(source,
                            "Body/Contact/Mass at contact nodes",
                            "redistributed",
                            "the normal mass is moved within one component: "
                            "Body/Contact/Normal must be a coordinate axis "
                            "(auto found " +
                              text + " from the mesh): use lumped");
      if (solves_implicitly() && axes != 1)
        throw_bad_parameter(source,
                            "Body/Contact/Normal",
                            "auto",
                            "Body/Time scheme = implicit or quasi-static "
                            "supports a normal along a coordinate axis only "
                            "(auto found " +
                              text +
                              " from the faces of the contact boundary)");
    }



    void
    BodyParameters::check_implicit(const ParameterSource &source) const
    {
      const bool        quasi = time_scheme == TimeScheme::quasi_static;
      const std::string why   = std::string("Body/Time scheme = ") +
                              (quasi ? "quasi-static" : "implicit") +
                              " supports ";
      // Quasi-static: no velocity (the kinetic energy is not in its
      // equations).
      if (quasi && !is_zero_expression(initial_velocity))
        throw_bad_parameter(source,
                            "Body/Initial velocity",
                            initial_velocity,
                            why + "no initial velocity (there is no inertia): "
                                  "use 0");
      if (has_distributed_friction())
        throw_bad_parameter(source,
                            "Body/Distributed friction",
                            distributed_friction,
                            why + "no distributed friction yet: use 0 or "
                                  "Time scheme = explicit");
      if (!contact.enabled)
        return;
      unsigned int axes = 0;
      for (const double component : contact.normal)
        axes += component != 0 ? 1 : 0;
      if (axes != 1)
        throw_bad_parameter(
          source,
          "Body/Contact/Normal",
          [&]() {
            std::string text;
            for (const double c : contact.normal)
              text += (text.empty() ? "" : ", ") + format_number(c);
            return text;
          }(),
          why + "a normal along a coordinate axis only");
      if (!contact.prescribed_traction &&
          contact.normal_law != NormalContactLaw::unilateral)
        throw_bad_parameter(source,
                            "Body/Contact/Contact law",
                            "compliant",
                            why + "the contact laws unilateral and prescribed "
                                  "traction");
      if (contact.surface_mass != 0)
        throw_bad_parameter(source,
                            "Body/Contact/Surface mass",
                            format_number(contact.surface_mass),
                            why + "no surface mass: use 0");
      // Every friction law but time weakening (doc/theory.md §7.12: a
      // forced rupture at a prescribed speed, the explicit step's); the
      // normal stress regularization and the stop after arrest are the
      // explicit step's.
      if (contact.friction.kind ==
          Parameters::FrictionLaw::Kind::time_weakening)
        throw_bad_parameter(source,
                            "Body/Contact/Friction law/Law",
                            contact.friction.name(),
                            why + "the friction laws constant, fig2, "
                                  "exponential, rational, slip-weakening and "
                                  "rate-and-state (time-weakening is "
                                  "Time scheme = explicit's)");
      if (contact.friction.regularization_length != 0)
        throw_bad_parameter(source,
                            "Body/Contact/Friction law/Normal stress "
                            "regularization length",
                            format_number(
                              contact.friction.regularization_length),
                            why + "no normal stress regularization: use 0");
      if (contact.friction.stop_time != 0)
        throw_bad_parameter(source,
                            "Body/Contact/Friction law/Stop after arrest",
                            format_number(contact.friction.stop_time),
                            why + "no stop after arrest: use 0");
    }



    void
    BodyParameters::parse_mesh(ParameterHandler      &prm,
                               const ParameterSource &source)
    {
      mesh                        = parse_selection<MeshKind>(prm.get("Mesh"),
                                       {{"block", MeshKind::block},
                                                               {"file", MeshKind::file}},
                                       "Body/Mesh");
      mesh_file                   = prm.get("Mesh file");
      global_refinements          = prm.get_integer("Global refinements");
      const std::string size_text = prm.get("Size");
      size = parse_number_list(size_text, "Body/Size", source);
      if (mesh == MeshKind::block)
        {
          bool positive = size.size() == dimension;
          for (const double s : size)
            positive = positive && s > 0 && std::isfinite(s);
          if (!positive)
            throw_bad_parameter(source,
                                "Body/Size",
                                size_text,
                                "it must be " + std::to_string(dimension) +
                                  " positive lengths (Dimension = " +
                                  std::to_string(dimension) + ")");
          const std::string cells_text = prm.get("Subdivisions");
          subdivisions.clear();
          for (const double n :
               parse_number_list(cells_text, "Body/Subdivisions", source))
            {
              if (!(n >= 1) || n != std::floor(n) || n > 1e7)
                throw_bad_parameter(
                  source,
                  "Body/Subdivisions",
                  cells_text,
                  "the numbers of cells per direction are integers from 1 "
                  "to 1e7, and " +
                    format_number(n) +
                    (n > 1e7 ? " is more cells than any memory holds" :
                               " is not one"));
              subdivisions.push_back(static_cast<unsigned int>(n));
            }
          if (subdivisions.size() != dimension)
            throw_bad_parameter(source,
                                "Body/Subdivisions",
                                cells_text,
                                std::to_string(dimension) +
                                  " numbers of cells, one per direction");
        }
      else if (is_blank(mesh_file))
        throw_bad_parameter(source,
                            "Body/Mesh file",
                            "",
                            "Body/Mesh = file needs the name of a gmsh file");
      parse_periodic_pairs(prm.get("Periodic boundary pairs"), source);
    }



    void
    BodyParameters::parse_material(ParameterHandler      &prm,
                                   const ParameterSource &source)
    {
      density            = prm.get_double("Density");
      lambda             = prm.get_double("Lame lambda");
      shear_modulus      = prm.get_double("Shear modulus");
      const int  p       = prm.get_integer("Finite element degree");
      const auto require = [&](const bool         condition,
                               const std::string &name,
                               const std::string &value,
                               const std::string &allowed) {
        if (!condition)
          throw_bad_parameter(source, "Body/" + name, value, allowed);
      };
      require(density > 0 && std::isfinite(density),
              "Density",
              format_number(density),
              "rho must be a positive number");
      require(shear_modulus > 0 && std::isfinite(shear_modulus),
              "Shear modulus",
              format_number(shear_modulus),
              "G must be a positive number");
      // The strain energy lambda (tr e)^2/2 + G |e|^2 is positive definite
      // iff G > 0 and lambda + 2G/dim > 0 (bulk modulus of the dimension).
      require(std::isfinite(lambda) &&
                lambda + 2 * shear_modulus / dimension > 0,
              "Lame lambda",
              format_number(lambda),
              "lambda + 2G/" + std::to_string(dimension) +
                " > 0 (a positive definite strain energy)");
      require(p == 1 || p == 2,
              "Finite element degree",
              std::to_string(p),
              "it must be 1 or 2");
      degree    = p;
      stiffness = parse_selection<StiffnessKind>(
        prm.get("Stiffness operator"),
        {{"auto", StiffnessKind::automatic},
         {"assembled", StiffnessKind::assembled},
         {"matrix-free", StiffnessKind::matrix_free},
         {"element kernels", StiffnessKind::element_kernels}},
        "Body/Stiffness operator");
    }



    void
    BodyParameters::parse_periodic_pairs(const std::string     &text,
                                         const ParameterSource &source)
    {
      periodic_pairs.clear();
      if (is_blank(text))
        return;
      const std::string allowed =
        "comma-separated pairs first:second:direction, e.g. 0:1:x "
        "(direction x, y" +
        std::string(dimension == 3 ? " or z)" : ")");
      for (const std::string &pair : split_and_trim(text, ','))
        {
          const std::vector<std::string> parts      = split_and_trim(pair, ':');
          const std::string              directions = "xyz";
          if (parts.size() != 3 || parts[2].size() != 1 ||
              directions.find(parts[2]) >= dimension)
            throw_bad_parameter(source,
                                "Body/Periodic boundary pairs",
                                text,
                                allowed);
          const auto first  = parse_boundary_ids(parts[0],
                                                "Body/Periodic boundary pairs",
                                                source);
          const auto second = parse_boundary_ids(parts[1],
                                                 "Body/Periodic boundary pairs",
                                                 source);
          if (first.size() != 1 || second.size() != 1 || first[0] == second[0])
            throw_bad_parameter(source,
                                "Body/Periodic boundary pairs",
                                text,
                                allowed);
          periodic_pairs.push_back(
            {first[0],
             second[0],
             static_cast<unsigned int>(directions.find(parts[2]))});
        }
    }



    std::string
    BodyParameters::variables() const
    {
      return dimension == 2 ? "x,y,t" : "x,y,z,t";
    }



    std::string
    BodyParameters::coordinates() const
    {
      return dimension == 2 ? "x,y" : "x,y,z";
    }



    double
    BodyParameters::c1() const
    {
      return std::sqrt(shear_modulus / density);
    }



    double
    BodyParameters::c2() const
    {
      return std::sqrt((lambda + 2 * shear_modulus) / density);
    }



    bool
    BodyParameters::has_distributed_friction() const
    {
      const auto trimmed = split_and_trim(distributed_friction, ';');
      return !(trimmed.size() == 1 &&
               (trimmed[0] == "0" || trimmed[0].empty()));
    }
  } // namespace Body
} // namespace stickslip
