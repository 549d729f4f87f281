#include <base/output_parameters.h>

namespace stickslip
{
  namespace Parameters
  {
    bool
    Output::checkpoints_enabled() const
    {
      return checkpoint_interval > 0 || checkpoint_wall_interval > 0;
    }



    void
    Output::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Output");
      prm.declare_entry("Directory",
                        "output",
                        Patterns::Anything(),
                        "Directory of the run's outputs (created if "
                        "missing): parameters.prm, log.txt, history.csv, "
                        "errors.csv or refinement.csv of a study, "
                        "solution.pvd with the field files in solution/, "
                        "and the snapshots in checkpoints/. A lock file "
                        "(stickslip.lock) keeps a second run out while "
                        "this one lives.");
      prm.declare_entry("Interval",
                        "0",
                        Patterns::Double(0),
                        "Simulated time between rows of history.csv; 0 "
                        "writes every time step.");
      prm.declare_entry("Overwrite",
                        "false",
                        Patterns::Bool(),
                        "Allow writing into a directory that holds the "
                        "results of a previous run; they are removed first "
                        "(field files, tables, snapshots).");
      prm.declare_entry("Quiet",
                        "false",
                        Patterns::Bool(),
                        "Print only errors and the final summary (no "
                        "progress lines).");
      prm.declare_entry("Field output",
                        "true",
                        Patterns::Bool(),
                        "Write solution.pvd with the .pvtu/.vtu fields in "
                        "solution/ every Interval for the models that have "
                        "fields (string, membrane, chain, slab; false: "
                        "history only, e.g. for benchmarks).");
      prm.declare_entry("Progress interval",
                        "5",
                        Patterns::Double(0),
                        "Wall-clock seconds between progress lines.");
      prm.declare_entry("Checkpoint interval",
                        "0",
                        Patterns::Double(0),
                        "Simulated time between restart snapshots in "
                        "Directory/checkpoints (0: none). Resume with "
                        "stickslip FILE.prm --resume DIRECTORY. A control "
                        "search has no simulated time: any value > 0 "
                        "takes a snapshot of the search after every "
                        "iteration.");
      prm.declare_entry("Checkpoint wall interval",
                        "0",
                        Patterns::Double(0),
                        "Wall-clock seconds between restart snapshots (0: "
                        "none), e.g. a little less than a job's time limit "
                        "divided by a few; a control search takes its "
                        "snapshot at the next iteration boundary.");
      prm.leave_subsection();
    }



    void
    Output::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      prm.enter_subsection("Output");
      directory         = prm.get("Directory");
      interval          = prm.get_double("Interval");
      overwrite         = prm.get_bool("Overwrite");
      quiet             = prm.get_bool("Quiet");
      progress_interval = prm.get_double("Progress interval");
      field_output      = prm.get_bool("Field output");
      checkpoint_interval      = prm.get_double("Checkpoint interval");
      checkpoint_wall_interval = prm.get_double("Checkpoint wall interval");
      prm.leave_subsection();
      if (directory.find_first_not_of(" \t") == std::string::npos)
        throw_bad_parameter(source,
                            "Output/Directory",
                            directory,
                            "an output directory must be named");
    }
  } // namespace Parameters
} // namespace stickslip
