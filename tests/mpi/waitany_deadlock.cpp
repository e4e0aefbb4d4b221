// Each rank posts a receive from its right neighbour that no rank ever
// sends, then waits for it with MPI_Waitany: with the hang watchdog, the
// ranks report the hang and name the cycle of their waits.
// MPI-RANKS: 2
// KKRACE-OPTIONS: hang_timeout_ms=1500
// EXPECT: deadlock subkind=hang
// EXPECT-TEXT: (MPI_Waitany on MPI_Irecv from rank
// EXPECT-TEXT: Cycle across MPI ranks: rank
#include <Kokkos_Core.hpp>
#include <mpi.h>

int main(int argc, char *argv[]) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  {
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    Kokkos::View<double *, Kokkos::HostSpace> b("b", 8);
    MPI_Request req;
    int index;
    MPI_Irecv(b.data(), 8, MPI_DOUBLE, (rank + 1) % size, 2, MPI_COMM_WORLD, &req);
    MPI_Waitany(1, &req, &index, MPI_STATUS_IGNORE);
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
