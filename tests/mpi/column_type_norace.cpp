// Ghost columns exchanged straight from the field with an MPI_Type_vector
// (no packing), while a kernel updates the interior: the strided type
// touches columns 0, 1, nx and nx + 1 only, which the kernel reads (columns
// 1 and nx, being sent) or leaves alone (0 and nx + 1, being received).
// kkrace checks the type's blocks, not all it spans: no report.
// MPI-RANKS: 2 4
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <mpi.h>

int main(int argc, char *argv[]) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  {
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int nx = 16, ny = 12, r = (rank + 1) % size, l = (rank + size - 1) % size;
    Kokkos::View<double **, Kokkos::LayoutRight, Kokkos::HostSpace> u("u", ny, nx + 2), un("unew", ny, nx + 2);
    Kokkos::parallel_for("init", ny, KOKKOS_LAMBDA(const int i) {
      for (int j = 0; j < nx + 2; ++j) u(i, j) = rank + i + j;
    });
    Kokkos::fence();
    MPI_Datatype col;
    MPI_Type_vector(ny, 1, nx + 2, MPI_DOUBLE, &col);
    MPI_Type_commit(&col);
    MPI_Request req[4];
    MPI_Irecv(&u(0, 0), 1, col, l, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u(0, nx + 1), 1, col, r, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u(0, 1), 1, col, l, 2, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u(0, nx), 1, col, r, 1, MPI_COMM_WORLD, &req[3]);
    Kokkos::parallel_for("interior", ny, KOKKOS_LAMBDA(const int i) {
      for (int j = 2; j < nx; ++j) un(i, j) = 0.5 * (u(i, j - 1) + u(i, j + 1));
    });
    Kokkos::fence();
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    MPI_Type_free(&col);
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
