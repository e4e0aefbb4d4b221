// Threads add to one total under a std::mutex (and one under a recursive
// mutex taken twice, one with try_lock): the mutex orders them.
// EXPECT: no-report
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

long total;
std::mutex m;
std::recursive_mutex rm;

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
  for (auto &t : ts)
    t.join();
  printf("%ld\n", total);
  return 0;
}
