#include <base/expressions.h>
#include <base/location_lookup.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace stickslip
{
  LocationLookup::LocationLookup(const std::vector<double> &coordinates,
                                 const unsigned int         dimension)
    : dimension(dimension)
  {
    if (dimension == 0 || dimension > max_dimension)
      throw std::runtime_error("locations of " + std::to_string(dimension) +
                               " coordinates (at most " +
                               std::to_string(max_dimension) + ")");
    double extent = 0;
    for (const double x : coordinates)
      extent = std::max(extent, std::abs(x));
    spacing             = 1e-10 * std::max(extent, 1e-300);
    const std::size_t n = coordinates.size() / dimension;
    table.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
      {
        Key k;
        if (!key(&coordinates[i * dimension], k))
          throw std::runtime_error("an entry's location is not finite");
        table.emplace_back(k, i);
      }
    std::sort(table.begin(), table.end());
    for (std::size_t i = 1; i < table.size(); ++i)
      if (table[i].first == table[i - 1].first)
        {
          std::string place;
          for (unsigned int d = 0; d < dimension; ++d)
            place +=
              (d == 0 ? "" : ", ") +
              format_number(coordinates[table[i].second * dimension + d]);
          throw std::runtime_error(
            "two of its unknowns lie at the same place (" + place + ")");
        }
  }



  bool
  LocationLookup::key(const double *point, Key &result) const
  {
    result.fill(0);
    for (unsigned int d = 0; d < dimension; ++d)
      {
        const double scaled = point[d] / spacing;
        // llround() of a value beyond the range of int64 is undefined.
        if (!(std::abs(scaled) < 4e18))
          return false;
        result[d] = std::llround(scaled);
      }
    return true;
  }



  std::int64_t
  LocationLookup::find(const double *point) const
  {
    Key center;
    if (!key(point, center))
      return -1;
    // The 3^dimension neighbours, the center first.
    unsigned int n_probes = 1;
    for (unsigned int d = 0; d < dimension; ++d)
      n_probes *= 3;
    Key probe = center;
    for (unsigned int code = 0; code < n_probes; ++code)
      {
        unsigned int c = code;
        for (unsigned int d = 0; d < dimension; ++d, c /= 3)
          probe[d] = center[d] + ((c % 3 == 0) ? 0 : (c % 3 == 1) ? 1 : -1);
        const auto found =
          std::lower_bound(table.begin(),
                           table.end(),
                           std::make_pair(probe, std::size_t(0)));
        if (found != table.end() && found->first == probe)
          return found->second;
      }
    return -1;
  }
} // namespace stickslip
