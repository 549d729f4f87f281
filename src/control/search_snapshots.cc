#include <base/input_error.h>
#include <control/search_snapshots.h>

#include <sstream>

namespace stickslip
{
  SearchSnapshots::SearchSnapshots(const Parameters::Output &output,
                                   const std::string        &directory,
                                   const MPI_Comm            world)
    : every_iteration(output.checkpoint_interval > 0)
    , schedule(output, world)
    , store(directory, world, true)
  {}



  bool
  SearchSnapshots::enabled() const
  {
    return schedule.enabled();
  }



  bool
  SearchSnapshots::due()
  {
    // A search has no simulated time: an interval means every iteration.
    return every_iteration || schedule.due_by_wall_clock();
  }



  CheckpointArchive
  SearchSnapshots::archive(ParallelDirectSearch::State &state,
                           ControlPenalty              &penalty,
                           unsigned long               &simulation_iterations,
                           unsigned long               &n_rows,
                           std::vector<double>         &rows)
  {
    CheckpointArchive archive;
    for (unsigned long *c : {&state.simplexes,
                             &state.evaluations,
                             &simulation_iterations,
                             &n_rows})
      archive.add(*c);
    for (unsigned int i = 0; i < state.vertices.size(); ++i)
      {
        archive.add(state.vertices[i]);
        archive.add(state.outcomes[i].displacement);
        archive.add(state.outcomes[i].velocity);
        archive.add(state.outcomes[i].iterations);
      }
    penalty.register_state(archive);
    archive.add(rows);
    return archive;
  }



  void
  SearchSnapshots::write(const ParallelDirectSearch::State &state,
                         ControlPenalty                    &penalty,
                         const unsigned long simulation_iterations,
                         const CsvTable     &table) const
  {
    ParallelDirectSearch::State saved      = state;
    unsigned long               iterations = simulation_iterations;
    unsigned long               n_rows     = table.n_rows();
    std::vector<double>         rows       = table.flattened();
    std::ostringstream          meta;
    meta << "search after simplex " << state.simplexes << "\nsimulations "
         << state.evaluations << "\nrows of optimization.csv " << n_rows;
    store.write(state.simplexes,
                archive(saved, penalty, iterations, n_rows, rows),
                meta.str());
  }



  ParallelDirectSearch::State
  SearchSnapshots::read(const unsigned int        n_controls,
                        ControlPenalty           &penalty,
                        unsigned long            &simulation_iterations,
                        CsvTable                 &table,
                        std::vector<std::string> &warnings) const
  {
    ParallelDirectSearch::State state;
    state.vertices.resize(n_controls + 1);
    state.outcomes.resize(n_controls + 1);
    unsigned long       n_rows = 0;
    std::vector<double> rows;
    CheckpointArchive   registered =
      archive(state, penalty, simulation_iterations, n_rows, rows);
    store.read(registered, true, warnings);

    // The checksums passed: a mismatch is a snapshot of another problem.
    bool fits = true;
    for (unsigned int i = 0; i <= n_controls; ++i)
      fits = fits && state.vertices[i].size() == n_controls &&
             state.outcomes[i].displacement.size() == n_controls &&
             state.outcomes[i].velocity.size() == n_controls;
    if (fits)
      {
        table.restore(rows);
        fits = table.n_rows() == n_rows;
      }
    if (!fits)
      throw InputError("the snapshot in " + store.folder() +
                       " holds the search of another control problem; "
                       "resume with the parameters it was written with");
    return state;
  }



  void
  SearchSnapshots::clear() const
  {
    store.clear();
  }



  std::string
  SearchSnapshots::folder() const
  {
    return store.folder();
  }
} // namespace stickslip
