#include <base/expressions.h>
#include <base/selection.h>
#include <models/common/system_builder.h>
#include <models/string/string_parameters.h>

#include <cmath>
#include <optional>

namespace stickslip
{
  namespace
  {
    /**
     * The data of the string: coefficients, loads, boundary and initial
     * values, exact solution (inside subsection String).
     */
    void
    declare_string_data(ParameterHandler &prm)
    {
      prm.declare_entry("Wave speed",
                        "1",
                        Patterns::Anything(),
                        "Wave speed c(x) > 0, a muParser expression of the "
                        "coordinates.");
      prm.declare_entry("Friction",
                        "1",
                        Patterns::Anything(),
                        "Friction bound g(x) >= 0 per unit length (area), "
                        "relative to the tension: the friction force lies in "
                        "[-g, g]. An expression of the coordinates.");
      prm.declare_entry(
        "Forcing",
        "0",
        Patterns::Anything(),
        "External load f(x, t), an expression of the coordinates"
        " and t.");
      prm.declare_entry(
        "Dirichlet boundary ids",
        "0, 1",
        Patterns::Anything(),
        "Comma-separated boundary ids where u = u_D (the rest is "
        "free: du/dn = 0). The default 0, 1 holds both ends of "
        "the interval, the left and right sides of the "
        "rectangle.");
      prm.declare_entry("Dirichlet data",
                        "0",
                        Patterns::Anything(),
                        "Boundary displacement u_D(x, t) on the Dirichlet "
                        "boundary ids; time-dependent data drive the string.");
      prm.declare_entry("Initial displacement",
                        "0",
                        Patterns::Anything(),
                        "Initial displacement u0(x), an expression of the "
                        "coordinates.");
      prm.declare_entry("Initial velocity",
                        "0",
                        Patterns::Anything(),
                        "Initial velocity u1(x), an expression of the "
                        "coordinates.");
      prm.declare_entry(
        "Exact displacement",
        "",
        Patterns::Anything(),
        "Optional exact u(x, t); with Exact velocity it enables "
        "errors.csv (discrete L2 in space and time).");
      prm.declare_entry("Exact velocity",
                        "",
                        Patterns::Anything(),
                        "Optional exact velocity u_t(x, t), needed with Exact "
                        "displacement.");
      prm.declare_entry("Exact multiplier",
                        "",
                        Patterns::Anything(),
                        "Optional exact friction multiplier lambda(x, t).");
      prm.declare_entry(
        "Gamma",
        "none",
        Patterns::Selection(gamma_law_names()),
        "Velocity weakening gamma of the friction: none, smooth "
        "or piecewise linear (Glowinski et al. 2006, eq. (2) or (3)).");
      prm.declare_entry("Gamma beta",
                        "0.3",
                        Patterns::Double(),
                        "Weakening amount beta in (0, 1) of Gamma.");
      prm.declare_entry("Gamma epsilon",
                        "0.1",
                        Patterns::Double(),
                        "Velocity scale eps > 0 of Gamma.");
    }
  } // namespace



