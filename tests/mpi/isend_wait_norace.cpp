// The correct twin: the kernel that packs the send buffer is fenced before
// MPI_Isend, the buffers are touched only after MPI_Waitall (or a
// successful MPI_Test), blocking MPI_Sendrecv and MPI_Allreduce run on
// fenced data, and a persistent request is restarted only after its wait.
// MPI-RANKS: 2 4
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
    const int n = 64, peer = (rank + 1) % size, from = (rank + size - 1) % size;
    Kokkos::View<double *, Kokkos::HostSpace> sendbuf("sendbuf", n), recvbuf("recvbuf", n);
    Kokkos::parallel_for("pack", n, KOKKOS_LAMBDA(const int i) { sendbuf(i) = rank + i; });
    Kokkos::fence();
    MPI_Request reqs[2];
    MPI_Irecv(recvbuf.data(), n, MPI_DOUBLE, from, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(sendbuf.data(), n, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    Kokkos::parallel_for("use", n, KOKKOS_LAMBDA(const int i) { sendbuf(i) += recvbuf(i); });
    Kokkos::fence();

    MPI_Sendrecv(sendbuf.data(), n, MPI_DOUBLE, peer, 8, recvbuf.data(), n,
                 MPI_DOUBLE, from, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double local = recvbuf(3), total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    MPI_Request sreq, rreq;
    MPI_Send_init(sendbuf.data(), n, MPI_DOUBLE, peer, 9, MPI_COMM_WORLD, &sreq);
    MPI_Recv_init(recvbuf.data(), n, MPI_DOUBLE, from, 9, MPI_COMM_WORLD, &rreq);
    for (int step = 0; step < 3; ++step) {
      MPI_Start(&rreq);
      MPI_Start(&sreq);
      int done = 0;
      while (!done)
        MPI_Test(&rreq, &done, MPI_STATUS_IGNORE);
      MPI_Wait(&sreq, MPI_STATUS_IGNORE);
      Kokkos::parallel_for("step", n, KOKKOS_LAMBDA(const int i) { sendbuf(i) = 0.5 * recvbuf(i); });
      Kokkos::fence();
    }
    MPI_Request_free(&sreq);
    MPI_Request_free(&rreq);
    printf("rank %d: %g %g\n", rank, sendbuf(1), total);
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
