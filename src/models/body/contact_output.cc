#include <deal.II/fe/fe_tools.h>

#include <base/hdf5_field_writer.h>
#include <base/hdf5_series_file.h>
#include <base/output_files.h>
#include <models/body/contact_output.h>

#include <limits>
#include <sstream>
#include <unordered_map>

namespace stickslip
{
  namespace Body
  {
    template <int dim>
    ContactSurfaceValues<dim>::ContactSurfaceValues(
      const ContactSurface<dim> &contact)
      : contact(contact)
    {}



    template <int dim>
    std::vector<unsigned int>
    ContactSurfaceValues<dim>::node_unknowns() const
    {
      std::vector<unsigned int> result;
      for (const auto &unknowns : contact.node_unknowns())
        result.push_back(unknowns[0]);
      return result;
    }



    template <int dim>
    std::vector<double>
    ContactSurfaceValues<dim>::values() const
    {
      return contact.output_values();
    }



    template <int dim>
    std::vector<Tensor<1, dim>>
    ContactSurfaceValues<dim>::tangents() const
    {
      return contact.tangents();
    }



    template <int dim>
    ImplicitContactValues<dim>::ImplicitContactValues(
      const ImplicitStep<dim>   &step,
      const std::vector<double> &normal,
      const BodyVector          &displacement,
      const BodyVector          &velocity,
      const double               t)
      : nodes(step.contact_nodes())
      , displacement(displacement)
      , velocity(velocity)
      , t(t)
    {
      // The tangential unknowns are the axes but the normal's, in order.
      for (unsigned int d = 0; d < dim; ++d)
        if (std::abs(normal[d]) < 0.5)
          tangent_axes.push_back(d);
    }



    template <int dim>
    std::vector<unsigned int>
    ImplicitContactValues<dim>::node_unknowns() const
    {
      return nodes.normal_unknown;
    }



    template <int dim>
    std::vector<Tensor<1, dim>>
    ImplicitContactValues<dim>::tangents() const
    {
      std::vector<Tensor<1, dim>> result(dim - 1);
      for (unsigned int j = 0; j + 1 < dim; ++j)
        result[j][tangent_axes[j]] = 1;
      return result;
    }



    template <int dim>
    std::vector<double>
    ImplicitContactValues<dim>::values() const
    {
      static_assert(ContactSurface<dim>::n_output_values == 15,
                    "the values below follow output_value_names()");
      // The foundation's velocity v_*(t) in the tangent axes (implicit
      // Newmark only: the quasi-static load steps have no rate).
      Vector<double> floor_velocity(dim);
      if (nodes.foundation_velocity != nullptr && !nodes.quasi_static)
        nodes.foundation_velocity->vector_value(Point<1>(t), floor_velocity);
      std::vector<double> result;
      result.reserve(nodes.normal_unknown.size() * 15);
      for (std::size_t k = 0; k < nodes.normal_unknown.size(); ++k)
        {
          // In the tangent basis: the slip velocity, the friction traction
          // as ContactSurface keeps it (the writer outputs its opposite,
          // R_T/A: the traction on the body, against the slip), the slip
          // displacement since t0.
          std::array<double, 2> slip_velocity = {{0., 0.}},
                                friction      = {{0., 0.}};
          double slip = 0, force = 0;
          for (unsigned int j = 0; j + 1 < dim; ++j)
            {
              const unsigned int i =
                nodes.tangential_unknown[k * (dim - 1) + j];
              // Against the mirror image the fault's: 2 v_T, 2 (u_T - u_T0).
              if (!nodes.quasi_static)
                slip_velocity[j] = nodes.pair * velocity.local_element(i) -
                                   floor_velocity[tangent_axes[j]];
              const double reaction = nodes.reaction.local_element(i);
              friction[j] = nodes.area[k] > 0 ? -reaction / nodes.area[k] : 0.;
              force += reaction * reaction;
              const double s = nodes.pair * (displacement.local_element(i) -
                                             nodes.reference.local_element(i)) -
                               nodes.foundation_displacement[j];
              slip += s * s;
            }
          const double normal_force = nodes.pressure[k] * nodes.area[k];
          const double state        = !nodes.active[k]                  ? 0. :
                                      nodes.stuck[k] && nodes.mu[k] > 0 ? 1. :
                                                                          2.;
          for (const double value :
               {nodes.gap[k],
                nodes.pressure[k],
                std::hypot(slip_velocity[0], slip_velocity[1]),
                state,
                normal_force > 0 ? std::sqrt(force) / normal_force : 0.,
                0.,
                slip_velocity[0],
                slip_velocity[1],
                friction[0],
                friction[1],
                nodes.mu[k],
                std::sqrt(slip),
                -1.,
                0.,
                nodes.pressure[k]})
            result.push_back(value);
        }
      return result;
    }



