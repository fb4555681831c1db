__global__ void w1_0(float * out, const float * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len; k += 1) {
      float v = (float)(in[(size_t)p * len + k] * 3 + 1);
      out[(size_t)p * len + k] = v;
    }
  }
}

__global__ void w1_1(float * __restrict__ out, const float * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 1; k < len - 1; k += 1) {
    float v = (float)(in[(int)p * len + k] * 3 + 1);
    v = (v < (float)(in[(int)p * len + k + 1] * 3 + 1) ? v : (float)(in[(int)p * len + k + 1] * 3 + 1));
    out[(int)p * len + k] = v;
  }
}

__global__ void w1_2(float * __restrict__ out, const float * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 1; k < len - 1; k += 1) {
    float v = (float)(in[(int)p * len + k] * 3 + 1);
    v = (v < (float)(in[(int)p * len + k + 1] * 3 + 1) ? v : (float)(in[(int)p * len + k + 1] * 3 + 1));
    out[(int)k * n + p] = v;
  }
}

__global__ void w1_3(float * out, const float * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < len; k += 1) {
    float v = (float)(in[(int)p * len + k] * 3 + 1);
    out[(int)p * len + k] = v;
  }
}

__global__ void w1_4(double * __restrict__ out, const double * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 1; k < len; k += 1) {
    double v = (double)(in[(size_t)p * len + k] * 3 + 1);
    out[(size_t)k * n + p] = v;
  }
}

__global__ void w1_5(int * out, const int * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 0; k < len; k += 1) {
    int v = (int)(in[(size_t)p * len + k] * 3 + 1);
    out[(size_t)p * len + k] = v;
  }
}

__global__ void w1_6(double * out, const double * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 1; k < len; k += 2) {
    double v = (double)(in[(size_t)p * len + k] * 3 + 1);
    v = (v < (double)(in[(size_t)p * len + k - 1] * 3 + 1) ? v : (double)(in[(size_t)p * len + k - 1] * 3 + 1));
    out[(size_t)k * n + p] = v;
  }
}

__global__ void w1_7(double * __restrict__ a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 0; k < len; k += 1) {
    double v = (double)(a[(size_t)p * len + k] * 3 + 1);
    a[(size_t)p * len + k] = v;
  }
}

__global__ void w1_8(float * a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 1; k < len; k += 1) {
    float v = (float)(a[(int)p * len + k] * 3 + 1);
    v = (v < (float)(a[(int)p * len + k - 1] * 3 + 1) ? v : (float)(a[(int)p * len + k - 1] * 3 + 1));
    a[(int)p * len + k] = v;
  }
}

__global__ void w1_9(int * __restrict__ out, const int * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len; k += 1) {
      int v = (int)(in[(size_t)p * len + k] * 3 + 1);
      v = (v + (int)(in[(size_t)p * len + k - 1] * 3 + 1));
      out[(size_t)p * len + k] = v;
    }
  }
}

__global__ void w1_10(int * __restrict__ out, const int * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len; k += 1) {
      int v = (int)(in[(size_t)p * len + k] * 3 + 1);
      v = (v + (int)(in[(size_t)p * len + k - 1] * 3 + 1));
      out[(size_t)k * n + p] = v;
    }
  }
}

__global__ void w1_11(double * __restrict__ out, const double * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len; k += 1) {
      double v = (double)(in[(int)p * len + k] * 3 + 1);
      v = (v < (double)(in[(int)p * len + k - 1] * 3 + 1) ? v : (double)(in[(int)p * len + k - 1] * 3 + 1));
      out[(int)k * n + p] = v;
    }
  }
}

__global__ void w1_12(float * out, const float * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < len - 1; k += 1) {
    float v = (float)(in[(size_t)p * len + k] * 3 + 1);
    v = (v < (float)(in[(size_t)p * len + k + 1] * 3 + 1) ? v : (float)(in[(size_t)p * len + k + 1] * 3 + 1));
    out[(size_t)k * n + p] = v;
  }
}

__global__ void w1_13(float * a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 1; k < len - 1; k += 1) {
    float v = (float)(a[(int)p * len + k] * 3 + 1);
    v = (v < (float)(a[(int)p * len + k + 1] * 3 + 1) ? v : (float)(a[(int)p * len + k + 1] * 3 + 1));
    a[(int)p * len + k] = v;
  }
}

__global__ void w1_14(float * out, const float * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 1; k < len; k += 1) {
    float v = (float)(in[(int)p * len + k] * 3 + 1);
    out[(int)k * n + p] = v;
  }
}

__global__ void w1_15(double * out, const double * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < len; k += 1) {
    double v = (double)(in[(size_t)p * len + k] * 3 + 1);
    out[(size_t)p * len + k] = v;
  }
}

