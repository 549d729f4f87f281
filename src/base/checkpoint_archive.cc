#include <base/checkpoint_archive.h>
#include <base/local_values.h>
#include <base/location_lookup.h>

namespace stickslip
{
  namespace
  {
    /** Call @p work with the owned values of a PETSc or Trilinos vector. */
    void
    with_owned_values(DistributedVector                   &vector,
                      const std::function<void(double *)> &work)
    {
      LocalValues values(vector);
      work(&values[0]);
    }

    /** The same for a deal.II distributed vector. */
    void
    with_owned_values(LinearAlgebra::distributed::Vector<double> &vector,
                      const std::function<void(double *)>        &work)
    {
      work(vector.begin());
    }

    /**
     * A registered vector in an archive: a DistributedVector (PETSc or
     * Trilinos) or a deal.II distributed vector.
     */
    template <typename VectorType>
    class ArchivedVector : public CheckpointArchive::Vector
    {
    public:
      explicit ArchivedVector(VectorType &vector)
        : vector(vector)
      {}

      types::global_dof_index
      size() const override
      {
        return vector.size();
      }

      IndexSet
      owned() const override
      {
        return vector.locally_owned_elements();
      }

      void
      access(const std::function<void(double *)> &work) override
      {
        with_owned_values(vector, work);
      }

    private:
      VectorType &vector;
    };
  } // namespace



  void
  CheckpointArchive::add(DistributedVector &vector)
  {
    vectors.push_back(
      std::make_shared<ArchivedVector<DistributedVector>>(vector));
  }



  void
  CheckpointArchive::add(LinearAlgebra::distributed::Vector<double> &vector)
  {
    vectors.push_back(
      std::make_shared<
        ArchivedVector<LinearAlgebra::distributed::Vector<double>>>(vector));
  }



  void
  CheckpointArchive::add(double &scalar)
  {
    scalars.push_back(&scalar);
  }



  void
  CheckpointArchive::add(unsigned long &scalar)
  {
    counters.push_back(&scalar);
  }



  void
  CheckpointArchive::add(bool &flag)
  {
    flags.push_back(&flag);
  }



  void
  CheckpointArchive::add(std::vector<double> &array)
  {
    arrays.push_back(&array);
  }



  void
  CheckpointArchive::set_entry_locations(const unsigned int  dimension,
                                         std::vector<double> coordinates)
  {
    AssertThrow(dimension > 0 && dimension <= LocationLookup::max_dimension,
                ExcInternalError());
    AssertThrow(coordinates.size() % dimension == 0, ExcInternalError());
    location_dimension = dimension;
    locations          = std::move(coordinates);
  }



  bool
  CheckpointArchive::has_entry_locations() const
  {
    return location_dimension > 0;
  }
} // namespace stickslip
