// Unit tests of CsvTable (src/base/output_files.h), the table behind
// history.csv and the histories in snapshots: every number is written as the
// shortest decimal that reads back to the same bits (std::to_chars; the round
// trip is exact: bitwise comparisons, no tolerance); a NaN is an
// empty field and reads back as NaN; restore() rebuilds the rows from the
// text of to_string() and from flattened().
#include <deal.II/base/exceptions.h>

#include <base/output_files.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_csv_table
{
  using namespace stickslip;

  std::uint64_t
  bits(const double value)
  {
    std::uint64_t result;
    std::memcpy(&result, &value, sizeof(result));
    return result;
  }

  /** Values whose shortest exact decimal needs up to 17 digits, and edge
   * cases. */
  const std::vector<double> hard_values = {
    0.1,
    1. / 3,
    2. / 3,
    M_PI,
    -std::exp(1.),
    1e-300,
    -2.5e300,
    std::numeric_limits<double>::max(),
    std::numeric_limits<double>::min(), // smallest normal, 2.2e-308
    std::nextafter(1., 2.),             // 1 + eps
    -0.,                                // the sign of zero too
    1e-5,                               // 1e-05 (%.17g: 1.0000000000000001e-05)
    0.,
    123456789012345678.,
    std::numeric_limits<double>::infinity(),
    -std::numeric_limits<double>::infinity()};

  TEST(CsvTable, ShortestDecimalRoundTripIsBitwise)
  {
    CsvTable          table({"t", "x", "v"});
    const std::size_t n = hard_values.size();
    for (std::size_t k = 0; k < n;
         k += 3) // every value, cyclically in rows of 3
      table.add_row(
        {hard_values[k], hard_values[(k + 1) % n], hard_values[(k + 2) % n]});
    const std::string text = table.to_string();

    CsvTable restored({"t", "x", "v"});
    restored.restore(text);
    ASSERT_EQ(restored.n_rows(), table.n_rows());
    const std::vector<double> before = table.flattened();
    const std::vector<double> after  = restored.flattened();
    ASSERT_EQ(after.size(), before.size());
    for (std::size_t k = 0; k < before.size(); ++k)
      EXPECT_EQ(bits(after[k]), bits(before[k])) << "value " << before[k];
    EXPECT_EQ(restored.to_string(), text) << "printing the read table again";
  }

  // The text itself: a header, then the shortest decimal of each value that
  // reads back: 0.48 (%.17g printed 0.47999999999999998), 0.1, 1e-06, but all
  // 17 digits where they are needed (1/3 is 0.3333333333333333 with 16, and
  // 1 + eps is 1.0000000000000002); fixed or scientific, whichever is
  // shorter (1e-06, and 123456789012345680 rather than
  // 1.2345678901234568e+17).
  TEST(CsvTable, TextHasHeaderAndShortestDecimals)
  {
    CsvTable table({"time", "energy"});
    table.add_row({0.48, 1. / 3});
    table.add_row({0.1, std::nextafter(1., 2.)});
    table.add_row({2., -0.5});
    table.add_row({1e-6, 123456789012345678.});
    EXPECT_EQ(table.to_string(),
              "time,energy\n0.48,0.3333333333333333\n"
              "0.1,1.0000000000000002\n2,-0.5\n1e-06,123456789012345680\n");
  }

  // A NaN (no value, e.g. a multiplier before the first step) is an empty
  // field, read back as NaN; the other fields of the row are unaffected.
  TEST(CsvTable, NanIsAnEmptyField)
  {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CsvTable     table({"a", "b", "c"});
    table.add_row({nan, 1.5, nan});
    table.add_row({1., nan, 2.});
    const std::string text = table.to_string();
    EXPECT_EQ(text, "a,b,c\n,1.5,\n1,,2\n");

    CsvTable restored({"a", "b", "c"});
    restored.restore(text);
    const std::vector<double> values = restored.flattened();
    ASSERT_EQ(values.size(), 6u);
    EXPECT_TRUE(std::isnan(values[0]));
    EXPECT_EQ(values[1], 1.5);
    EXPECT_TRUE(std::isnan(values[2]));
    EXPECT_EQ(values[3], 1.);
    EXPECT_TRUE(std::isnan(values[4]));
    EXPECT_EQ(values[5], 2.);
  }

  // restore(text) replaces the rows (it does not append) and skips empty
  // lines; restore(flattened()) gives the same table.
  TEST(CsvTable, RestoreFromTextAndFromFlattened)
  {
    CsvTable table({"t", "x"});
    table.add_row({9., 9.});
    table.restore("t,x\n0,1\n\n0.5,-2.25\n1,1e-300\n");
    ASSERT_EQ(table.n_rows(), 3u);
    const std::vector<double> expected = {0., 1., 0.5, -2.25, 1., 1e-300};
    const std::vector<double> values   = table.flattened();
    ASSERT_EQ(values.size(), expected.size());
    for (std::size_t k = 0; k < values.size(); ++k)
      EXPECT_EQ(bits(values[k]), bits(expected[k])) << k;

    CsvTable copy({"t", "x"});
    copy.restore(values);
    EXPECT_EQ(copy.n_rows(), 3u);
    EXPECT_EQ(copy.to_string(), table.to_string());

    CsvTable empty({"t", "x"});
    empty.restore("t,x\n");
    EXPECT_EQ(empty.n_rows(), 0u);
    EXPECT_EQ(empty.to_string(), "t,x\n");
  }

  // Subnormal numbers (below 2.2e-308, e.g. a decaying energy) read back
  // bitwise: restore() parses with strtod, which gives the value (and
  // ERANGE, which is not an error here; std::stod would throw).
  TEST(CsvTable, SubnormalRoundTrip)
  {
    const double subnormals[] = {1e-310,
                                 std::numeric_limits<double>::denorm_min()};
    CsvTable     table({"a", "b"});
    table.add_row({subnormals[0], subnormals[1]});
    CsvTable restored({"a", "b"});
    EXPECT_NO_THROW(restored.restore(table.to_string()));
    const std::vector<double> values = restored.flattened();
    ASSERT_EQ(values.size(), 2u);
    EXPECT_EQ(bits(values[0]), bits(subnormals[0]));
    EXPECT_EQ(bits(values[1]), bits(subnormals[1]));
  }

  // Text or values with another number of columns are refused.
  TEST(CsvTable, RestoreRefusesOtherColumns)
  {
    CsvTable table({"t", "x"});
    EXPECT_THROW(table.restore("t,x,v\n1,2,3\n"), dealii::ExceptionBase);
    EXPECT_THROW(table.restore(std::vector<double>{1., 2., 3.}),
                 dealii::ExceptionBase);
  }
} // namespace unit_csv_table
