#include <base/expressions.h>
#include <base/output_parameters.h>

#include <cmath>

namespace stickslip
{
  namespace Parameters
  {
    namespace
    {
      /** "auto" or a number >= 0 (Output/Interval). */
      class AutoOrNonNegative : public Patterns::PatternBase
      {
      public:
        bool
        match(const std::string &text) const override
        {
          return text == "auto" || Patterns::Double(0).match(text);
        }

        std::string
        description(const OutputStyle) const override
        {
          return "[auto or a number >= 0]";
        }

        std::unique_ptr<PatternBase>
        clone() const override
        {
          return std::make_unique<AutoOrNonNegative>();
        }
      };



      /** Output/Field format and Field precision. */
      void
      declare_field_format(ParameterHandler &prm)
      {
        prm.declare_entry(
          "Field format",
          "vtu",
          Patterns::Selection("vtu|hdf5"),
          "The format of the volume fields (solution/). vtu: deal.II's VTU "
          "pieces (one per rank) and PVTU record per output, listed in "
          "solution.pvd. hdf5 (Model = body only; any other model stops "
          "with an error): the nodal values themselves, displacement and "
          "velocity, and the stress and von Mises as cell data, one file "
          "solution/solution_KKKKK.h5 per "
          "output written by all ranks at once (collective MPI-IO on several "
          "ranks), the mesh "
          "once in solution/solution_mesh.h5, listed in solution.xdmf (open "
          "it in ParaView with the XDMF3 reader); 40-250 times faster than "
          "vtu at 10^6 unknowns (BENCHMARKS.md, Field output). The contact "
          "surface follows: contact.xdmf, its outputs in one series file "
          "solution/contact_from_KKKKK.h5 for many of them (doc/outputs.md). "
          "No compression: the files are "
          "written uncompressed (parallel HDF5's collective compression was "
          "not measured).");
        prm.declare_entry("Field precision",
                          "double",
                          Patterns::Selection("double|single"),
                          "Field format = hdf5: the values written as 64-bit "
                          "(double) or 32-bit (single, half the bytes; what "
                          "ParaView shows) floating point numbers. The mesh "
                          "is written in double precision. VTU files are "
                          "written as deal.II writes them, whatever this "
                          "says.");
      }
    } // namespace



    double
    Output::interval_for(const double dt, const unsigned int n_steps) const
    {
      if (!interval_auto)
        return interval;
      const double steps = std::max(1.0, std::round(n_steps / 100.0));
      return steps == 1 ? 0 : steps * dt;
    }



    unsigned int
    Output::rows_per_output(const std::string &series) const
    {
      if (series == "solution")
        return field_output_every;
      AssertThrow(series == "contact",
                  ExcMessage("the field series '" + series +
                             "' has no Output/... output every entry "
                             "(Parameters::Output::rows_per_output())"));
      return contact_output_every;
    }



    bool
    Output::checkpoints_enabled() const
    {
      return checkpoint_interval > 0 || checkpoint_wall_interval > 0;
    }



    std::string
    Output::check_intervals(const double           dt,
                            const std::string     &dt_path,
                            const bool             checkpoints,
                            const ParameterSource &source) const
    {
      std::vector<std::pair<std::string, double>> intervals = {
        {"Output/Interval", interval}};
      if (checkpoints)
        intervals.emplace_back("Output/Checkpoint interval",
                               checkpoint_interval);
      std::string warnings;
      for (const auto &[path, value] : intervals)
        {
          if (!(value > 0))
            continue;
          const double ratio   = value / dt;
          const double nearest = std::round(ratio);
          if (nearest >= 1 && std::abs(ratio - nearest) <= 1e-9 * ratio)
            continue;
          const double      below = std::max(1.0, std::floor(ratio));
          const std::string allowed =
            "an integer multiple of the time step '" + dt_path +
            "' = " + format_number(dt) + source.where(dt_path) + " (it is " +
            format_number(ratio) + " steps); the nearest allowed values are " +
            format_number(below * dt) + " and " +
            format_number((below + 1) * dt);
          if (ratio < 1 - 1e-9)
            throw_bad_parameter(source,
                                path,
                                format_number(value),
                                "it is shorter than one time step: use " +
                                  allowed);
          warnings += "warning: " +
                      bad_parameter_message(source,
                                            path,
                                            format_number(value),
                                            "it is not " + allowed) +
                      ". Outputs are written at the first step after each "
                      "multiple of it, unevenly spaced.\n";
        }
      return warnings;
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
                        "auto",
                        AutoOrNonNegative(),
                        "Simulated time between outputs (a row of "
                        "history.csv and, with Field output, a set of "
                        "field files); a multiple of the time step. 0 "
                        "writes every time step; auto writes about 100 "
                        "outputs over the run: every k-th step, k = "
                        "round(number of steps / 100) (every step for "
                        "runs of fewer than 150 steps).");
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
      declare_field_format(prm);
      prm.declare_entry("Field output every",
                        "1",
                        Patterns::Integer(1),
                        "Write the volume fields (solution.pvd) at every "
                        "k-th row of history.csv (with Field output = "
                        "true). (Old names: Slab/Field output every, "
                        "Body/Field output every, still accepted.)");
      prm.declare_entry("Contact output every",
                        "1",
                        Patterns::Integer(1),
                        "Model = body: write the contact surface "
                        "(contact.pvd: gap, pressure, slip rate, state, ...) "
                        "at every k-th row of history.csv (with Field "
                        "output = true); it is small, so it can be written "
                        "far more often than the volume (the space-time "
                        "maps of postprocess/slip_front_map.py). (Old "
                        "name: Body/Contact output every, still "
                        "accepted.)");
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
      directory               = prm.get("Directory");
      interval_auto           = prm.get("Interval") == "auto";
      interval                = interval_auto ? 0. : prm.get_double("Interval");
      overwrite               = prm.get_bool("Overwrite");
      quiet                   = prm.get_bool("Quiet");
      progress_interval       = prm.get_double("Progress interval");
      field_output            = prm.get_bool("Field output");
      hdf5_fields             = prm.get("Field format") == "hdf5";
      single_precision_fields = prm.get("Field precision") == "single";
      field_output_every      = prm.get_integer("Field output every");
      contact_output_every    = prm.get_integer("Contact output every");
      checkpoint_interval     = prm.get_double("Checkpoint interval");
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
