// Read-only elements of 64, 128, 192 and 256 bytes (4-byte loads, aligned 4),
// each thread reduces its own (unrolled whole at -O3: member loads of one
// element). The measurement behind the read-only element rule: one H200 run
// of scripts/gpu_reductions.sh (docs/runs/read-only-elements-h200.txt).
template <int W>
__device__ void reduce(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int m = 0;
#pragma unroll
  for (int k = 0; k < W; k++)
    m += in[(size_t)i * W + k] >> (k & 3);
  out[i] = m;
}
__global__ void elem64(int *out, const int *in, int n) { reduce<16>(out, in, n); }
__global__ void elem128(int *out, const int *in, int n) { reduce<32>(out, in, n); }
__global__ void elem192(int *out, const int *in, int n) { reduce<48>(out, in, n); }
__global__ void elem256(int *out, const int *in, int n) { reduce<64>(out, in, n); }
