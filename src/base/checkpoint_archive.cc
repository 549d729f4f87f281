#include <base/checkpoint_archive.h>
#include <base/local_values.h>
#include <base/location_lookup.h>

namespace stickslip
{
  namespace
  {
    /** A PETSc or Trilinos vector (DistributedVector) in an archive. */
    class BackendVector : public CheckpointArchive::Vector
    {
    public:
      explicit BackendVector(DistributedVector &vector)
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
        LocalValues values(vector);
        work(&values[0]);
      }

    private:
      DistributedVector &vector;
    };



    /** A deal.II distributed vector in an archive. */
    class DealiiVector : public CheckpointArchive::Vector
    {
    public:
      explicit DealiiVector(LinearAlgebra::distributed::Vector<double> &vector)
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
        work(vector.begin());
      }

    private:
      LinearAlgebra::distributed::Vector<double> &vector;
    };
  } // namespace



  void
  CheckpointArchive::add(DistributedVector &vector)
  {
    vectors.push_back(std::make_shared<BackendVector>(vector));
  }



  void
  CheckpointArchive::add(LinearAlgebra::distributed::Vector<double> &vector)
  {
    vectors.push_back(std::make_shared<DealiiVector>(vector));
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
