#ifndef stickslip_models_body_body_output_h
#define stickslip_models_body_body_output_h

#include <deal.II/numerics/data_postprocessor.h>

#include <base/field_files.h>
#include <base/global.h>
#include <models/body/body_discretization.h>
#include <models/body/contact_surface.h>

#include <string>

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

    private:
      const double lambda;
      const double shear_modulus;
    };



    /**
     * The field files of the body (doc/body.md, issue "Output"): the
     * volume fields as output K of solution/solution_K.pvtu (displacement
     * and velocity as vectors, so that ParaView's Warp By Vector applies at
     * once; the stress components and von Mises; the subdomain), and the
     * contact surface as output K of solution/contact_K.pvtu (DataOutFaces
     * on Gamma_C: the scalars of ContactSurface::scalar_field_names() (gap,
     * pressure, slip rate, state 0/1/2 = separated, stuck, slipping, the
     * mobilized friction |tau|/S, the uniqueness ratio S L_mu/Z); the
     * displacement, friction traction and slip velocity as vectors).
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

      /**
       * Write output @p index of the series "contact" at time @p t: the
       * faces of the boundary @p contact_id with the nodal fields of
       * @p contact and the displacement (collective). Returns the record's
       * name.
       */
      std::string
      write_contact(const double               t,
                    const unsigned int         index,
                    BodyVector                &displacement,
                    const ContactSurface<dim> &contact,
                    const types::boundary_id   contact_id,
                    const FieldFiles          &files) const;

    private:

      const BodyDiscretization<dim> &discretization;
      const StressPostprocessor<dim> stress;
    };
  } // namespace Body
} // namespace stickslip

#endif
