#ifndef stickslip_drivers_model_registry_h
#define stickslip_drivers_model_registry_h

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/timer.h>

#include <base/global.h>
#include <base/input_error.h>
#include <base/parameter_documentation.h>
#include <base/tracked_parameter_handler.h>
#include <drivers/run_parameters.h>
#include <drivers/study.h>
#include <models/common/model.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * Everything stickslip knows of one model (a value of the entry Model),
   * in the manner of ASPECT's plugin registration: its name and one-line
   * description, the dimensions it takes, the parameters it declares and
   * the subsections it reads, the defaults it chooses itself, and the
   * factory of its Study. The list of them is registered_models(); nothing
   * else in stickslip names a model.
   */
  struct ModelEntry
  {
    /** What a model's study is made from. */
    struct StudyInputs
    {
      /** The run's parameters, parsed. */
      const Parameters::Run &parameters;
      /** The handler, for the model's own subsection. */
      ParameterHandler         &prm;
      const ParameterSource    &source;
      const MPI_Comm            comm;
      const ConditionalOStream &pcout;
      TimerOutput              &timer;
    };

    /** The study of a run of the model, every input checked (collective). */
    using StudyFactory =
      std::function<std::unique_ptr<Study>(const StudyInputs &)>;

    /** A friction-system model (a Model) on a communicator. */
    using ModelFactory =
      std::function<std::unique_ptr<Model>(const Parameters::Run &,
                                           ParameterHandler &,
                                           const ParameterSource &,
                                           const MPI_Comm)>;

    /** The value of the entry Model. */
    std::string name;
    /** One line: what the model is, with its paper (Model's help text). */
    std::string description;
    /** The values Dimension may take; empty: the model ignores it. */
    std::vector<unsigned int> dimensions;
    /** What the dimensions mean ("the string (1) or the membrane (2)"). */
    std::string dimensions_meaning;
    /**
     * How the model integrates in time if it does not use the schemes of
     * the friction systems (Time/Scheme, Time/Reference time step and the
     * subsections Splitting, Friction, Centered scheme, Linear solver),
     * completing "Model = NAME ..." ("integrates by Body/Time scheme");
     * empty for the friction-system models, which read them.
     */
    std::string own_time_scheme;
    /** Declares the model's own subsection. */
    std::function<void(ParameterHandler &)> declare_parameters;
    /** The subsections a run reads besides Time and Output. */
    std::vector<std::string> subsections;
    /**
     * The entries ("Sub/Name") whose default the model chooses where the
     * user does not set them, what apply_defaults() sets, and the sentence
     * that says how (a template leaves them unset).
     */
    std::vector<std::string> chosen_entries;
    std::string              chosen_how;
    /** Set the entries of chosen_entries that the source does not set. */
    std::function<void(ParameterHandler &, const ParameterSource &)>
      apply_defaults;
    /** The factory of the model's study. */
    StudyFactory make_study;
    /**
     * A model whose Control subsection it reads (Glowinski & Kearsley
     * 1995): the factory of its friction system, one per group of a
     * search; empty for the other models.
     */
    ModelFactory make_controlled_model;
    /**
     * Whether the model writes its fields with Output/Field format = hdf5
     * (Hdf5FieldWriter); for the others that value is a bad parameter.
     */
    bool hdf5_fields = false;
  };



  /**
   * The one list of the models, in the order of Model's selection: one
   * line per model in model_registry.cc, no static registration (a static
   * library would drop the objects nothing refers to).
   */
  const std::vector<ModelEntry> &
  registered_models();

  /**
   * The model of @p name (--print-parameters --model NAME): an InputError
   * naming the models, with a "did you mean", if there is none.
   */
  const ModelEntry &
  registered_model(const std::string &name);

  /** The model the parameters choose: the one reader of the entry Model. */
  const ModelEntry &
  chosen_model(const ParameterHandler &prm);

  /**
   * The run's parameters for @p model, Dimension checked against the
   * model's dimensions (InputError naming them).
   */
  Parameters::Run
  parse_run_parameters(const ModelEntry      &model,
                       ParameterHandler      &prm,
                       const ParameterSource &source);

  /**
   * Declare Model and Dimension (from the list), Parameters::Run's
   * subsections and every model's own.
   */
  void
  declare_model_parameters(ParameterHandler &prm);

  /** Every subsection a run of @p model reads: Time, Output and its own. */
  std::vector<std::string>
  subsections_read(const ModelEntry &model);

  /**
   * Refuse a --set in a subsection @p model does not read, and warn on
   * @p out about the file's subsections it ignores.
   */
  void
  check_subsections_used(const ModelEntry         &model,
                         const ParameterSource    &source,
                         const ConditionalOStream &out);

  /**
   * The entries the user set (parameter file, include, --set) to other
   * than their default in the subsections @p model reads that the run did
   * not read, each with the reason (ParameterHandler::unread_reason(),
   * else "Model = NAME does not read it"). Called once the study is made:
   * every parse function has read what the run uses. @p declarations:
   * those of @p prm (DeclaredNames::declarations()), for the defaults.
   */
  std::map<std::string, std::string>
  unused_entries(const ModelEntry       &model,
                 const ParameterHandler &prm,
                 const ParameterSource  &source,
                 const ParameterTree    &declarations);

  /**
   * A warning on @p out for each of @p unused (unused_entries()), naming
   * the entry, where it was set and why it has no effect.
   */
  void
  warn_unused_entries(const std::map<std::string, std::string> &unused,
                      const ParameterSource                    &source,
                      const ConditionalOStream                 &out);

  /**
   * The parameters a run of @p model reads, as @p prm holds them: its
   * parameters.prm, which reruns it, and what --resume compares.
   * @p declarations: those of @p prm (DeclaredNames::declarations());
   * @p unused: the entries set but not used (unused_entries()), each
   * marked "# not used by this run: WHY".
   */
  std::string
  used_parameters(const ModelEntry                         &model,
                  const dealii::ParameterHandler           &prm,
                  const ParameterTree                      &declarations,
                  const std::map<std::string, std::string> &unused = {});

  /**
   * What --print-parameters [FORMAT] [--model NAME] writes (@p format: ""
   * for a parameter file, "markdown" or "json"): without a model, every
   * parameter with its default and documentation (doc/parameters.md); with
   * @p model_name, a template of that model, which runs what a file setting
   * only Model (and Dimension) runs: the subsections it reads, with Model
   * and its first dimension set and the entries the model chooses left
   * unset (commented out). @p prm: every parameter declared.
   */
  void
  print_parameters(ParameterHandler  &prm,
                   const std::string &format,
                   const std::string &model_name,
                   std::ostream      &out);

  /** "Models (Model = ...):" and a line per model, for --help. */
  std::string
  model_list();
} // namespace stickslip

#endif
