// Blocking MPI calls on Views that kernels still use (no fence): the
// residual's Allreduce into a View a kernel is reading, MPI_Sendrecv_replace
// of a View a kernel is writing, and the receive buffer of an
// MPI_Ialltoall read by a kernel before MPI_Wait.  Each report names the
// MPI call.
// MPI-RANKS: 2 4
// EXPECT: data-race view=global subkind=missing-fence ops=read,write lines=27,28
// EXPECT: data-race view=ring subkind=missing-fence ops=write,read lines=30,31
// EXPECT: data-race view=blocks_in subkind=mpi-pending ops=write,read lines=34,35
// EXPECT-TEXT: by MPI_Allreduce, called by main thread
// EXPECT-TEXT: by MPI_Sendrecv_replace, called by main thread
// EXPECT-TEXT: by MPI_Ialltoall by rank
#include <Kokkos_Core.hpp>
#include <mpi.h>

int main(int argc, char *argv[]) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  {
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int n = 8, r = (rank + 1) % size, l = (rank + size - 1) % size;
    Kokkos::View<double *, Kokkos::HostSpace> x("x", n), y("y", n), ring("ring", n);
    Kokkos::View<double, Kokkos::HostSpace> local("local"), global("global");
    Kokkos::View<double *, Kokkos::HostSpace> out("blocks_out", size), in("blocks_in", size);
    Kokkos::parallel_for("scale", n, KOKKOS_LAMBDA(const int i) { y(i) = x(i) / (1 + global()); });
    MPI_Allreduce(local.data(), global.data(), 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    Kokkos::fence();
    Kokkos::parallel_for("shift", n, KOKKOS_LAMBDA(const int i) { ring(i) = rank + i; });
    MPI_Sendrecv_replace(ring.data(), n, MPI_DOUBLE, r, 3, l, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    Kokkos::fence();
    MPI_Request req;
    MPI_Ialltoall(out.data(), 1, MPI_DOUBLE, in.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD, &req);
    Kokkos::parallel_for("early", size, KOKKOS_LAMBDA(const int i) { y(i) = in(i); });
    Kokkos::fence();
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
