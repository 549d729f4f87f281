#include <deal.II/base/data_out_base.h>
#include <deal.II/base/mpi.h>

#include <base/field_files.h>
#include <base/input_error.h>
#include <base/pvd_record.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** The end of an XDMF time series after its grids. */
    const std::string xdmf_series_tail = "</Grid>\n</Domain>\n</Xdmf>\n";

    /** Whether @p name ends with @p end. */
    bool
    ends_with(const std::string &name, const std::string &end)
    {
      return name.size() > end.size() &&
             name.compare(name.size() - end.size(), end.size(), end) == 0;
    }



    /**
     * Whether the output @p name is listed in an XDMF series: an XDMF
     * record, or an HDF5 series file (Hdf5::SeriesWriter).
     */
    bool
    is_xdmf_name(const std::string &name)
    {
      return ends_with(name, ".xdmf") || ends_with(name, ".h5");
    }



    /** @p text with every @p placeholder replaced by @p value. */
    std::string
    replace_all(std::string        text,
                const std::string &placeholder,
                const std::string &value)
    {
      for (auto at = text.find(placeholder); at != std::string::npos;
           at      = text.find(placeholder, at + value.size()))
        text.replace(at, placeholder.size(), value);
      return text;
    }
  } // namespace



  PvdRecord::PvdRecord(const std::string &series)
    : series(series)
  {}



  void
  PvdRecord::add(const double           t,
                 const std::string     &record_name,
                 const OutputDirectory &directory)
  {
    outputs.emplace_back(t, record_name);
    if (rewrite_due(directory))
      write(directory, false);
  }



  void
  PvdRecord::flush(const OutputDirectory &directory) const
  {
    if (xdmf_directory == directory.path() && listed < outputs.size())
      write(directory);
  }



  bool
  PvdRecord::rewrite_due(const OutputDirectory &directory) const
  {
    if (xdmf_directory != directory.path() || outputs.empty() ||
        !is_xdmf_name(outputs.back().second))
      return true;
    const std::size_t allowed_lag = std::max<std::size_t>(1, listed / 16);
    return outputs.size() - listed > allowed_lag;
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
  PvdRecord::write(const OutputDirectory &directory, const bool durable) const
  {
    const auto is_xdmf = [](const std::pair<double, std::string> &output) {
      return is_xdmf_name(output.second);
    };
    const bool root =
      Utilities::MPI::this_mpi_process(directory.communicator()) == 0;
    const bool as_xdmf =
      !outputs.empty() && std::all_of(outputs.begin(), outputs.end(), is_xdmf);
    xdmf_directory.clear();
    if (!as_xdmf)
      {
        std::ostringstream xml;
        DataOutBase::write_pvd_record(xml, outputs);
        directory.write_atomically(series + ".pvd", xml.str());
      }
    else
      {
        // Rank 0 writes the file.
        std::string xml, error;
        if (root)
          error = xdmf_series(directory, xml);
        if (root && error.empty())
          error = write_file_atomically(directory.file(series + ".xdmf"),
                                        xml,
                                        durable);
        throw_if_any_failed(error, directory.communicator());
        if (!root)
          grids.resize(outputs.size());
        xdmf_directory = directory.path();
        listed         = outputs.size();
      }
    // The series of the other format, of an earlier run or of this one
    // before a resume with another Output/Field format, would be stale.
    if (root)
      {
        std::error_code code;
        std::filesystem::remove(directory.file(series +
                                               (as_xdmf ? ".pvd" : ".xdmf")),
                                code);
      }
  }



  std::string
  PvdRecord::grid_of_record(const OutputDirectory &directory,
                            const std::size_t      k,
                            std::string           &error) const
  {
    // The record's <Grid> (of an output in a series file: its template's,
    // for this output), its HDF5 files named relative to the output
    // directory instead of the record's folder.
    const auto read = [&](const std::string &file) {
      std::ifstream in(directory.file(file));
      return std::string((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
    };
    const std::string &name = outputs[k].second;
    if (!ends_with(name, ".h5"))
      return grid_in(directory, name, read(name), error);
    const std::string source = FieldFiles::series_template_name(name);
    auto              cached = templates.find(source);
    if (cached == templates.end())
      cached = templates.emplace(source, read(source)).first;
    const long         first = FieldFiles::series_file_first_output(name);
    std::ostringstream time;
    time.precision(17);
    time << outputs[k].first;
    std::string text = replace_all(cached->second, "{TIME}", time.str());
    text = replace_all(text, "{ROW}", std::to_string(long(k) - first));
    text = replace_all(text,
                       "{NAME}",
                       series + "_" + Utilities::int_to_string(k, 5));
    return grid_in(directory, source, text, error);
  }



  std::string
  PvdRecord::grid_in(const OutputDirectory &directory,
                     const std::string     &name,
                     const std::string     &text,
                     std::string           &error) const
  {
    const auto begin = text.find("<Grid");
    const auto end   = text.rfind("</Grid>");
    if (begin == std::string::npos || end == std::string::npos)
      {
        error = "the field record " + directory.file(name) +
                " is missing or not an XDMF grid";
        return "";
      }
    std::string       grid   = text.substr(begin, end + 7 - begin);
    const std::string marker = "Format=\"HDF\">";
    const std::string folder = name.find('/') == std::string::npos ?
                                 "" :
                                 name.substr(0, name.rfind('/') + 1);
    for (auto at = grid.find(marker); at != std::string::npos;
         at      = grid.find(marker, at + marker.size() + folder.size()))
      grid.insert(at + marker.size(), folder);
    return grid + "\n";
  }



  std::string
  PvdRecord::xdmf_series(const OutputDirectory &directory,
                         std::string           &xml) const
  {
    if (grids.size() > outputs.size())
      grids.clear();
    for (std::size_t k = grids.size(); k < outputs.size(); ++k)
      {
        std::string error;
        grids.push_back(grid_of_record(directory, k, error));
        if (!error.empty())
          {
            grids.pop_back();
            return error;
          }
      }
    xml = "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n"
          "<Domain>\n<Grid Name=\"" +
          series +
          "\" GridType=\"Collection\" "
          "CollectionType=\"Temporal\">\n";
    for (const std::string &grid : grids)
      xml += grid;
    xml += xdmf_series_tail;
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
    templates.clear();
    xdmf_directory.clear();
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
