// A pipeline captured once into a CUDA graph (copy in, kernel, copy out on
// stream s), then launched in a loop: the host fills the pinned input,
// launches the graph, waits for the stream and reads the output.  Work
// captured into a graph runs when the graph is launched, not when it is
// captured, so filling the input after the capture is no race.
// EXPECT: no-report
#include "gpu_check.h"
int main() {
  const int n = 1 << 16;
  float *h_in, *h_out, *in, *out;
  CHECK(cudaMallocHost(&h_in, n * sizeof(float)));
  CHECK(cudaMallocHost(&h_out, n * sizeof(float)));
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpyAsync(in, h_in, n * sizeof(float), cudaMemcpyHostToDevice, s));
  scale<<<n / 256, 256, 0, s>>>(out, in, n);
  CHECK(cudaMemcpyAsync(h_out, out, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  float total = 0;
  for (int it = 0; it < 3; it++) {
    for (int i = 0; i < n; i++) h_in[i] = (float)(i + it);
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    total += h_out[n - 1];
  }
  printf("%g\n", total);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  return 0;
}
