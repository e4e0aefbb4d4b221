// A collective that one rank never enters: rank 1 first waits for a message
// from rank 0, which is already in MPI_Barrier (and sends after it).  With
// the hang watchdog, the ranks report the hang, and rank 0 names the cycle
// across ranks: rank 0 (MPI_Barrier) waits for rank 1, not in it, which
// waits in MPI_Recv from rank 0.
// MPI-RANKS: 2 4
// KKRACE-OPTIONS: hang_timeout_ms=1500
// (Two reports: the ranks in MPI_Barrier, and rank 1 in MPI_Recv.)
// EXPECT: deadlock subkind=hang
// EXPECT: deadlock subkind=hang
// EXPECT-TEXT: Cycle across MPI ranks: rank 0 (MPI_Barrier) waits for rank 1, not in it -> rank 1 (MPI_Recv from rank 0 (tag 5)) -> rank 0
#include <Kokkos_Core.hpp>
#include <mpi.h>
#include <cstdio>

int main(int argc, char *argv[]) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  {
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    Kokkos::View<double *, Kokkos::HostSpace> msg("msg", 4);
    if (rank == 1)
      MPI_Recv(msg.data(), 4, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    else
      MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
      MPI_Send(msg.data(), 4, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);
    printf("rank %d done\n", rank);
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
