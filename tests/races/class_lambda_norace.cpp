// The same solver class, updating out of place into a second member View
// that it swaps with the first after each step, and fencing before the
// host reads the result.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

#include <utility>

#ifndef KOKKOS_CLASS_LAMBDA
#define KOKKOS_CLASS_LAMBDA [ =, *this ]
#endif

struct Heat {
  int n;
  Kokkos::View<double *> u, un;
  double alpha = 0.1;
  explicit Heat(int n_) : n(n_), u("u", n_), un("un", n_) {}
  void init() {
    Kokkos::parallel_for(
        "init", n, KOKKOS_CLASS_LAMBDA(const int i) {
          u(i) = i % 3;
          un(i) = u(i);
        });
  }
  void step() {
    Kokkos::parallel_for(
        "step", Kokkos::RangePolicy<>(1, n - 1),
        KOKKOS_CLASS_LAMBDA(const int i) {
          un(i) = u(i) + alpha * (u(i - 1) - 2 * u(i) + u(i + 1));
        });
    std::swap(u, un);
  }
  double total() {
    double s = 0;
    Kokkos::parallel_reduce(
        "total", n, KOKKOS_CLASS_LAMBDA(const int i, double &acc) { acc += u(i); },
        s);
    return s;
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Heat h(1000);
    h.init();
    for (int s = 0; s < 6; s++)
      h.step();
    double before = h.total();
    Kokkos::fence();
    h.u(5) = before;
    h.step();
    Kokkos::fence();
    if (h.u(5) < 0)
      return 1;
  }
  Kokkos::finalize();
  return 0;
}
