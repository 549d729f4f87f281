#ifndef stickslip_control_parallel_direct_search_h
#define stickslip_control_parallel_direct_search_h

#include <control/control_penalty.h>

#include <functional>
#include <vector>

namespace stickslip
{
  /**
   * Parallel direct search in the manner of Dennis and Torczon (doc/theory.md
   * §3.7): a simplex {v_0, ..., v_p}, v_0 its best vertex, and in every
   * iteration a template of trial simplexes {v_0 + s (v_i - v_0)} for the
   * factors s of the search scheme, all of whose points are evaluated in
   * one parallel batch. The trial simplex holding the best trial point is
   * accepted if that point beats v_0, otherwise the contraction (s = 1/2);
   * then v_0 is the best vertex of the accepted simplex. With the factors
   * -1, -2, 1/2 this is Torczon's multidirectional search. No derivatives
   * and no sufficient-decrease test; it stops when the largest edge
   * max_i |v_i - v_0| is below the tolerance.
   *
   * The merit of a point may change between iterations (penalties that
   * depend on the previous best point): vertex outcomes are stored and
   * their merits recomputed each iteration. Every choice breaks ties by
   * the order of the points, so the search is deterministic, and its whole
   * state between iterations (State) is what a restart needs.
   */
  class ParallelDirectSearch
  {
  public:
    using Point = std::vector<double>;

    /** Outcomes of a batch of points, in order (collective). */
    using Evaluator =
      std::function<std::vector<ControlOutcome>(const std::vector<Point> &)>;
    /** The merit (penalty) of a point with its outcome. */
    using Merit = std::function<double(const Point &, const ControlOutcome &)>;
    /** The search between two iterations. */
    struct State
    {
      /** The simplex, best vertex first, and the outcomes of its vertices. */
      std::vector<Point>          vertices;
      std::vector<ControlOutcome> outcomes;
      /** Accepted simplexes (iterations) so far. */
      unsigned long simplexes;
      /** Evaluations (simulations) so far. */
      unsigned long evaluations;

      /** max_i |v_i - v_0|. */
      double
      largest_edge() const;
    };

    /**
     * Called after the initial simplex (State::simplexes = 0) and after
     * every accepted simplex.
     */
    using Observer = std::function<void(const State &state)>;

    struct Result
    {
      Point          best;
      ControlOutcome outcome;
      unsigned int   simplexes;
      unsigned long  evaluations;
      double         largest_edge;
    };

    ParallelDirectSearch(const std::vector<double> &scales,
                         const double               tolerance,
                         const unsigned int         max_simplexes);

    /** The simplex {v_0, v_0 + h e_i}, evaluated, best vertex first. */
    State
    start(const Point     &initial,
          const double     size,
          const Evaluator &evaluate,
          const Merit     &merit) const;

    /**
     * Iterate from @p state (a start() or a restored snapshot) until the
     * largest edge is below the tolerance. Throws a RunError when the
     * iteration limit is reached.
     */
    Result
    minimize(State            state,
             const Evaluator &evaluate,
             const Merit     &merit,
             const Observer  &observe) const;

  private:
    const std::vector<double> scales;
    const double              tolerance;
    const unsigned int        max_simplexes;
  };
} // namespace stickslip

#endif
