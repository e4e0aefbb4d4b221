// A host thread launches a kernel that writes d on its stream and ends
// without waiting for it; after joining the thread, main launches a kernel
// that reads d on another stream.  Joining the thread does not wait for
// the GPU work it left behind.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=kernel:fill,kernel:scale
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
  std::thread producer([&] { fill<<<n / 256, 256, 0, s1>>>(d, 1.0f, n); });
  producer.join();
  scale<<<n / 256, 256, 0, s2>>>(e, d, n);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
