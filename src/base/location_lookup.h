#ifndef stickslip_base_location_lookup_h
#define stickslip_base_location_lookup_h

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace stickslip
{
  /**
   * Finds an entry of a snapshot by its location, so that a snapshot
   * resumes on another partition where the numbering of the unknowns
   * depends on it: @p dimension coordinates per entry, at most
   * max_dimension = 4 (a point in 3D and, for a vector-valued field, its
   * component). The coordinates are rounded to a grid 1e-10 times the
   * largest coordinate magnitude (the component numbers included), far
   * finer than any mesh; a point that rounds differently on the other
   * partition (it lies on a grid line) is found in a neighbouring grid
   * cell.
   */
  class LocationLookup
  {
  public:
    static constexpr unsigned int max_dimension = 4;

    /**
     * The table of the entries at @p coordinates (entry i at
     * coordinates[i * dimension ...]). Throws std::runtime_error naming the
     * place when two entries round to the same grid point: then they
     * cannot be told apart.
     */
    LocationLookup(const std::vector<double> &coordinates,
                   const unsigned int         dimension);

    /** The entry at @p point (dimension coordinates), or -1 if none. */
    std::int64_t
    find(const double *point) const;

  private:
    using Key = std::array<std::int64_t, max_dimension>;

    /** The grid point of @p point; false if it lies outside the grid. */
    bool
    key(const double *point, Key &result) const;

    unsigned int                             dimension;
    double                                   spacing;
    std::vector<std::pair<Key, std::size_t>> table;
  };
} // namespace stickslip

#endif
