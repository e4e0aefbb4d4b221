// Kernels over an array of structs whose two neighbouring fields the
// compiler loads and stores as one 16-byte vector (x and y, vx and vy),
// checked by one call before the loop, word by word: each iteration
// moves its own particle, then reads its neighbour's x, which the
// neighbour writes; a conditional write stays in the loop.
// EXPECT: data-race view=p subkind=iteration-overlap nodes=parallel_for:push,parallel_for:push lines=26,31
#include <Kokkos_Core.hpp>
#include <cstdio>

struct P {
  double x, y, vx, vy;
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4096;
    Kokkos::View<P *> p("p", n + 1);
    Kokkos::View<double *> d("d", n);
    Kokkos::parallel_for("init", n + 1, KOKKOS_LAMBDA(const int i) {
      p(i) = P{1.0 * i, 0.5 * i, 1.0, -1.0};
    });
    Kokkos::fence();
    Kokkos::parallel_for("push", n, KOKKOS_LAMBDA(const int i) {
      P &q = p(i);
      q.x += 0.01 * q.vx;
      q.y += 0.01 * q.vy;
      if (q.y < 0)
        q.vy = -q.vy;
      const P &r = p(i + 1);
      d(i) = (r.x - q.x) * (r.x - q.x) + q.y;
    });
    Kokkos::fence();
    printf("%f\n", d(7));
  }
  Kokkos::finalize();
  return 0;
}
