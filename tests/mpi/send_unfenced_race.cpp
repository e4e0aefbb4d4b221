// The classic bug: a kernel still writing a View (no fence) when MPI_Send
// reads its data(), and a receive into a View that a kernel is still
// reading.
// MPI-RANKS: 2
// EXPECT: data-race view=halo subkind=missing-fence ops=write,read lines=23,25
// EXPECT: data-race view=field subkind=missing-fence ops=read,write lines=26,27
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
    const int n = 32;
    Kokkos::View<double *, Kokkos::HostSpace> halo("halo", n), field("field", n), sum("sum", n);
    const int peer = rank ^ 1;
    if (peer < size) {
      Kokkos::parallel_for("pack", n, KOKKOS_LAMBDA(const int i) {
        halo(i) = rank * 100 + i;
      });
      MPI_Send(halo.data(), n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD);
      Kokkos::parallel_for("accumulate", n, KOKKOS_LAMBDA(const int i) { sum(i) += field(i); });
      MPI_Recv(field.data(), n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      Kokkos::fence();
    }
    printf("rank %d: %g\n", rank, field(1));
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