    template <int dim>
    ContactOutput<dim>::ContactOutput(
      const BodyDiscretization<dim> &discretization,
      const types::boundary_id       contact_id)
      : discretization(discretization)
      , contact_id(contact_id)
      , ready(false)
      , nodes_per_face(0)
      , n_ghosts(0)
    {}



    template <int dim>
    void
    ContactOutput<dim>::set_up(const ContactNodalValues<dim> &contact)
    {
      const DoFHandler<dim>           &dofs = discretization.dof_handler();
      const FiniteElement<dim>        &fe   = discretization.fe();
      const AffineConstraints<double> &constraints =
        discretization.constraints();
      const types::global_dof_index first_owned =
        *dofs.locally_owned_dofs().begin();

      // The owned nodes of the surface, and where the source keeps their
      // values (found by any of the node's unknowns; a node held in every
      // component has none: zeros).
      std::unordered_map<unsigned int, int> node_of_unknown;
      const std::vector<unsigned int>       keys = contact.node_unknowns();
      for (unsigned int k = 0; k < keys.size(); ++k)
        node_of_unknown[keys[k]] = k;
      std::unordered_map<types::global_dof_index, unsigned int> owned_index;
      for (const Node<dim> &node : discretization.nodes(contact_id))
        {
          owned_index[first_owned + node.unknowns[0]] = owned_nodes.size();
          owned_nodes.push_back(first_owned + node.unknowns[0]);
          int index = -1;
          for (unsigned int d = 0; d < dim && index < 0; ++d)
            {
              const auto found = node_of_unknown.find(node.unknowns[d]);
              if (found != node_of_unknown.end())
                index = found->second;
            }
          surface_index.push_back(index);
        }

      // The faces' nodes in the patches' lexicographic order: their values
      // are those of the node itself, or of its master if it is a periodic
      // copy; owned here, or received from the owner.
      nodes_per_face = fe.n_dofs_per_face() / dim;
      const std::vector<unsigned int> hierarchic =
        FETools::lexicographic_to_hierarchic_numbering<dim - 1>(fe.degree);
      std::vector<types::global_dof_index> face_dofs(fe.n_dofs_per_face());
      std::vector<types::global_dof_index> ghost_nodes;
      std::unordered_map<types::global_dof_index, unsigned int> ghost_index;
      for (const auto &cell : dofs.active_cell_iterators())
        if (cell->is_locally_owned())
          for (const auto f : cell->face_indices())
            if (cell->face(f)->at_boundary() &&
                cell->face(f)->boundary_id() == contact_id)
              {
                std::array<Point<dim>, GeometryInfo<dim - 1>::vertices_per_cell>
                  face_corners;
                for (unsigned int v = 0; v < face_corners.size(); ++v)
                  face_corners[v] = cell->face(f)->vertex(v);
                corners.push_back(face_corners);
                cell->face(f)->get_dof_indices(face_dofs,
                                               cell->active_fe_index());
                std::vector<std::array<types::global_dof_index, dim>> node_dofs(
                  nodes_per_face);
                for (unsigned int i = 0; i < face_dofs.size(); ++i)
                  {
                    const auto component_and_node =
                      fe.face_system_to_component_index(i);
                    node_dofs[component_and_node.second]
                             [component_and_node.first] = face_dofs[i];
                  }
                for (unsigned int l = 0; l < nodes_per_face; ++l)
                  {
                    const auto &node = node_dofs[hierarchic[l]];
                    displacement_dofs.insert(displacement_dofs.end(),
                                             node.begin(),
                                             node.end());
                    types::global_dof_index source = node[0];
                    if (constraints.is_constrained(source))
                      source = constraints.get_constraint_entries(source)
                                 ->front()
                                 .first;
                    const auto owned = owned_index.find(source);
                    if (owned != owned_index.end())
                      value_index.push_back(owned->second);
                    else
                      {
                        const auto known =
                          ghost_index.emplace(source, ghost_nodes.size());
                        if (known.second)
                          ghost_nodes.push_back(source);
                        value_index.push_back(owned_nodes.size() +
                                              known.first->second);
                      }
                  }
              }
      n_ghosts = ghost_nodes.size();
      exchange.reinit(owned_nodes, ghost_nodes, dofs.get_communicator());
      ready = true;
    }



