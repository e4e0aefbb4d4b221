// A kernel captured into a CUDA graph reads its input; after each launch
// of the graph on stream s, a memset on a second stream clears that input,
// with nothing ordering it after the graph's kernel.  The kernel is named
// where it was captured (line 20), the memset where it was called (line
// 26).
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=kernel:scale,cudaMemset:cudaMemsetAsync lines=20,26
#include "gpu_check.h"
int main() {
  const int n = 1 << 16;
  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemset(in, 0, n * sizeof(float)));
  cudaStream_t s, s2;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamCreate(&s2));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  scale<<<n / 256, 256, 0, s>>>(out, in, n);
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaDeviceSynchronize());
  for (int it = 0; it < 2; it++) {
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaMemsetAsync(in, it, n * sizeof(float), s2));
    CHECK(cudaDeviceSynchronize());
  }
  printf("done\n");
  return 0;
}
