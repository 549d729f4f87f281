#include <deal.II/base/data_out_base.h>
#include <deal.II/base/mpi.h>

#include <base/input_error.h>
#include <base/pvd_record.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
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
    const auto is_xdmf = [](const std::pair<double, std::string> &output) {
      const std::string &name = output.second;
      return name.size() > 5 && name.compare(name.size() - 5, 5, ".xdmf") == 0;
    };
    if (outputs.empty() ||
        !std::all_of(outputs.begin(), outputs.end(), is_xdmf))
      {
        std::ostringstream xml;
        DataOutBase::write_pvd_record(xml, outputs);
        directory.write_atomically(series + ".pvd", xml.str());
        return;
      }
    // Rank 0 writes the file.
    std::string xml, error;
    if (Utilities::MPI::this_mpi_process(directory.communicator()) == 0)
      error = xdmf_series(directory, xml);
    throw_if_any_failed(error, directory.communicator());
    directory.write_atomically(series + ".xdmf", xml);
  }



  std::string
  PvdRecord::xdmf_series(const OutputDirectory &directory,
                         std::string           &xml) const
  {
    if (grids.size() > outputs.size())
      grids.clear();
    for (std::size_t k = grids.size(); k < outputs.size(); ++k)
      {
        // The record's <Grid>, its HDF5 files named relative to the output
        // directory instead of the record's folder.
        const std::string &name = outputs[k].second;
        std::ifstream      in(directory.file(name));
        const std::string  text((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
        const auto         begin = text.find("<Grid");
        const auto         end   = text.rfind("</Grid>");
        if (begin == std::string::npos || end == std::string::npos)
          return "the field record " + directory.file(name) +
                 " is missing or not an XDMF grid";
        std::string       grid   = text.substr(begin, end + 7 - begin);
        const std::string marker = "Format=\"HDF\">";
        const std::string folder = name.find('/') == std::string::npos ?
                                     "" :
                                     name.substr(0, name.rfind('/') + 1);
        for (auto at = grid.find(marker); at != std::string::npos;
             at      = grid.find(marker, at + marker.size() + folder.size()))
          grid.insert(at + marker.size(), folder);
        grids.push_back(grid + "\n");
      }
    xml = "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n"
          "<Domain>\n<Grid Name=\"" +
          series +
          "\" GridType=\"Collection\" "
          "CollectionType=\"Temporal\">\n";
    for (const std::string &grid : grids)
      xml += grid;
    xml += "</Grid>\n</Domain>\n</Xdmf>\n";
    return "";
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
    grids.clear();
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
