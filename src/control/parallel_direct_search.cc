#include <base/expressions.h>
#include <base/input_error.h>
#include <control/parallel_direct_search.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace stickslip
{
  namespace
  {
    double
    distance(const std::vector<double> &a, const std::vector<double> &b)
    {
      double sum = 0;
      for (unsigned int i = 0; i < a.size(); ++i)
        sum += (a[i] - b[i]) * (a[i] - b[i]);
      return std::sqrt(sum);
    }

    /** Best vertex first; stable, so ties keep the earlier vertex. */
    void
    order_vertices(ParallelDirectSearch::State       &state,
                   const ParallelDirectSearch::Merit &merit)
    {
      const unsigned int  n = state.vertices.size();
      std::vector<double> values(n);
      for (unsigned int i = 0; i < n; ++i)
        values[i] = merit(state.vertices[i], state.outcomes[i]);
      std::vector<unsigned int> order(n);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
        return values[a] < values[b];
      });
      const unsigned int best = order.front();
      std::swap(state.vertices[0], state.vertices[best]);
      std::swap(state.outcomes[0], state.outcomes[best]);
    }
  } // namespace



  ParallelDirectSearch::ParallelDirectSearch(const std::vector<double> &scales,
                                             const double       tolerance,
                                             const unsigned int max_simplexes)
    : scales(scales)
    , tolerance(tolerance)
    , max_simplexes(max_simplexes)
  {}



  double
  ParallelDirectSearch::State::largest_edge() const
  {
    double edge = 0;
    for (unsigned int i = 1; i < vertices.size(); ++i)
      edge = std::max(edge, distance(vertices[i], vertices[0]));
    return edge;
  }



  ParallelDirectSearch::State
  ParallelDirectSearch::start(const Point     &initial,
                              const double     size,
                              const Evaluator &evaluate,
                              const Merit     &merit) const
  {
    const unsigned int p = initial.size();
    State              state;
    state.vertices.assign(p + 1, initial);
    for (unsigned int i = 0; i < p; ++i)
      state.vertices[i + 1][i] += size;
    state.outcomes    = evaluate(state.vertices);
    state.simplexes   = 0;
    state.evaluations = state.vertices.size();
    order_vertices(state, merit);
    return state;
  }



  ParallelDirectSearch::Result
  ParallelDirectSearch::minimize(State            state,
                                 const Evaluator &evaluate,
                                 const Merit     &merit,
                                 const Observer  &observe) const
  {
    const unsigned int p        = state.vertices.size() - 1;
    auto              &vertices = state.vertices;
    auto              &outcomes = state.outcomes;
    const unsigned int contraction =
      std::find(scales.begin(), scales.end(), 0.5) - scales.begin();

    while (state.largest_edge() >= tolerance)
      {
        if (state.simplexes == max_simplexes)
          {
            std::ostringstream message;
            message << "the parallel direct search reached "
                       "'Control/Maximum simplexes' = "
                    << max_simplexes << " with the largest edge "
                    << state.largest_edge()
                    << " >= 'Control/Tolerance' = " << tolerance << " ("
                    << state.evaluations
                    << " simulations). Raise the limit or the tolerance";
            throw RunError(message.str());
          }
        // Re-order: the merit may have changed with the last update.
        order_vertices(state, merit);
        const double best_value = merit(vertices[0], outcomes[0]);

        // The template: every trial simplex of the search scheme.
        std::vector<Point> trials;
        trials.reserve(scales.size() * p);
        for (const double s : scales)
          for (unsigned int i = 1; i <= p; ++i)
            {
              Point point(p);
              for (unsigned int k = 0; k < p; ++k)
                point[k] =
                  vertices[0][k] + s * (vertices[i][k] - vertices[0][k]);
              trials.push_back(point);
            }
        const std::vector<ControlOutcome> trial_outcomes = evaluate(trials);
        state.evaluations += trials.size();

        unsigned int best_trial       = 0;
        double       best_trial_value = merit(trials[0], trial_outcomes[0]);
        for (unsigned int j = 1; j < trials.size(); ++j)
          {
            const double value = merit(trials[j], trial_outcomes[j]);
            if (value < best_trial_value)
              {
                best_trial_value = value;
                best_trial       = j;
              }
          }
        const unsigned int accepted =
          best_trial_value < best_value ? best_trial / p : contraction;
        for (unsigned int i = 1; i <= p; ++i)
          {
            vertices[i] = trials[accepted * p + i - 1];
            outcomes[i] = trial_outcomes[accepted * p + i - 1];
          }
        order_vertices(state, merit);
        ++state.simplexes;
        observe(state);
      }
    return {vertices[0],
            outcomes[0],
            static_cast<unsigned int>(state.simplexes),
            state.evaluations,
            state.largest_edge()};
  }
} // namespace stickslip
