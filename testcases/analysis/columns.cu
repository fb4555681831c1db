// Column accesses with a run-time row length (Gaussian elimination's Fan1,
// k-means' feature transpose): the lane stride is a kernel argument.
__global__ void fan1(float *m, const float *a, int Size, int t) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= Size - 1 - t)
    return;
  m[Size * (tid + t + 1) + t] = a[Size * (tid + t + 1) + t] / a[Size * t + t];
}

__global__ void invert_mapping(const float *input, float *output, int npoints, int nfeatures) {
  int point = blockIdx.x * blockDim.x + threadIdx.x;
  if (point < npoints)
    for (int i = 0; i < nfeatures; i++)
      output[point + npoints * i] = input[point * nfeatures + i];
}
