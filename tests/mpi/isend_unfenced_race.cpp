// The halo exchange without the fence before MPI_Isend: the pack kernel may
// still be writing the send buffer when MPI starts reading it.
// MPI-RANKS: 2
// EXPECT: data-race view=halo subkind=missing-fence ops=write,read lines=19,22
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
    const int n = 16, peer = (rank + 1) % size, from = (rank + size - 1) % size;
    Kokkos::View<double *, Kokkos::HostSpace> halo("halo", n), in("in", n);
    Kokkos::parallel_for("pack", n, KOKKOS_LAMBDA(const int i) {
      halo(i) = rank + i;
    });
    MPI_Request reqs[2];
    MPI_Isend(halo.data(), n, MPI_DOUBLE, peer, 4, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(in.data(), n, MPI_DOUBLE, from, 4, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    Kokkos::fence();
    printf("rank %d: %g\n", rank, in(1));
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
