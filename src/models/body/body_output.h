#ifndef stickslip_models_body_body_output_h
#define stickslip_models_body_body_output_h

#include <deal.II/numerics/data_postprocessor.h>

#include <base/field_files.h>
#include <base/global.h>
#include <base/hdf5_field_writer.h>
#include <models/body/body_discretization.h>
#include <models/body/contact_surface.h>

#include <memory>
#include <string>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    /**
     * The stress of the displacement field, sigma = lambda tr(eps) I + 2G
     * eps, at the output points: its components (in 2D with the plane-strain
     * sigma_zz = lambda tr(eps)) and the von Mises stress
     * sqrt(3/2 dev(sigma) : dev(sigma)).
     */
    template <int dim>
    class StressPostprocessor : public DataPostprocessor<dim>
    {
    public:
      StressPostprocessor(const double lambda, const double shear_modulus);

      void
      evaluate_vector_field(
        const DataPostprocessorInputs::Vector<dim> &inputs,
        std::vector<Vector<double>>                &computed) const override;

      std::vector<std::string>
      get_names() const override;

      UpdateFlags
      get_needed_update_flags() const override;

      /**
       * The values get_names() names at a point where the displacement's
       * gradient is @p gradient (gradient[a][b] = du_a/dx_b), into
       * @p computed.
       */
      void
      values(const Tensor<2, dim> &gradient, double *computed) const;

    private:
      const double lambda;
      const double shear_modulus;
    };



    /**
     * The volume fields of the body (doc/body.md) as output K of
     * solution/solution_K.pvtu: displacement and velocity as vectors (so
     * that ParaView's Warp By Vector applies at once), the stress
     * components and von Mises, the subdomain. With Output/Field format =
     * hdf5 the same fields by Hdf5FieldWriter (solution/solution_K.xdmf):
     * displacement and velocity at the nodes; the stress components, von
     * Mises and the subdomain as cell data of its linear cells, each value
     * the mean of the values at the cell's corners as the VTU has them
     * (StressPostprocessor at each vertex of a patch, discontinuous between
     * cells). The contact surface has its own series (ContactOutput).
     */
    template <int dim>
    class BodyOutput
    {
    public:
      BodyOutput(const BodyDiscretization<dim> &discretization,
                 const double                   lambda,
                 const double                   shear_modulus);

      /**
       * Write output @p index of the series "solution" at time @p t
       * (collective): the volume fields of @p displacement and @p velocity
       * (their constrained entries are set and ghosts updated here, and
       * reset after). Returns the record's name.
       */
      std::string
      write_volume(const double       t,
                   const unsigned int index,
                   BodyVector        &displacement,
                   BodyVector        &velocity,
                   const FieldFiles  &files) const;

    private:
      /** The VTU output (Output/Field format = vtu). */
      std::string
      write_vtu(const double       t,
                const unsigned int index,
                const BodyVector  &displacement,
                const BodyVector  &velocity,
                const FieldFiles  &files) const;

      /** The names of the HDF5 cell fields: the stress's, "subdomain". */
      std::vector<std::string>
      cell_field_names() const;

      /**
       * The HDF5 cell fields of @p displacement (ghosts set), in the order
       * of cell_field_names(): one value per linear cell of the writer's
       * cells, the mean over the cell's corners.
       */
      std::vector<std::vector<double>>
      hdf5_cell_values(const BodyVector &displacement) const;

      const BodyDiscretization<dim> &discretization;
      const StressPostprocessor<dim> stress;
      /**
       * The HDF5 writer of the run writing into hdf5_directory, made (and
       * the mesh file written) at its first output.
       */
      mutable std::unique_ptr<Hdf5FieldWriter<dim>> hdf5;
      mutable std::string                           hdf5_directory;
    };
  } // namespace Body
} // namespace stickslip

#endif
