#include <base/local_values.h>
#include <friction/gamma_law.h>

#include <cmath>

namespace stickslip
{
  GammaLaw::GammaLaw()
    : type(Type::none)
  {}



  GammaLaw::Type
  GammaLaw::parse_type(const std::string &name)
  {
    return name == "smooth"           ? Type::smooth :
           name == "piecewise linear" ? Type::piecewise_linear :
                                        Type::none;
  }



  void
  GammaLaw::reinit(const Type               new_type,
                   const DistributedVector &new_beta,
                   const DistributedVector &new_epsilon)
  {
    type    = new_type;
    beta    = new_beta;
    epsilon = new_epsilon;
  }



  double
  GammaLaw::value(const Type   type,
                  const double beta,
                  const double epsilon,
                  const double xi)
  {
    switch (type)
      {
        case Type::none:
          return 0;
        case Type::smooth:
          return beta * xi / std::sqrt(epsilon * epsilon + xi * xi);
        case Type::piecewise_linear:
          return beta * std::min(1., std::max(-1., xi / epsilon));
      }
    return 0;
  }



  void
  GammaLaw::apply(const DistributedVector &w, DistributedVector &out) const
  {
    if (type == Type::none)
      {
        out = 0;
        return;
      }
    ConstLocalValues velocity(w);
    ConstLocalValues b(beta);
    ConstLocalValues e(epsilon);
    LocalValues      result(out);
    for (std::size_t k = 0; k < velocity.size(); ++k)
      result[k] = value(type, b[k], e[k], velocity[k]);
  }



  bool
  GammaLaw::is_zero() const
  {
    return type == Type::none;
  }



  GammaLaw::Type
  GammaLaw::law() const
  {
    return type;
  }



  const DistributedVector &
  GammaLaw::beta_values() const
  {
    return beta;
  }



  const DistributedVector &
  GammaLaw::epsilon_values() const
  {
    return epsilon;
  }
} // namespace stickslip
