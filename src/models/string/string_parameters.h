#ifndef stickslip_models_string_string_parameters_h
#define stickslip_models_string_string_parameters_h

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>
#include <friction/gamma_law.h>

#include <string>
#include <vector>

namespace stickslip
{
  /** The coarse mesh of the string or membrane (String/Mesh). */
  enum class StringMesh
  {
    interval,  ///< (0, L), dim 1
    rectangle, ///< (0, L) x (0, Height), dim 2
    file       ///< a gmsh file
  };

  /** The triangulation of the 1D interval (String/Triangulation). */
  enum class StringTriangulation
  {
    fully_distributed, ///< parallel::fullydistributed, built per rank
    shared             ///< parallel::shared, the whole mesh on every rank
  };

  /** The mass matrix (String/Mass). */
  enum class StringMass
  {
    lumped,    ///< Gauss-Lobatto (nodal) quadrature, diagonal M
    consistent ///< exact integration
  };



  /**
   * How A X or M X is computed (String/Stiffness operator, String/Mass
   * operator).
   */
  enum class StringOperator
  {
    assembled,  ///< a sparse matrix of the linear-algebra backend
    matrix_free ///< deal.II's MatrixFree cell loop, no matrix
  };



  /**
   * The subsection `String`: the frictional wave string (Dimension = 1) and
   * the membrane (Dimension = 2), Glowinski et al. 2006, eq. (23),
   * doc/theory.md §2. The entries are declared once for both dimensions;
   * parse() resolves what depends on the dimension (String/Mesh = auto) and
   * checks every value that needs neither the mesh nor MPI, with InputErrors
   * naming the parameter. The expressions are kept as text: the model parses
   * them as functions of the dim coordinates and t (parse_function()).
   */
  struct StringParameters
  {
    unsigned int        dimension; ///< 1 (string) or 2 (membrane)
    StringMesh          mesh;      ///< never auto after parse()
    double              length;    ///< L
    double              height;    ///< of the rectangle
    std::string         mesh_file;
    unsigned int        global_refinements;
    StringTriangulation triangulation;
    unsigned int        degree; ///< p of FE_Q(p)
    StringMass          mass;
    StringOperator      stiffness;     ///< String/Stiffness operator
    StringOperator      mass_operator; ///< String/Mass operator

    /** c(x), g(x), f(x, t), u_D(x, t), u0(x), u1(x): muParser expressions. */
    std::string wave_speed, friction, forcing, dirichlet_data,
      initial_displacement, initial_velocity;
    /** Optional exact solution (blank if not given). */
    std::string exact_displacement, exact_velocity, exact_multiplier;
    std::vector<types::boundary_id> dirichlet_ids;

    GammaLaw::Type gamma;
    double         gamma_beta, gamma_epsilon;

    static void
    declare_parameters(ParameterHandler &prm);

    /** Read the subsection for a model of dimension @p dimension. */
    void
    parse(ParameterHandler      &prm,
          const ParameterSource &source,
          const unsigned int     dimension);

    /**
     * Whether the mesh is the 1D interval built per rank
     * (parallel::fullydistributed::Triangulation<1>).
     */
    bool
    fully_distributed() const;

    /** The variables of the expressions: "x,t" (dim 1) or "x,y,t". */
    std::string
    variables() const;

  private:
    /** String/Mesh, with auto resolved from @p dimension. */
    void
    parse_mesh(const std::string &name, const ParameterSource &source);

    /** The Dirichlet ids from the text of String/Dirichlet boundary ids. */
    void
    parse_dirichlet_ids(const std::string &text, const ParameterSource &source);
  };
} // namespace stickslip

#endif
