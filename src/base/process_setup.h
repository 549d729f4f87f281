#ifndef stickslip_base_process_setup_h
#define stickslip_base_process_setup_h

#include <string>

namespace stickslip
{
  /**
   * Before MPI_Init: whether this process was started by a launcher
   * (mpirun, mpiexec, srun with PMI/PMIx), told by the variables the
   * launcher sets (OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_RANK, PMIX_RANK,
   * PMI_RANK, PMI_SIZE). Otherwise the process becomes an MPI singleton.
   */
  bool
  started_by_mpi_launcher();

  /**
   * Before MPI_Init: a singleton (a serial run started without mpirun)
   * starts Open MPI with the ob1 messaging layer instead of UCX, whose
   * initialisation is most of Open MPI's start-up (BENCHMARKS.md,
   * "Measurements behind design choices in the code") and which one
   * process never uses. The variable is set only if the user has not set
   * it; a process started by a launcher is
   * left alone (clusters need UCX). Returns whether anything was set.
   */
  bool
  prepare_singleton_mpi_start();

  /**
   * After MPI_Init: one BLAS thread per MPI rank. OpenBLAS (every copy
   * loaded, e.g. libblas.so.3 and libopenblas.so.0 of the same build) and
   * OpenMP are asked for one thread, and OPENBLAS_NUM_THREADS and
   * OMP_NUM_THREADS are set to 1 for child processes, unless the user has
   * set OPENBLAS_NUM_THREADS, GOTO_NUM_THREADS or OMP_NUM_THREADS: then the
   * user's choice, which OpenBLAS read when it was loaded, stands.
   * A multithreaded BLAS would otherwise run PETSc's vector operations
   * (above about 1e4 entries) on every core from each rank: a "serial" run
   * takes two cores, an MPI run oversubscribes them, and round-off depends
   * on the thread count.
   */
  void
  limit_blas_threads();

  /**
   * The threads of this rank for the run's header, e.g. "1 thread each
   * (OpenBLAS: 1 thread)": deal.II's thread limit and the number of
   * threads OpenBLAS reports (openblas_get_num_threads(), the largest over
   * its loaded copies), with "set by OPENBLAS_NUM_THREADS" when the user
   * chose it.
   */
  std::string
  thread_description();

  /**
   * After a run: a warning for every option of PETSc's database (from
   * PETSC_OPTIONS, the file ~/.petscrc or -options_file) that no PETSc
   * object of the run looked up (PetscOptionsLeftGet(), what PETSc's
   * -options_left prints): a misspelled option, or one for a solver the run
   * did not use, changes nothing. Empty if every option was used.
   */
  std::string
  unused_petsc_options();
} // namespace stickslip

#endif
