// A functor class with a work tag; the tagged operator() of the second
// dispatch writes an element that every iteration reads.
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_for:normalize,parallel_for:normalize lines=17,17
#include <Kokkos_Core.hpp>

struct Init {};
struct Normalize {};

struct Vec {
  Kokkos::View<double *> x;
  double scale;
  KOKKOS_INLINE_FUNCTION void operator()(Init, const int i) const {
    x(i) = scale * i;
  }
  // Every iteration divides by x(0), and iteration 0 rewrites it.
  KOKKOS_INLINE_FUNCTION void operator()(Normalize, const int i) const {
    x(i) = x(i) / x(0);
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Vec v{Kokkos::View<double *>("x", 50), 2.0};
    Kokkos::parallel_for("init", Kokkos::RangePolicy<Init>(1, 50), v);
    Kokkos::parallel_for("normalize", Kokkos::RangePolicy<Normalize>(0, 50), v);
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
