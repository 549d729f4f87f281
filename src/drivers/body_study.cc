#include <base/expressions.h>
#include <drivers/body_study.h>
#include <models/body/body_evolution.h>

#include <cmath>

namespace stickslip
{
  namespace
  {
    /** The evolution of dimension dim, and its stability facts. */
    template <int dim>
    std::unique_ptr<Body::BodyEvolution<dim>>
    make_evolution(const Parameters::Run      &parameters,
                   const Body::BodyParameters &body,
                   const ParameterSource      &source,
                   const MPI_Comm              comm)
    {
      return std::make_unique<Body::BodyEvolution<dim>>(body,
                                                        parameters.time,
                                                        source,
                                                        comm);
    }
  } // namespace



  BodyStudy::BodyStudy(const Parameters::Run      &parameters,
                       const Body::BodyParameters &body,
                       const ParameterSource      &source,
                       const MPI_Comm              comm,
                       const ConditionalOStream   &pcout,
                       TimerOutput                &timer)
    : parameters(parameters)
    , has_contact(body.contact.enabled)
    , writes_contact_nodes(body.contact.enabled && body.solves_implicitly())
    , pcout(pcout)
    , timer(timer)
    , grid(parameters.time.grid(parameters.time.time_step, source))
  {
    if (!parameters.time.convergence_time_steps.empty())
      throw_bad_parameter(
        source,
        "Time/Convergence time steps",
        [&]() {
          std::string text;
          for (const double dt : parameters.time.convergence_time_steps)
            text += (text.empty() ? "" : ", ") + format_number(dt);
          return text;
        }(),
        "Model = body runs one time step (refinement "
        "studies are scripts that run it several times, "
        "see tests/body/)");
    double stable_step = 0, smallest_cell = 0;
    if (body.dimension == 2)
      {
        auto evolution_2d = make_evolution<2>(parameters, body, source, comm);
        stable_step       = evolution_2d->stable_time_step();
        smallest_cell = evolution_2d->discretization().smallest_cell_diameter();
        evolution     = std::move(evolution_2d);
      }
    else
      {
        auto evolution_3d = make_evolution<3>(parameters, body, source, comm);
        stable_step       = evolution_3d->stable_time_step();
        smallest_cell = evolution_3d->discretization().smallest_cell_diameter();
        evolution     = std::move(evolution_3d);
      }
    check_time_step(stable_step, smallest_cell, body, source);
  }



  void
  BodyStudy::check_time_step(const double                stable_step,
                             const double                smallest_cell,
                             const Body::BodyParameters &body,
                             const ParameterSource      &source) const
  {
    // The mesh's cells were checked when it was read (a distorted cell is
    // named there): what is left is the size of the numbers.
    const double wave_speed = body.c2();
    if (!(stable_step > 0) || !std::isfinite(stable_step))
      throw_bad_parameter(
        source,
        "Body/Density",
        format_number(body.density),
        "the stability bound of the explicit scheme is " +
          format_number(stable_step) +
          " s, not a positive finite number, for these data: the element "
          "mass and stiffness matrices under- or overflow (Body/Lame lambda "
          "= " +
          format_number(body.lambda) +
          ", Body/Shear modulus = " + format_number(body.shear_modulus) +
          [&]() {
            std::string size;
            for (const double length : body.size)
              size += (size.empty() ? "" : ", ") + format_number(length);
            return body.mesh == Body::MeshKind::block ?
                     ", Body/Size = " + size :
                     std::string();
          }() +
          ", the smallest cell diameter " + format_number(smallest_cell) +
          " m; give them in SI units, of sizes that a double holds)");
    // The implicit and quasi-static schemes (Body/Time scheme) take any
    // step.
    if (grid.dt <= stable_step || body.solves_implicitly())
      return;
    throw_bad_parameter(
      source,
      "Time/Time step",
      format_number(grid.dt),
      "the explicit scheme is stable for dt <= 2/sqrt(lambda_max(M^-1 K)) = " +
        format_number(stable_step) +
        " s on this mesh (element bound; that is " +
        format_number(stable_step * wave_speed / smallest_cell) +
        " h_min/c2 with h_min = " + format_number(smallest_cell) +
        " m, c2 = " + format_number(wave_speed) +
        " m/s). Choose dt = (T - t0)/N at or below it");
  }



  void
  BodyStudy::run(RunDirectory &directory, const bool resume)
  {
    if (!resume)
      directory.start_fresh();
    pcout << "stickslip: " << evolution->description() << '\n'
          << "  output: " << directory.file("") << std::endl;
    RunLoop loop(directory, parameters.output, pcout, timer);
    loop.run(*evolution, grid, nullptr, resume);
    // Every file of the results (doc/outputs.md), the contact surface's
    // first: a fault's or a contact's user opens those.
    const bool        fields = parameters.output.field_output;
    const std::string extension =
      parameters.output.hdf5_fields ? ".xdmf" : ".pvd";
    pcout << "  wrote " << directory.file("history.csv")
          << (fields && has_contact ? ", contact" + extension : "")
          << (writes_contact_nodes ? ", contact_nodes.csv" : "")
          << (fields ? ", solution" + extension : "") << std::endl;
  }



  ModelEntry
  body_model()
  {
    ModelEntry entry;
    entry.name               = "body";
    entry.description        = "an elastic body, 2D plane strain or 3D, in "
                               "frictional contact with a rigid plane or its mirror "
                               "image; explicit, implicit or quasi-static";
    entry.dimensions         = {2, 3};
    entry.dimensions_meaning = "2 (plane strain) or 3";
    entry.declare_parameters = &Body::BodyParameters::declare_parameters;
    entry.subsections        = {"Body"};
    entry.own_time_scheme    = "integrates in time by Body/Time scheme";
    entry.hdf5_fields        = true;
    entry.make_study         = [](const ModelEntry::StudyInputs &in) {
      Body::BodyParameters body;
      body.parse(in.prm, in.source, in.parameters.dimension);
      body.adaptive.check_depth(in.parameters.time.time_step, in.source);
      in.pcout << in.parameters.output.check_intervals(
        in.parameters.time.time_step, "Time/Time step", true, in.source);
      return std::unique_ptr<Study>(std::make_unique<BodyStudy>(
        in.parameters, body, in.source, in.comm, in.pcout, in.timer));
    };
    return entry;
  }
} // namespace stickslip
