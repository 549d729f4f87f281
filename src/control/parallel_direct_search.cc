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
  } // namespace



  ParallelDirectSearch::ParallelDirectSearch(const std::vector<double> &scales,
                                             const double       tolerance,
                                             const unsigned int max_simplexes)
    : scales(scales)
    , tolerance(tolerance)
    , max_simplexes(max_simplexes)
  {}



  ParallelDirectSearch::Result
  ParallelDirectSearch::minimize(const Point &    initial,
                                 const double     size,
                                 const Evaluator &evaluate,
                                 const Merit &    merit,
                                 const Observer & observe) const
  {
    const unsigned int p = initial.size();
    std::vector<Point> vertices(p + 1, initial);
    for (unsigned int i = 0; i < p; ++i)
      vertices[i + 1][i] += size;
    std::vector<ControlOutcome> outcomes    = evaluate(vertices);
    unsigned long               evaluations = vertices.size();

    // Best vertex first; stable, so ties keep the earlier vertex.
    const auto order_vertices = [&]() {
      std::vector<double> values(p + 1);
      for (unsigned int i = 0; i <= p; ++i)
        values[i] = merit(vertices[i], outcomes[i]);
      std::vector<unsigned int> order(p + 1);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
        return values[a] < values[b];
      });
      const unsigned int best = order.front();
      std::swap(vertices[0], vertices[best]);
      std::swap(outcomes[0], outcomes[best]);
    };
    const auto largest_edge = [&]() {
      double edge = 0;
      for (unsigned int i = 1; i <= p; ++i)
        edge = std::max(edge, distance(vertices[i], vertices[0]));
      return edge;
    };

    order_vertices();
    observe(0, vertices[0], outcomes[0], largest_edge(), evaluations);
    const unsigned int n_scales = scales.size();
    const unsigned int contraction =
      std::find(scales.begin(), scales.end(), 0.5) - scales.begin();

    unsigned int simplex = 0;
    for (; largest_edge() >= tolerance; ++simplex)
      {
        if (simplex == max_simplexes)
          {
            std::ostringstream message;
            message << "the parallel direct search reached "
                       "'Control/Maximum simplexes' = "
                    << max_simplexes << " with the largest edge "
                    << largest_edge() << " >= 'Control/Tolerance' = "
                    << tolerance << " (" << evaluations
                    << " simulations). Raise the limit or the tolerance";
            throw RunError(message.str());
          }
        // Re-order: the merit may have changed with the last update.
        order_vertices();
        const double best_value = merit(vertices[0], outcomes[0]);

        // The template: every trial simplex of the search scheme.
        std::vector<Point> trials;
        trials.reserve(n_scales * p);
        for (const double s : scales)
          for (unsigned int i = 1; i <= p; ++i)
            {
              Point point(p);
              for (unsigned int k = 0; k < p; ++k)
                point[k] = vertices[0][k] + s * (vertices[i][k] - vertices[0][k]);
              trials.push_back(point);
            }
        const std::vector<ControlOutcome> trial_outcomes = evaluate(trials);
        evaluations += trials.size();

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
        order_vertices();
        observe(simplex + 1, vertices[0], outcomes[0], largest_edge(), evaluations);
      }
    return {vertices[0], outcomes[0], simplex, evaluations, largest_edge()};
  }
} // namespace stickslip
