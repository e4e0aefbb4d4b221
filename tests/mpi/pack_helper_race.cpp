// Two send buffers packed by one helper function (one kernel line), sent by
// two MPI_Isend calls with no fence before them: two races, one per View,
// each naming its own MPI_Isend (the accesses of an MPI call are checked at
// the program's call site, so the second is not taken for the first).
// MPI-RANKS: 2 4
// EXPECT: data-race view=left subkind=missing-fence ops=write,read lines=12,28
// EXPECT: data-race view=right subkind=missing-fence ops=write,read lines=12,29
// EXPECT-TEXT: by MPI_Isend to rank
#include <Kokkos_Core.hpp>
#include <mpi.h>
using HV = Kokkos::View<double *, Kokkos::HostSpace>;
void pack(HV buf, double v) { Kokkos::parallel_for("pack", buf.extent(0), KOKKOS_LAMBDA(const int i) { buf(i) = v + i; }); }

int main(int argc, char *argv[]) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  {
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int n = 32, r = (rank + 1) % size, l = (rank + size - 1) % size;
    HV left("left", n), right("right", n), rl("recv_left", n), rr("recv_right", n);
    pack(left, 1.0);
    pack(right, 2.0);
    MPI_Request req[4];
    MPI_Irecv(rl.data(), n, MPI_DOUBLE, l, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(rr.data(), n, MPI_DOUBLE, r, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(left.data(), n, MPI_DOUBLE, l, 2, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(right.data(), n, MPI_DOUBLE, r, 1, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    Kokkos::fence();
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
