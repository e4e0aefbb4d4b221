// The same functor class, normalizing by a value read before the dispatch.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

struct Init {};
struct Normalize {};

struct Vec {
  Kokkos::View<double *> x;
  double scale;
  KOKKOS_INLINE_FUNCTION void operator()(Init, const int i) const {
    x(i) = scale * (i + 1);
  }
  KOKKOS_INLINE_FUNCTION void operator()(Normalize, const int i) const {
    x(i) = x(i) / scale;
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Vec v{Kokkos::View<double *>("x", 50), 2.0};
    Kokkos::parallel_for("init", Kokkos::RangePolicy<Init>(0, 50), v);
    Kokkos::fence();
    v.scale = v.x(0);
    Kokkos::parallel_for("normalize", Kokkos::RangePolicy<Normalize>(0, 50), v);
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
