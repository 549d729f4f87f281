#include <base/parameter_documentation.h>
#include <base/parameter_file.h>
#include <drivers/body_study.h>
#include <drivers/friction_study.h>
#include <drivers/model_registry.h>
#include <drivers/slab_study.h>
#include <drivers/spring_slider_study.h>

#include <algorithm>
#include <map>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** "a, b, c" */
    std::string
    join_names(const std::vector<std::string> &names)
    {
      std::string list;
      for (const auto &name : names)
        list += (list.empty() ? "" : ", ") + name;
      return list;
    }
  } // namespace



  const std::vector<ModelEntry> &
  registered_models()
  {
    // One line per model, in the order of Model's selection; the entries
    // are made beside each model's study.
    static const std::vector<ModelEntry> models = {ode_model(),
                                                   gearbox_model(),
                                                   string_model(),
                                                   chain_model(),
                                                   slab_model(),
                                                   body_model(),
                                                   spring_slider_model()};
    return models;
  }



  const ModelEntry &
  registered_model(const std::string &name)
  {
    std::vector<std::string> names;
    for (const auto &model : registered_models())
      {
        if (model.name == name)
          return model;
        names.push_back(model.name);
      }
    throw InputError("--model " + printable_excerpt(name) +
                     ": there is no such model (the models are " +
                     join_names(names) + ")" + did_you_mean(name, names));
  }



  const ModelEntry &
  chosen_model(const ParameterHandler &prm)
  {
    // The file and --set were checked against the selection of Model.
    return registered_model(prm.get("Model"));
  }



  Parameters::Run
  parse_run_parameters(const ModelEntry      &model,
                       ParameterHandler      &prm,
                       const ParameterSource &source)
  {
    const auto dimension = prm.get_integer("Dimension");
    if (!model.dimensions.empty() &&
        std::find(model.dimensions.begin(),
                  model.dimensions.end(),
                  dimension) == model.dimensions.end())
      throw_bad_parameter(source,
                          "Dimension",
                          std::to_string(dimension),
                          "Model = " + model.name + " takes " +
                            model.dimensions_meaning);
    Parameters::Run run;
    run.parse(prm, source, model.name);
    if (run.output.hdf5_fields && !model.hdf5_fields)
      throw_bad_parameter(source,
                          "Output/Field format",
                          "hdf5",
                          "only Model = body writes its fields as HDF5; "
                          "Model = " +
                            model.name + " writes vtu");
    return run;
  }



  void
  declare_model_parameters(ParameterHandler &prm)
  {
    std::string names, help, dimensions;
    for (const auto &model : registered_models())
      {
        names += (names.empty() ? "" : "|") + model.name;
        help += (help.empty() ? "" : ", ") + model.name + " (" +
                model.description + ")";
        if (!model.dimensions.empty())
          dimensions +=
            model.dimensions_meaning + " for Model = " + model.name + "; ";
      }
    prm.declare_entry("Model",
                      registered_models().front().name,
                      Patterns::Selection(names),
                      "The model: " + help + ".");
    prm.declare_entry("Dimension",
                      "1",
                      Patterns::Integer(1, 3),
                      "Space dimension: " + dimensions +
                        "the other models ignore it.");
    Parameters::Run::declare_parameters(prm);
    for (const auto &model : registered_models())
      model.declare_parameters(prm);
  }



  std::vector<std::string>
  subsections_read(const ModelEntry &model)
  {
    std::vector<std::string> read = {"Time", "Output"};
    read.insert(read.end(), model.subsections.begin(), model.subsections.end());
    return read;
  }



  void
  check_subsections_used(const ModelEntry         &model,
                         const ParameterSource    &source,
                         const ConditionalOStream &out)
  {
    const std::vector<std::string> read    = subsections_read(model);
    const std::string              list    = join_names(read);
    const auto                     ignored = [&read](const std::string &path) {
      const auto slash = path.find('/');
      return slash != std::string::npos &&
             std::find(read.begin(), read.end(), path.substr(0, slash)) ==
               read.end();
    };
    for (const auto &path : source.command_line_paths())
      if (ignored(path))
        throw InputError("--set \"" + path + "=...\": Model = " + model.name +
                         " does not read subsection " +
                         path.substr(0, path.find('/')) + " (it reads " + list +
                         ")");
    std::map<std::string, unsigned int> unused; // subsection -> first line
    for (const auto &[path, line] : source.file_lines())
      if (ignored(path) && source.command_line_paths().count(path) == 0)
        {
          const std::string name = path.substr(0, path.find('/'));
          if (unused.count(name) == 0 || unused[name] > line)
            unused[name] = line;
        }
    for (const auto &[name, line] : unused)
      out << "warning: Model = " << model.name << " ignores subsection " << name
          << " (" << source.file_name() << ", line " << line
          << "): its parameters have no effect on this run" << std::endl;
  }



  namespace
  {
    /** The parameters a run of @p model reads, with their values. */
    ParameterListing
    listing_of(const ModelEntry &model)
    {
      ParameterListing listing;
      listing.subsections = subsections_read(model);
      if (model.dimensions.empty())
        listing.omitted_entries.insert("Dimension");
      listing.values = true;
      return listing;
    }



    /** @p text as comment lines of at most 76 characters. */
    std::string
    comment(const std::string &text)
    {
      std::istringstream words(text);
      std::string        out, line;
      for (std::string word; words >> word;)
        {
          if (!line.empty() && line.size() + 1 + word.size() > 74)
            {
              out += "# " + line + "\n";
              line.clear();
            }
          line += (line.empty() ? "" : " ") + word;
        }
      return out + (line.empty() ? "" : "# " + line + "\n");
    }



    /** The header of the template of @p model in @p format. */
    std::string
    template_header(const ModelEntry &model, const std::string &format)
    {
      const std::string command = "stickslip --print-parameters " +
                                  (format.empty() ? "" : format + " ") +
                                  "--model " + model.name;
      const std::string chosen = join_names(model.chosen_entries);
      const std::string what =
        "Every parameter a run of Model = " + model.name +
        " reads, with its meaning and allowed values, set to its default: "
        "it runs what a file setting only Model runs. " +
        (chosen.empty() ?
           std::string() :
           "Left unset, because the model chooses them: " + chosen + " (" +
             model.chosen_how + "); set one to choose it yourself.");
      if (format == "markdown")
        return "# stickslip parameters of Model = " + model.name +
               "\n\nWritten by `" + command + "`. " + what + "\n";
      return comment("A parameter file for Model = " + model.name +
                     ", written by " + command + ". " + what) +
             "\n";
    }
  } // namespace



  std::string
  used_parameters(const ModelEntry       &model,
                  const ParameterHandler &prm,
                  const ParameterTree    &declarations)
  {
    ParameterListing listing = listing_of(model);
    listing.header =
      comment("Every parameter this run of Model = " + model.name +
              " read, as it used it: a parameter file that runs it again.") +
      "\n";
    std::ostringstream out;
    print_parameter_listing(declarations, prm, out, "", listing);
    return out.str();
  }



  void
  print_parameters(ParameterHandler  &prm,
                   const std::string &format,
                   const std::string &model_name,
                   std::ostream      &out)
  {
    if (model_name.empty())
      {
        // The reference: every parameter at its default; as a file, with
        // the entries a model chooses left unset (a file made from it
        // with another Model runs what that model's minimal file runs).
        ParameterListing reference;
        std::string      chosen;
        for (const auto &model : registered_models())
          if (!model.chosen_entries.empty() && format.empty())
            {
              reference.unset_entries.insert(model.chosen_entries.begin(),
                                             model.chosen_entries.end());
              chosen += " Model = " + model.name + " chooses " +
                        join_names(model.chosen_entries) + " (" +
                        model.chosen_how + ").";
            }
        reference.header =
          format == "markdown" ?
            "# stickslip parameters\n\nGenerated by `stickslip "
            "--print-parameters markdown` (a test checks that this file is "
            "current). Paths are `Subsection/Name`, as `--set` takes them.\n" :
            comment("Every parameter of stickslip: its meaning, its allowed "
                    "values and its default. A file to start from, with the "
                    "parameters of one model only: stickslip "
                    "--print-parameters --model NAME. Left unset below: the "
                    "entries a model chooses where a file does not set "
                    "them." +
                    chosen) +
              "\n";
        print_parameter_listing(
          declarations_of(prm), prm, out, format, reference);
        return;
      }
    const ModelEntry &model = registered_model(model_name);
    prm.set("Model", model.name);
    if (!model.dimensions.empty())
      prm.set("Dimension", std::to_string(model.dimensions.front()));
    if (model.apply_defaults)
      model.apply_defaults(prm, ParameterSource());
    ParameterListing listing = listing_of(model);
    listing.unset_entries.insert(model.chosen_entries.begin(),
                                 model.chosen_entries.end());
    listing.header = template_header(model, format);
    print_parameter_listing(declarations_of(prm), prm, out, format, listing);
  }



  std::string
  model_list()
  {
    std::string list = "models (set Model = NAME):\n";
    for (const auto &model : registered_models())
      list += "  " + model.name +
              std::string(std::max<std::size_t>(9, model.name.size() + 1) -
                            model.name.size(),
                          ' ') +
              model.description + "\n";
    return list;
  }
} // namespace stickslip
