#include <drivers/run_parameters.h>

namespace stickslip
{
  namespace Parameters
  {
    void
    Run::declare_parameters(ParameterHandler &prm)
    {
      Numerics::declare_parameters(prm);
      Output::declare_parameters(prm);
    }



    void
    Run::parse(ParameterHandler      &prm,
               const ParameterSource &source,
               const std::string     &model_name)
    {
      model     = model_name;
      dimension = prm.get_integer("Dimension");
      Numerics::parse(prm, source);
      output.parse(prm, source);
    }
  } // namespace Parameters
} // namespace stickslip
