// The twin of aos_loop_race: kernels over an array of structs whose two
// neighbouring fields the compiler loads and stores as one 16-byte vector,
// checked by one call before the loop, word by word: each iteration moves
// its own particle (a conditional write of one of the words stays in the
// loop and must meet the word's write as its strand's own) and reads its
// neighbour's position from last step's copy.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

struct P {
  double x, y, vx, vy;
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4096;
    Kokkos::View<P *> p("p", n + 1), old("old", n + 1);
    Kokkos::View<double *> d("d", n);
    Kokkos::parallel_for("init", n + 1, KOKKOS_LAMBDA(const int i) {
      p(i) = P{1.0 * i, 0.5 * i, 1.0, -1.0};
    });
    for (int s = 0; s < 3; ++s) {
      Kokkos::deep_copy(old, p);
      Kokkos::parallel_for("push", n, KOKKOS_LAMBDA(const int i) {
        P &q = p(i);
        q.x += 0.01 * q.vx;
        q.y += 0.01 * q.vy;
        if (q.y < 0) {
          q.y = -q.y;
          q.vy = -q.vy;
        }
        const P &r = old(i + 1);
        d(i) = (r.x - q.x) * (r.x - q.x) + (r.y - q.y) * (r.y - q.y);
      });
    }
    Kokkos::fence();
    printf("%f\n", d(7));
  }
  Kokkos::finalize();
  return 0;
}
