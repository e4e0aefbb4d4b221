// Kokkos reads the View handles given to an asynchronous deep_copy or fill
// (their data pointers and spans) before the call returns: freeing the
// objects that hold them right after the call -- a struct on the heap, the
// captures of a thread's function when the thread ends -- is no use after
// free, while the copy itself is still pending.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <thread>

struct Buffers {
  Kokkos::View<double *> src, dst;
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::DefaultExecutionSpace exec;
    Kokkos::View<double *> s("src", 64), d("dst", 64), f("filled", 64);
    Kokkos::fence();
    Buffers *b = new Buffers{s, d};
    Kokkos::deep_copy(exec, b->dst, b->src);
    delete b;
    std::thread worker([f, exec]() { Kokkos::deep_copy(exec, f, 2.0); });
    worker.join();
    exec.fence();
    std::printf("%g %g\n", d(0), f(0));
  }
  Kokkos::finalize();
  return 0;
}
