#ifndef stickslip_models_body_element_kernels_h
#define stickslip_models_body_element_kernels_h

#include <cstddef>

namespace stickslip
{
  namespace Body
  {
    /**
     * The inner loop of ElementKernelStiffness, in a file of its own without
     * deal.II so that it alone is compiled for the build machine's vector
     * units (CMake option STICKSLIP_NATIVE_KERNELS, -march=native).
     *
     * For each of @p n_cells cells: gather the cell's @p dofs_per_cell
     * values of @p source, multiply them by the dense element matrix
     * @p matrix (column-major, each column padded with zeros to
     * element_kernel_column_length() entries; shared by the cells), and add the
     * result into @p destination. A cell's unknowns are listed in @p indices in
     * blocks of @p block consecutive local indices (block = dim when the dim
     * components of each node are numbered consecutively, 1 otherwise):
     * dofs_per_cell / block entries per cell, the local dof k * block + c at
     * indices[k] + c. @p dofs_per_cell must be 8, 18, 24 or 81 (Q1 and Q2 in 2D
     * and 3D) and @p block 1 or the dimension of that element.
     */
    void
    apply_element_kernel(const unsigned int  dofs_per_cell,
                         const unsigned int  block,
                         const double       *matrix,
                         const unsigned int *indices,
                         const std::size_t   n_cells,
                         const double       *source,
                         double             *destination);

    /** The length of a column of the kernels' element matrices: @p
     * dofs_per_cell rounded up to a multiple of 4 (a vector of 4 doubles). */
    unsigned int
    element_kernel_column_length(const unsigned int dofs_per_cell);

    /** Whether the kernels were compiled with -march=native. */
    bool
    element_kernels_native();
  } // namespace Body
} // namespace stickslip

#endif
