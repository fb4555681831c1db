__global__ void w0_0(double * out, const double * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 0; k < len; k += 1) {
    double v = (double)(in[(size_t)p * len + k] * 3 + 1);
    out[(size_t)p * len + k] = v;
  }
}

__global__ void w0_1(float * __restrict__ out, const float * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len; k += 2) {
      float v = (float)(in[(int)p * len + k] * 3 + 1);
      out[(int)k * n + p] = v;
    }
  }
}

__global__ void w0_2(float4 * __restrict__ out, const float4 * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len; k += 1) {
      float4 v = make_float4(in[(size_t)p * len + k].x * 2.f, in[(size_t)p * len + k].y + 1.f, in[(size_t)p * len + k].z, in[(size_t)p * len + k].w - 3.f);
      v = make_float4(v.x < make_float4(in[(size_t)p * len + k - 1].x * 2.f, in[(size_t)p * len + k - 1].y + 1.f, in[(size_t)p * len + k - 1].z, in[(size_t)p * len + k - 1].w - 3.f).y ? v.x : make_float4(in[(size_t)p * len + k - 1].x * 2.f, in[(size_t)p * len + k - 1].y + 1.f, in[(size_t)p * len + k - 1].z, in[(size_t)p * len + k - 1].w - 3.f).y, v.y, make_float4(in[(size_t)p * len + k - 1].x * 2.f, in[(size_t)p * len + k - 1].y + 1.f, in[(size_t)p * len + k - 1].z, in[(size_t)p * len + k - 1].w - 3.f).z, v.w);
      out[(size_t)p * len + k] = v;
    }
  }
}

__global__ void w0_3(int * __restrict__ out, const int * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < len; k += 2) {
    int v = (int)(in[(int)p * len + k] * 3 + 1);
    out[(int)k * n + p] = v;
  }
}

__global__ void w0_4(float * out, const float * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len; k += 1) {
      float v = (float)(in[(size_t)p * len + k] * 3 + 1);
      v = (v < (float)(in[(size_t)p * len + k - 1] * 3 + 1) ? v : (float)(in[(size_t)p * len + k - 1] * 3 + 1));
      out[(size_t)k * n + p] = v;
    }
  }
}

__global__ void w0_5(double * out, const double * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 0; k < len - 1; k += 1) {
      double v = (double)(in[(size_t)p * len + k] * 3 + 1);
      v = (v < (double)(in[(size_t)p * len + k + 1] * 3 + 1) ? v : (double)(in[(size_t)p * len + k + 1] * 3 + 1));
      out[(size_t)p * len + k] = v;
    }
  }
}

__global__ void w0_6(int * __restrict__ out, const int * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < len; k += 1) {
    int v = (int)(in[(int)p * len + k] * 3 + 1);
    out[(int)k * n + p] = v;
  }
}

__global__ void w0_7(float * __restrict__ out, const float * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 0; k < len; k += 1) {
    float v = (float)(in[(size_t)p * len + k] * 3 + 1);
    out[(size_t)k * n + p] = v;
  }
}

__global__ void w0_8(float4 * __restrict__ a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len; k += 1) {
      float4 v = make_float4(a[(size_t)p * len + k].x * 2.f, a[(size_t)p * len + k].y + 1.f, a[(size_t)p * len + k].z, a[(size_t)p * len + k].w - 3.f);
      a[(size_t)p * len + k] = v;
    }
  }
}

__global__ void w0_9(float4 * out, const float4 * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < len; k += 1) {
    float4 v = make_float4(in[(size_t)p * len + k].x * 2.f, in[(size_t)p * len + k].y + 1.f, in[(size_t)p * len + k].z, in[(size_t)p * len + k].w - 3.f);
    out[(size_t)k * n + p] = v;
  }
}

__global__ void w0_10(float * out, const float * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < len; k += 2) {
    float v = (float)(in[(int)p * len + k] * 3 + 1);
    out[(int)k * n + p] = v;
  }
}

__global__ void w0_11(int * out, const int * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 0; k < len; k += 1) {
      int v = (int)(in[(int)p * len + k] * 3 + 1);
      out[(int)k * n + p] = v;
    }
  }
}

__global__ void w0_12(float * out, const float * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 1; k < len; k += 1) {
    float v = (float)(in[(int)p * len + k] * 3 + 1);
    out[(int)p * len + k] = v;
  }
}

__global__ void w0_13(double * out, const double * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 1; k < len; k += 1) {
    double v = (double)(in[(size_t)p * len + k] * 3 + 1);
    v = (v < (double)(in[(size_t)p * len + k - 1] * 3 + 1) ? v : (double)(in[(size_t)p * len + k - 1] * 3 + 1));
    out[(size_t)p * len + k] = v;
  }
}

__global__ void w0_14(double * out, const double * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < len; k += 1) {
    double v = (double)(in[(int)p * len + k] * 3 + 1);
    out[(int)k * n + p] = v;
  }
}

__global__ void w0_15(float4 * out, const float4 * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 0; k < len; k += 2) {
    float4 v = make_float4(in[(size_t)p * len + k].x * 2.f, in[(size_t)p * len + k].y + 1.f, in[(size_t)p * len + k].z, in[(size_t)p * len + k].w - 3.f);
    out[(size_t)p * len + k] = v;
  }
}

