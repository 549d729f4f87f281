#include <base/parameter_documentation.h>
#include <base/parameter_file.h>
#include <drivers/body_study.h>
#include <drivers/friction_study.h>
#include <drivers/model_registry.h>
#include <drivers/slab_study.h>
#include <drivers/spring_slider_study.h>

#include <algorithm>
#include <map>
#include <set>
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
    Parameters::Run run;
    if (model.dimensions.empty())
      prm.explain_unread("Dimension",
                         "Model = " + model.name + " has no space dimension");
    else
      {
        const auto dimension = prm.get_integer("Dimension");
        if (std::find(model.dimensions.begin(),
                      model.dimensions.end(),
                      dimension) == model.dimensions.end())
          throw_bad_parameter(source,
                              "Dimension",
                              std::to_string(dimension),
                              "Model = " + model.name + " takes " +
                                model.dimensions_meaning);
        run.dimension = dimension;
      }
    const bool numerics = model.own_time_scheme.empty();
    if (!numerics)
      for (const std::string entry : {"Scheme", "Reference time step"})
        prm.explain_unread("Time/" + entry,
                           "Model = " + model.name + " " +
                             model.own_time_scheme);
    run.parse(prm, source, model.name, numerics);
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
    // subsection -> where it is first set
    std::map<std::string, ParameterSource::Place> unused;
    for (const auto &[path, places] : source.file_places())
      if (ignored(path) && source.command_line_paths().count(path) == 0)
        {
          const std::string name = path.substr(0, path.find('/'));
          if (unused.count(name) == 0 ||
              (unused[name].file == places.front().file &&
               unused[name].line > places.front().line))
            unused[name] = places.front();
        }
    for (const auto &[name, place] : unused)
      out << "warning: Model = " << model.name << " ignores subsection " << name
          << " (" << place.file << ", line " << place.line
          << "): its parameters have no effect on this run" << std::endl;
  }



  namespace
  {
    /** The default of the entry @p path ("Sub/Name") of @p declarations. */
    std::string
    default_value(const ParameterTree &declarations, const std::string &path)
    {
      const ParameterTree *node = &declarations;
      std::istringstream   parts(path);
      for (std::string part; std::getline(parts, part, '/');)
        {
          const auto child =
            std::find_if(node->begin(), node->end(), [&](const auto &c) {
              return demangle_json_name(c.first) == part;
            });
          if (child == node->end())
            return "";
          node = &child->second;
        }
      return node->get<std::string>("default_value", "");
    }



    /** The value @p prm holds for @p path ("Sub/Name"), not read for use. */
    std::string
    value_of(const dealii::ParameterHandler &prm, const std::string &path)
    {
      std::vector<std::string> subsections;
      std::istringstream       parts(path);
      for (std::string part; std::getline(parts, part, '/');)
        subsections.push_back(part);
      const std::string name = subsections.back();
      subsections.pop_back();
      return prm.get(subsections, name);
    }
  } // namespace



  std::map<std::string, std::string>
  unused_entries(const ModelEntry       &model,
                 const ParameterHandler &prm,
                 const ParameterSource  &source,
                 const ParameterTree    &declarations)
  {
    const std::vector<std::string> read        = subsections_read(model);
    std::set<std::string>          set_by_user = source.command_line_paths();
    for (const auto &entry : source.file_places())
      set_by_user.insert(entry.first);
    std::map<std::string, std::string> unused;
    for (const auto &path : set_by_user)
      {
        const auto slash = path.find('/');
        // A subsection the model does not read at all has its own warning
        // (check_subsections_used()); Model is what chose the model.
        if (path == "Model" ||
            (slash != std::string::npos &&
             std::find(read.begin(), read.end(), path.substr(0, slash)) ==
               read.end()) ||
            prm.entries_read().count(path) > 0 ||
            // set to its default (a template, a rerun of parameters.prm):
            // it does what leaving it unset does
            value_of(prm, path) == default_value(declarations, path))
          continue;
        const std::string reason = prm.unread_reason(path);
        unused[path]             = reason.empty() ?
                                     "Model = " + model.name + " does not read it" :
                                     reason;
      }
    return unused;
  }



  void
  warn_unused_entries(const std::map<std::string, std::string> &unused,
                      const ParameterSource                    &source,
                      const ConditionalOStream                 &out)
  {
    for (const auto &[path, reason] : unused)
      out << "warning: '" << path << "'" << source.where(path)
          << " has no effect on this run: " << reason << std::endl;
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
      if (!model.own_time_scheme.empty())
        listing.omitted_entries.insert(
          {"Time/Scheme", "Time/Reference time step"});
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
  used_parameters(const ModelEntry                         &model,
                  const dealii::ParameterHandler           &prm,
                  const ParameterTree                      &declarations,
                  const std::map<std::string, std::string> &unused)
  {
    ParameterListing listing = listing_of(model);
    listing.unused_entries   = unused;
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
    // One column for the descriptions, after the longest name.
    std::size_t width = 0;
    for (const auto &model : registered_models())
      width = std::max(width, model.name.size() + 2);
    std::string list = "models (set Model = NAME):\n";
    for (const auto &model : registered_models())
      list += "  " + model.name + std::string(width - model.name.size(), ' ') +
              model.description + "\n";
    return list;
  }
} // namespace stickslip
