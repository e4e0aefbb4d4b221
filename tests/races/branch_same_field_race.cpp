// The same field of a View of structs written on two ways of a branch (a
// typo: the third way should write z): the optimizer merges the two
// stores' checks unless told not to, and the report names each line.
// Iterations 3k + 1 and 3k + 2 both write p(k).y.
// EXPECT: data-race view=p subkind=iteration-overlap nodes=parallel_for:fields,parallel_for:fields lines=23,25
#include <Kokkos_Core.hpp>
#include <cstdio>

struct P {
  double x, y, z;
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<P *> p("p", n);
    Kokkos::parallel_for("fields", 3 * n, KOKKOS_LAMBDA(const int i) {
      const int k = i / 3, j = i % 3;
      if (j == 0)
        p(k).x = i;
      else if (j == 1)
        p(k).y = i;
      else
        p(k).y = -i;
    });
    Kokkos::fence();
    printf("%g\n", p(3).y);
  }
  Kokkos::finalize();
  return 0;
}
