// A ring exchange where every rank receives first: each blocks in MPI_Recv
// from its left neighbour, which blocks in MPI_Recv too.  With the hang
// watchdog, each rank reports the hang with the cycle across the ranks,
// and the run ends with exitcode instead of hanging.
// MPI-RANKS: 2 4
// KKRACE-OPTIONS: hang_timeout_ms=1500
// EXPECT: deadlock subkind=hang
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
    const int n = 16, right = (rank + 1) % size, left = (rank + size - 1) % size;
    Kokkos::View<double *, Kokkos::HostSpace> out("out", n), in("in", n);
    MPI_Recv(in.data(), n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out.data(), n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
    printf("rank %d: %g\n", rank, in(0));
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
