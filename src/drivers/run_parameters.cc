#include <base/selection.h>
#include <drivers/run_parameters.h>

namespace stickslip
{
  namespace Parameters
  {
    void
    Run::declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Model",
                        "ode",
                        Patterns::Selection("ode|gearbox|string|chain|slab|body"),
                        "The model: ode (finite-dof friction system written "
                        "in the parameter file, seeds 000/001), gearbox "
                        "(gear box efficiency problem, seed 000 (54)), string "
                        "(frictional wave string, dim 1, or membrane, dim 2; "
                        "seed 000 (23)), chain (masses, springs and "
                        "St-Venant elements, seed 004), slab (Renard's "
                        "elastic slab, seed 003), body (an elastic body in "
                        "frictional contact with a rigid foundation, 2D plane "
                        "strain or 3D: the slab as a finite-element model).");
      prm.declare_entry("Dimension",
                        "1",
                        Patterns::Integer(1, 3),
                        "Space dimension: 1 (string) or 2 (membrane) for "
                        "Model = string; 2 (plane strain) or 3 for Model = "
                        "body; the other models ignore it.");
      Numerics::declare_parameters(prm);
      Output::declare_parameters(prm);
    }



    void
    Run::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      model     = parse_selection<ModelKind>(prm.get("Model"),
                                         {{"ode", ModelKind::ode},
                                          {"gearbox", ModelKind::gearbox},
                                          {"string", ModelKind::string},
                                          {"chain", ModelKind::chain},
                                          {"slab", ModelKind::slab},
                                          {"body", ModelKind::body}},
                                         "Model");
      dimension = prm.get_integer("Dimension");
      if (model == ModelKind::string && dimension > 2)
        throw_bad_parameter(source,
                            "Dimension",
                            std::to_string(dimension),
                            "Model = string is the string (1) or the membrane (2)");
      if (model == ModelKind::body && dimension < 2)
        throw_bad_parameter(source,
                            "Dimension",
                            std::to_string(dimension),
                            "Model = body is 2 (plane strain) or 3 dimensional");
      Numerics::parse(prm, source);
      output.parse(prm, source);
    }
  } // namespace Parameters
} // namespace stickslip
