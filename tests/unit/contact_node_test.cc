// Unit tests of the contact/friction node solver shared by the slab and the
// finite-element body (src/friction/contact_node.h): Renard's boundary
// scheme, Renard 2001, eqs. (47)-(52), for a node of impedance Z, one step at a
// time against closed forms.
//
// Normal, unilateral (47)-(48), (51): from the predicted gap
// y = w^n + dt v_free, w^{n+1} = y^+; an open or opening node moves freely
// (v = v_free, S = 0); a closed one gets v = 0 (at_rest) or v = -w^n/dt
// (closes_gap), and S = Z (v - v_free).
// Normal, compliant (49)-(50): w' = v_free + max(-w, 0)/(Z eta) by the
// theta-method, w^{n+1} = y/(1 + theta dt/(Z eta)) for y < 0,
// v = v_free + max(-w^{n+1}, 0)/(Z eta), S = Z (v - v_free)
// = max(-w^{n+1}, 0)/eta.
// Tangential (52): a s + S mu(|s|) Dir(s) \ni r; for constant mu the
// closed form s = max(|r| - S mu, 0)/a r/|r|, f = r - a s.
//
// Most data are dyadic (Z = 2, dt = 1/8, mu = 1/4) so that the closed forms
// are met exactly and compared with EXPECT_EQ; results of a division by a
// non-dyadic number or of the slip-speed solve are compared to 1e-15 (a few
// eps_mach of order-1 values) or, for the iterative solve, 1e-14.
#include <friction/contact_node.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_contact_node
{
  using namespace stickslip;

  using Law = FrictionCoefficient::Law;

  constexpr double impedance   = 2.;
  constexpr double time_step   = 0.125;
  constexpr double tolerance   = 1e-15;
  constexpr double quarter     = 0.25;
  constexpr double nan         = std::numeric_limits<double>::quiet_NaN();
  constexpr double infinity    = std::numeric_limits<double>::infinity();
  constexpr auto   unilateral  = NormalContactLaw::unilateral;
  constexpr auto   compliant   = NormalContactLaw::compliant;
  constexpr auto   at_rest     = ClosingVelocity::at_rest;
  constexpr auto   closes_gap  = ClosingVelocity::closes_gap;
  constexpr auto   constant_mu = Law::constant;

  ContactNode
  node(const NormalContactLaw normal,
       const ClosingVelocity  closing,
       const double           compliance = quarter)
  {
    return ContactNode(
      ContactLaw{normal,
                 compliance,
                 closing,
                 FrictionCoefficient(constant_mu, quarter, quarter, 1.),
                 256});
  }

  /** The fig2 law of Renard 2001, Fig. 2: mu_s 0.8, mu_d 0.5, v_c 0.1, L_mu
   * = 6. */
  ContactNode
  fig2_node()
  {
    return ContactNode(ContactLaw{unilateral,
                                  1.,
                                  at_rest,
                                  FrictionCoefficient(Law::fig2, 0.8, 0.5, 0.1),
                                  256});
  }

  // ---- Normal direction, unilateral.

  // Open node: w^n = 1/4, v_free = -1: y = 1/8 > 0, the node moves freely
  // and no pressure acts, whichever closing rule.
  TEST(ContactNode, UnilateralOpenNodeMovesFreely)
  {
    for (const auto closing : {at_rest, closes_gap})
      {
        const NormalUpdate n =
          node(unilateral, closing)
            .normal_step(0.25, 0.125, -1., impedance, time_step);
        EXPECT_EQ(n.gap, 0.125);
        EXPECT_EQ(n.velocity, -1.);
        EXPECT_EQ(n.pressure, 0.);
      }
  }

  // Closing, closes_gap: w^n = 1/16, v_free = -1, y = 1/16 - 1/8 = -1/16:
  // w^{n+1} = 0, v = -w^n/dt = -1/2, so u^n + dt v = 1/16 - 1/16 lands on
  // the foundation, and S = Z (v - v_free) = 1 = -Z y/dt.
  TEST(ContactNode, ClosesGapLandsOnTheFoundation)
  {
    const double       w = 0.0625, v_free = -1., y = w + time_step * v_free;
    const NormalUpdate n = node(unilateral, closes_gap)
                             .normal_step(w, y, v_free, impedance, time_step);
    EXPECT_EQ(n.gap, 0.);
    EXPECT_EQ(n.velocity, -w / time_step);
    EXPECT_EQ(w + time_step * n.velocity, 0.);
    EXPECT_EQ(n.pressure, 1.);
    EXPECT_EQ(n.pressure, -impedance * y / time_step);
  }

  // The same with data that are not dyadic: w^n = 3e-3, v_free = -0.7,
  // dt = 1e-2, y = -4e-3: v = -0.3, S = -Z y/dt = 0.8 up to rounding, and
  // the node lands on the foundation to a rounding of w^n.
  TEST(ContactNode, ClosesGapRoundOff)
  {
    const double       w = 3e-3, v_free = -0.7, dt = 1e-2, y = w + dt * v_free;
    const NormalUpdate n =
      node(unilateral, closes_gap).normal_step(w, y, v_free, impedance, dt);
    EXPECT_EQ(n.gap, 0.);
    EXPECT_NEAR(n.velocity, -0.3, tolerance);
    EXPECT_NEAR(w + dt * n.velocity,
                0.,
                4 * std::numeric_limits<double>::epsilon() * w);
    EXPECT_NEAR(n.pressure, -impedance * y / dt, 4 * tolerance);
    EXPECT_NEAR(n.pressure, 0.8, 4 * tolerance);
  }

  // Closing, at_rest (the slab, (48)): the same data give v = 0 and the
  // pressure of the impulse that stops the node, S = -Z v_free = 2.
  TEST(ContactNode, AtRestClosingNodeStops)
  {
    const NormalUpdate n =
      node(unilateral, at_rest)
        .normal_step(0.0625, -0.0625, -1., impedance, time_step);
    EXPECT_EQ(n.gap, 0.);
    EXPECT_EQ(n.velocity, 0.);
    EXPECT_EQ(n.pressure, 2.);
  }

  // Persistent contact: w^n = 0, v_free = -1/2, y = -1/16: the node stays
  // closed at rest under both rules (closes_gap: -0/dt, a +0), S = 1.
  TEST(ContactNode, PersistentContact)
  {
    for (const auto closing : {at_rest, closes_gap})
      {
        const NormalUpdate n =
          node(unilateral, closing)
            .normal_step(0., -0.0625, -0.5, impedance, time_step);
        EXPECT_EQ(n.gap, 0.);
        EXPECT_EQ(n.velocity, 0.);
        EXPECT_FALSE(std::signbit(n.velocity)) << "+0, not -0";
        EXPECT_EQ(n.pressure, 1.);
      }
  }

  // Pulled away: in contact (w^n = 0), v_free = +1/2 opens the gap,
  // w^{n+1} = dt v_free = 1/16, v = v_free, S = 0. An opening node is free
  // even when the predicted gap is not positive (theta < 1 in the slab:
  // y = -1/16 with b3+ > 0): w^{n+1} = 0, S = 0, never a tension.
  TEST(ContactNode, PulledAwayNodeHasNoPressure)
  {
    for (const auto closing : {at_rest, closes_gap})
      {
        const ContactNode  contact = node(unilateral, closing);
        const NormalUpdate open =
          contact.normal_step(0., 0.0625, 0.5, impedance, time_step);
        EXPECT_EQ(open.gap, 0.0625);
        EXPECT_EQ(open.velocity, 0.5);
        EXPECT_EQ(open.pressure, 0.);
        const NormalUpdate opening =
          contact.normal_step(0., -0.0625, 0.5, impedance, time_step);
        EXPECT_EQ(opening.gap, 0.);
        EXPECT_EQ(opening.velocity, 0.5);
        EXPECT_EQ(opening.pressure, 0.);
      }
  }

  // ---- Normal direction, compliant.

  // Z = 2, eta = 1/4: Z eta = 1/2; theta = 1, dt = 1/8; w^n = 0,
  // v_free = -1, y = -1/8: w^{n+1} = (-1/8)/(1 + 1/4) = -1/10,
  // v = -1 + (1/10)/(1/2) = -4/5, S = Z (v - v_free) = 2/5 = (1/10)/eta;
  // and w^{n+1} = w^n + dt v (the implicit Euler step of (49)).
  TEST(ContactNode, CompliantClosedForm)
  {
    const NormalUpdate n =
      node(compliant, at_rest)
        .normal_step(0., -0.125, -1., impedance, time_step);
    EXPECT_NEAR(n.gap, -0.1, tolerance);
    EXPECT_NEAR(n.velocity, -0.8, tolerance);
    EXPECT_NEAR(n.pressure, 0.4, tolerance);
    EXPECT_NEAR(n.pressure, -n.gap / quarter, tolerance);
    EXPECT_NEAR(n.gap, 0. + time_step * n.velocity, tolerance);
  }

  // The implicit Euler identity w^{n+1} = w^n + dt v on data of the slab's
  // size (steel: Z = rho c2 = 4.5e7 Pa s/m, eta = 1e-15 m/Pa, dt = 3e-9 s,
  // w^n = -2e-10 m, v_free = -0.37 m/s), to a rounding of w^{n+1}; and the
  // theta-method (theta = 1/2) against its closed form.
  TEST(ContactNode, CompliantStepIsImplicitEuler)
  {
    const double Z = 4.5e7, eta = 1e-15, dt = 3e-9, w = -2e-10, v_free = -0.37;
    const ContactNode  contact = node(compliant, at_rest, eta);
    const NormalUpdate n =
      contact.normal_step(w, w + dt * v_free, v_free, Z, dt);
    EXPECT_LT(n.gap, 0.);
    EXPECT_NEAR(n.gap, w + dt * n.velocity, 1e-14 * std::abs(n.gap));
    EXPECT_NEAR(n.pressure, -n.gap / eta, 1e-12 * n.pressure);

    const double       y    = w + dt * v_free;
    const NormalUpdate half = contact.normal_step(w, y, v_free, Z, 0.5 * dt);
    EXPECT_NEAR(half.gap, y / (1 + 0.5 * dt / (Z * eta)), 1e-14 * std::abs(y));
  }

  // A compliant node that the step leaves open: w = y, free motion, S = 0.
  TEST(ContactNode, CompliantOpenNode)
  {
    const NormalUpdate n =
      node(compliant, at_rest)
        .normal_step(0.25, 0.125, -1., impedance, time_step);
    EXPECT_EQ(n.gap, 0.125);
    EXPECT_EQ(n.velocity, -1.);
    EXPECT_EQ(n.pressure, 0.);
  }

  // ---- Tangential direction, constant mu = 1/4.

  // S = 2 (S mu = 1/2), a = 1: r = (1/4, 1/4), |r| < 1/2: stuck, s = 0
  // exactly, f = r.
  TEST(ContactNode, TangentialStick)
  {
    const TangentialUpdate t =
      node(unilateral, at_rest)
        .tangential_step(1., 2., {{0.25, 0.25}}, {{0., 0.}});
    EXPECT_TRUE(t.stick);
    EXPECT_EQ(t.slip[0], 0.);
    EXPECT_EQ(t.slip[1], 0.);
    EXPECT_EQ(t.friction_force[0], 0.25);
    EXPECT_EQ(t.friction_force[1], 0.25);
    EXPECT_EQ(t.n_solutions, 1u);
  }

  // r = (3/4, 1), |r| = 5/4: sigma = 5/4 - 1/2 = 3/4, s = (0.45, 0.6),
  // f = S mu r/|r| = (0.3, 0.4) on the edge of the friction disc.
  TEST(ContactNode, TangentialSlip)
  {
    const TangentialUpdate t =
      node(unilateral, at_rest)
        .tangential_step(1., 2., {{0.75, 1.}}, {{0., 0.}});
    EXPECT_FALSE(t.stick);
    EXPECT_EQ(t.n_solutions, 1u);
    EXPECT_NEAR(t.slip[0], 0.45, tolerance);
    EXPECT_NEAR(t.slip[1], 0.6, tolerance);
    EXPECT_NEAR(t.friction_force[0], 0.3, tolerance);
    EXPECT_NEAR(t.friction_force[1], 0.4, tolerance);
  }

  // Separation (S = 0): free motion, s = r/a, f = 0.
  TEST(ContactNode, TangentialSeparation)
  {
    const TangentialUpdate t =
      node(unilateral, at_rest).tangential_step(4., 0., {{1., 2.}}, {{0., 0.}});
    EXPECT_EQ(t.slip[0], 0.25);
    EXPECT_EQ(t.slip[1], 0.5);
    EXPECT_EQ(t.friction_force[0], 0.);
    EXPECT_EQ(t.friction_force[1], 0.);
  }

  // The 2D body has one tangential direction: r = (r1, 0) must give the
  // scalar closed form s1 = sign(r1) max(|r1| - S mu, 0)/a, s2 = 0 and
  // f2 = 0 exactly; a = 2, S = 2 (S mu = 1/2). |r1| = 1/2 is on the edge
  // of the disc (stick).
  TEST(ContactNode, TwoDimensionalBodyIsScalar)
  {
    const ContactNode contact = node(unilateral, at_rest);
    const double      a = 2., S = 2., limit = S * quarter;
    for (const double r1 : {1.3, -1.3, 0.3, -0.3, 0.5, -0.5, 0.7, -12.25, 1e-3})
      {
        const TangentialUpdate t =
          contact.tangential_step(a, S, {{r1, 0.}}, {{0., 0.}});
        const double expected =
          std::copysign(std::max(std::abs(r1) - limit, 0.), r1) / a;
        EXPECT_NEAR(t.slip[0], expected, tolerance * std::max(1., std::abs(r1)))
          << r1;
        EXPECT_EQ(t.slip[1], 0.) << r1;
        EXPECT_EQ(t.friction_force[1], 0.) << r1;
        EXPECT_EQ(t.stick, std::abs(r1) <= limit) << r1;
        if (t.stick)
          {
            EXPECT_EQ(t.friction_force[0], r1) << "stuck: f = r";
          }
        else
          {
            EXPECT_NEAR(t.friction_force[0],
                        std::copysign(limit, r1),
                        4 * tolerance * std::max(1., std::abs(r1)))
              << "sliding: f = S mu sign(r), " << r1;
          }
      }
    // A decreasing law keeps the slip on the line as well.
    const TangentialUpdate t =
      fig2_node().tangential_step(8., 1., {{-3., 0.}}, {{0., 0.}});
    EXPECT_LT(t.slip[0], 0.);
    EXPECT_EQ(t.slip[1], 0.);
    EXPECT_EQ(t.friction_force[1], 0.);
  }

  // ---- Uniqueness and selection among several solutions.

  // a > S L_mu: fig2 has L_mu = 2 (0.3)/0.1 = 6; a = 1 is unique for
  // S < 1/6 only. A constant mu (L_mu = 0) is always unique.
  TEST(ContactNode, UniquenessPredicate)
  {
    const ContactNode fig2 = fig2_node();
    EXPECT_NEAR(fig2.friction_law().instantaneous().lipschitz_constant(),
                6.,
                1e-14);
    EXPECT_TRUE(fig2.unique(1., 0.));
    EXPECT_TRUE(fig2.unique(1., 0.16));
    EXPECT_FALSE(fig2.unique(1., 0.17));
    EXPECT_TRUE(fig2.unique(7., 1.));
    EXPECT_TRUE(node(unilateral, at_rest).unique(1e-6, 1e6));
  }

  // fig2, a = S = 1 <= S L_mu, |r| = 0.79: three solutions (stick,
  // sigma = (5 - sqrt 23.8)/60 = 0.002025 and sigma = 0.29, see
  // isotropic_inclusion_test.cc). In the direction (3/5, 4/5): a stuck
  // node stays stuck, a sliding one continues on the branch nearest its
  // slip; the friction force on the fast branch is S mu_d = 0.5 along r.
  TEST(ContactNode, SelectionAmongSeveralSolutions)
  {
    const ContactNode contact = fig2_node();
    const Tangential  e       = {{0.6, 0.8}};
    const Tangential  r       = {{0.79 * e[0], 0.79 * e[1]}};
    const double      small   = (5 - std::sqrt(23.8)) / 60;
    EXPECT_FALSE(contact.unique(1., 1.));

    const TangentialUpdate stuck =
      contact.tangential_step(1., 1., r, {{0., 0.}});
    EXPECT_EQ(stuck.n_solutions, 3u);
    EXPECT_TRUE(stuck.stick) << "stuck stays stuck";
    EXPECT_EQ(stuck.friction_force[0], r[0]);
    EXPECT_EQ(stuck.friction_force[1], r[1]);

    const TangentialUpdate fast =
      contact.tangential_step(1., 1., r, {{0.3 * e[0], 0.3 * e[1]}});
    EXPECT_EQ(fast.n_solutions, 3u);
    EXPECT_FALSE(fast.stick);
    for (unsigned int k = 0; k < 2; ++k)
      {
        EXPECT_NEAR(fast.slip[k], 0.29 * e[k], 1e-14) << "the fast branch";
        EXPECT_NEAR(fast.friction_force[k], 0.5 * e[k], 1e-14);
      }

    const TangentialUpdate slow =
      contact.tangential_step(1., 1., r, {{0.0015 * e[0], 0.0015 * e[1]}});
    EXPECT_FALSE(slow.stick);
    for (unsigned int k = 0; k < 2; ++k)
      EXPECT_NEAR(slow.slip[k], small * e[k], 1e-14) << "the slow branch";
  }

  // ---- Non-finite data.

  // A NaN or an infinite r, a or S is reported (n_solutions = 0, a NaN
  // slip) at once, without iterating; fig2 with a = S = 1 would otherwise
  // take the scan path.
  TEST(ContactNode, NonFiniteDataAreReported)
  {
    const ContactNode contact = fig2_node();
    const Tangential  finite  = {{0.79, 0.}};
    const struct
    {
      double     a, S;
      Tangential r;
    } cases[] = {{1., 1., {{nan, 0.}}},
                 {1., 1., {{0., infinity}}},
                 {1., 1., {{-infinity, nan}}},
                 {nan, 1., finite},
                 {infinity, 1., finite},
                 {1., nan, finite},
                 {1., infinity, finite}};
    for (const auto &c : cases)
      {
        const TangentialUpdate t =
          contact.tangential_step(c.a, c.S, c.r, {{0., 0.}});
        EXPECT_EQ(t.n_solutions, 0u)
          << c.a << " " << c.S << " " << c.r[0] << " " << c.r[1];
        EXPECT_EQ(t.iterations, 0u);
        EXPECT_FALSE(t.stick);
        EXPECT_TRUE(std::isnan(t.slip[0]) && std::isnan(t.slip[1]));
      }
  }
} // namespace unit_contact_node
