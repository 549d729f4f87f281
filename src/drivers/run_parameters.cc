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
                        Patterns::Selection("ode|gearbox|string|chain|slab"),
                        "The model: ode (finite-dof friction system written "
                        "in the parameter file, seeds 000/001), gearbox "
                        "(gear box efficiency problem, seed 000 (54)), string "
                        "(frictional wave string, dim 1, or membrane, dim 2; "
                        "seed 000 (23)), chain (masses, springs and "
                        "St-Venant elements, seed 004), slab (Renard's "
                        "elastic slab, seed 003).");
      prm.declare_entry("Dimension",
                        "1",
                        Patterns::Integer(1, 2),
                        "Space dimension of the string model: 1 (string) or "
                        "2 (membrane).");
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
                                          {"slab", ModelKind::slab}},
                                         "Model");
      dimension = prm.get_integer("Dimension");
      Numerics::parse(prm, source);
      output.parse(prm, source);
    }
  } // namespace Parameters
} // namespace stickslip
