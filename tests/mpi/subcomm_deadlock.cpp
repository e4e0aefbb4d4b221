// Ranks 1 and 3, in a communicator of their own (ranks 0 and 1 there), both
// receive from each other first; ranks 0 and 2 wait for them in
// MPI_Barrier.  The cycle is told with ranks of MPI_COMM_WORLD, not the
// sub-communicator's.
// MPI-RANKS: 4
// KKRACE-OPTIONS: hang_timeout_ms=1500
// EXPECT: deadlock subkind=hang
// EXPECT-TEXT: rank 3 (MPI_Recv from rank 1 (tag 3))
#include <Kokkos_Core.hpp>
#include <mpi.h>

int main(int argc, char *argv[]) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm odd;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &odd);
    Kokkos::View<double *, Kokkos::HostSpace> b("b", 8);
    if (rank % 2) {
      int me;
      MPI_Comm_rank(odd, &me);
      MPI_Recv(b.data(), 8, MPI_DOUBLE, 1 - me, 3, odd, MPI_STATUS_IGNORE);
      MPI_Send(b.data(), 8, MPI_DOUBLE, 1 - me, 3, odd);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&odd);
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
