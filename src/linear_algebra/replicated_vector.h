#ifndef stickslip_linear_algebra_replicated_vector_h
#define stickslip_linear_algebra_replicated_vector_h

#include <base/checkpoint.h>
#include <base/global.h>

#include <cmath>
#include <cstddef>
#include <vector>

namespace stickslip
{
  /**
   * A vector of a few entries held whole on every rank: the vector type of
   * the time steps of tiny systems (ReplicatedSystem), for which the step
   * kernels written once for DistributedVector (FrictionSubsteps,
   * ElasticSubsteps, CenteredSteps) are instantiated a second time. It has
   * the operations of the distributed vector those kernels use, with the
   * same meaning, as plain loops: no array access, state check or log
   * event per operation (at d <= 100 those cost more than the arithmetic).
   * Each operation rounds as the PETSc operation of the same name does with
   * a reference BLAS (a x + y rounded twice; a division as a product with
   * the inverse), and l2_norm() sums in index order.
   */
  class ReplicatedVector
  {
  public:
    ReplicatedVector() = default;

    explicit ReplicatedVector(const std::size_t n)
      : entries(n, 0.)
    {}

    void
    reinit(const std::size_t n)
    {
      entries.assign(n, 0.);
    }

    std::size_t
    size() const
    {
      return entries.size();
    }

    double &
    operator[](const std::size_t k)
    {
      return entries[k];
    }

    double
    operator[](const std::size_t k) const
    {
      return entries[k];
    }

    double *
    data()
    {
      return entries.data();
    }

    const double *
    data() const
    {
      return entries.data();
    }

    /** The entries (snapshots register them). */
    std::vector<double> &
    values()
    {
      return entries;
    }

    ReplicatedVector(const ReplicatedVector &) = default;

    /**
     * A copy of @p x's entries: a loop (a vector of a few entries costs
     * less so than by a call of memmove).
     */
    ReplicatedVector &
    operator=(const ReplicatedVector &x)
    {
      if (entries.size() != x.entries.size())
        entries = x.entries;
      else
        for (std::size_t k = 0; k < entries.size(); ++k)
          entries[k] = x.entries[k];
      return *this;
    }

    ReplicatedVector &
    operator=(const double value)
    {
      for (double &entry : entries)
        entry = value;
      return *this;
    }

    /** this += a x */
    void
    add(const double a, const ReplicatedVector &x)
    {
      for (std::size_t k = 0; k < entries.size(); ++k)
        entries[k] = entries[k] + a * x.entries[k];
    }

    /** this = s this + a x */
    void
    sadd(const double s, const double a, const ReplicatedVector &x)
    {
      for (std::size_t k = 0; k < entries.size(); ++k)
        entries[k] = s * entries[k] + a * x.entries[k];
    }

    ReplicatedVector &
    operator+=(const ReplicatedVector &x)
    {
      for (std::size_t k = 0; k < entries.size(); ++k)
        entries[k] = entries[k] + x.entries[k];
      return *this;
    }

    ReplicatedVector &
    operator-=(const ReplicatedVector &x)
    {
      for (std::size_t k = 0; k < entries.size(); ++k)
        entries[k] = entries[k] + -1. * x.entries[k];
      return *this;
    }

    ReplicatedVector &
    operator*=(const double factor)
    {
      for (double &value : entries)
        value = value * factor;
      return *this;
    }

    /** A product with 1/@p factor, as the PETSc wrapper's division. */
    ReplicatedVector &
    operator/=(const double factor)
    {
      return *this *= 1. / factor;
    }

    /** The Euclidean norm, summed in index order. */
    double
    l2_norm() const
    {
      double sum = 0;
      for (const double value : entries)
        sum += value * value;
      return std::sqrt(sum);
    }

  private:
    std::vector<double> entries;
  };



  /**
   * The entries of a ReplicatedVector as the step kernels access those of
   * a distributed vector (LocalValues, ConstLocalValues): k-th entry,
   * size(), data().
   */
  template <typename Number>
  class ArrayValues
  {
  public:
    ArrayValues(Number *values, const std::size_t n)
      : values(values)
      , n_values(n)
    {}

    Number &
    operator[](const std::size_t k) const
    {
      return values[k];
    }

    std::size_t
    size() const
    {
      return n_values;
    }

    Number *
    data() const
    {
      return values;
    }

  private:
    Number     *values;
    std::size_t n_values;
  };



  /** As read_values() of a distributed vector (base/local_values.h). */
  inline ArrayValues<const double>
  read_values(const ReplicatedVector &vector)
  {
    return {vector.data(), vector.size()};
  }



  /** As write_values() of a distributed vector (base/local_values.h). */
  inline ArrayValues<double>
  write_values(ReplicatedVector &vector)
  {
    return {vector.data(), vector.size()};
  }



  /**
   * Register @p vector in @p archive: its entries, the same on every rank
   * (a snapshot's rank-0 copy serves any number of ranks).
   */
  inline void
  register_vector(CheckpointArchive &archive, ReplicatedVector &vector)
  {
    archive.add(vector.values());
  }



  /** Register @p vector in @p archive (the kernels' name for both types). */
  inline void
  register_vector(CheckpointArchive &archive, DistributedVector &vector)
  {
    archive.add(vector);
  }
} // namespace stickslip

#endif
