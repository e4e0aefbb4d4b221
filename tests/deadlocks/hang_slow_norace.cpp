// The watchdog's correct twin: the main thread waits a long time (longer
// than hang_timeout_ms) for a worker that computes, and another waits on a
// condition variable signaled after the computation.  A thread that runs
// makes progress: no hang.
// KKRACE-OPTIONS: hang_timeout_ms=300
// EXPECT: no-report
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

std::mutex m;
std::condition_variable cv;
bool done = false;
volatile double sink;

int main() {
  std::thread waiter([]() {
    std::unique_lock<std::mutex> g(m);
    cv.wait(g, [] { return done; });
  });
  std::thread worker([]() {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(1200);
    double s = 0;
    while (std::chrono::steady_clock::now() < end)
      for (int i = 0; i < 100000; ++i)
        s += i * 0.5;
    sink = s;
    std::lock_guard<std::mutex> g(m);
    done = true;
    cv.notify_all();
  });
  worker.join();
  waiter.join();
  printf("%g\n", (double)sink);
  return 0;
}
