#include <deal.II/base/data_out_base.h>

#include <base/input_error.h>
#include <base/pvd_record.h>

#include <cctype>
#include <sstream>

namespace stickslip
{
  PvdRecord::PvdRecord(const std::string &series)
    : series(series)
  {}



  void
  PvdRecord::add(const double           t,
                 const std::string     &record_name,
                 const OutputDirectory &directory)
  {
    outputs.emplace_back(t, record_name);
    write(directory);
  }



  unsigned int
  PvdRecord::size() const
  {
    return outputs.size();
  }



  const std::vector<std::pair<double, std::string>> &
  PvdRecord::entries() const
  {
    return outputs;
  }



  void
  PvdRecord::write(const OutputDirectory &directory) const
  {
    std::ostringstream xml;
    DataOutBase::write_pvd_record(xml, outputs);
    directory.write_atomically(series + ".pvd", xml.str());
  }



  std::string
  PvdRecord::to_text() const
  {
    std::ostringstream text;
    text.precision(17);
    text << "fields " << outputs.size() << '\n';
    for (const auto &output : outputs)
      text << output.first << ' ' << output.second << '\n';
    return text.str();
  }



  void
  PvdRecord::from_text(std::istream &in)
  {
    std::string  word;
    unsigned int n_outputs = 0;
    if (!(in >> word >> n_outputs) || word != "fields")
      throw InputError("a snapshot's list of field outputs is unreadable");
    outputs.clear();
    for (unsigned int i = 0; i < n_outputs; ++i)
      {
        double      time;
        std::string name;
        if (!(in >> time >> name))
          throw InputError("a snapshot's list of field outputs is incomplete");
        if (!is_inside_output_directory(name))
          throw InputError("a snapshot lists the field output '" + name +
                           "', which is not a file of its output directory");
        outputs.emplace_back(time, name);
      }
  }



  bool
  PvdRecord::is_inside_output_directory(const std::string &name)
  {
    if (name.empty() || name.front() == '/' || name.back() == '/')
      return false;
    std::istringstream parts(name);
    std::string        part;
    while (std::getline(parts, part, '/'))
      {
        if (part.empty() || part == "." || part == "..")
          return false;
        for (const char c : part)
          if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' &&
              c != '-' && c != '.')
            return false;
      }
    return true;
  }
} // namespace stickslip
