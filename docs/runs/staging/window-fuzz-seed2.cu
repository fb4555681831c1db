__global__ void w2_0(double * a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 1; k < len - 1; k += 2) {
    double v = (double)(a[(int)p * len + k] * 3 + 1);
    v = (v < (double)(a[(int)p * len + k + 1] * 3 + 1) ? v : (double)(a[(int)p * len + k + 1] * 3 + 1));
    a[(int)p * len + k] = v;
  }
}

__global__ void w2_1(float4 * out, const float4 * in, float4 * last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v;
  int k;
  for (k = 1; (v = make_float4(in[(int)p * len + k].x * 2.f, in[(int)p * len + k].y + 1.f, in[(int)p * len + k].z * 0.5f, in[(int)p * len + k].w - 3.f), k < len); k += 1) {
    v = make_float4(v.x < make_float4(in[(int)p * len + k - 1].x * 2.f, in[(int)p * len + k - 1].y + 1.f, in[(int)p * len + k - 1].z * 0.5f, in[(int)p * len + k - 1].w - 3.f).y ? v.x : make_float4(in[(int)p * len + k - 1].x * 2.f, in[(int)p * len + k - 1].y + 1.f, in[(int)p * len + k - 1].z * 0.5f, in[(int)p * len + k - 1].w - 3.f).y, v.y, make_float4(in[(int)p * len + k - 1].x * 2.f, in[(int)p * len + k - 1].y + 1.f, in[(int)p * len + k - 1].z * 0.5f, in[(int)p * len + k - 1].w - 3.f).z, v.w);
    out[(int)p * len + k] = v;
  }
  last[p] = v;
}

__global__ void w2_2(double * __restrict__ a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 1; k < len; k += 1) {
    double v = (double)(a[(int)p * len + k] * 3 + 1);
    v = (v < (double)(a[(int)p * len + k - 1] * 3 + 1) ? v : (double)(a[(int)p * len + k - 1] * 3 + 1));
    a[(int)p * len + k] = v;
  }
}

__global__ void w2_3(float4 * out, const float4 * in, float4 * last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  float4 v;
  int k;
  for (k = 0; (v = make_float4(in[(int)p * len + k].x * 2.f, in[(int)p * len + k].y + 1.f, in[(int)p * len + k].z * 0.5f, in[(int)p * len + k].w - 3.f), k < len - 1); k += 1) {
    v = make_float4(v.x < make_float4(in[(int)p * len + k + 1].x * 2.f, in[(int)p * len + k + 1].y + 1.f, in[(int)p * len + k + 1].z * 0.5f, in[(int)p * len + k + 1].w - 3.f).y ? v.x : make_float4(in[(int)p * len + k + 1].x * 2.f, in[(int)p * len + k + 1].y + 1.f, in[(int)p * len + k + 1].z * 0.5f, in[(int)p * len + k + 1].w - 3.f).y, v.y, make_float4(in[(int)p * len + k + 1].x * 2.f, in[(int)p * len + k + 1].y + 1.f, in[(int)p * len + k + 1].z * 0.5f, in[(int)p * len + k + 1].w - 3.f).z, v.w);
    out[(int)k * n + p] = v;
  }
  last[p] = v;
}

__global__ void w2_4(float * out, const float * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len; k += 1) {
      float v = (float)(in[(size_t)p * len + k] * 3 + 1);
      v = (v < (float)(in[(size_t)p * len + k - 1] * 3 + 1) ? v : (float)(in[(size_t)p * len + k - 1] * 3 + 1));
      out[(size_t)k * n + p] = v;
    }
  }
}

__global__ void w2_5(double * __restrict__ out, const double * __restrict__ in, double * __restrict__ last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  double v;
  int k;
  for (k = 1; (v = (double)(in[(int)p * len + k] * 3 + 1), k < len); k += 2) {
    v = (v < (double)(in[(int)p * len + k - 1] * 3 + 1) ? v : (double)(in[(int)p * len + k - 1] * 3 + 1));
    out[(int)k * n + p] = v;
  }
  last[p] = v;
}

__global__ void w2_6(float * out, const float * in, float * last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  float v;
  int k;
  for (k = 1; (v = (float)(in[(int)p * len + k] * 3 + 1), k < len); k += 2) {
    v = (v < (float)(in[(int)p * len + k - 1] * 3 + 1) ? v : (float)(in[(int)p * len + k - 1] * 3 + 1));
    out[(int)p * len + k] = v;
  }
  last[p] = v;
}

__global__ void w2_7(float * __restrict__ a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 0; k < len; k += 1) {
      float v = (float)(a[(int)p * len + k] * 3 + 1);
      a[(int)p * len + k] = v;
    }
  }
}

__global__ void w2_8(int * out, const int * in, int * last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int v;
  int k;
  for (k = 0; (v = (int)(in[(size_t)p * len + k] * 3 + 1), k < len); k += 2) {
    out[(size_t)p * len + k] = v;
  }
  last[p] = v;
}

__global__ void w2_9(int * out, const int * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < len; k += 2) {
    int v = (int)(in[(size_t)p * len + k] * 3 + 1);
    out[(size_t)p * len + k] = v;
  }
}

__global__ void w2_10(float * __restrict__ out, const float * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 0; k < len; k += 1) {
    float v = (float)(in[(int)p * len + k] * 3 + 1);
    out[(int)k * n + p] = v;
  }
}

__global__ void w2_11(float * out, const float * in, float * last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  float v;
  int k;
  for (k = 0; (v = (float)(in[(size_t)p * len + k] * 3 + 1), k < len - 1); k += 1) {
    v = (v < (float)(in[(size_t)p * len + k + 1] * 3 + 1) ? v : (float)(in[(size_t)p * len + k + 1] * 3 + 1));
    out[(size_t)p * len + k] = v;
  }
  last[p] = v;
}

__global__ void w2_12(float * out, const float * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 0; k < len; k += 1) {
    float v = (float)(in[(int)p * len + k] * 3 + 1);
    out[(int)k * n + p] = v;
  }
}

__global__ void w2_13(float * __restrict__ out, const float * __restrict__ in, float * __restrict__ last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    float v;
    int k;
    for (k = 1; (v = (float)(in[(size_t)p * len + k] * 3 + 1), k < len); k += 1) {
      out[(size_t)p * len + k] = v;
    }
    last[p] = v;
  }
}

__global__ void w2_14(float * out, const float * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len; k += 1) {
      float v = (float)(in[(int)p * len + k] * 3 + 1);
      v = (v < (float)(in[(int)p * len + k - 1] * 3 + 1) ? v : (float)(in[(int)p * len + k - 1] * 3 + 1));
      out[(int)p * len + k] = v;
    }
  }
}

__global__ void w2_15(float * a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 1; k < len - 1; k += 1) {
    float v = (float)(a[(size_t)p * len + k] * 3 + 1);
    v = (v < (float)(a[(size_t)p * len + k + 1] * 3 + 1) ? v : (float)(a[(size_t)p * len + k + 1] * 3 + 1));
    a[(size_t)p * len + k] = v;
  }
}