    template <int dim>
    std::vector<double>
    ContactOutput<dim>::values_at_face_nodes(
      const ContactNodalValues<dim> &contact) const
    {
      // Per value: the owned nodes' column, exchanged into the ghosts'.
      constexpr unsigned int    n_values = ContactSurface<dim>::n_output_values;
      const std::vector<double> surface  = contact.values();
      const std::size_t         n_owned  = owned_nodes.size();
      std::vector<double>       owned(n_owned), ghosts(n_ghosts);
      std::vector<double>       result((n_owned + n_ghosts) * n_values, 0.);
      for (unsigned int c = 0; c < n_values; ++c)
        {
          for (std::size_t i = 0; i < n_owned; ++i)
            owned[i] = surface_index[i] < 0 ?
                         0. :
                         surface[surface_index[i] * n_values + c];
          exchange.export_to_ghosted_array(ArrayView<const double>(owned),
                                           ArrayView<double>(ghosts));
          for (std::size_t i = 0; i < n_owned; ++i)
            result[i * n_values + c] = owned[i];
          for (std::size_t g = 0; g < n_ghosts; ++g)
            result[(n_owned + g) * n_values + c] = ghosts[g];
        }
      return result;
    }



    template <int dim>
    std::vector<DataOutBase::Patch<dim - 1, dim>>
    ContactOutput<dim>::patches(const std::vector<double> &values,
                                const BodyVector          &displacement) const
    {
      // The scalars: the first 6 values and the last 5 (friction
      // coefficient, slip, rupture time, friction state, effective
      // pressure); then the vectors.
      constexpr unsigned int n_values  = ContactSurface<dim>::n_output_values;
      constexpr unsigned int n_scalars = 11;
      const unsigned int     n_fields  = n_scalars + 3 * dim;
      std::vector<DataOutBase::Patch<dim - 1, dim>> result(corners.size());
      for (std::size_t f = 0; f < corners.size(); ++f)
        {
          auto &patch = result[f];
          for (unsigned int v = 0; v < corners[f].size(); ++v)
            patch.vertices[v] = corners[f][v];
          patch.reference_cell = ReferenceCells::get_hypercube<dim - 1>();
          patch.n_subdivisions = discretization.fe().degree;
          patch.patch_index    = f;
          patch.data.reinit(n_fields, nodes_per_face);
          for (unsigned int l = 0; l < nodes_per_face; ++l)
            {
              const std::size_t node    = f * nodes_per_face + l;
              const double *node_values = &values[value_index[node] * n_values];
              for (unsigned int c = 0; c < 6; ++c)
                patch.data(c, l) = node_values[c];
              for (unsigned int c = 6; c < n_scalars; ++c)
                patch.data(c, l) = node_values[c + 4];
              for (unsigned int d = 0; d < dim; ++d)
                patch.data(n_scalars + d, l) =
                  displacement(displacement_dofs[node * dim + d]);
              for (unsigned int d = 0; d < dim; ++d)
                {
                  patch.data(n_scalars + dim + d, l)     = 0;
                  patch.data(n_scalars + 2 * dim + d, l) = 0;
                }
              for (unsigned int j = 0; j + 1 < dim; ++j)
                for (unsigned int d = 0; d < dim; ++d)
                  {
                    const double t = surface_tangents[j][d];
                    patch.data(n_scalars + dim + d, l) -=
                      node_values[8 + j] * t;
                    patch.data(n_scalars + 2 * dim + d, l) +=
                      node_values[6 + j] * t;
                  }
            }
        }
      return result;
    }



    template <int dim>
    std::string
    ContactOutput<dim>::write(const double                   t,
                              const unsigned int             index,
                              const BodyVector              &displacement,
                              const ContactNodalValues<dim> &contact,
                              const FieldFiles              &files)
    {
      if (!ready)
        set_up(contact);
      surface_tangents = contact.tangents();
      const auto patch_list =
        patches(values_at_face_nodes(contact), displacement);

      std::vector<std::string> names = {"gap",
                                        "pressure",
                                        "slip_rate",
                                        "state",
                                        "friction_ratio",
                                        "uniqueness_ratio",
                                        "friction_coefficient",
                                        "slip",
                                        "rupture_time",
                                        "friction_state",
                                        "effective_pressure"};
      std::vector<
        std::tuple<unsigned int,
                   unsigned int,
                   std::string,
                   DataComponentInterpretation::DataComponentInterpretation>>
        vectors;
      for (const std::string name :
           {"displacement", "friction_traction", "slip_velocity"})
        {
          vectors.emplace_back(
            names.size(),
            names.size() + dim - 1,
            name,
            DataComponentInterpretation::component_is_part_of_vector);
          for (unsigned int d = 0; d < dim; ++d)
            names.push_back(name);
        }
      if (files.format() == FieldFiles::Format::hdf5)
        return write_hdf5(t, index, patch_list, names, files);
      DataOutBase::VtkFlags flags(t, index);
      flags.compression_level = DataOutBase::VtkFlags::best_speed;
      return files.write(
        index,
        "contact",
        !patch_list.empty(),
        [&](std::ostream &out) {
          DataOutBase::write_vtu(patch_list, names, vectors, flags, out);
        },
        [&](std::ostream &out, const std::vector<std::string> &pieces) {
          DataOutBase::write_pvtu_record(out, pieces, names, vectors, flags);
        });
    }



