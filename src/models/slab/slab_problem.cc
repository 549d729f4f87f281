#include <base/expressions.h>
#include <models/slab/slab_problem.h>

#include <array>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace stickslip
{
  namespace Slab
  {
    namespace
    {
      /**
       * Three muParser expressions of z (u^0 or u^1), checked with an
       * InputError naming @p path. Derivatives (u^0_,3) are taken by
       * fourth-order central differences with step 1e-3 H (relative error
       * about 1e-12 for data varying on the scale H).
       */
      std::unique_ptr<FunctionParser<1>>
      parse_profile(const std::string     &text,
                    const std::string     &path,
                    const double           height,
                    const ParameterSource &source)
      {
        const std::vector<std::string> pieces = split_and_trim(text, ';');
        if (pieces.size() != 3)
          throw_bad_parameter(source,
                              path,
                              text,
                              "three expressions of z separated by ';' (one "
                              "per displacement component), found " +
                                std::to_string(pieces.size()));
        auto function =
          parse_function<1>(text, "z", path, source, 3, 1e-3 * height);
        function->set_formula(AutoDerivativeFunction<1>::FourthOrder);
        return function;
      }



    } // namespace



    SlabProblem::SlabProblem(const SlabParameters     &slab,
                             const Parameters::Time   &time,
                             const ParameterSource    &source,
                             const MPI_Comm            comm,
                             const ConditionalOStream &pcout)
      : source(source)
      , comm(comm)
      , pcout(pcout)
      , slab(slab)
      , time(time)
      , contact_gap_tolerance(0)
    {
      if (!time.convergence_time_steps.empty())
        throw_bad_parameter(source,
                            "Time/Convergence time steps",
                            time.convergence_time_steps_text,
                            "the slab refines at constant dt/dz: leave it "
                            "empty and list the grids in Slab/Convergence "
                            "cells (with Slab/CFL number)");
      if (slab.cfl_number == 0 && !(time.time_step > 0))
        throw_bad_parameter(source,
                            "Time/Time step",
                            format_number(time.time_step),
                            "the time step must be positive (or set Slab/CFL "
                            "number > 0)");

      displacement_function = parse_profile(slab.initial_displacement,
                                            "Slab/Initial displacement",
                                            slab.height,
                                            source);
      velocity_function     = parse_profile(slab.initial_velocity,
                                        "Slab/Initial velocity",
                                        slab.height,
                                        source);
      check_initial_data();

      const std::vector<unsigned int> cells =
        slab.convergence_cells.empty() ?
          std::vector<unsigned int>{slab.n_cells} :
          slab.convergence_cells;
      for (const unsigned int n : cells)
        discretizations.push_back(discretization(n));
    }



    const SlabParameters &
    SlabProblem::parameters() const
    {
      return slab;
    }



    const std::vector<Discretization> &
    SlabProblem::runs() const
    {
      return discretizations;
    }



    double
    SlabProblem::initial_time() const
    {
      return time.initial_time;
    }



    double
    SlabProblem::gap_tolerance() const
    {
      return contact_gap_tolerance;
    }



    std::string
    SlabProblem::description() const
    {
      std::ostringstream out;
      // The wave speeds by their names (c1, c2 of Renard 2001), to 4 digits.
      out << "slab model (Renard 2001), H = " << slab.height
          << " m, S waves c1 = " << std::setprecision(4) << slab.c1()
          << " m/s, P waves c2 = " << slab.c2() << " m/s, "
          << std::setprecision(6)
          << (slab.interior_scheme == InteriorScheme::upwind ?
                "upwind (42)-(43)" :
                "Lax-Wendroff")
          << " interior, "
          << (slab.contact == ContactTreatment::regularized ? "regularized" :
                                                              "non-regularized")
          << " contact, theta = " << slab.theta
          << ", epsilon = " << slab.epsilon
          << " kg/m^2, mu: " << slab.friction_law().description();
      return out.str();
    }



    Discretization
    SlabProblem::discretization(const unsigned int n_cells) const
    {
      const std::string  cells_path = slab.convergence_cells.empty() ?
                                        "Slab/Number of cells" :
                                        "Slab/Convergence cells";
      const unsigned int n_ranks    = Utilities::MPI::n_mpi_processes(comm);
      if (n_cells + 1 < 2 * n_ranks)
        throw_bad_parameter(source,
                            cells_path,
                            std::to_string(n_cells),
                            "every one of the " + std::to_string(n_ranks) +
                              " MPI ranks needs at least two of the N_z + 1 "
                              "nodes: N_z >= " +
                              std::to_string(2 * n_ranks - 1));
      Discretization d;
      d.n_cells       = n_cells;
      const double dz = slab.height / n_cells;
      const double c2 = slab.c2();
      if (slab.cfl_number > 0)
        {
          // dt from the CFL number; the final time is rounded up to a whole
          // number of steps so that d2 is exactly the requested number.
          d.time_step = slab.cfl_number * dz / c2;
          d.n_steps   = static_cast<unsigned int>(std::ceil(
            (time.final_time - time.initial_time) / d.time_step - 1e-9));
        }
      else
        {
          d.time_step     = time.time_step;
          d.n_steps       = time.n_steps(time.time_step, source);
          const double d2 = c2 * time.time_step / dz;
          if (d2 > 1 + 1e-12)
            throw_bad_parameter(
              source,
              "Time/Time step",
              format_number(time.time_step),
              "the CFL condition d2 = c2 dt/dz <= 1 of the slab scheme "
              "(Renard 2001, §6.2, Props. 4-7) is violated: c2 = " +
                format_number(c2) + " m/s, dz = H/N_z = " + format_number(dz) +
                " m give d2 = " + format_number(d2) +
                ". Choose dt <= dz/c2 = " + format_number(dz / c2) +
                " s, fewer cells, or set Slab/CFL number");
        }
      return d;
    }



    double
    SlabProblem::initial_displacement(const double       z,
                                      const unsigned int k) const
    {
      return displacement_function->value(Point<1>(z), k);
    }



    double
    SlabProblem::initial_gradient(const double z, const unsigned int k) const
    {
      return displacement_function->gradient(Point<1>(z), k)[0];
    }



    double
    SlabProblem::initial_velocity(const double z, const unsigned int k) const
    {
      return velocity_function->value(Point<1>(z), k);
    }



    void
    SlabProblem::check_finite_initial_data() const
    {
      NonFiniteData check;
      check.set_source(source);
      const std::vector<unsigned int> grids =
        slab.convergence_cells.empty() ?
          std::vector<unsigned int>{slab.n_cells} :
          slab.convergence_cells;
      const double t0 = time.initial_time;
      for (const unsigned int n : grids)
        for (unsigned int j = 0; j <= n; ++j)
          for (unsigned int k = 0; k < 3; ++k)
            {
              const double z     = j * slab.height / n;
              const auto   point = [&]() {
                return "z = " + format_number(z) + " (node " +
                       std::to_string(j) + " of N_z = " + std::to_string(n) +
                       "), component " + std::to_string(k + 1);
              };
              check.note("Slab/Initial displacement",
                         slab.initial_displacement,
                         t0,
                         initial_displacement(z, k),
                         point);
              check.note("Slab/Initial displacement",
                         slab.initial_displacement,
                         t0,
                         initial_gradient(z, k),
                         [&]() { return point() + " (its z-derivative)"; });
              check.note("Slab/Initial velocity",
                         slab.initial_velocity,
                         t0,
                         initial_velocity(z, k),
                         point);
            }
      check.throw_if_found(comm, true);
    }



    void
    SlabProblem::check_initial_data()
    {
      check_finite_initial_data();
      const double H = slab.height, D = slab.compression;
      // Tolerances relative to the size of the data (sampled on 101 points).
      double u_scale = D, v_scale = 0;
      for (unsigned int j = 0; j <= 100; ++j)
        for (unsigned int k = 0; k < 3; ++k)
          {
            u_scale =
              std::max(u_scale, std::abs(initial_displacement(j * H / 100, k)));
            v_scale =
              std::max(v_scale, std::abs(initial_velocity(j * H / 100, k)));
          }
      const double u_tolerance = 1e-9 * u_scale + 1e-300;
      const double v_tolerance = 1e-9 * v_scale + 1e-300;
      // A gap of round-off size (e.g. exp(-64) from a bump's tail) is
      // contact: an open gap would make the boundary free at t0.
      contact_gap_tolerance           = u_tolerance;
      const std::array<double, 3> top = {{0, 0, -D}};
      for (unsigned int k = 0; k < 3; ++k)
        {
          if (std::abs(initial_displacement(H, k) - top[k]) > u_tolerance)
            throw_bad_parameter(
              source,
              "Slab/Initial displacement",
              slab.initial_displacement,
              "the initial displacement must match the top condition (12): "
              "u^0(H) = (0, 0, -D) with D = Slab/Compression = " +
                format_number(D) + ", but component " + std::to_string(k + 1) +
                " is " + format_number(initial_displacement(H, k)));
          if (std::abs(initial_velocity(H, k)) > v_tolerance)
            throw_bad_parameter(source,
                                "Slab/Initial velocity",
                                slab.initial_velocity,
                                "the top is fixed: u^1(H) = 0, but component " +
                                  std::to_string(k + 1) + " is " +
                                  format_number(initial_velocity(H, k)));
        }
      const double gap = initial_displacement(0, 2);
      if (gap < -u_tolerance)
        throw_bad_parameter(
          source,
          "Slab/Initial displacement",
          slab.initial_displacement,
          "inconsistent initial data at the contact: u^0_3(0) = " +
            format_number(gap) +
            " < 0 means the slab starts inside the foundation (Renard 2001, eq. (3) "
            "needs u_3(t, 0) >= 0)");
      // Stress at an open gap or tension in contact is not an equilibrium
      // of the contact law; the first step projects it (a warning only).
      const double stress =
        (slab.lambda + 2 * slab.shear_modulus) * initial_gradient(0, 2);
      const double stress_scale =
        (slab.lambda + 2 * slab.shear_modulus) * u_scale / H;
      if (std::abs(stress) > 1e-6 * stress_scale &&
          (gap > u_tolerance || stress > 0))
        pcout << "  warning: initial data inconsistent with the contact "
                 "condition at z = 0 (u^0_3(0) = "
              << gap << ", normal stress (lambda+2G) u^0_3,3(0) = " << stress
              << " Pa); the first time step projects them onto the contact "
                 "law (Slab/Initial displacement)."
              << std::endl;
    }



  } // namespace Slab
} // namespace stickslip
