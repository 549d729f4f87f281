// The start-up floor of a program built like stickslip (issue 17, "small
// systems"): linked to deal.II, hence to its 200 shared libraries (PETSc,
// Trilinos, ...), it does nothing but name one deal.II function, so its
// wall time is the dynamic linker's work (loading and symbol binding).
// With --mpi it also starts and ends MPI through deal.II, as stickslip does
// (run it with stickslip's singleton variables to compare like with like).
#include <deal.II/base/mpi.h>
#include <deal.II/base/utilities.h>

#include <cstring>
#include <iostream>

int
main(int argc, char **argv)
{
  if (argc > 1 && std::strcmp(argv[1], "--mpi") == 0)
    {
      int                                      library_argc = 1;
      dealii::Utilities::MPI::MPI_InitFinalize mpi(library_argc, argv, 1);
      std::cout << dealii::Utilities::int_to_string(1) << std::endl;
      return 0;
    }
  std::cout << dealii::Utilities::int_to_string(0) << std::endl;
  return 0;
}
