// Kokkos issue 5213: thread A calls deep_copy(exec, dst, src) while thread
// B, which A never synchronizes with, submits to exec a kernel that writes
// src.  The two threads take turns through a relaxed atomic, which orders
// nothing: argument "late" lets A call deep_copy first, "early" lets B
// submit first.
//
// Default model: exec runs its work in submission order, but which thread
// submits first is decided by nothing in the program: a submission-order
// race, whichever thread submits first.
// model=minikokkos: the copy is ordered after the work submitted to exec
// before the call (Fig. 7): when B submits late, its kernel races with the
// copy; when B submits early, the copy's fence orders them.
// RUN: kokkos-late -- late
// RUN: kokkos-early -- early
// RUN: mini-late model=minikokkos -- late
// RUN: mini-early model=minikokkos -- early
// EXPECT[kokkos-late]: data-race view=src subkind=submission-order nodes=deep_copy,parallel_for:write_src lines=38,46
// EXPECT[kokkos-early]: data-race view=src subkind=submission-order nodes=deep_copy,parallel_for:write_src lines=38,46
// EXPECT[mini-late]: data-race view=src subkind=missing-fence nodes=deep_copy,parallel_for:write_src lines=38,46
// EXPECT[mini-early]: no-report
#include <Kokkos_Core.hpp>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>

std::atomic<int> turn{0};

static void wait_turn(int t) {
  while (turn.load(std::memory_order_relaxed) != t) {
  }
}

static void thread_a(Kokkos::DefaultExecutionSpace exec,
                     Kokkos::View<double *> dst, Kokkos::View<double *> src,
                     int first) {
  wait_turn(first ? 0 : 1);
  Kokkos::deep_copy(exec, dst, src);
  turn.store(first ? 1 : 2, std::memory_order_relaxed);
}

static void thread_b(Kokkos::DefaultExecutionSpace exec,
                     Kokkos::View<double *> src, int first) {
  wait_turn(first ? 0 : 1);
  Kokkos::parallel_for("write_src", Kokkos::RangePolicy<>(exec, 0, src.extent(0)),
                       KOKKOS_LAMBDA(const int i) { src(i) = -i; });
  turn.store(first ? 1 : 2, std::memory_order_relaxed);
}

int main(int argc, char *argv[]) {
  const bool late = argc > 1 && !strcmp(argv[1], "late");
  Kokkos::initialize(argc, argv);
  {
    const int n = 256;
    Kokkos::DefaultExecutionSpace exec;
    Kokkos::View<double *> src("src", n), dst("dst", n);
    Kokkos::deep_copy(src, 1.0);
    std::thread a(thread_a, exec, dst, src, late ? 1 : 0);
    std::thread b(thread_b, exec, src, late ? 0 : 1);
    a.join();
    b.join();
    exec.fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dst);
    printf("%g\n", h(1));
  }
  Kokkos::finalize();
  return 0;
}
