// Threads add to one total under a std::mutex (one with try_lock, one
// under a recursive mutex taken twice as well): the mutex orders them.  Two
// more add to a second total under a std::timed_mutex (try_lock_for) and a
// std::shared_timed_mutex (exclusive for the write, shared for the read).
// EXPECT: no-report
#include <cstdio>
#include <chrono>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

long total;
std::mutex m;
std::recursive_mutex rm;
long total2;
std::timed_mutex tm;
std::shared_timed_mutex sm;

int main() {
  std::vector<std::thread> ts;
  for (int k = 0; k < 3; ++k)
    ts.emplace_back([k]() {
      for (int i = 0; i < 100; ++i) {
        if (k == 0) {
          std::lock_guard<std::mutex> g(m);
          total += i;
        } else if (k == 1) {
          while (!m.try_lock()) {
          }
          total += i;
          m.unlock();
        } else {
          std::lock_guard<std::recursive_mutex> g1(rm);
          std::lock_guard<std::recursive_mutex> g2(rm);
          std::lock_guard<std::mutex> g(m);
          total += i;
        }
      }
    });
  ts.emplace_back([]() {
    for (int i = 0; i < 100; ++i) {
      while (!sm.try_lock_for(std::chrono::milliseconds(10))) {
      }
      while (!tm.try_lock_for(std::chrono::milliseconds(10))) {
      }
      total2 += i;
      tm.unlock();
      sm.unlock();
    }
  });
  ts.emplace_back([]() {
    long seen = 0;
    for (int i = 0; i < 100; ++i) {
      {
        std::unique_lock<std::shared_timed_mutex> w(sm);
        std::lock_guard<std::timed_mutex> g(tm);
        total2 += 1;
      }
      std::shared_lock<std::shared_timed_mutex> r(sm);
      seen += total2 > 0;
    }
    printf("%ld\n", seen);
  });
  for (auto &t : ts)
    t.join();
  printf("%ld %ld\n", total, total2);
  return 0;
}
