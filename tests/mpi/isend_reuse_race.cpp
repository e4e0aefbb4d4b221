// A ring exchange with MPI_Irecv / MPI_Isend that touches the buffers
// before MPI_Waitall completes the requests: the host overwrites the send
// buffer (MPI may still be reading it), and a kernel updates the send
// buffer and reads the receive buffer (MPI may still be writing it).
// MPI-RANKS: 2 4
// EXPECT: data-race view=sendbuf subkind=mpi-pending ops=read,write lines=26,27
// EXPECT: data-race view=sendbuf subkind=mpi-pending ops=read,write lines=26,28
// EXPECT: data-race view=recvbuf subkind=mpi-pending ops=read,write lines=25,28
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
    sendbuf(0) = -1;
    Kokkos::parallel_for("use", n, KOKKOS_LAMBDA(const int i) { sendbuf(i) += recvbuf(i); });
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    Kokkos::fence();
    printf("rank %d: %g\n", rank, sendbuf(1));
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
