#include <models/body/element_kernels.h>

#include <cstring>
#include <stdexcept>
#include <string>

namespace stickslip
{
  namespace Body
  {
    namespace
    {
      /** Four doubles (GCC's and Clang's vector extension): one AVX2
       * register with -march=native, two SSE2 registers without. */
      typedef double Double4 __attribute__((vector_size(32)));

      /**
       * y_e = A x_e cell by cell, with n and the block size known at
       * compile time: the matrix-vector product is written column by column
       * (y += A(:, j) x_j) on (n + 3)/4 accumulators of four doubles, kept
       * in registers; for small n (2D) two sets of accumulators (even and
       * odd j) hide the latency of the multiply-adds. (Two or more cells
       * at once, sharing each column's loads, measured slower: 1.3e8
       * against 2.2e8 updates/s in 2D Q1, 3.7e7 against 4.0e7 in 3D Q1.)
       */
      template <unsigned int n, unsigned int block>
      void
      cells_times_matrix(const double *__restrict matrix,
                         const unsigned int *__restrict indices,
                         const std::size_t n_cells,
                         const double *__restrict source,
                         double *__restrict destination)
      {
        constexpr unsigned int nodes  = n / block;
        constexpr unsigned int parts  = (n + 3) / 4;
        constexpr unsigned int chains = parts <= 5 ? 2 : 1;
        for (std::size_t cell = 0; cell < n_cells; ++cell)
          {
            const unsigned int *node = indices + cell * nodes;
            double              x[n];
            for (unsigned int k = 0; k < nodes; ++k)
              for (unsigned int c = 0; c < block; ++c)
                x[k * block + c] = source[node[k] + c];
            Double4 y[chains][parts] = {};
            for (unsigned int j = 0; j < n; ++j)
              {
                const double *column = matrix + j * 4 * parts;
                Double4      *sum    = y[j % chains];
                for (unsigned int i = 0; i < parts; ++i)
                  {
                    Double4 entries;
                    std::memcpy(&entries, column + 4 * i, sizeof(entries));
                    sum[i] += entries * x[j];
                  }
              }
            double result[4 * parts];
            for (unsigned int i = 0; i < parts; ++i)
              {
                Double4 total = y[0][i];
                for (unsigned int chain = 1; chain < chains; ++chain)
                  total += y[chain][i];
                std::memcpy(result + 4 * i, &total, sizeof(total));
              }
            for (unsigned int k = 0; k < nodes; ++k)
              for (unsigned int c = 0; c < block; ++c)
                destination[node[k] + c] += result[k * block + c];
          }
      }
    } // namespace



    unsigned int
    element_kernel_column_length(const unsigned int dofs_per_cell)
    {
      return 4 * ((dofs_per_cell + 3) / 4);
    }



    void
    apply_element_kernel(const unsigned int  dofs_per_cell,
                         const unsigned int  block,
                         const double       *matrix,
                         const unsigned int *indices,
                         const std::size_t   n_cells,
                         const double       *source,
                         double             *destination)
    {
      const auto run = [&](auto kernel) {
        kernel(matrix, indices, n_cells, source, destination);
      };
      if (dofs_per_cell == 8 && block == 2)
        run(cells_times_matrix<8, 2>);
      else if (dofs_per_cell == 8 && block == 1)
        run(cells_times_matrix<8, 1>);
      else if (dofs_per_cell == 18 && block == 2)
        run(cells_times_matrix<18, 2>);
      else if (dofs_per_cell == 18 && block == 1)
        run(cells_times_matrix<18, 1>);
      else if (dofs_per_cell == 24 && block == 3)
        run(cells_times_matrix<24, 3>);
      else if (dofs_per_cell == 24 && block == 1)
        run(cells_times_matrix<24, 1>);
      else if (dofs_per_cell == 81 && block == 3)
        run(cells_times_matrix<81, 3>);
      else if (dofs_per_cell == 81 && block == 1)
        run(cells_times_matrix<81, 1>);
      else
        throw std::logic_error("apply_element_kernel: no kernel for " +
                               std::to_string(dofs_per_cell) +
                               " unknowns per cell in blocks of " +
                               std::to_string(block));
    }



    bool
    element_kernels_native()
    {
#ifdef STICKSLIP_NATIVE_KERNELS
      return true;
#else
      return false;
#endif
    }
  } // namespace Body
} // namespace stickslip
