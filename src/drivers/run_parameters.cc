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
               const std::string     &model_name,
               const bool             friction_system_numerics)
    {
      model = model_name;
      if (friction_system_numerics)
        Numerics::parse(prm, source);
      else
        time.parse(prm, source);
      output.parse(prm, source);
    }
  } // namespace Parameters
} // namespace stickslip
