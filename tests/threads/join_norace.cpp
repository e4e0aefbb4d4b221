// The main thread fills a View, a std::thread updates it, the main thread
// joins the thread and reads the result: creation and join order them.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <thread>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *, Kokkos::HostSpace> v("v", 8);
    for (int i = 0; i < 8; ++i)
      v(i) = i;
    std::thread worker([&]() {
      for (int i = 0; i < 8; ++i)
        v(i) *= 2;
    });
    worker.join();
    double s = 0;
    for (int i = 0; i < 8; ++i)
      s += v(i);
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
