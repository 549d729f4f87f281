#ifndef stickslip_control_parallel_direct_search_h
#define stickslip_control_parallel_direct_search_h

#include <control/control_penalty.h>

#include <functional>
#include <vector>

namespace stickslip
{
  /**
   * Parallel direct search in the manner of Dennis and Torczon (MODELS.md
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
   * the order of the points, so the search is deterministic.
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
    /**
     * Called with the best vertex after the initial simplex (iteration 0)
     * and after every accepted simplex; its largest edge; the number of
     * evaluations so far.
     */
    using Observer = std::function<void(const unsigned int    iteration,
                                        const Point &         best,
                                        const ControlOutcome &outcome,
                                        const double          largest_edge,
                                        const unsigned long   evaluations)>;

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

    /**
     * Minimize from the simplex {v_0, v_0 + h e_i}. Throws a RunError when
     * the iteration limit is reached.
     */
    Result
    minimize(const Point &    initial,
             const double     size,
             const Evaluator &evaluate,
             const Merit &    merit,
             const Observer & observe) const;

  private:
    const std::vector<double> scales;
    const double              tolerance;
    const unsigned int        max_simplexes;
  };
} // namespace stickslip

#endif
