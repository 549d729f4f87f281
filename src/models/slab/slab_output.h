#ifndef stickslip_models_slab_slab_output_h
#define stickslip_models_slab_slab_output_h

#include <deal.II/dofs/dof_handler.h>

#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>

#include <deal.II/grid/tria.h>

#include <base/field_files.h>
#include <base/global.h>
#include <base/output_files.h>
#include <models/slab/characteristic_transport.h>

#include <string>
#include <vector>

namespace stickslip
{
  namespace Slab
  {
    /** Values per node of a profile: z, u_t (3), u_,3 (3), u (3). */
    constexpr unsigned int profile_width = 10;

    /**
     * The profile of the owned nodes (profile_width values per node), with
     * the displacement rebuilt from u_,3 by the trapezoidal rule downward
     * from u(H) = (0, 0, -D). Collective (ghost exchange and one all-gather
     * of the block sums).
     */
    std::vector<double>
    local_profile(CharacteristicTransport &transport,
                  const double             compression,
                  const MPI_Comm           comm);

    /** Gather the profile on rank 0 and write it as CSV (collective). */
    void
    write_profile_csv(const std::vector<double> &rows,
                      const std::string         &name,
                      const OutputDirectory     &output,
                      const MPI_Comm             comm);

    /**
     * The VTU output of the profiles: every rank holds a serial deal.II 1D
     * mesh of its block of nodes (plus the cell to its right neighbour's
     * first node), and DataOut writes one .vtu per rank and the .pvtu
     * record, the slab's x3 along the VTK z axis, with the 3-vector fields
     * velocity (u_t), strain (u_,3) and
     * displacement (u), written as vectors (ParaView's Glyph and Warp By
     * Vector take them as they are), and subdomain.
     */
    class ProfileWriter
    {
    public:
      ProfileWriter(const CharacteristicTransport &transport,
                    const MPI_Comm                 comm);

      /**
       * Write output number @p index at time @p t through @p files
       * (collective); returns the record's name.
       */
      std::string
      write(CharacteristicTransport   &transport,
            const std::vector<double> &profile,
            const double               t,
            const unsigned int         index,
            const FieldFiles          &files);

    private:
      const MPI_Comm comm;
      /**
       * A line in 3D along the VTK z axis, the slab's x3 (deal.II writes
       * vectors of spacedim components: a 1D mesh in 1D space would keep
       * only the first one).
       */
      Triangulation<1, 3> triangulation;
      /** Three P1 components: one 3-vector per node. */
      FESystem<1, 3>            fe;
      DoFHandler<1, 3>          dof_handler;
      std::vector<unsigned int> node_of_dof;
      std::vector<unsigned int> component_of_dof;
      unsigned int              first_node;
    };
  } // namespace Slab
} // namespace stickslip

#endif
