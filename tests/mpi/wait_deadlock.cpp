// MPI_Wait on a request whose peer never sends: every rank posts an
// MPI_Irecv from its left neighbour and waits for it before sending to its
// right one.  The watchdog names the cycle through the requests' peers.
// MPI-RANKS: 2 4
// KKRACE-OPTIONS: hang_timeout_ms=1500
// EXPECT: deadlock subkind=hang
// EXPECT-TEXT: (MPI_Wait on MPI_Irecv from rank
// EXPECT-TEXT: Cycle across MPI ranks: rank
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
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    Kokkos::View<double *, Kokkos::HostSpace> out("out", 8), in("in", 8);
    MPI_Request req;
    MPI_Irecv(in.data(), 8, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Send(out.data(), 8, MPI_DOUBLE, right, 2, MPI_COMM_WORLD);
    printf("rank %d: %g\n", rank, in(0));
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
