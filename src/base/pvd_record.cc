#include <deal.II/base/data_out_base.h>
#include <deal.II/base/mpi.h>

#include <base/expressions.h>
#include <base/field_files.h>
#include <base/hdf5_series_file.h>
#include <base/input_error.h>
#include <base/pvd_record.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
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



    /**
     * The values of the XML attribute or data item that follow each
     * @p marker in @p text up to @p end: the pieces of a .pvtu record
     * (Source="..."), the HDF5 files of an XDMF text ("FILE:/DATASET"
     * after Format="HDF">).
     */
    std::vector<std::string>
    values_after(const std::string &text,
                 const std::string &marker,
                 const std::string &end)
    {
      std::vector<std::string> values;
      for (auto at = text.find(marker); at != std::string::npos;
           at      = text.find(marker, at + marker.size()))
        {
               const auto begin = at + marker.size();
               const auto stop  = text.find(end, begin);
               if (stop != std::string::npos)
            values.push_back(text.substr(begin, stop - begin));
        }
      return values;
    }



    /** The folder part of @p name, with its '/' ("" if none). */
    std::string
    folder_of(const std::string &name)
    {
      const auto slash = name.rfind('/');
      return slash == std::string::npos ? "" : name.substr(0, slash + 1);
    }



    /** The text of @p path, or false if it cannot be read. */
    bool
    read_text(const std::string &path, std::string &text)
    {
      std::ifstream in(path, std::ios::binary);
      if (!in || std::filesystem::is_directory(path))
        return false;
      text.assign(std::istreambuf_iterator<char>(in),
                  std::istreambuf_iterator<char>());
      return !in.bad();
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



    /**
     * The files of an output directory that a resumed run's check reads,
     * each read once (rank 0): HDF5 files, and series files.
     */
    class OutputFileChecks
    {
    public:
      explicit OutputFileChecks(const OutputDirectory &directory)
        : directory(directory)
      {}

      /** What a series file holds (Hdf5::SeriesFile::read()). */
      struct Series
      {
        std::string         problem;
        std::vector<double> times;
        std::string         kept_template;
      };

      /**
       * The HDF5 file @p name (relative to the directory): "" or what is
       * wrong with it ("is missing", "cannot be read: ..."), and its time
       * (NaN if it has none).
       */
      const std::pair<std::string, double> &
      hdf5(const std::string &name)
      {
        auto found = opened.find(name);
        if (found == opened.end())
          {
            double      time   = std::numeric_limits<double>::quiet_NaN();
            std::string reason = "is missing";
            if (std::filesystem::exists(directory.file(name)))
              {
                reason = Hdf5::check_readable(directory.file(name), time);
                if (!reason.empty())
                  reason = "cannot be read: " + reason;
              }
            found = opened.emplace(name, std::make_pair(reason, time)).first;
          }
        return found->second;
      }

      /** The series file @p name (relative to the directory). */
      const Series &
      series(const std::string &name)
      {
        auto found = series_files.find(name);
        if (found == series_files.end())
          {
            Series file;
            if (!std::filesystem::exists(directory.file(name)))
              file.problem = "is missing";
            else
              {
                file.problem = Hdf5::SeriesFile::read(directory.file(name),
                                                      file.times,
                                                      file.kept_template);
                if (!file.problem.empty())
                  file.problem = "cannot be read: " + file.problem;
              }
            found = series_files.emplace(name, file).first;
          }
        return found->second;
      }

      const OutputDirectory &directory;

    private:
      std::map<std::string, std::pair<std::string, double>> opened;
      std::map<std::string, Series>                         series_files;
    };



    /**
     * The check of output @p k of @p series, at @p t in the record @p name,
     * for a resumed run (rank 0): "" or the problem. A missing template of
     * a series file that keeps its text goes to @p missing_templates.
     */
    std::string
    check_output(const std::string                  &series,
                 const std::size_t                   k,
                 const double                        t,
                 const std::string                  &name,
                 OutputFileChecks                   &checks,
                 std::map<std::string, std::string> &missing_templates)
    {
      const OutputDirectory &directory = checks.directory;
      const std::string      output =
        ends_with(name, ".h5") ?
               "output " + std::to_string(k) + " of the series " + series +
            " (t = " + format_number(t) + "), which the snapshot lists," :
               "the field output " + name + " (output " + std::to_string(k) +
            " of " + series + ", t = " + format_number(t) +
            ") that the snapshot lists";
      std::string text;
      if (ends_with(name, ".pvtu") || ends_with(name, ".xdmf"))
        {
          if (!read_text(directory.file(name), text))
            return output + " is missing or unreadable";
          if (ends_with(name, ".pvtu"))
            {
              if (text.find("<PUnstructuredGrid") == std::string::npos)
                return output + " is not a .pvtu record";
              for (const std::string &piece :
                   values_after(text, "Source=\"", "\""))
                if (!std::filesystem::is_regular_file(
                      directory.file(folder_of(name) + piece)))
                  return output + " names the piece " + folder_of(name) +
                         piece + ", which is missing";
              return "";
            }
          if (text.find("<Grid") == std::string::npos)
            return output + " is not an XDMF record";
        }
      else if (ends_with(name, ".h5"))
        {
          const OutputFileChecks::Series &file = checks.series(name);
          if (!file.problem.empty())
            return output + " is written in the series file " + name +
                   ", which " + file.problem;
          const std::size_t slot =
            k - FieldFiles::series_file_first_output(name);
          if (slot >= file.times.size() || !(file.times[slot] == t))
            return output + " is not in the series file " + name +
                   ", which holds " +
                   (slot < file.times.size() && !std::isnan(file.times[slot]) ?
                      "t = " + format_number(file.times[slot]) :
                      std::string("no time")) +
                   " for it (it is not the file this run wrote)";
          const std::string source = FieldFiles::series_template_name(name);
          if (!read_text(directory.file(source), text) ||
              text.find("<Grid") == std::string::npos)
            {
              if (file.kept_template.empty())
                return "the XDMF template " + source + " of the series file " +
                       name +
                       " is missing or damaged, and the series file does not "
                       "keep its text (an earlier stickslip wrote it)";
              missing_templates[source] = file.kept_template;
              text                      = file.kept_template;
            }
        }
      else
        return output + " is neither a .pvtu nor an XDMF record";
      // The HDF5 files the record or template names (relative to its
      // folder), and the time of an output's own file.
      for (const std::string &item :
           values_after(text, "Format=\"HDF\">", ":/"))
        {
          const std::string file          = folder_of(name) + item;
          const auto &[reason, file_time] = checks.hdf5(file);
          const std::string names         = ends_with(name, ".h5") ?
                                              " needs the HDF5 file " :
                                              " names the HDF5 file ";
          if (!reason.empty())
            return output + names + file + ", which " + reason;
          if (!std::isnan(file_time) && file_time != t)
            return output + names + file +
                   ", whose time is t = " + format_number(file_time) +
                   " (it is not the file this run wrote)";
        }
      return "";
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
  PvdRecord::check_outputs(const OutputDirectory &directory)
  {
    missing_templates.clear();
    std::string problem;
    if (Utilities::MPI::this_mpi_process(directory.communicator()) == 0)
      problem = check_outputs_on_this_rank(directory);
    return Utilities::MPI::broadcast(directory.communicator(), problem, 0);
  }



  std::string
  PvdRecord::check_outputs_on_this_rank(const OutputDirectory &directory)
  {
    OutputFileChecks checks(directory);
    for (std::size_t k = 0; k < outputs.size(); ++k)
      {
        const std::string problem = check_output(series,
                                                 k,
                                                 outputs[k].first,
                                                 outputs[k].second,
                                                 checks,
                                                 missing_templates);
        if (!problem.empty())
          return problem;
      }
    return "";
  }



  void
  PvdRecord::restore_templates(const OutputDirectory &directory) const
  {
    std::string error;
    if (Utilities::MPI::this_mpi_process(directory.communicator()) == 0)
      for (const auto &[name, text] : missing_templates)
        if (error.empty())
          error = write_file_atomically(directory.file(name), text, true);
    throw_if_any_failed(error, directory.communicator());
  }



  std::string
  PvdRecord::to_text(const std::size_t n) const
  {
    const std::size_t  listed = std::min(n, outputs.size());
    std::ostringstream text;
    text.precision(17);
    text << "fields " << listed << '\n';
    for (std::size_t k = 0; k < listed; ++k)
      text << outputs[k].first << ' ' << outputs[k].second << '\n';
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
