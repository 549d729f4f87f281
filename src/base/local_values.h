#ifndef stickslip_base_local_values_h
#define stickslip_base_local_values_h

#include <base/global.h>

#ifdef STICKSLIP_USE_PETSC_LA
#  include <petscvec.h>
#endif

namespace stickslip
{
  /**
   * Direct access to the locally owned entries of a distributed vector, for
   * the componentwise (nodal) kernels of the friction step: entry k is the
   * k-th locally owned index. No communication, no per-entry function call.
   * The vector must not be touched through its own interface while a
   * LocalValues object on it is alive.
   */
  class LocalValues
  {
  public:
    explicit LocalValues(DistributedVector &vector)
      : vector(vector)
    {
#ifdef STICKSLIP_USE_PETSC_LA
      VecGetArray(static_cast<const Vec &>(vector), &values);
#else
      values = vector.begin();
#endif
      n_values = vector.locally_owned_size();
    }

    ~LocalValues()
    {
#ifdef STICKSLIP_USE_PETSC_LA
      VecRestoreArray(static_cast<const Vec &>(vector), &values);
#endif
    }

    LocalValues(const LocalValues &) = delete;
    LocalValues &
    operator=(const LocalValues &) = delete;

    double &
    operator[](const std::size_t k)
    {
      return values[k];
    }

    std::size_t
    size() const
    {
      return n_values;
    }

    /** The owned entries as a plain array (for loops the compiler keeps tight).
     */
    double *
    data()
    {
      return values;
    }

  private:
    DistributedVector &vector;
    double            *values;
    std::size_t        n_values;
  };



  /** Read-only counterpart of LocalValues. */
  class ConstLocalValues
  {
  public:
    explicit ConstLocalValues(const DistributedVector &vector)
      : vector(vector)
    {
#ifdef STICKSLIP_USE_PETSC_LA
      VecGetArrayRead(static_cast<const Vec &>(vector), &values);
#else
      values = vector.begin();
#endif
      n_values = vector.locally_owned_size();
    }

    ~ConstLocalValues()
    {
#ifdef STICKSLIP_USE_PETSC_LA
      VecRestoreArrayRead(static_cast<const Vec &>(vector), &values);
#endif
    }

    ConstLocalValues(const ConstLocalValues &) = delete;
    ConstLocalValues &
    operator=(const ConstLocalValues &) = delete;

    double
    operator[](const std::size_t k) const
    {
      return values[k];
    }

    std::size_t
    size() const
    {
      return n_values;
    }

    /** The owned entries as a plain array. */
    const double *
    data() const
    {
      return values;
    }

  private:
    const DistributedVector &vector;
    const double            *values;
    std::size_t              n_values;
  };



  /**
   * The owned entries of @p vector for reading, by the name the step kernels
   * use for every vector type they are instantiated for (ReplicatedVector
   * has its own).
   */
  inline ConstLocalValues
  read_values(const DistributedVector &vector)
  {
    return ConstLocalValues(vector);
  }



  /** The owned entries of @p vector for writing (see read_values()). */
  inline LocalValues
  write_values(DistributedVector &vector)
  {
    return LocalValues(vector);
  }
} // namespace stickslip

#endif
