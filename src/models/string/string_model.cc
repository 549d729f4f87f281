#include <deal.II/base/quadrature_lib.h>
#include <deal.II/distributed/fully_distributed_tria.h>
#include <deal.II/distributed/shared_tria.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/grid_in.h>
#include <deal.II/grid/tria_description.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/sparsity_tools.h>
#include <deal.II/numerics/data_out.h>

#include <base/expressions.h>
#include <base/local_values.h>
#include <models/string/string_model.h>

#include <muParser.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /**
     * The description of the uniform mesh of (0, @p length) into @p n_cells
     * cells that rank @p rank of @p n_ranks holds in a
     * parallel::fullydistributed::Triangulation<1>: its contiguous block of
     * cells [floor(N p / P), floor(N (p + 1) / P)) plus one ghost cell on
     * each side, as
     * coarse cells of one level. Coarse cell ids are the global cell
     * indices; the end faces carry boundary ids 0 (x = 0) and 1 (x = L).
     * Nothing of size N is built on any rank.
     */
    TriangulationDescription::Description<1, 1>
    interval_description(const double          length,
                         const std::uint64_t   n_cells,
                         const MPI_Comm        comm)
    {
      const std::uint64_t n_ranks = Utilities::MPI::n_mpi_processes(comm);
      const std::uint64_t rank    = Utilities::MPI::this_mpi_process(comm);
      const auto first_of = [&](const std::uint64_t p) {
        return n_cells * p / n_ranks;
      };
      const auto owner_of = [&](const std::uint64_t c) {
        // The largest p with first_of(p) <= c.
        std::uint64_t p = (c * n_ranks) / n_cells;
        while (p + 1 < n_ranks && first_of(p + 1) <= c)
          ++p;
        while (first_of(p) > c)
          --p;
        return p;
      };
      const std::uint64_t owned_begin = first_of(rank);
      const std::uint64_t owned_end   = first_of(rank + 1);
      const std::uint64_t begin = owned_begin > 0 ? owned_begin - 1 : 0;
      const std::uint64_t end = owned_end < n_cells ? owned_end + 1 : n_cells;

      TriangulationDescription::Description<1, 1> description;
      description.comm = comm;
      description.settings = TriangulationDescription::default_setting;
      description.coarse_cell_vertices.reserve(end - begin + 1);
      for (std::uint64_t v = begin; v <= end; ++v)
        description.coarse_cell_vertices.emplace_back(
          v == n_cells ? length :
                         length * static_cast<double>(v) /
                           static_cast<double>(n_cells));
      description.coarse_cells.resize(end - begin);
      description.coarse_cell_index_to_coarse_cell_id.resize(end - begin);
      description.cell_infos.resize(1);
      description.cell_infos[0].resize(end - begin);
      for (std::uint64_t c = begin; c < end; ++c)
        {
          const std::size_t k = c - begin;
          description.coarse_cells[k].vertices = {static_cast<unsigned int>(k),
                                                  static_cast<unsigned int>(k + 1)};
          description.coarse_cell_index_to_coarse_cell_id[k] = c;

          auto &info = description.cell_infos[0][k];
          info.id = CellId(c, std::vector<std::uint8_t>()).template to_binary<1>();
          info.subdomain_id = owner_of(c);
          info.level_subdomain_id = info.subdomain_id;
          info.manifold_id = numbers::flat_manifold_id;
          if (c == 0)
            info.boundary_ids.emplace_back(0, 0);
          if (c + 1 == n_cells)
            info.boundary_ids.emplace_back(1, 1);
        }
      return description;
    }



    std::string
    variables(const int dim)
    {
      return dim == 1 ? "x,t" : "x,y,t";
    }


    /**
     * A scalar FunctionParser of space and t from a parameter, with an
     * InputError naming the parameter when muParser cannot read it.
     */
    template <int dim>
    std::unique_ptr<FunctionParser<dim>>
    parse_field(const std::string &    text,
                const std::string &    path,
                const ParameterSource &source)
    {
      try
        {
          mu::Parser check;
          double     values[4] = {0, 0, 0, 0};
          check.DefineVar("x", &values[0]);
          if (dim > 1)
            check.DefineVar("y", &values[1]);
          check.DefineVar("t", &values[3]);
          for (const auto &constant : expression_constants())
            check.DefineConst(constant.first, constant.second);
          check.SetExpr(text);
          check.Eval();
        }
      catch (mu::Parser::exception_type &e)
        {
          throw_bad_parameter(source,
                              path,
                              text,
                              "it is not a valid muParser expression of " +
                                variables(dim) + ": " + e.GetMsg());
        }
      auto function = std::make_unique<FunctionParser<dim>>(1);
      function->initialize(variables(dim), text, expression_constants(), true);
      return function;
    }

    /**
     * The exact solution at the nodes of a field model; errors in a
     * discrete L2 norm weighted by the nodal weights w_i.
     */
    template <int dim>
    class FieldReference : public ReferenceSolution
    {
    public:
      FieldReference(const std::vector<Point<dim>> &points,
                     Function<dim> &                u,
                     Function<dim> &                v,
                     Function<dim> *                lambda,
                     const DistributedVector &      weights,
                     const DistributedVector &      frictional)
        : points(points)
        , u(u)
        , v(v)
        , lambda(lambda)
        , weights(weights)
        , frictional(frictional)
      {}

      void
      values(const double       t,
             DistributedVector &displacement,
             DistributedVector &velocity) const override
      {
        u.set_time(t);
        v.set_time(t);
        LocalValues x(displacement);
        LocalValues xv(velocity);
        for (std::size_t k = 0; k < points.size(); ++k)
          {
            x[k]  = u.value(points[k]);
            xv[k] = v.value(points[k]);
          }
      }

      bool
      has_multiplier() const override
      {
        return lambda != nullptr;
      }

      double
      multiplier_error_squared(const double             t_a,
                               const double             t_b,
                               const DistributedVector &lambda_h) const override
      {
        constexpr unsigned int n_points = 8;
        const double           h        = (t_b - t_a) / n_points;
        ConstLocalValues       l(lambda_h);
        ConstLocalValues       w(weights);
        ConstLocalValues       c(frictional);
        double                 sum = 0;
        for (unsigned int q = 0; q < n_points; ++q)
          {
            lambda->set_time(t_a + (q + 0.5) * h);
            for (std::size_t k = 0; k < points.size(); ++k)
              if (c[k] > 0)
                {
                  const double e = l[k] - lambda->value(points[k]);
                  sum += h * w[k] * e * e;
                }
          }
        return sum;
      }

    private:
      const std::vector<Point<dim>> &points;
      Function<dim> &                u;
      Function<dim> &                v;
      Function<dim> *                lambda;
      const DistributedVector &      weights;
      const DistributedVector &      frictional;
    };
  } // namespace



  template <int dim>
  void
  StringModel<dim>::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("String");
    prm.declare_entry("Mesh",
                      dim == 1 ? "interval" : "rectangle",
                      Patterns::Selection("interval|rectangle|file"),
                      "interval (0, L) (dim 1; boundary ids 0 left, 1 right), "
                      "rectangle (0, L) x (0, Height) (dim 2; ids 0 left, 1 "
                      "right, 2 bottom, 3 top), or a gmsh file (Mesh file).");
    prm.declare_entry("Length", "1", Patterns::Double(), "L > 0.");
    prm.declare_entry("Height", "1", Patterns::Double(), "Height of the "
                      "rectangle (dim 2).");
    prm.declare_entry("Mesh file",
                      "",
                      Patterns::Anything(),
                      "gmsh .msh file (Mesh = file), relative to the working "
                      "directory; physical line tags become boundary ids.");
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
                      "lumped: Gauss-Lobatto (nodal) quadrature, diagonal M, "
                      "closed-form friction step and explicit alpha = 0; "
                      "consistent: exact mass matrix (use the semismooth "
                      "newton friction solver).");
    prm.declare_entry("Wave speed",
                      "1",
                      Patterns::Anything(),
                      "c(x) > 0, muParser expression of the coordinates.");
    prm.declare_entry("Friction",
                      "1",
                      Patterns::Anything(),
                      "g(x) >= 0, friction per unit length (area) relative to "
                      "the tension; expression of the coordinates.");
    prm.declare_entry("Forcing",
                      "0",
                      Patterns::Anything(),
                      "f(x, t), expression of the coordinates and t.");
    prm.declare_entry("Dirichlet boundary ids",
                      "0, 1",
                      Patterns::Anything(),
                      "Comma-separated boundary ids where u = u_D (the rest is "
                      "free: du/dn = 0).");
    prm.declare_entry("Dirichlet data",
                      "0",
                      Patterns::Anything(),
                      "u_D(x, t); time-dependent data drive the string.");
    prm.declare_entry("Initial displacement", "0", Patterns::Anything(), "u0(x).");
    prm.declare_entry("Initial velocity", "0", Patterns::Anything(), "u1(x).");
    prm.declare_entry("Exact displacement",
                      "",
                      Patterns::Anything(),
                      "Optional exact u(x, t); with Exact velocity it enables "
                      "errors.csv (discrete L2 in space and time).");
    prm.declare_entry("Exact velocity", "", Patterns::Anything(), "u_t(x, t).");
    prm.declare_entry("Exact multiplier",
                      "",
                      Patterns::Anything(),
                      "Optional exact lambda(x, t).");
    prm.declare_entry("Gamma",
                      "none",
                      Patterns::Selection("none|smooth|piecewise linear"),
                      "Velocity weakening gamma (seed 000 (2) or (3)).");
    prm.declare_entry("Gamma beta", "0.3", Patterns::Double(), "beta in (0, 1).");
    prm.declare_entry("Gamma epsilon", "0.1", Patterns::Double(), "eps > 0.");
    prm.leave_subsection();
  }



  template <int dim>
  StringModel<dim>::StringModel(ParameterHandler &     prm,
                                const ParameterSource &source,
                                const MPI_Comm         comm)
    : comm(comm)
    , friction_system(comm)
  {
    prm.enter_subsection("String");
    const int degree_value = prm.get_integer("Finite element degree");
    lumped                 = prm.get("Mass") == "lumped";
    const std::string speed_text   = prm.get("Wave speed");
    const std::string g_text       = prm.get("Friction");
    const std::string f_text       = prm.get("Forcing");
    const std::string ids_text     = prm.get("Dirichlet boundary ids");
    const std::string d_text       = prm.get("Dirichlet data");
    const std::string u0_text      = prm.get("Initial displacement");
    const std::string u1_text      = prm.get("Initial velocity");
    const std::string exact_u_text = prm.get("Exact displacement");
    const std::string exact_v_text = prm.get("Exact velocity");
    const std::string exact_l_text = prm.get("Exact multiplier");
    const std::string gamma_name   = prm.get("Gamma");
    const double      beta         = prm.get_double("Gamma beta");
    const double      epsilon      = prm.get_double("Gamma epsilon");
    prm.leave_subsection();

    if (degree_value < 1 || degree_value > 4)
      throw_bad_parameter(source,
                          "String/Finite element degree",
                          std::to_string(degree_value),
                          "the degree p of FE_Q(p) must be 1, 2, 3 or 4");
    degree = degree_value;
    fe     = std::make_unique<FE_Q<dim>>(degree);

    wave_speed = parse_field<dim>(speed_text, "String/Wave speed", source);
    friction   = parse_field<dim>(g_text, "String/Friction", source);
    forcing    = parse_field<dim>(f_text, "String/Forcing", source);
    dirichlet  = parse_field<dim>(d_text, "String/Dirichlet data", source);
    initial_displacement =
      parse_field<dim>(u0_text, "String/Initial displacement", source);
    initial_velocity =
      parse_field<dim>(u1_text, "String/Initial velocity", source);
    forcing_zero   = f_text == "0";
    dirichlet_zero = d_text == "0";
    if (is_blank(exact_u_text) != is_blank(exact_v_text))
      throw_bad_parameter(source,
                          is_blank(exact_u_text) ? "String/Exact displacement" :
                                                   "String/Exact velocity",
                          "",
                          "an exact solution needs both Exact displacement "
                          "and Exact velocity");
    if (!is_blank(exact_u_text))
      {
        exact_u =
          parse_field<dim>(exact_u_text, "String/Exact displacement", source);
        exact_v = parse_field<dim>(exact_v_text, "String/Exact velocity", source);
        if (!is_blank(exact_l_text))
          exact_lambda =
            parse_field<dim>(exact_l_text, "String/Exact multiplier", source);
      }
    const GammaLaw::Type gamma_type = GammaLaw::parse_type(gamma_name);
    if (gamma_type != GammaLaw::Type::none && !(beta > 0 && beta < 1))
      throw_bad_parameter(source,
                          "String/Gamma beta",
                          std::to_string(beta),
                          "beta must lie in (0, 1)");
    if (gamma_type != GammaLaw::Type::none && !(epsilon > 0))
      throw_bad_parameter(source,
                          "String/Gamma epsilon",
                          std::to_string(epsilon),
                          "eps must be positive");
    for (const double id : parse_number_list(ids_text,
                                             "String/Dirichlet boundary ids",
                                             source))
      {
        if (id < 0 || id != std::floor(id) || id > 1e6)
          throw_bad_parameter(source,
                              "String/Dirichlet boundary ids",
                              ids_text,
                              "boundary ids are non-negative integers");
        dirichlet_ids.push_back(static_cast<types::boundary_id>(id));
      }

    make_grid(prm, source);
    assemble(source);

    // Gamma, initial data, forcing.
    DistributedVector beta_vector(friction_system.locally_owned, comm);
    DistributedVector epsilon_vector(friction_system.locally_owned, comm);
    beta_vector    = beta;
    epsilon_vector = epsilon;
    friction_system.gamma.reinit(gamma_type, beta_vector, epsilon_vector);

    friction_system.initial_displacement.reinit(friction_system.locally_owned,
                                                comm);
    friction_system.initial_velocity.reinit(friction_system.locally_owned, comm);
    interpolate_nodal(*initial_displacement,
                      0.,
                      friction_system.initial_displacement);
    interpolate_nodal(*initial_velocity, 0., friction_system.initial_velocity);

    // u_D(., t0) should match u0 on the Dirichlet boundary; if not, the
    // boundary values win (complete_state), which is a jump: warn.
    {
      prm.enter_subsection("Time");
      const double t0 = prm.get_double("Initial time");
      prm.leave_subsection();
      dirichlet->set_time(t0);
      double           mismatch = 0, scale = 0;
      ConstLocalValues u0(friction_system.initial_displacement);
      for (std::size_t k = 0; k < u0.size(); ++k)
        scale = std::max(scale, std::abs(u0[k]));
      for (const unsigned int k : dirichlet_local)
        mismatch = std::max(mismatch,
                            std::abs(dirichlet->value(owned_points[k]) - u0[k]));
      mismatch = Utilities::MPI::max(mismatch, comm);
      scale    = Utilities::MPI::max(scale, comm);
      if (mismatch > 1e-10 * std::max(1., scale) &&
          Utilities::MPI::this_mpi_process(comm) == 0)
        std::cerr << "stickslip: warning: 'String/Dirichlet data'"
                  << source.where("String/Dirichlet data")
                  << " differs from 'String/Initial displacement' on the "
                     "Dirichlet boundary at t0 by up to "
                  << mismatch
                  << "; the boundary takes the Dirichlet value (a jump at "
                     "t0)."
                  << std::endl;
    }

    friction_system.forcing = [this](const double t, DistributedVector &out) {
      if (forcing_zero)
        out = 0;
      else
        {
          interpolate_nodal(*forcing, t, out);
          out.scale(nodal_weights);
          ConstLocalValues mask(dirichlet_mask);
          LocalValues      values(out);
          for (std::size_t k = 0; k < values.size(); ++k)
            values[k] *= 1. - mask[k];
        }
    };
    if (!dirichlet_zero)
      {
        // Driven boundary: the elastic step couples the interior to u_D(t).
        friction_system.prescribed_mask = dirichlet_mask;
        friction_system.unconstrained_mass      = &full_mass;
        friction_system.unconstrained_stiffness = &full_stiffness;
        friction_system.prescribed_values = [this](const double       t,
                                                   DistributedVector &out) {
          dirichlet->set_time(t);
          LocalValues values(out);
          for (const unsigned int k : dirichlet_local)
            values[k] = dirichlet->value(owned_points[k]);
        };
      }
    friction_system.finalize();

    if (exact_u)
      reference = std::make_unique<FieldReference<dim>>(owned_points,
                                                        *exact_u,
                                                        *exact_v,
                                                        exact_lambda.get(),
                                                        nodal_weights,
                                                        friction_system.friction_weights);
  }



  template <int dim>
  StringModel<dim>::~StringModel()
  {
    dof_handler.clear();
  }



  template <int dim>
  void
  StringModel<dim>::make_grid(ParameterHandler &prm, const ParameterSource &source)
  {
    prm.enter_subsection("String");
    const std::string mesh        = prm.get("Mesh");
    const double      length      = prm.get_double("Length");
    const double      height      = prm.get_double("Height");
    const std::string mesh_file   = prm.get("Mesh file");
    const unsigned int refinements = prm.get_integer("Global refinements");
    const bool fully_distributed =
      dim == 1 && mesh == "interval" &&
      prm.get("Triangulation") == "fully distributed";
    prm.leave_subsection();

    if (!(length > 0))
      throw_bad_parameter(source, "String/Length", std::to_string(length), "L must be positive");
    if (fully_distributed)
      {
        if (refinements > 40 ||
            (std::uint64_t(1) << refinements) <
              Utilities::MPI::n_mpi_processes(comm))
          throw_bad_parameter(source,
                              "String/Global refinements",
                              std::to_string(refinements),
                              "the fully distributed interval needs at least "
                              "one cell per MPI rank (2^r >= ranks)");
        auto tria =
          std::make_unique<parallel::fullydistributed::Triangulation<dim>>(comm);
        if constexpr (dim == 1)
          tria->create_triangulation(interval_description(
            length, std::uint64_t(1) << refinements, comm));
        triangulation = std::move(tria);
      }
    else if (dim == 1)
      triangulation = std::make_unique<parallel::shared::Triangulation<dim>>(
        comm,
        Triangulation<dim>::none,
        false,
        parallel::shared::Triangulation<dim>::partition_zorder);
    else
      triangulation =
        std::make_unique<parallel::distributed::Triangulation<dim>>(comm);

    if (fully_distributed)
      {
        // Built above, already at its final resolution.
      }
    else if (mesh == "interval" || mesh == "rectangle")
      {
        if ((mesh == "interval") != (dim == 1))
          throw_bad_parameter(source,
                              "String/Mesh",
                              mesh,
                              "interval is the 1D mesh and rectangle the 2D one "
                              "(Dimension = " +
                                std::to_string(dim) + ")");
        if (dim == 2 && !(height > 0))
          throw_bad_parameter(source,
                              "String/Height",
                              std::to_string(height),
                              "the height must be positive");
        Point<dim> corner;
        corner[0] = length;
        if (dim == 2)
          corner[1] = height;
        GridGenerator::hyper_rectangle(*triangulation, Point<dim>(), corner, true);
      }
    else
      {
        std::ifstream in(mesh_file);
        if (mesh_file.empty() || !std::filesystem::is_regular_file(mesh_file) ||
            !in.good())
          throw_bad_parameter(source,
                              "String/Mesh file",
                              mesh_file,
                              "the mesh file cannot be read (it must be an "
                              "existing gmsh .msh file; relative paths start "
                              "at the working directory)");
        try
          {
            GridIn<dim> grid_in;
            grid_in.attach_triangulation(*triangulation);
            grid_in.read_msh(in);
          }
        catch (std::exception &e)
          {
            throw_bad_parameter(source,
                                "String/Mesh file",
                                mesh_file,
                                "deal.II's GridIn cannot read it as a gmsh "
                                "mesh of dimension " +
                                  std::to_string(dim));
          }
      }
    if (!fully_distributed)
      triangulation->refine_global(refinements);

    // Every boundary id the parameters name must exist on the mesh. Only
    // owned cells count: the outer face of a ghost cell of the fully
    // distributed mesh is an artificial boundary.
    std::set<types::boundary_id> present;
    for (const auto &cell : triangulation->active_cell_iterators())
      if (cell->is_locally_owned())
        for (const auto face : cell->face_indices())
          if (cell->face(face)->at_boundary())
            present.insert(cell->face(face)->boundary_id());
    std::vector<types::boundary_id> local(present.begin(), present.end());
    const auto all = Utilities::MPI::compute_set_union(local, comm);
    for (const auto id : dirichlet_ids)
      if (std::find(all.begin(), all.end(), id) == all.end())
        {
          std::string existing;
          for (const auto e : all)
            existing += (existing.empty() ? "" : ", ") + std::to_string(e);
          throw_bad_parameter(source,
                              "String/Dirichlet boundary ids",
                              std::to_string(id),
                              "the mesh has no boundary with this id (its "
                              "boundary ids are " +
                                existing + ")");
        }

    min_cell_diameter = std::numeric_limits<double>::max();
    for (const auto &cell : triangulation->active_cell_iterators())
      if (cell->is_locally_owned())
        min_cell_diameter = std::min(min_cell_diameter, cell->diameter());
    min_cell_diameter = Utilities::MPI::min(min_cell_diameter, comm);
  }



  template <int dim>
  void
  StringModel<dim>::assemble(const ParameterSource &source)
  {
    dof_handler.reinit(*triangulation);
    dof_handler.distribute_dofs(*fe);
    const IndexSet owned = dof_handler.locally_owned_dofs();
    AssertThrow(owned.is_contiguous(),
                ExcMessage("stickslip needs contiguous DoF ranges per rank"));
    DoFTools::extract_locally_relevant_dofs(dof_handler, locally_relevant);
    friction_system.locally_owned = owned;

    // Support points of the owned DoFs, in local order.
    std::map<types::global_dof_index, Point<dim>> points;
    DoFTools::map_dofs_to_support_points(MappingQ1<dim>(), dof_handler, points);
    owned_points.clear();
    for (const auto i : owned)
      owned_points.push_back(points.at(i));

    // Dirichlet DoFs: decoupled from the rest (homogeneous constraints).
    const std::set<types::boundary_id> ids(dirichlet_ids.begin(),
                                           dirichlet_ids.end());
    const IndexSet boundary =
      ids.empty() ? IndexSet(dof_handler.n_dofs()) :
                    DoFTools::extract_boundary_dofs(dof_handler, ComponentMask(), ids);
    AffineConstraints<double> constraints(locally_relevant);
    for (const auto i : boundary)
      if (locally_relevant.is_element(i))
        constraints.add_line(i);
    constraints.close();
    dirichlet_mask.reinit(owned, comm);
    {
      LocalValues mask(dirichlet_mask);
      std::size_t k = 0;
      dirichlet_local.clear();
      for (const auto i : owned)
        {
          mask[k] = boundary.is_element(i) ? 1. : 0.;
          if (boundary.is_element(i))
            dirichlet_local.push_back(k);
          ++k;
        }
    }

    DynamicSparsityPattern pattern(locally_relevant);
    DoFTools::make_sparsity_pattern(dof_handler, pattern);
    SparsityTools::distribute_sparsity_pattern(pattern, owned, comm, locally_relevant);
    friction_system.mass.reinit(owned, owned, pattern, comm);
    friction_system.stiffness.reinit(owned, owned, pattern, comm);
    full_mass.reinit(owned, owned, pattern, comm);
    full_stiffness.reinit(owned, owned, pattern, comm);
    friction_system.has_stiffness = true;

    nodal_weights.reinit(owned, comm);
    friction_system.friction_weights.reinit(owned, comm);
    scratch.reinit(owned, comm);

    const QGauss<dim>        gauss(degree + 1);
    const QGaussLobatto<dim> lobatto(degree + 1);
    FEValues<dim>            fe_values(*fe,
                            gauss,
                            update_values | update_gradients |
                              update_quadrature_points | update_JxW_values);
    FEValues<dim>            nodal_values(*fe,
                               lobatto,
                               update_values | update_quadrature_points |
                                 update_JxW_values);
    const unsigned int       n = fe->n_dofs_per_cell();
    FullMatrix<double>       cell_mass(n, n), cell_stiffness(n, n);
    dealii::Vector<double>   cell_weights(n), cell_friction(n);
    std::vector<types::global_dof_index> dof_indices(n);
    double min_speed = std::numeric_limits<double>::max();
    double min_g     = std::numeric_limits<double>::max();
    // std::min would drop a nan (0/0, sqrt(-1)): values that are not finite
    // are counted apart.
    unsigned int n_bad_speed = 0, n_bad_g = 0;
    const auto   note        = [](const double  value,
                         double &      smallest,
                         unsigned int &n_not_finite) {
      if (std::isfinite(value))
        smallest = std::min(smallest, value);
      else
        ++n_not_finite;
    };

    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          cell_mass      = 0;
          cell_stiffness = 0;
          cell_weights   = 0;
          cell_friction  = 0;
          fe_values.reinit(cell);
          nodal_values.reinit(cell);
          for (const unsigned int q : fe_values.quadrature_point_indices())
            {
              const double c = wave_speed->value(fe_values.quadrature_point(q));
              note(c, min_speed, n_bad_speed);
              const double JxW = fe_values.JxW(q);
              for (unsigned int i = 0; i < n; ++i)
                for (unsigned int j = 0; j < n; ++j)
                  {
                    cell_stiffness(i, j) += fe_values.shape_grad(i, q) *
                                            fe_values.shape_grad(j, q) * JxW;
                    if (!lumped)
                      cell_mass(i, j) += fe_values.shape_value(i, q) *
                                         fe_values.shape_value(j, q) * JxW /
                                         (c * c);
                  }
            }
          // Nodal (Gauss-Lobatto) rule: its points are the support points,
          // so phi_i(x_q) = delta_iq and every integral below is nodal.
          for (const unsigned int q : nodal_values.quadrature_point_indices())
            {
              const Point<dim> &x   = nodal_values.quadrature_point(q);
              const double      JxW = nodal_values.JxW(q);
              const double      c   = wave_speed->value(x);
              const double      g   = friction->value(x);
              note(c, min_speed, n_bad_speed);
              note(g, min_g, n_bad_g);
              for (unsigned int i = 0; i < n; ++i)
                {
                  const double phi = nodal_values.shape_value(i, q);
                  cell_weights(i) += phi * JxW;
                  cell_friction(i) += g * phi * JxW;
                  if (lumped)
                    cell_mass(i, i) += phi * JxW / (c * c);
                }
            }
          // Round-off of phi_i at the other nodes is below 1e-15: drop it,
          // so that the lumped M is exactly diagonal.
          if (lumped)
            for (unsigned int i = 0; i < n; ++i)
              for (unsigned int j = 0; j < n; ++j)
                if (i != j)
                  cell_mass(i, j) = 0;

          cell->get_dof_indices(dof_indices);
          constraints.distribute_local_to_global(cell_mass,
                                                 dof_indices,
                                                 friction_system.mass);
          constraints.distribute_local_to_global(cell_stiffness,
                                                 dof_indices,
                                                 friction_system.stiffness);
          full_mass.add(dof_indices, cell_mass);
          full_stiffness.add(dof_indices, cell_stiffness);
          nodal_weights.add(dof_indices, cell_weights);
          friction_system.friction_weights.add(dof_indices, cell_friction);
        }
    friction_system.mass.compress(VectorOperation::add);
    friction_system.stiffness.compress(VectorOperation::add);
    full_mass.compress(VectorOperation::add);
    full_stiffness.compress(VectorOperation::add);
    nodal_weights.compress(VectorOperation::add);
    friction_system.friction_weights.compress(VectorOperation::add);

    min_speed = Utilities::MPI::min(min_speed, comm);
    min_g     = Utilities::MPI::min(min_g, comm);
    n_bad_speed = Utilities::MPI::sum(n_bad_speed, comm);
    n_bad_g     = Utilities::MPI::sum(n_bad_g, comm);
    if (n_bad_speed > 0)
      throw_bad_parameter(source,
                          "String/Wave speed",
                          "nan or inf at " + std::to_string(n_bad_speed) +
                            " quadrature points",
                          "c must be a finite positive number everywhere");
    if (n_bad_g > 0)
      throw_bad_parameter(source,
                          "String/Friction",
                          "nan or inf at " + std::to_string(n_bad_g) +
                            " quadrature points",
                          "g must be a finite number >= 0 everywhere");
    if (!(min_speed > 0))
      throw_bad_parameter(source,
                          "String/Wave speed",
                          std::to_string(min_speed),
                          "c must be positive everywhere (this is its "
                          "smallest value at a quadrature point)");
    if (!(min_g >= 0))
      throw_bad_parameter(source,
                          "String/Friction",
                          std::to_string(min_g),
                          "g must be >= 0 everywhere (this is its smallest "
                          "nodal value)");

    // Dirichlet DoFs are prescribed: no friction there.
    {
      ConstLocalValues mask(dirichlet_mask);
      LocalValues      c(friction_system.friction_weights);
      for (std::size_t k = 0; k < c.size(); ++k)
        c[k] *= 1. - mask[k];
    }
  }



  template <int dim>
  void
  StringModel<dim>::interpolate_nodal(const Function<dim> &function,
                                      const double         t,
                                      DistributedVector &  values) const
  {
    auto &f = const_cast<Function<dim> &>(function);
    f.set_time(t);
    LocalValues out(values);
    for (std::size_t k = 0; k < owned_points.size(); ++k)
      out[k] = f.value(owned_points[k]);
  }



  template <int dim>
  void
  StringModel<dim>::complete_state(const double t, FrictionState &state) const
  {
    LocalValues x(state.displacement);
    LocalValues v(state.velocity);
    LocalValues l(state.multiplier);
    if (dirichlet_zero)
      {
        // The decoupled Dirichlet DoFs would oscillate on their own.
        for (const unsigned int k : dirichlet_local)
          x[k] = v[k] = l[k] = 0;
        return;
      }
    const double h = 1e-6 * std::max(1., std::abs(t));
    for (const unsigned int k : dirichlet_local)
      {
        dirichlet->set_time(t);
        x[k] = dirichlet->value(owned_points[k]);
        dirichlet->set_time(t + h);
        const double forward = dirichlet->value(owned_points[k]);
        dirichlet->set_time(t - h);
        v[k] = (forward - dirichlet->value(owned_points[k])) / (2 * h);
        l[k] = 0;
      }
  }



  template <int dim>
  const FrictionSystem &
  StringModel<dim>::system() const
  {
    return friction_system;
  }



  template <int dim>
  const ReferenceSolution *
  StringModel<dim>::exact_reference() const
  {
    return reference.get();
  }



  template <int dim>
  const DistributedVector *
  StringModel<dim>::error_weights() const
  {
    return &nodal_weights;
  }



  template <int dim>
  std::vector<std::string>
  StringModel<dim>::history_columns() const
  {
    return {"t",
            "kinetic_energy",
            "elastic_energy",
            "dissipated_energy",
            "stick_fraction",
            "iterations"};
  }



  template <int dim>
  std::vector<double>
  StringModel<dim>::history_row(const double         t,
                                const FrictionState &state,
                                const double         dissipated_energy,
                                const unsigned long  iterations,
                                const bool) const
  {
    full_mass.vmult(scratch, state.velocity);
    const double kinetic = 0.5 * (scratch * state.velocity);
    full_stiffness.vmult(scratch, state.displacement);
    const double elastic = 0.5 * (scratch * state.displacement);
    unsigned long    n_frictional = 0, n_stuck = 0;
    ConstLocalValues c(friction_system.friction_weights);
    ConstLocalValues stuck(state.stick);
    for (std::size_t k = 0; k < c.size(); ++k)
      if (c[k] > 0)
        {
          ++n_frictional;
          if (stuck[k] > 0)
            ++n_stuck;
        }
    n_frictional = Utilities::MPI::sum(n_frictional, comm);
    n_stuck      = Utilities::MPI::sum(n_stuck, comm);
    return {t,
            kinetic,
            elastic,
            dissipated_energy,
            n_frictional > 0 ? double(n_stuck) / n_frictional : 0.,
            double(iterations)};
  }



  template <int dim>
  bool
  StringModel<dim>::has_field_output() const
  {
    return true;
  }



  template <int dim>
  void
  StringModel<dim>::describe_unknown_locations(CheckpointArchive &archive) const
  {
    std::vector<double> coordinates;
    coordinates.reserve(owned_points.size() * dim);
    for (const Point<dim> &point : owned_points)
      for (unsigned int d = 0; d < dim; ++d)
        coordinates.push_back(point[d]);
    archive.set_entry_locations(dim, std::move(coordinates));
  }



  template <int dim>
  std::string
  StringModel<dim>::write_fields(const double         t,
                                 const FrictionState &state,
                                 const unsigned int   index,
                                 const FieldFiles &   files) const
  {
    const IndexSet &  owned = friction_system.locally_owned;
    DistributedVector stick(owned, comm);
    {
      ConstLocalValues c(friction_system.friction_weights);
      ConstLocalValues stuck(state.stick);
      LocalValues      s(stick);
      for (std::size_t k = 0; k < c.size(); ++k)
        s[k] = (c[k] > 0 && stuck[k] > 0) ? 1. : 0.;
    }
    const auto ghosted = [&](const DistributedVector &v) {
      DistributedVector result(owned, locally_relevant, comm);
      result = v;
      return result;
    };
    const DistributedVector x      = ghosted(state.displacement);
    const DistributedVector v      = ghosted(state.velocity);
    const DistributedVector lambda = ghosted(state.multiplier);
    const DistributedVector s      = ghosted(stick);

    DataOut<dim> data_out;
    data_out.attach_dof_handler(dof_handler);
    data_out.add_data_vector(x, "displacement");
    data_out.add_data_vector(v, "velocity");
    data_out.add_data_vector(lambda, "multiplier");
    data_out.add_data_vector(s, "stick");
    dealii::Vector<float> subdomain(triangulation->n_active_cells());
    for (auto &value : subdomain)
      value = triangulation->locally_owned_subdomain();
    data_out.add_data_vector(subdomain, "subdomain");
    data_out.build_patches(degree);
    DataOutBase::VtkFlags flags(t, index);
    flags.compression_level = DataOutBase::VtkFlags::best_speed;
    data_out.set_flags(flags);
    return files.write(index, data_out);
  }



  template <int dim>
  std::string
  StringModel<dim>::description() const
  {
    std::ostringstream out;
    out << (dim == 1 ? "string" : "membrane") << " model, dim = " << dim
        << ", FE_Q(" << degree << "), " << (lumped ? "lumped" : "consistent")
        << " mass, " << triangulation->n_global_active_cells() << " cells, "
        << dof_handler.n_dofs() << " unknowns, smallest cell diameter "
        << min_cell_diameter;
    return out.str();
  }



  template <int dim>
  types::global_dof_index
  StringModel<dim>::n_dofs() const
  {
    return dof_handler.n_dofs();
  }



  template class StringModel<1>;
  template class StringModel<2>;
} // namespace stickslip
