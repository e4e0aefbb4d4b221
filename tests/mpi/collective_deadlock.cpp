// A collective that one rank never enters: rank 1 first waits for a message
// from rank 0, which is already in MPI_Barrier (and sends after it).  With
// the hang watchdog, the ranks report the hang, and rank 0 names the cycle
// across ranks: rank 0 (MPI_Barrier) waits for rank 1, not in it, which
// waits in MPI_Recv from rank 0.
// MPI-RANKS: 2 4
// KKRACE-OPTIONS: hang_timeout_ms=1500
// Ranks 0 and 1 both tell the cycle: one report, counted once.  (With 4
// ranks, ranks 2 and 3 in MPI_Barrier would report a hang without a cycle
// through them after a longer search, by which time mpirun has ended them.)
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