  void
  StringParameters::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("String");
    prm.declare_entry("Mesh",
                      "auto",
                      Patterns::Selection("auto|interval|rectangle|file"),
                      "auto: interval in 1D, rectangle in 2D (from "
                      "Dimension); interval (0, L) (dim 1; boundary ids 0 "
                      "left, 1 right), rectangle (0, L) x (0, Height) (dim "
                      "2; ids 0 left, 1 right, 2 bottom, 3 top), or a gmsh "
                      "file (Mesh file).");
    prm.declare_entry("Length",
                      "1",
                      Patterns::Double(),
                      "Length L > 0 of the interval (0, L) (dim 1) or of the "
                      "rectangle (0, L) x (0, Height) (dim 2).");
    prm.declare_entry("Height",
                      "1",
                      Patterns::Double(),
                      "Height of the rectangle (dim 2).");
    prm.declare_entry("Mesh file",
                      "",
                      Patterns::Anything(),
                      "gmsh .msh file (Mesh = file) of quadrilaterals "
                      "(lines in 1D), MSH 2.2 ASCII; a relative path is "
                      "looked up next to the parameter file that sets it, "
                      "then in the working directory (on the command line: "
                      "the working directory); physical line tags become "
                      "boundary ids.");
    prm.declare_entry("Global refinements",
                      "5",
                      Patterns::Integer(0, 40),
                      "Uniform refinements of the coarse mesh (the interval "
                      "and rectangle start from one cell).");
    prm.declare_entry("Triangulation",
                      "fully distributed",
                      Patterns::Selection("fully distributed|shared"),
                      "1D interval only: fully distributed (each rank builds "
                      "its own block of 2^r cells plus one ghost cell per "
                      "side, parallel::fullydistributed; memory per rank "
                      "scales with its share) or shared (every rank stores the "
                      "whole mesh, parallel::shared). A 1D gmsh mesh always "
                      "uses shared; 2D always parallel::distributed (p4est).");
    prm.declare_entry("Finite element degree",
                      "1",
                      Patterns::Integer(),
                      "Degree p of FE_Q(p), 1 to 4 (Gauss-Lobatto support "
                      "points).");
    prm.declare_entry("Mass",
                      "lumped",
                      Patterns::Selection("lumped|consistent"),
                      "Mass matrix M. lumped: Gauss-Lobatto (nodal) "
                      "quadrature, diagonal M; the entries a file does not "
                      "set then default to the explicit scheme of the "
                      "examples: Splitting/Friction substeps = Elastic "
                      "substeps = 1, Splitting/Elastic implicitness = 0 and "
                      "Friction/Solver "
                      "= closed form (a given implicitness > 0 is allowed: an "
                      "implicit elastic step with the lumped mass). "
                      "consistent: the exact mass matrix, with the general "
                      "defaults (use the semismooth newton friction "
                      "solver).");
    prm.declare_entry("Stiffness operator",
                      "assembled",
                      Patterns::Selection("assembled|matrix-free"),
                      "How A X is computed. assembled: a sparse matrix of "
                      "the linear-algebra backend (PETSc or Trilinos), read "
                      "once per product (3 entries per row for P1 in 1D, 9 "
                      "for Q1 in 2D). matrix-free: deal.II's MatrixFree cell "
                      "loop (the pattern of its step-48), no matrix in "
                      "memory, A recomputed on every cell at every product; "
                      "an implicit elastic step of the splitting schemes "
                      "and the centered scheme with alpha > 0 then solve "
                      "with M + alpha tau^2 A (M + alpha dt^2 A) by "
                      "conjugate gradients with its diagonal (no "
                      "factorization). Both give the same A X up to "
                      "round-off (doc/verification.md).");
    prm.declare_entry("Mass operator",
                      "assembled",
                      Patterns::Selection("assembled|matrix-free"),
                      "How M X is computed for String/Mass = consistent "
                      "(a lumped M is a diagonal either way; matrix-free is "
                      "then an input error). assembled: a sparse matrix of "
                      "the linear-algebra backend. matrix-free: the "
                      "MatrixFree cell loop of the stiffness with the "
                      "coefficient 1/c^2 at the quadrature points, no "
                      "matrix in memory; every solve with M or M + alpha "
                      "tau^2 A (the elastic step, the centered scheme, the "
                      "semismooth Newton friction step) is then conjugate "
                      "gradients with the diagonal, and the projection "
                      "friction solver refuses it. Same M X as assembled up "
                      "to round-off (doc/verification.md).");
    declare_string_data(prm);
    prm.leave_subsection();
  }



  void
  StringParameters::parse(ParameterHandler      &prm,
                          const ParameterSource &source,
                          const unsigned int     dimension)
  {
    this->dimension = dimension;
    prm.enter_subsection("String");
    const std::string mesh_name = prm.get("Mesh");
    length                      = prm.get_double("Length");
    height                      = prm.get_double("Height");
    mesh_file                   = prm.get("Mesh file");
    global_refinements          = prm.get_integer("Global refinements");
    triangulation               = parse_selection<StringTriangulation>(
      prm.get("Triangulation"),
      {{"fully distributed", StringTriangulation::fully_distributed},
                     {"shared", StringTriangulation::shared}},
      "String/Triangulation");
    const int degree_value = prm.get_integer("Finite element degree");
    mass                   = parse_selection<StringMass>(prm.get("Mass"),
                                       {{"lumped", StringMass::lumped},
                                                          {"consistent", StringMass::consistent}},
                                       "String/Mass");
    stiffness =
      parse_selection<StringOperator>(prm.get("Stiffness operator"),
                                      {{"assembled", StringOperator::assembled},
                                       {"matrix-free",
                                        StringOperator::matrix_free}},
                                      "String/Stiffness operator");
    mass_operator =
      parse_selection<StringOperator>(prm.get("Mass operator"),
                                      {{"assembled", StringOperator::assembled},
                                       {"matrix-free",
                                        StringOperator::matrix_free}},
                                      "String/Mass operator");
    wave_speed                 = prm.get("Wave speed");
    friction                   = prm.get("Friction");
    forcing                    = prm.get("Forcing");
    const std::string ids_text = prm.get("Dirichlet boundary ids");
    dirichlet_data             = prm.get("Dirichlet data");
    initial_displacement       = prm.get("Initial displacement");
    initial_velocity           = prm.get("Initial velocity");
    exact_displacement         = prm.get("Exact displacement");
    exact_velocity             = prm.get("Exact velocity");
    exact_multiplier           = prm.get("Exact multiplier");
    gamma         = parse_gamma_law(prm.get("Gamma"), "String/Gamma");
    gamma_beta    = prm.get_double("Gamma beta");
    gamma_epsilon = prm.get_double("Gamma epsilon");
    prm.leave_subsection();

    if (degree_value < 1 || degree_value > 4)
      throw_bad_parameter(source,
                          "String/Finite element degree",
                          std::to_string(degree_value),
                          "the degree p of FE_Q(p) must be 1, 2, 3 or 4");
    degree = degree_value;
    if (mass == StringMass::lumped &&
        mass_operator == StringOperator::matrix_free)
      throw_bad_parameter(source,
                          "String/Mass operator",
                          "matrix-free",
                          "a lumped mass (String/Mass = lumped) is a "
                          "diagonal, applied entrywise without a matrix "
                          "already; the matrix-free mass is for String/Mass "
                          "= consistent");
    if (is_blank(exact_displacement) != is_blank(exact_velocity))
      throw_bad_parameter(source,
                          is_blank(exact_displacement) ?
                            "String/Exact displacement" :
                            "String/Exact velocity",
                          "",
                          "an exact solution needs both Exact displacement "
                          "and Exact velocity");
    check_gamma_law(gamma,
                    {gamma_beta},
                    {gamma_epsilon},
                    "String/Gamma beta",
                    "String/Gamma epsilon",
                    source);
    parse_dirichlet_ids(ids_text, source);
    if (!(length > 0))
      throw_bad_parameter(source,
                          "String/Length",
                          std::to_string(length),
                          "L must be positive");
    parse_mesh(mesh_name, source);
  }



  void
  StringParameters::parse_mesh(const std::string     &name,
                               const ParameterSource &source)
  {
    // auto has no enum value: it is the dimension's own mesh.
    const std::optional<StringMesh> chosen =
      parse_selection<std::optional<StringMesh>>(
        name,
        {{"auto", std::nullopt},
         {"interval", StringMesh::interval},
         {"rectangle", StringMesh::rectangle},
         {"file", StringMesh::file}},
        "String/Mesh");
    mesh = chosen         ? *chosen :
           dimension == 1 ? StringMesh::interval :
                            StringMesh::rectangle;
    if (chosen && mesh != StringMesh::file &&
        (mesh == StringMesh::interval) != (dimension == 1))
      throw_bad_parameter(source,
                          "String/Mesh",
                          name,
                          "interval is the 1D mesh and rectangle the 2D one "
                          "(Dimension = " +
                            std::to_string(dimension) + ")");
    if (mesh == StringMesh::rectangle && !(height > 0))
      throw_bad_parameter(source,
                          "String/Height",
                          std::to_string(height),
                          "the height must be positive");
  }



  void
  StringParameters::parse_dirichlet_ids(const std::string     &text,
                                        const ParameterSource &source)
  {
    dirichlet_ids.clear();
    for (const double id :
         parse_number_list(text, "String/Dirichlet boundary ids", source))
      {
        if (id < 0 || id != std::floor(id) || id > 1e6)
          throw_bad_parameter(source,
                              "String/Dirichlet boundary ids",
                              text,
                              "boundary ids are non-negative integers");
        dirichlet_ids.push_back(static_cast<types::boundary_id>(id));
      }
  }



  bool
  StringParameters::fully_distributed() const
  {
    return dimension == 1 && mesh == StringMesh::interval &&
           triangulation == StringTriangulation::fully_distributed;
  }



  std::string
  StringParameters::variables() const
  {
    return dimension == 1 ? "x,t" : "x,y,t";
  }
} // namespace stickslip
