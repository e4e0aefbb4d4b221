// cudaMemcpy3DAsync from pinned memory into a pitched allocation on stream
// s1, and a kernel on stream s2 reading it: nothing orders them.  After
// cudaStreamSynchronize(s1), another reader is fine.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=cudaMemcpy:cudaMemcpy3DAsync(HtoD),kernel:scale lines=29,30
#include "gpu_check.h"
int main() {
  const int w = 1024, h = 256, n = w * h;
  float *dp, *e, *host;
  size_t pitch;
  CHECK(cudaMallocPitch(&dp, &pitch, w * sizeof(float), h));
  CHECK(cudaMalloc(&e, pitch * h));
  CHECK(cudaMallocHost(&host, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    host[i] = (float)i;
  CHECK(cudaMemset2D(dp, pitch, 0, w * sizeof(float), h));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host, w * sizeof(float), w * sizeof(float), h);
  p.dstPtr = make_cudaPitchedPtr(dp, pitch, w * sizeof(float), h);
  p.extent = make_cudaExtent(w * sizeof(float), h, 1);
  p.kind = cudaMemcpyHostToDevice;
  int m = (int)(pitch / sizeof(float)) * h;
  // (the kernel reads the pitched rows as one array)
  if (m < n)
    return 1;
  CHECK(cudaMemcpy3DAsync(&p, s1));
  scale<<<m / 256, 256, 0, s2>>>(e, dp, m);
  CHECK(cudaStreamSynchronize(s1));
  scale<<<m / 256, 256, 0, s2>>>(e, dp, m);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
