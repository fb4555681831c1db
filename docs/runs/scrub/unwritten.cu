// The early-loads adversary's three shared-memory kernels as they were at
// 8a5a869 (testcases/adversarial/early_loads.cu): sized for their block of
// 128, each thread writes its own slot of s and reads others. In the
// oracle's one-thread overlap launches they read 127 slots no thread wrote:
// on the H200, before the runner scrubbed shared memory, 15 of 756
// comparisons at -O0 differed that way (docs/gpu-runs.md). Run by scrub.sh
// with and without the scrub (coalda/check/gpu.py, GpuExecutor.scrub).
struct F3 { float x, y, z; };
#define G (blockIdx.x * blockDim.x + threadIdx.x)

__global__ void shared_before(F3 *y, const float *v, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = G;
  s[t] = i < n ? v[i] : 0.f;
  __syncthreads();
  if (i < n) {
    y[i].x = y[i].x + s[(t + 1) % 128];
    y[i].y = y[i].y + v[i];
    y[i].z = y[i].z + s[127 - t];
  }
}

__global__ void shared_generic(F3 *y, float *g, int flag, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = G;
  s[t] = (float)(t * 3 + 1);
  __syncthreads();
  float *p = flag ? s : g;
  if (i < n) {
    y[i].x = y[i].x * 0.5f;
    y[i].y = y[i].y + p[(t + 5) & 127];
    y[i].z = y[i].z - p[t ^ 1];
  }
}

__device__ __noinline__ float read_slot(const float *p, int k) { return p[k]; }
__global__ void shared_helper(F3 *y, const float *v, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = G;
  s[t] = i < n ? v[i] : 0.f;
  __syncthreads();
  if (i < n) {
    y[i].x = y[i].x + read_slot(s, 127 - t);
    y[i].y = y[i].y + v[i];
    y[i].z = y[i].z + read_slot(s, t);
  }
}
