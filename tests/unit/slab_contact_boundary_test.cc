// Unit tests of the slab's contact/friction node z = 0
// (src/models/slab/contact_boundary.h, doc/theory.md §4.6 steps 3-5; its laws
// are the shared ContactNode of src/friction/contact_node.h, tested on its
// own in contact_node_test.cc), one step at a time against closed forms.
// Material: rho = 1, G = 1, lambda = 2, so c1 = sqrt(G/rho) = 1, c2 =
// sqrt((lambda + 2G)/rho) = 2, impedances rho c2 = 2 (normal) and g = rho c1 =
// 1 (tangential); dt = 1/8, foundation velocity v_* = (1/2, 0), constant mu =
// 1/4.
//
// Normal direction, non-regularized (47)-(48), (51):
//   y = w^n + dt (theta b3+ + (1 - theta) u3,t^n),  w^{n+1} = y^+,
//   u3,t = b3+ if the gap is open or opening (b3+ > 0), else 0,
//   S = rho c2 (u3,t - b3+).
// Tangential direction (52) with theta = 1: a = m + g, m = epsilon/dt,
//   r = m v^n + g bT+ - a v_*; stick (v = v_*, f = r) iff |r| <= S mu,
//   else slip s = (|r| - S mu)/a r/|r|, v = v_* + s, f = S mu r/|r|.
// Tolerances: the numbers are dyadic where the closed form allows, and
// the results of a few operations on them are compared to 1e-15 (a few
// eps_mach of order-1 values); the stick velocity v_* is exact.
#include <models/slab/contact_boundary.h>
#include <models/slab/slab_parameters.h>

#include <gtest/gtest.h>

