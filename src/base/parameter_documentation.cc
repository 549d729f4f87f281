#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <base/parameter_documentation.h>

#include <algorithm>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace stickslip
{
  namespace
  {
    using Tree = ParameterTree;

    /** The subsections of "A/B" ({A, B}; none for ""). */
    std::vector<std::string>
    split_path(const std::string &path)
    {
      std::vector<std::string> parts;
      std::istringstream       in(path);
      for (std::string part; std::getline(in, part, '/');)
        parts.push_back(part);
      return parts;
    }


    /** Break @p text into lines of at most @p width characters. */
    std::vector<std::string>
    wrap(const std::string &text, const std::size_t width)
    {
      std::vector<std::string> lines;
      std::istringstream       words(text);
      std::string              word, line;
      while (words >> word)
        {
          if (!line.empty() && line.size() + 1 + word.size() > width)
            {
              lines.push_back(line);
              line.clear();
            }
          line += (line.empty() ? "" : " ") + word;
        }
      if (!line.empty())
        lines.push_back(line);
      return lines;
    }

    std::string
    markdown_cell(std::string text)
    {
      for (std::size_t p = text.find('|'); p != std::string::npos;
           p             = text.find('|', p + 2))
        text.replace(p, 1, "\\|");
      return text;
    }

    /** Whether @p listing writes the top-level subsection or entry @p name. */
    bool
    shown(const ParameterListing &listing,
          const std::string      &name,
          const bool              subsection)
    {
      if (!subsection)
        return listing.omitted_entries.count(name) == 0;
      return listing.subsections.empty() ||
             std::find(listing.subsections.begin(),
                       listing.subsections.end(),
                       name) != listing.subsections.end();
    }



    /**
     * Remove from @p tree (deal.II's JSON of the subsection @p path) what
     * @p listing does not write and the entries it leaves unset.
     */
    void
    prune(Tree &tree, const ParameterListing &listing, const std::string &path)
    {
      for (auto child = tree.begin(); child != tree.end();)
        {
          const std::string name = demangle_json_name(child->first);
          const std::string full = path.empty() ? name : path + "/" + name;
          const bool        is_entry =
            child->second.find("value") != child->second.not_found();
          const bool is_alias =
            child->second.find("alias") != child->second.not_found();
          const bool kept =
            (!path.empty() || shown(listing, name, !is_entry && !is_alias)) &&
            listing.unset_entries.count(full) == 0 &&
            listing.omitted_entries.count(full) == 0;
          if (kept && !is_entry && !is_alias)
            prune(child->second, listing, full);
          child = kept ? std::next(child) : tree.erase(child);
        }
    }



    /** Writes the parameters of a listing, subsection by subsection. */
    class ListingWriter
    {
    public:
      ListingWriter(const dealii::ParameterHandler &prm,
                    const ParameterListing         &listing,
                    std::ostream                   &out,
                    const bool                      markdown)
        : prm(prm)
        , listing(listing)
        , out(out)
        , markdown(markdown)
      {}

      void
      section(const Tree        &tree,
              const std::string &path,
              const unsigned int depth) const;

    private:
      /** One entry as a `set` line with its documentation. */
      void
      entry(const std::string &name,
            const Tree        &entry,
            const std::string &path,
            const std::string &indent) const;

      /** The table of the entries of one subsection (Markdown). */
      void
      table(
        const std::string                                       &path,
        const std::vector<std::pair<std::string, const Tree *>> &entries,
        const std::vector<std::pair<std::string, const Tree *>> &aliases) const;

      /** The value written for entry @p name of subsection @p path. */
      std::string
      value(const Tree        &entry,
            const std::string &path,
            const std::string &name) const
      {
        return listing.values ? prm.get(split_path(path), name) :
                                entry.get<std::string>("default_value");
      }

      const dealii::ParameterHandler &prm;
      const ParameterListing         &listing;
      std::ostream                   &out;
      const bool                      markdown;
    };



    void
    ListingWriter::entry(const std::string &name,
                         const Tree        &entry,
                         const std::string &path,
                         const std::string &indent) const
    {
      for (const auto &line :
           wrap(entry.get<std::string>("documentation"), 76 - indent.size()))
        out << indent << "# " << line << '\n';
      for (const auto &line :
           wrap("Allowed: " + entry.get<std::string>("pattern_description"),
                76 - indent.size()))
        out << indent << "# " << line << '\n';
      const std::string full = path.empty() ? name : path + "/" + name;
      if (listing.unset_entries.count(full) > 0)
        out << indent << "# Left unset: the model chooses it (see the top of "
            << "this file).\n"
            << indent << "# set " << name << " = " << value(entry, path, name)
            << "\n\n";
      else
        {
          const std::string default_value =
            entry.get<std::string>("default_value");
          const std::string written = value(entry, path, name);
          out << indent << "set " << name << " = " << written;
          if (written != default_value)
            out << " # default: " << default_value;
          const auto unused = listing.unused_entries.find(full);
          if (unused != listing.unused_entries.end())
            out << '\n'
                << indent << "# not used by this run: " << unused->second;
          out << "\n\n";
        }
    }



    void
    ListingWriter::table(
      const std::string                                       &path,
      const std::vector<std::pair<std::string, const Tree *>> &entries,
      const std::vector<std::pair<std::string, const Tree *>> &aliases) const
    {
      out << "\n## " << (path.empty() ? "Top level" : path) << "\n\n"
          << "| parameter | " << (listing.values ? "value" : "default")
          << " | allowed | meaning |\n"
          << "|---|---|---|---|\n";
      for (const auto &[name, entry] : entries)
        {
          const std::string full = path.empty() ? name : path + "/" + name;
          out << "| `" << name << "` | `"
              << markdown_cell(value(*entry, path, name)) << "`"
              << (listing.unset_entries.count(full) > 0 ?
                    " (left to the model)" :
                    "")
              << " | "
              << markdown_cell(entry->get<std::string>("pattern_description"))
              << " | "
              << markdown_cell(entry->get<std::string>("documentation"))
              << " |\n";
        }
      for (const auto &[name, alias] : aliases)
        out << "| `" << name << "` | | | Deprecated old name of `"
            << alias->get<std::string>("alias") << "`, still accepted. |\n";
    }



    void
    ListingWriter::section(const Tree        &tree,
                           const std::string &path,
                           const unsigned int depth) const
    {
      const std::string                                 indent(2 * depth, ' ');
      std::vector<std::pair<std::string, const Tree *>> entries, sections,
        aliases;
      for (const auto &child : tree)
        {
          const std::string name = demangle_json_name(child.first);
          const bool        is_entry =
                       child.second.find("value") != child.second.not_found(),
                     is_alias =
                       child.second.find("alias") != child.second.not_found();
          const std::string full = path.empty() ? name : path + "/" + name;
          // An omitted entry that the user set all the same is written,
          // with the mark that says it was not used.
          if (is_entry && listing.omitted_entries.count(full) > 0 &&
              listing.unused_entries.count(full) == 0)
            continue;
          if (depth == 0 && !is_entry && !shown(listing, name, !is_alias))
            continue;
          (is_entry ? entries :
           is_alias ? aliases :
                      sections)
            .emplace_back(name, &child.second);
        }

      if (markdown && !entries.empty())
        table(path, entries, aliases);
      else if (!markdown)
        {
          for (const auto &[name, data] : entries)
            entry(name, *data, path, indent);
          // A run's parameters set entries by their names only.
          if (!listing.values)
            for (const auto &[name, alias] : aliases)
              out << indent << "# " << name << ": deprecated old name of "
                  << alias->get<std::string>("alias")
                  << ", still accepted.\n\n";
        }
      for (const auto &[name, data] : sections)
        {
          const std::string sub = path.empty() ? name : path + "/" + name;
          if (!markdown)
            out << indent << "subsection " << name << "\n";
          section(*data, sub, depth + 1);
          if (!markdown)
            out << indent << "end\n\n";
        }
    }
  } // namespace



  ParameterTree
  declarations_of(const dealii::ParameterHandler &prm)
  {
    std::stringstream json;
    prm.print_parameters(json, ParameterHandler::JSON);
    ParameterTree tree;
    boost::property_tree::read_json(json, tree);
    return tree;
  }



  void
  print_parameter_listing(const ParameterTree            &declarations,
                          const dealii::ParameterHandler &prm,
                          std::ostream                   &out,
                          const std::string              &format,
                          const ParameterListing         &listing)
  {
    if (format == "json")
      {
        // deal.II's JSON, without what the listing leaves out: a JSON file
        // has no comments, so an entry left to the model is left out.
        ParameterTree tree =
          listing.values ? declarations_of(prm) : declarations;
        prune(tree, listing, "");
        boost::property_tree::write_json(out, tree);
        return;
      }
    out << listing.header;
    ListingWriter(prm, listing, out, format == "markdown")
      .section(declarations, "", 0);
  }



  std::string
  demangle_json_name(const std::string &name)
  {
    std::string out;
    for (std::size_t i = 0; i < name.size(); ++i)
      if (name[i] == '_' && i + 2 < name.size() && std::isxdigit(name[i + 1]) &&
          std::isxdigit(name[i + 2]))
        {
          out +=
            static_cast<char>(std::stoi(name.substr(i + 1, 2), nullptr, 16));
          i += 2;
        }
      else
        out += name[i];
    return out;
  }
} // namespace stickslip
