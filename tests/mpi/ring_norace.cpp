// The ring exchange done right: even ranks send first, odd ranks receive
// first (and MPI_Sendrecv for a second round), under the hang watchdog:
// no hang, no report.
// MPI-RANKS: 2 4
// KKRACE-OPTIONS: hang_timeout_ms=1500
// EXPECT: no-report
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
    Kokkos::deep_copy(out, double(rank));
    if (rank % 2 == 0) {
      MPI_Send(out.data(), n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
      MPI_Recv(in.data(), n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(in.data(), n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(out.data(), n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
    }
    MPI_Sendrecv(out.data(), n, MPI_DOUBLE, right, 4, in.data(), n, MPI_DOUBLE,
                 left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: %g\n", rank, in(0));
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