#include <array>
#include <cmath>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_slab_contact_boundary
{
  using namespace stickslip;
  using namespace stickslip::Slab;

  constexpr double time_step = 0.125;
  constexpr double tolerance = 1e-15;

  SlabParameters
  slab_parameters(const double theta, const double epsilon)
  {
    SlabParameters parameters{};
    parameters.lambda              = 2.;
    parameters.shear_modulus       = 1.;
    parameters.density             = 1.;
    parameters.foundation_velocity = 0.5;
    parameters.contact             = ContactTreatment::non_regularized;
    parameters.eta                 = 1.;
    parameters.epsilon             = epsilon;
    parameters.theta               = theta;
    parameters.friction.kind       = Parameters::FrictionLaw::Kind::constant;
    parameters.friction.static_coefficient     = "0.25";
    parameters.friction.dynamic_coefficient    = "0.25";
    parameters.friction.critical_slip_velocity = "1";
    parameters.friction.root_scan_points       = 256;
    parameters.friction.rupture_slip_rate      = 1e-3;
    parameters.friction.path                   = "Slab/Friction law";
    return parameters;
  }

  /** A state with the given normal part, stuck tangentially at v_*. */
  BoundaryState
  state(const double gap, const double normal_velocity, const double pressure)
  {
    BoundaryState s;
    s.gap             = gap;
    s.normal_velocity = normal_velocity;
    s.pressure        = pressure;
    s.velocity        = {{0.5, 0.}};
    s.incoming        = {{0.5, 0.}};
    s.friction_force  = {{0., 0.}};
    s.displacement    = {{0., 0.}};
    s.stick           = true;
    s.iterations      = 0;
    s.n_solutions     = 1;
    return s;
  }

  // ---- Normal direction.

  // Contact: gap 1/16, b3+ = -1: y = 1/16 - 1/8 < 0, the gap closes
  // (w = 0), the boundary stops (u3,t = 0) and the incoming wave is
  // reflected by the pressure S = rho c2 |b3+| = 2.
  TEST(SlabContactBoundary, GapClosesPressureFromImpulse)
  {
    const ContactBoundary boundary(slab_parameters(1., 0.), time_step);
    BoundaryState         s = state(0.0625, -1., 0.);
    boundary.step({{0.5, 0., -1.}}, s);
    EXPECT_EQ(s.gap, 0.);
    EXPECT_EQ(s.normal_velocity, 0.);
    EXPECT_EQ(s.pressure, 2.);
  }

  // theta = 1/2: gap 1/16, u3,t^n = -1/2, b3+ = -3/2:
  // y = 1/16 + 1/8 (-3/4 - 1/4) = -1/16 -> w = 0, S = 2 * 3/2 = 3.
  TEST(SlabContactBoundary, GapClosesThetaHalf)
  {
    const ContactBoundary boundary(slab_parameters(0.5, 0.), time_step);
    BoundaryState         s = state(0.0625, -0.5, 0.);
    boundary.step({{0.5, 0., -1.5}}, s);
    EXPECT_EQ(s.gap, 0.);
    EXPECT_EQ(s.normal_velocity, 0.);
    EXPECT_EQ(s.pressure, 3.);
  }

  // Approach without contact: gap 1/4, b3+ = -1: y = 1/8 > 0, the boundary
  // moves with b3+, no pressure.
  TEST(SlabContactBoundary, OpenGapNoPressure)
  {
    const ContactBoundary boundary(slab_parameters(1., 0.), time_step);
    BoundaryState         s = state(0.25, -1., 0.);
    boundary.step({{0.5, 0., -1.}}, s);
    EXPECT_EQ(s.gap, 0.125);
    EXPECT_EQ(s.normal_velocity, -1.);
    EXPECT_EQ(s.pressure, 0.);
  }

  // In contact (w = 0, S = 2), b3+ = -1/2: stays closed, S = 2 * 1/2 = 1.
  TEST(SlabContactBoundary, StaysInContact)
  {
    const ContactBoundary boundary(slab_parameters(1., 0.), time_step);
    BoundaryState         s = state(0., 0., 2.);
    boundary.step({{0.5, 0., -0.5}}, s);
    EXPECT_EQ(s.gap, 0.);
    EXPECT_EQ(s.pressure, 1.);
  }

  // Release (lift-off): in contact (w = 0, S = 2), b3+ = +1/2 pulls away:
  // w = dt b3+ = 1/16, u3,t = 1/2, S = 0; with S = 0 the surface moves
  // freely: s = r/a, r = g bT+ - a v_* = (1/4, 1/4) for bT+ = (3/4, 1/4).
  TEST(SlabContactBoundary, ReleaseLiftOffZeroPressure)
  {
    const ContactBoundary boundary(slab_parameters(1., 0.), time_step);
    BoundaryState         s = state(0., 0., 2.);
    boundary.step({{0.75, 0.25, 0.5}}, s);
    EXPECT_EQ(s.gap, 0.0625);
    EXPECT_EQ(s.normal_velocity, 0.5);
    EXPECT_EQ(s.pressure, 0.);
    EXPECT_FALSE(s.stick);
    EXPECT_EQ(s.velocity[0], 0.75);
    EXPECT_EQ(s.velocity[1], 0.25);
    EXPECT_EQ(s.friction_force[0], 0.);
    EXPECT_EQ(s.friction_force[1], 0.);
  }

  // ---- Tangential direction, in contact with S = 2 (b3+ = -1), S mu = 1/2.

  // Stick: bT+ = (3/4, 1/4), epsilon = 0 (a = g = 1): r = (1/4, 1/4),
  // |r| = 0.354 <= 1/2: v = v_* = (1/2, 0), f = r, u_T += dt v = (1/16, 0).
  TEST(SlabContactBoundary, FrictionStick)
  {
    const ContactBoundary boundary(slab_parameters(1., 0.), time_step);
    BoundaryState         s = state(0., 0., 2.);
    boundary.step({{0.75, 0.25, -1.}}, s);
    EXPECT_EQ(s.pressure, 2.);
    EXPECT_TRUE(s.stick);
    EXPECT_EQ(s.velocity[0], 0.5);
    EXPECT_EQ(s.velocity[1], 0.);
    EXPECT_EQ(s.friction_force[0], 0.25);
    EXPECT_EQ(s.friction_force[1], 0.25);
    EXPECT_EQ(s.displacement[0], 0.0625);
    EXPECT_EQ(s.displacement[1], 0.);
    EXPECT_EQ(s.incoming[0], 0.75);
    EXPECT_EQ(s.incoming[1], 0.25);
  }

  // Slip: bT+ = (5/4, 1), epsilon = 0: r = (3/4, 1), |r| = 5/4,
  // sigma = 5/4 - 1/2 = 3/4, s = 3/4 (3/5, 4/5) = (0.45, 0.6),
  // v = (0.95, 0.6), f = S mu r/|r| = (0.3, 0.4), u_T = dt v.
  TEST(SlabContactBoundary, FrictionSlip)
  {
    const ContactBoundary boundary(slab_parameters(1., 0.), time_step);
    BoundaryState         s = state(0., 0., 2.);
    boundary.step({{1.25, 1., -1.}}, s);
    EXPECT_FALSE(s.stick);
    EXPECT_NEAR(s.velocity[0], 0.95, tolerance);
    EXPECT_NEAR(s.velocity[1], 0.6, tolerance);
    EXPECT_NEAR(s.friction_force[0], 0.3, tolerance);
    EXPECT_NEAR(s.friction_force[1], 0.4, tolerance);
    EXPECT_NEAR(std::hypot(s.friction_force[0], s.friction_force[1]),
                0.5,
                tolerance)
      << "on the edge of the friction disc |f| = S mu";
    EXPECT_NEAR(s.displacement[0], time_step * 0.95, tolerance);
    EXPECT_NEAR(s.displacement[1], time_step * 0.6, tolerance);
  }

  // Slip with the surface mass epsilon = 1/16: m = epsilon/dt = 1/2,
  // a = 3/2; from v^n = v_* and bT+ = (1.4, 1.2): r = m v^n + g bT+ - a v_*
  // = (0.9, 1.2), |r| = 3/2, sigma = (3/2 - 1/2)/(3/2) = 2/3,
  // s = (0.4, 8/15), v = (0.9, 8/15), f = (0.3, 0.4).
  TEST(SlabContactBoundary, FrictionSlipWithSurfaceMass)
  {
    const ContactBoundary boundary(slab_parameters(1., 0.0625), time_step);
    BoundaryState         s = state(0., 0., 2.);
    boundary.step({{1.4, 1.2, -1.}}, s);
    EXPECT_FALSE(s.stick);
    EXPECT_NEAR(s.velocity[0], 0.9, tolerance);
    EXPECT_NEAR(s.velocity[1], 8. / 15, tolerance);
    EXPECT_NEAR(s.friction_force[0], 0.3, tolerance);
    EXPECT_NEAR(s.friction_force[1], 0.4, tolerance);
  }

  // Initial state from equilibrium data in contact: u^0 = 0 at z = 0,
  // u^0_3,3 = -1/4 (compression), u^1 = (v_*, 0, 0), u_T,3 = (1/8, 0):
  // b3+ = u3,t + c2 u3,3 = -1/2 <= 0, so u3,t = 0 and
  // S = -(lambda + 2G) u3,3 = 1; stuck (v = v_*), f = G u_T,3 = (1/8, 0),
  // inside the disc |f| <= S mu = 1/4.
  TEST(SlabContactBoundary, InitialStateInEquilibrium)
  {
    const ContactBoundary boundary(slab_parameters(1., 0.), time_step);
    const BoundaryState   s = boundary.initial_state({{0., 0., 0.}},
                                                   {{0.125, 0., -0.25}},
                                                   {{0.5, 0., 0.}});
    EXPECT_EQ(s.gap, 0.);
    EXPECT_EQ(s.normal_velocity, 0.);
    EXPECT_EQ(s.pressure, 1.);
    EXPECT_TRUE(s.stick);
    EXPECT_EQ(s.friction_force[0], 0.125);
    EXPECT_EQ(s.friction_force[1], 0.);
    EXPECT_EQ(s.incoming[0], 0.625);
  }

  // (52) is uniquely solvable iff m + g > S L_mu (doc/theory.md §4.7): for the
  // fig2 law mu_s = 0.8, mu_d = 0.5, v_c = 0.1, L_mu = 2 (0.3)/0.1 = 6 and
  // m + g = 1 (epsilon = 0): unique for S < 1/6 only. Constant mu: always.
  TEST(SlabContactBoundary, UniquenessCondition)
  {
    SlabParameters parameters = slab_parameters(1., 0.);
    parameters.friction.kind  = Parameters::FrictionLaw::Kind::fig2;
    parameters.friction.static_coefficient     = "0.8";
    parameters.friction.dynamic_coefficient    = "0.5";
    parameters.friction.critical_slip_velocity = "0.1";
    const ContactBoundary boundary(parameters, time_step);
    EXPECT_TRUE(boundary.unique_at(0.));
    EXPECT_TRUE(boundary.unique_at(0.16));
    EXPECT_FALSE(boundary.unique_at(0.17));
    const ContactBoundary constant_mu(slab_parameters(1., 0.), time_step);
    EXPECT_TRUE(constant_mu.unique_at(1e6));
  }
} // namespace unit_slab_contact_boundary