    template <int dim>
    void
    ContactOutput<dim>::write_hdf5_mesh(
      const std::vector<DataOutBase::Patch<dim - 1, dim>> &patch_list,
      const FieldFiles                                    &files)
    {
      const MPI_Comm     comm = files.output_directory().communicator();
      const unsigned int p    = discretization.fe().degree;
      const unsigned int n    = p + 1; // nodes per face edge
      // The nodes where DataOutBase puts a patch's values: its corners
      // interpolated (bi)linearly at i/p (, j/p), i (and j) = 0, ..., p.
      std::vector<double>       points;
      std::vector<std::int64_t> cells;
      const std::uint64_t n_local_nodes = patch_list.size() * nodes_per_face;
      std::tie(first_hdf5_node, n_hdf5_nodes) =
        Hdf5::offset_and_total(n_local_nodes, comm);
      for (std::size_t f = 0; f < patch_list.size(); ++f)
        {
          const auto            &v = patch_list[f].vertices;
          constexpr unsigned int n_vertices =
            GeometryInfo<dim - 1>::vertices_per_cell;
          const std::int64_t first = first_hdf5_node + f * nodes_per_face;
          for (unsigned int l = 0; l < nodes_per_face; ++l)
            {
              const double     x = double(l % n) / p;
              const double     y = double(l / n) / p;
              const Point<dim> point =
                dim == 2 ?
                  Point<dim>(v[0] * (1 - x) + v[1] * x) :
                  Point<dim>(v[0] * ((1 - x) * (1 - y)) + v[1] * (x * (1 - y)) +
                             v[2 % n_vertices] * ((1 - x) * y) +
                             v[3 % n_vertices] * (x * y));
              for (unsigned int d = 0; d < dim; ++d)
                points.push_back(point[d]);
            }
          for (unsigned int j = 0; j < (dim == 3 ? p : 1); ++j)
            for (unsigned int i = 0; i < p; ++i)
              if (dim == 2)
                cells.insert(cells.end(), {first + i, first + i + 1});
              else
                cells.insert(cells.end(),
                             {first + i + n * j,
                              first + i + 1 + n * j,
                              first + i + 1 + n * (j + 1),
                              first + i + n * (j + 1)});
        }
      const unsigned int corners = dim == 2 ? 2 : 4;
      n_local_hdf5_cells         = cells.size() / corners;
      std::tie(first_hdf5_cell, n_hdf5_cells) =
        Hdf5::offset_and_total(n_local_hdf5_cells, comm);
      Hdf5::write_file_atomically(files.output_directory().file(
                                    OutputDirectory::field_folder) +
                                    "/contact_mesh.h5",
                                  {Hdf5::table("nodes",
                                               n_hdf5_nodes,
                                               dim,
                                               first_hdf5_node,
                                               n_local_nodes,
                                               false,
                                               points.data()),
                                   Hdf5::integer_table("cells",
                                                       n_hdf5_cells,
                                                       corners,
                                                       first_hdf5_cell,
                                                       n_local_hdf5_cells,
                                                       cells.data())},
                                  std::numeric_limits<double>::quiet_NaN(),
                                  comm,
                                  true);
      hdf5_mesh_directory = files.output_directory().path();
    }



