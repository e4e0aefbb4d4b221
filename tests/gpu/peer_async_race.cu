// cudaMemcpyPeerAsync (here within one device) on stream s1 fills d2 while a
// kernel on stream s2 reads it; after the event that orders them, a second
// reader is fine, and so is a reader after the synchronous cudaMemcpyPeer
// (serialized with all the device's work) on a non-blocking stream.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#2 nodes=cudaMemcpy:cudaMemcpyPeerAsync(DtoD),kernel:scale lines=21,22
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  float *d1, *d2, *e;
  CHECK(cudaMalloc(&d1, bytes));
  CHECK(cudaMalloc(&d2, bytes));
  CHECK(cudaMalloc(&e, bytes));
  CHECK(cudaMemset(d1, 0, bytes));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));
  CHECK(cudaMemcpyPeerAsync(d2, 0, d1, 0, bytes, s1));
  scale<<<n / 256, 256, 0, s2>>>(e, d2, n);
  CHECK(cudaEventRecord(done, s1));
  CHECK(cudaStreamWaitEvent(s2, done, 0));
  scale<<<n / 256, 256, 0, s2>>>(e, d2, n);
  CHECK(cudaStreamSynchronize(s2));
  CHECK(cudaMemcpyPeer(d1, 0, e, 0, bytes));
  scale<<<n / 256, 256, 0, s1>>>(d2, d1, n);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
