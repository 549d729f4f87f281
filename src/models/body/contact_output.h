#ifndef stickslip_models_body_contact_output_h
#define stickslip_models_body_contact_output_h

#include <deal.II/base/data_out_base.h>
#include <deal.II/base/mpi_noncontiguous_partitioner.h>

#include <base/field_files.h>
#include <base/global.h>
#include <base/hdf5_series_file.h>
#include <models/body/body_discretization.h>
#include <models/body/contact_surface.h>
#include <models/body/implicit_step.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    /**
     * Where ContactOutput takes the nodal values of the contact surface
     * from: the explicit scheme's ContactSurface (ContactSurfaceValues) or
     * the implicit and quasi-static schemes' ImplicitStep
     * (ImplicitContactValues). The values are those of
     * ContactSurface::output_value_names(), in its order.
     */
    template <int dim>
    class ContactNodalValues
    {
    public:
      virtual ~ContactNodalValues() = default;

      /** Per owned contact node: one of its unknowns (local index). */
      virtual std::vector<unsigned int>
      node_unknowns() const = 0;

      /** ContactSurface::n_output_values per node, node k at [k * n]. */
      virtual std::vector<double>
      values() const = 0;

      /** The tangent basis of the surface (the slip's and friction's). */
      virtual std::vector<Tensor<1, dim>>
      tangents() const = 0;
    };



    /** The explicit scheme's values: ContactSurface::output_values(). */
    template <int dim>
    class ContactSurfaceValues : public ContactNodalValues<dim>
    {
    public:
      explicit ContactSurfaceValues(const ContactSurface<dim> &contact);

      std::vector<unsigned int>
      node_unknowns() const override;

      std::vector<double>
      values() const override;

      std::vector<Tensor<1, dim>>
      tangents() const override;

    private:
      const ContactSurface<dim> &contact;
    };



    /**
     * The implicit and quasi-static schemes' values at the end of the last
     * step (doc/outputs.md, "contact.pvd"): gap, pressure P_i/A_i, state
     * (0 separated, 1 stuck, 2 slipping or frictionless in contact),
     * friction_ratio |R_T|/(A_i P_i), the friction traction R_T/A_i (on
     * the body, as the explicit series'), friction_coefficient mu_i (0
     * before Contact/Friction from time), slip |u_T - u_T(t0) - X_*| (the
     * tangential displacement against the foundation since t0: history's
     * max_slip), effective_pressure = pressure; the slip
     * velocity v_T - v_*(t) (implicit; 0 quasi-static: load steps have no
     * rate) and its norm slip_rate; uniqueness_ratio 0 (the step is solved
     * exactly), rupture_time -1 and friction_state 0 (no state law).
     */
    template <int dim>
    class ImplicitContactValues : public ContactNodalValues<dim>
    {
    public:
      /**
       * @p normal the contact normal (a coordinate axis), @p displacement
       * and @p velocity the state at @p t.
       */
      ImplicitContactValues(const ImplicitStep<dim>   &step,
                            const std::vector<double> &normal,
                            const BodyVector          &displacement,
                            const BodyVector          &velocity,
                            const double               t);

      std::vector<unsigned int>
      node_unknowns() const override;

      std::vector<double>
      values() const override;

      std::vector<Tensor<1, dim>>
      tangents() const override;

    private:
      const ImplicitContactNodes nodes;
      /** The coordinate axes of the tangential unknowns, in their order. */
      std::vector<unsigned int> tangent_axes;
      const BodyVector         &displacement;
      const BodyVector         &velocity;
      const double              t;
    };



    /**
     * The contact surface as a series of field files (contact.pvd): the
     * faces of the contact boundary of the owned cells as VTU patches with,
     * at their nodes, the gap, pressure, slip rate, state (0 separated, 1
     * stuck, 2 slipping), mobilized friction |tau|/S, uniqueness ratio
     * S L_mu/Z, and the displacement, friction traction and slip velocity
     * as vectors.
     *
     * It costs in proportion to the surface, not to the body: deal.II's
     * DataOutFaces makes a ghosted copy of every data vector over all the
     * DoFs at every output (several milliseconds per record at 10^5
     * unknowns, half the run time of an example writing the surface every
     * few steps). Here the nodal values of the surface are exchanged between
     * the ranks that share a face (Utilities::MPI::NoncontiguousPartitioner,
     * set up once) and written as patches with DataOutBase::write_vtu.
     *
     * With Output/Field format = hdf5 the same values go to HDF5: the
     * surface mesh once per run as solution/contact_mesh.h5
     * (Hdf5::write_file_atomically(), shared with Hdf5FieldWriter; /nodes:
     * every face's nodes at the points where the VTU has them, /cells: each
     * face split into p^(dim-1) segments or quadrilaterals), and the outputs
     * into one series file for many of them (Hdf5::SeriesWriter:
     * solution/contact_from_KKKKK.h5, per field outputs x nodes x 1 for a
     * scalar, x 3 for a vector, and /time), with the XDMF template from
     * which PvdRecord writes each output's grid into contact.xdmf. A small
     * surface written every few steps then costs a few writes into an open
     * file per output, not two files created and renamed. The values are
     * the VTU's, node for node.
     */
    template <int dim>
    class ContactOutput
    {
    public:
      ContactOutput(const BodyDiscretization<dim> &discretization,
                    const types::boundary_id       contact_id);

      /**
       * Write output @p index of the series "contact" at time @p t from the
       * nodal values @p contact and the displacement @p displacement (whose
       * ghost values must be current) (collective). Returns the record.
       */
      std::string
      write(const double                   t,
            const unsigned int             index,
            const BodyVector              &displacement,
            const ContactNodalValues<dim> &contact,
            const FieldFiles              &files);

    private:
      /**
       * The HDF5 output of @p patch_list (fields named @p names, as for
       * write_vtu: a vector's name once per component) (collective).
       */
      std::string
      write_hdf5(
        const double                                         t,
        const unsigned int                                   index,
        const std::vector<DataOutBase::Patch<dim - 1, dim>> &patch_list,
        const std::vector<std::string>                      &names,
        const FieldFiles                                    &files);

      /**
       * The XDMF template of the series file @p file (Hdf5::SeriesWriter)
       * of @p capacity outputs of @p layout, in 32-bit floats if @p single.
       */
      std::string
      xdmf_template(const std::vector<Hdf5::SeriesField> &layout,
                    const std::string                    &file,
                    const std::uint64_t                   capacity,
                    const bool                            single) const;

      /** Write contact_mesh.h5 of @p patch_list (collective). */
      void
      write_hdf5_mesh(
        const std::vector<DataOutBase::Patch<dim - 1, dim>> &patch_list,
        const FieldFiles                                    &files);

      /** The faces, their nodes and the exchange pattern (first output). */
      void
      set_up(const ContactNodalValues<dim> &contact);

      /** The nodal values of the surface at this rank's faces' nodes. */
      std::vector<double>
      values_at_face_nodes(const ContactNodalValues<dim> &contact) const;

      /** The patches of the faces with @p values and the displacement. */
      std::vector<DataOutBase::Patch<dim - 1, dim>>
      patches(const std::vector<double> &values,
              const BodyVector          &displacement) const;

      const BodyDiscretization<dim> &discretization;
      const types::boundary_id       contact_id;
      bool                           ready;

      /** One per owned face: its corners. */
      std::vector<
        std::array<Point<dim>, GeometryInfo<dim - 1>::vertices_per_cell>>
        corners;
      /**
       * Per face, per node in the patch's (lexicographic) order: where its
       * values are (an owned node's index, or n_owned + the ghost index),
       * and the global indices of its dim unknowns (the displacement).
       */
      std::vector<unsigned int>            value_index;
      std::vector<types::global_dof_index> displacement_dofs;
      unsigned int                         nodes_per_face;
      /** The owned nodes of the surface: their first unknown (global). */
      std::vector<types::global_dof_index> owned_nodes;
      /** Where each owned node's values are in ContactNodalValues::values(). */
      std::vector<int>                         surface_index;
      Utilities::MPI::NoncontiguousPartitioner exchange;
      unsigned int                             n_ghosts;
      /** The tangent basis of the contact surface (of the last write). */
      std::vector<Tensor<1, dim>> surface_tangents;
      /** The output directory whose contact_mesh.h5 this writer wrote. */
      std::string hdf5_mesh_directory;
      /** The series files of the outputs in that directory. */
      std::unique_ptr<Hdf5::SeriesWriter> hdf5_series;
      /** This rank's first node and cell in the HDF5 files, and the totals. */
      std::uint64_t first_hdf5_node    = 0;
      std::uint64_t n_hdf5_nodes       = 0;
      std::uint64_t first_hdf5_cell    = 0;
      std::uint64_t n_hdf5_cells       = 0;
      std::uint64_t n_local_hdf5_cells = 0;
    };
  } // namespace Body
} // namespace stickslip

#endif
