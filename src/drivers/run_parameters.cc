#include <base/selection.h>
#include <drivers/run_parameters.h>

#include <algorithm>
#include <array>
#include <map>

namespace stickslip
{
  namespace Parameters
  {
    namespace
    {
      /** The selection table of the entry Model. */
      std::vector<std::pair<std::string, ModelKind>>
      model_names()
      {
        return {{"ode", ModelKind::ode},
                {"gearbox", ModelKind::gearbox},
                {"string", ModelKind::string},
                {"chain", ModelKind::chain},
                {"slab", ModelKind::slab},
                {"body", ModelKind::body},
                {"spring-slider", ModelKind::spring_slider}};
      }



      std::string
      model_name(const ModelKind model)
      {
        for (const auto &[name, kind] : model_names())
          if (kind == model)
            return name;
        return "";
      }
    } // namespace



    void
    Run::declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry(
        "Model",
        "ode",
        Patterns::Selection("ode|gearbox|string|chain|slab|body|spring-slider"),
        "The model: ode (finite-dof friction system written "
        "in the parameter file, Glowinski et al. 2006, 2005), gearbox "
        "(gear box efficiency problem, Glowinski et al. 2006, eq. (54)), string "
        "(frictional wave string, dim 1, or membrane, dim 2; "
        "Glowinski et al. 2006, eq. (23)), chain (masses, springs and "
        "St-Venant elements, Bastien & Lamarque 2009), slab (Renard's "
        "elastic slab, Renard 2001), body (an elastic body in "
        "frictional contact with a rigid foundation, 2D plane "
        "strain or 3D: the slab as a finite-element model), spring-slider "
        "(a block pulled through a spring over a surface with a friction "
        "law with a state, doc/theory.md §8.5).");
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
      model =
        parse_selection<ModelKind>(prm.get("Model"), model_names(), "Model");
      dimension = prm.get_integer("Dimension");
      if (model == ModelKind::string && dimension > 2)
        throw_bad_parameter(
          source,
          "Dimension",
          std::to_string(dimension),
          "Model = string is the string (1) or the membrane (2)");
      if (model == ModelKind::body && dimension < 2)
        throw_bad_parameter(
          source,
          "Dimension",
          std::to_string(dimension),
          "Model = body is 2 (plane strain) or 3 dimensional");
      Numerics::parse(prm, source);
      output.parse(prm, source);
    }



    void
    Run::apply_model_defaults(ParameterHandler      &prm,
                              const ParameterSource &source)
    {
      if (prm.get("Model") != "string")
        return;
      prm.enter_subsection("String");
      const bool lumped = prm.get("Mass") == "lumped";
      prm.leave_subsection();
      if (!lumped)
        return;
      // A diagonal mass matrix makes the explicit elastic step (alpha = 0)
      // and the closed-form friction step exact and cheapest: what every
      // lumped string and membrane example uses (prm/string.prm).
      const std::vector<std::array<std::string, 3>> defaults = {
        {"Splitting", "Friction substeps", "1"},
        {"Splitting", "Elastic substeps", "1"},
        {"Splitting", "Elastic implicitness", "0"},
        {"Friction", "Solver", "closed form"}};
      for (const auto &[subsection, name, value] : defaults)
        if (!source.is_set(subsection + "/" + name))
          {
            prm.enter_subsection(subsection);
            prm.set(name, value);
            prm.leave_subsection();
          }
    }



    std::vector<std::string>
    Run::subsections_read() const
    {
      // What each model's parse() and its time integrators read; the slab
      // and the body bring their own time stepping and friction laws.
      const std::vector<std::string> numerics = {"Splitting",
                                                 "Friction",
                                                 "Centered scheme",
                                                 "Linear solver"};
      std::vector<std::string>       read     = {"Time", "Output"};
      const auto add = [&read](const std::vector<std::string> &names) {
        read.insert(read.end(), names.begin(), names.end());
      };
      switch (model)
        {
          case ModelKind::ode:
            add({"ODE", "Control"});
            add(numerics);
            break;
          case ModelKind::gearbox:
            add({"Gear box", "Control"});
            add(numerics);
            break;
          case ModelKind::string:
            add({"String"});
            add(numerics);
            break;
          case ModelKind::chain:
            add({"Chain"});
            add(numerics);
            break;
          case ModelKind::slab:
            add({"Slab"});
            break;
          case ModelKind::body:
            add({"Body"});
            break;
          case ModelKind::spring_slider:
            add({"Spring slider"});
            break;
        }
      return read;
    }



    void
    Run::check_subsections_used(const ParameterSource    &source,
                                const ConditionalOStream &out) const
    {
      const std::vector<std::string> read = subsections_read();
      std::string                    list;
      for (const auto &name : read)
        list += (list.empty() ? "" : ", ") + name;
      const auto ignored = [&read](const std::string &path) {
        const auto slash = path.find('/');
        return slash != std::string::npos &&
               std::find(read.begin(), read.end(), path.substr(0, slash)) ==
                 read.end();
      };
      const std::string model_text = model_name(model);
      for (const auto &path : source.command_line_paths())
        if (ignored(path))
          throw InputError("--set \"" + path + "=...\": Model = " + model_text +
                           " does not read subsection " +
                           path.substr(0, path.find('/')) + " (it reads " +
                           list + ")");
      std::map<std::string, unsigned int> unused; // subsection -> first line
      for (const auto &[path, line] : source.file_lines())
        if (ignored(path) && source.command_line_paths().count(path) == 0)
          {
            const std::string name = path.substr(0, path.find('/'));
            if (unused.count(name) == 0 || unused[name] > line)
              unused[name] = line;
          }
      for (const auto &[name, line] : unused)
        out << "warning: Model = " << model_text << " ignores subsection "
            << name << " (" << source.file_name() << ", line " << line
            << "): its parameters have no effect on this run" << std::endl;
    }
  } // namespace Parameters
} // namespace stickslip
