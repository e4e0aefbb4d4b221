// A real deadlock: each thread holds one mutex and waits for the other's.
// kkrace reports the lock-order inversion when the second thread starts to
// wait; the watchdog (hang_timeout_ms) then finds that no thread makes
// progress, prints the wait-for graph with its cycle and ends the program
// with exitcode, instead of letting it hang forever.
// KKRACE-OPTIONS: hang_timeout_ms=1000
// EXPECT: deadlock subkind=lock-order-inversion lines=24,27,31,33
// EXPECT: deadlock subkind=hang lines=24,27,31,33,35
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

std::mutex a, b;
std::atomic<int> step{0};

static void wait_for(int s) {
  while (step.load(std::memory_order_relaxed) < s)
    std::this_thread::yield();
}

int main() {
  std::thread t1([]() {
    std::lock_guard<std::mutex> ga(a);
    step = 1;
    wait_for(2);
    std::lock_guard<std::mutex> gb(b);
  });
  std::thread t2([]() {
    wait_for(1);
    std::lock_guard<std::mutex> gb(b);
    step = 2;
    std::lock_guard<std::mutex> ga(a);
  });
  t1.join();
  t2.join();
  printf("unreachable\n");
  return 0;
}
