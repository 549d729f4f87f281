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
      // Hdf5FieldWriter serves the body's nodal fields; the other models
      // write theirs through DataOut.
      if (output.hdf5_fields && model != "body")
        throw_bad_parameter(source,
                            "Output/Field format",
                            "hdf5",
                            "only Model = body writes its fields as HDF5; "
                            "Model = " +
                              model + " writes vtu");
    }
  } // namespace Parameters
} // namespace stickslip
