#ifndef stickslip_base_checkpoint_archive_h
#define stickslip_base_checkpoint_archive_h

#include <deal.II/lac/la_parallel_vector.h>

#include <base/global.h>

#include <functional>
#include <memory>
#include <vector>

namespace stickslip
{
  /**
   * The restartable state of a run, registered in a fixed order by the
   * driver and the integrator: distributed vectors (stored as global index
   * and value, so that a snapshot of a model whose numbering does not depend
   * on the partition can be read by any number of ranks) and scalars, single
   * or in arrays (an array takes the length it was written with). Scalars
   * are per rank; read on another number of ranks, every rank gets those of
   * the snapshot's rank 0.
   */
  class CheckpointArchive
  {
  public:
    /**
     * A registered distributed vector as a snapshot sees it: its size, its
     * locally owned indices and direct access to the owned values, for the
     * PETSc/Trilinos vectors of the friction-system models and deal.II's
     * own distributed vectors (the matrix-free body) alike.
     */
    class Vector
    {
    public:
      virtual ~Vector() = default;

      virtual types::global_dof_index
      size() const = 0;

      virtual IndexSet
      owned() const = 0;

      /** Call @p work with the owned values (entry k: the k-th owned index). */
      virtual void
      access(const std::function<void(double *values)> &work) = 0;
    };

    void
    add(DistributedVector &vector);

    void
    add(LinearAlgebra::distributed::Vector<double> &vector);

    void
    add(double &scalar);

    void
    add(unsigned long &scalar);

    void
    add(bool &flag);

    void
    add(std::vector<double> &array);

    /**
     * Where each locally owned entry of the vectors lies: @p dimension
     * coordinates per entry (1 to LocationLookup::max_dimension = 4: a
     * point, and for a vector-valued field the component as one more
     * coordinate), in the order of the locally owned index set that every
     * vector of the archive shares. With locations a snapshot resumes on
     * any number of ranks even where the numbering of the unknowns depends
     * on the partition (a p4est mesh): the entries are matched by place,
     * not by index.
     */
    void
    set_entry_locations(const unsigned int  dimension,
                        std::vector<double> coordinates);

    bool
    has_entry_locations() const;

    /**
     * Work done just before a snapshot is written (copy a state kept
     * elsewhere into registered vectors) and just after one is read (copy
     * it back).
     */
    std::vector<std::function<void()>> before_write;
    std::vector<std::function<void()>> after_read;

    std::vector<std::shared_ptr<Vector>> vectors;
    std::vector<double *>                scalars;
    std::vector<unsigned long *>         counters;
    std::vector<bool *>                  flags;
    std::vector<std::vector<double> *>   arrays;
    unsigned int                         location_dimension = 0;
    std::vector<double>                  locations;
  };
} // namespace stickslip

#endif
