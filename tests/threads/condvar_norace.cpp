// A producer fills a buffer and signals a condition variable; the consumer
// waits for it under the mutex, then reads the buffer.
// EXPECT: no-report
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

double buffer[64];
bool ready = false;
std::mutex m;
std::condition_variable cv;

int main() {
  std::thread consumer([]() {
    std::unique_lock<std::mutex> lk(m);
    cv.wait(lk, [] { return ready; });
    double s = 0;
    for (double d : buffer)
      s += d;
    printf("%g\n", s);
  });
  for (int i = 0; i < 64; ++i)
    buffer[i] = i;
  {
    std::lock_guard<std::mutex> g(m);
    ready = true;
  }
  cv.notify_one();
  consumer.join();
  return 0;
}
