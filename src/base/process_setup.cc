#include <deal.II/base/multithread_info.h>

#include <petscsys.h>

#include <base/process_setup.h>

#include <dlfcn.h>

#include <cstdlib>

namespace stickslip
{
  namespace
  {
    bool
    is_set(const char *name)
    {
      return std::getenv(name) != nullptr;
    }



    /**
     * The user's own choice of BLAS/OpenMP threads, if any: the variable's
     * name, as the environment was at the first call (before
     * limit_blas_threads() sets the variables for child processes).
     */
    const char *
    user_thread_variable()
    {
      static const char *const name = []() -> const char * {
        for (const char *candidate :
             {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"})
          if (is_set(candidate))
            return candidate;
        return nullptr;
      }();
      return name;
    }



    /**
     * A function of the libraries loaded into the process (nullptr if none
     * has it): looked up at run time, so that stickslip neither links to
     * nor requires OpenBLAS or OpenMP.
     */
    template <typename Function>
    Function
    loaded_function(const char *name)
    {
      return reinterpret_cast<Function>(dlsym(RTLD_DEFAULT, name));
    }



    /** OpenBLAS's thread count (0: OpenBLAS is not loaded). */
    int
    openblas_threads()
    {
      using GetThreads = int (*)();
      if (const auto get =
            loaded_function<GetThreads>("openblas_get_num_threads"))
        return get();
      return 0;
    }
  } // namespace



  bool
  started_by_mpi_launcher()
  {
    for (const char *name : {"OMPI_COMM_WORLD_SIZE",
                             "OMPI_COMM_WORLD_RANK",
                             "PMIX_RANK",
                             "PMI_RANK",
                             "PMI_SIZE"})
      if (is_set(name))
        return true;
    return false;
  }



  bool
  prepare_singleton_mpi_start()
  {
    if (started_by_mpi_launcher())
      return false;
    // overwrite = 0: the user's own setting wins. Not
    // ess_singleton_isolated (no orted fork, a little faster): singletons
    // started together then collide in MPI_Init (BENCHMARKS.md,
    // "Measurements behind design choices in the code").
    const bool changed = !is_set("OMPI_MCA_pml");
    setenv("OMPI_MCA_pml", "ob1", 0);
    return changed;
  }



  void
  limit_blas_threads()
  {
    if (user_thread_variable() != nullptr)
      return;
    using SetThreads = void (*)(int);
    // OpenBLAS read its variables when it was loaded (before main):
    // setting them now only reaches child processes.
    if (const auto set =
          loaded_function<SetThreads>("openblas_set_num_threads"))
      set(1);
    else if (const auto goto_set =
               loaded_function<SetThreads>("goto_set_num_threads"))
      goto_set(1);
    if (const auto omp_set = loaded_function<SetThreads>("omp_set_num_threads"))
      omp_set(1);
    setenv("OPENBLAS_NUM_THREADS", "1", 0);
    setenv("OMP_NUM_THREADS", "1", 0);
  }



  std::string
  thread_description()
  {
    const unsigned int threads = dealii::MultithreadInfo::n_threads();
    std::string        text    = std::to_string(threads) +
                       (threads == 1 ? " thread each" : " threads each");
    const int blas = openblas_threads();
    if (blas > 0)
      {
        text += " (OpenBLAS: " + std::to_string(blas) +
                (blas == 1 ? " thread" : " threads");
        if (const char *variable = user_thread_variable())
          text += std::string(", set by ") + variable;
        text += ")";
      }
    return text;
  }



  std::string
  unused_petsc_options()
  {
    PetscInt    n      = 0;
    char      **names  = nullptr;
    char      **values = nullptr;
    std::string warnings;
    if (PetscOptionsLeftGet(nullptr, &n, &names, &values) != 0)
      return "";
    for (PetscInt i = 0; i < n; ++i)
      warnings += std::string("warning: the PETSc option -") + names[i] +
                  (values[i] != nullptr ? std::string(" ") + values[i] : "") +
                  " was never used by this run: misspelled, or for a "
                  "solver this run does not use (PETSc's -help lists the "
                  "options of a run's solvers)\n";
    PetscOptionsLeftRestore(nullptr, &n, &names, &values);
    return warnings;
  }
} // namespace stickslip
