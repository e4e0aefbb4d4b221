// Three threads, three mutexes: a then b, b then c, c then a.  No two of
// them invert an order, but the three together close a cycle in the lock
// graph: run at the same time, each waits for the next.
// EXPECT: deadlock subkind=lock-order-inversion lines=14,15,20,21,26,27
#include <cstdio>
#include <mutex>
#include <thread>

std::mutex a, b, c;
long x;

int main() {
  std::thread t1([]() {
    std::lock_guard<std::mutex> ga(a);
    std::lock_guard<std::mutex> gb(b);
    x++;
  });
  t1.join();
  std::thread t2([]() {
    std::lock_guard<std::mutex> gb(b);
    std::lock_guard<std::mutex> gc(c);
    x++;
  });
  t2.join();
  std::thread t3([]() {
    std::lock_guard<std::mutex> gc(c);
    std::lock_guard<std::mutex> ga(a);
    x++;
  });
  t3.join();
  printf("%ld\n", x);
  return 0;
}
