// Unit-stride but misaligned accesses (a 3-point stencil): each warp reads
// consecutive words shifted by one element; these are coalesced.
__global__ void smooth(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (i < n - 1)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}
