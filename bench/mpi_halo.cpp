// MPI benchmark: a 1D halo exchange with Kokkos kernels between the
// exchanges, on each rank a field of n cells; steps iterations of
// (pack kernel, Irecv/Isend of the halos, Waitall, stencil kernel).
#include <Kokkos_Core.hpp>
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  {
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int n = argc > 1 ? atoi(argv[1]) : 200000;
    const int steps = argc > 2 ? atoi(argv[2]) : 200;
    const int h = 64;
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    Kokkos::View<double *, Kokkos::HostSpace> u("u", n + 2 * h), v("v", n + 2 * h);
    Kokkos::View<double *, Kokkos::HostSpace> sl("send_left", h), sr("send_right", h),
        rl("recv_left", h), rr("recv_right", h);
    Kokkos::parallel_for("init", n + 2 * h, KOKKOS_LAMBDA(const int i) { u(i) = rank + i * 1e-6; });
    for (int s = 0; s < steps; ++s) {
      Kokkos::parallel_for("pack", h, KOKKOS_LAMBDA(const int i) {
        sl(i) = u(h + i);
        sr(i) = u(n + i);
      });
      Kokkos::fence();
      MPI_Request req[4];
      MPI_Irecv(rl.data(), h, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(rr.data(), h, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
      MPI_Isend(sl.data(), h, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[2]);
      MPI_Isend(sr.data(), h, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
      Kokkos::parallel_for("unpack", h, KOKKOS_LAMBDA(const int i) {
        u(i) = rl(i);
        u(n + h + i) = rr(i);
      });
      Kokkos::parallel_for("stencil", Kokkos::RangePolicy<>(1, n + 2 * h - 1), KOKKOS_LAMBDA(const int i) {
        v(i) = 0.25 * u(i - 1) + 0.5 * u(i) + 0.25 * u(i + 1);
      });
      Kokkos::fence();
      auto t = u; u = v; v = t;
    }
    double local = u(h + 7), total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
      printf("mpi_halo ranks=%d n=%d steps=%d sum=%.6e\n", size, n, steps, total);
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}
