// The twin of threads_streams_race: the thread waits for its stream before
// it ends, and main joins it before launching the reader.
// EXPECT: no-report
#include <thread>
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *e;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  std::thread producer([&] {
    fill<<<n / 256, 256, 0, s1>>>(d, 1.0f, n);
    CHECK(cudaStreamSynchronize(s1));
  });
  producer.join();
  scale<<<n / 256, 256, 0, s2>>>(e, d, n);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