    template <int dim>
    std::string
    ContactOutput<dim>::write_hdf5(
      const double                                         t,
      const unsigned int                                   index,
      const std::vector<DataOutBase::Patch<dim - 1, dim>> &patch_list,
      const std::vector<std::string>                      &names,
      const FieldFiles                                    &files)
    {
      // The fields: a name and its first column in the patches' data; a
      // vector's components are consecutive, written as 3 (ParaView's).
      std::vector<std::pair<std::string, unsigned int>> fields;
      for (unsigned int c = 0; c < names.size(); ++c)
        if (c == 0 || names[c] != names[c - 1])
          fields.emplace_back(names[c], c);
      std::vector<Hdf5::SeriesField> layout;
      std::vector<unsigned int>      width; // values in the patches
      for (unsigned int k = 0; k < fields.size(); ++k)
        {
          const unsigned int end =
            k + 1 < fields.size() ? fields[k + 1].second : names.size();
          width.push_back(end - fields[k].second);
          layout.push_back({fields[k].first, 0, width.back() == 1 ? 1u : 3u});
        }
      if (hdf5_mesh_directory != files.output_directory().path())
        {
          write_hdf5_mesh(patch_list, files);
          for (Hdf5::SeriesField &field : layout)
            field.rows = n_hdf5_nodes;
          const bool single = files.single_precision();
          hdf5_series       = std::make_unique<Hdf5::SeriesWriter>(
            "contact",
            layout,
            [this, layout, single](const std::string  &file,
                                   const std::uint64_t capacity) {
              return xdmf_template(layout, file, capacity, single);
            });
        }

      // This rank's rows of each field, in the file's precision.
      const bool          single  = files.single_precision();
      const std::uint64_t n_local = patch_list.size() * nodes_per_face;
      std::vector<std::vector<double>> doubles(fields.size());
      std::vector<std::vector<float>>  floats(single ? fields.size() : 0);
      std::vector<const void *>        data;
      for (unsigned int k = 0; k < fields.size(); ++k)
        {
          const unsigned int first     = fields[k].second;
          const unsigned int n_columns = layout[k].columns;
          doubles[k].assign(n_local * n_columns, 0.);
          for (std::size_t f = 0; f < patch_list.size(); ++f)
            for (unsigned int l = 0; l < nodes_per_face; ++l)
              for (unsigned int c = 0; c < width[k]; ++c)
                doubles[k][(f * nodes_per_face + l) * n_columns + c] =
                  patch_list[f].data(first + c, l);
          if (single)
            floats[k].assign(doubles[k].begin(), doubles[k].end());
          data.push_back(single ? static_cast<const void *>(floats[k].data()) :
                                  static_cast<const void *>(doubles[k].data()));
        }
      return hdf5_series->write(
        t, index, first_hdf5_node, n_local, data, files);
    }



    template <int dim>
    std::string
    ContactOutput<dim>::xdmf_template(
      const std::vector<Hdf5::SeriesField> &layout,
      const std::string                    &file,
      const std::uint64_t                   capacity,
      const bool                            single) const
    {
      // Relative to the folder of the field files, as the mesh file.
      std::ostringstream xml;
      xml << "<?xml version=\"1.0\" ?>\n"
          << "<Xdmf Version=\"3.0\">\n"
          << "<Domain>\n"
          << "<Grid Name=\"{NAME}\" GridType=\"Uniform\">\n"
          << "<Time Value=\"{TIME}\"/>\n"
          << "<Geometry GeometryType=\"" << (dim == 2 ? "XY" : "XYZ") << "\">"
          << Hdf5::xdmf_data_item(
               n_hdf5_nodes, dim, "Float", 8, "contact_mesh.h5:/nodes")
          << "</Geometry>\n"
          << "<Topology TopologyType=\""
          << (dim == 2 ? "Polyline\" NodesPerElement=\"2" : "Quadrilateral")
          << "\" NumberOfElements=\"" << n_hdf5_cells << "\">"
          << Hdf5::xdmf_data_item(n_hdf5_cells,
                                  dim == 2 ? 2 : 4,
                                  "Int",
                                  8,
                                  "contact_mesh.h5:/cells")
          << "</Topology>\n";
      for (const Hdf5::SeriesField &field : layout)
        xml << "<Attribute Name=\"" << field.name << "\" AttributeType=\""
            << (field.columns == 1 ? "Scalar" : "Vector")
            << "\" Center=\"Node\">"
            << Hdf5::xdmf_series_item(file,
                                      field.name,
                                      capacity,
                                      field.rows,
                                      field.columns,
                                      single ? 4 : 8)
            << "</Attribute>\n";
      xml << "</Grid>\n</Domain>\n</Xdmf>\n";
      return xml.str();
    }



    template class ContactSurfaceValues<2>;
    template class ContactSurfaceValues<3>;
    template class ImplicitContactValues<2>;
    template class ImplicitContactValues<3>;
    template class ContactOutput<2>;
    template class ContactOutput<3>;
  } // namespace Body
} // namespace stickslip
