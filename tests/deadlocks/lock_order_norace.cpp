// The correct twin of the lock-order tests: every thread takes the locks in
// one global order (a before b before c), some nested three deep, one with
// a recursive mutex taken twice and one with try_lock out of order (a
// try-lock never waits, so it cannot deadlock).
// EXPECT: no-report
#include <cstdio>
#include <mutex>
#include <thread>

std::mutex a, b, c;
std::recursive_mutex r;
long x;

int main() {
  std::thread t1([]() {
    std::lock_guard<std::mutex> ga(a);
    std::lock_guard<std::mutex> gb(b);
    std::lock_guard<std::mutex> gc(c);
    x++;
  });
  std::thread t2([]() {
    std::lock_guard<std::mutex> gb(b);
    std::lock_guard<std::mutex> gc(c);
    x++;
  });
  std::thread t3([]() {
    std::lock_guard<std::recursive_mutex> g1(r);
    std::lock_guard<std::recursive_mutex> g2(r);
    std::lock_guard<std::mutex> ga(a);
    std::lock_guard<std::mutex> gc(c);
    x++;
  });
  t1.join();
  t2.join();
  t3.join();
  std::thread t4([]() {
    std::lock_guard<std::mutex> gc(c);
    if (a.try_lock()) {
      x++;
      a.unlock();
    }
  });
  t4.join();
  printf("%ld\n", x);
  return 0;
}
