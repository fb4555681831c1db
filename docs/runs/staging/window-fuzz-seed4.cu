__global__ void w4_0(double * out, const double * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len - 1; k += 1) {
      double v = (double)(in[(size_t)p * len + k] * 3 + 1);
      v = (v < (double)(in[(size_t)p * len + k + 1] * 3 + 1) ? v : (double)(in[(size_t)p * len + k + 1] * 3 + 1));
      out[(size_t)k * n + p] = v;
    }
  }
}

__global__ void w4_1(float4 * __restrict__ a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len; k += 2) {
      float4 v = make_float4(a[(size_t)p * len + k].x * 2.f, a[(size_t)p * len + k].y + 1.f, a[(size_t)p * len + k].z * 0.5f, a[(size_t)p * len + k].w - 3.f);
      a[(size_t)p * len + k] = v;
    }
  }
}

__global__ void w4_2(float4 * __restrict__ a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 1; k < len - 1; k += 1) {
    float4 v = make_float4(a[(size_t)p * len + k].x * 2.f, a[(size_t)p * len + k].y + 1.f, a[(size_t)p * len + k].z * 0.5f, a[(size_t)p * len + k].w - 3.f);
    v = make_float4(v.x < make_float4(a[(size_t)p * len + k + 1].x * 2.f, a[(size_t)p * len + k + 1].y + 1.f, a[(size_t)p * len + k + 1].z * 0.5f, a[(size_t)p * len + k + 1].w - 3.f).y ? v.x : make_float4(a[(size_t)p * len + k + 1].x * 2.f, a[(size_t)p * len + k + 1].y + 1.f, a[(size_t)p * len + k + 1].z * 0.5f, a[(size_t)p * len + k + 1].w - 3.f).y, v.y, make_float4(a[(size_t)p * len + k + 1].x * 2.f, a[(size_t)p * len + k + 1].y + 1.f, a[(size_t)p * len + k + 1].z * 0.5f, a[(size_t)p * len + k + 1].w - 3.f).z, v.w);
    a[(size_t)p * len + k] = v;
  }
}

__global__ void w4_3(float4 * out, const float4 * in, float4 * last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v;
  int k;
  for (k = 1; (v = make_float4(in[(int)p * len + k].x * 2.f, in[(int)p * len + k].y + 1.f, in[(int)p * len + k].z * 0.5f, in[(int)p * len + k].w - 3.f), k < len - 1); k += 1) {
    v = make_float4(v.x < make_float4(in[(int)p * len + k + 1].x * 2.f, in[(int)p * len + k + 1].y + 1.f, in[(int)p * len + k + 1].z * 0.5f, in[(int)p * len + k + 1].w - 3.f).y ? v.x : make_float4(in[(int)p * len + k + 1].x * 2.f, in[(int)p * len + k + 1].y + 1.f, in[(int)p * len + k + 1].z * 0.5f, in[(int)p * len + k + 1].w - 3.f).y, v.y, make_float4(in[(int)p * len + k + 1].x * 2.f, in[(int)p * len + k + 1].y + 1.f, in[(int)p * len + k + 1].z * 0.5f, in[(int)p * len + k + 1].w - 3.f).z, v.w);
    out[(int)k * n + p] = v;
  }
  last[p] = v;
}

__global__ void w4_4(float * out, const float * in, float * last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  float v;
  int k;
  for (k = 1; (v = (float)(in[(int)p * len + k] * 3 + 1), k < len); k += 1) {
    v = (v < (float)(in[(int)p * len + k - 1] * 3 + 1) ? v : (float)(in[(int)p * len + k - 1] * 3 + 1));
    out[(int)k * n + p] = v;
  }
  last[p] = v;
}

__global__ void w4_5(double * out, const double * in, double * last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  double acc = (double)0;
  double v;
  int k;
  for (k = 1; (v = (double)(in[(size_t)p * len + k] * 3 + 1), k < len); k += 1) {
    v = (v < (double)(in[(size_t)p * len + k - 1] * 3 + 1) ? v : (double)(in[(size_t)p * len + k - 1] * 3 + 1));
    acc = (acc < v ? acc : v);
  }
  last[p] = v;
  out[p] = acc;
}

__global__ void w4_6(float4 * __restrict__ a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 1; k < len; k += 1) {
    float4 v = make_float4(a[(size_t)p * len + k].x * 2.f, a[(size_t)p * len + k].y + 1.f, a[(size_t)p * len + k].z * 0.5f, a[(size_t)p * len + k].w - 3.f);
    v = make_float4(v.x < make_float4(a[(size_t)p * len + k - 1].x * 2.f, a[(size_t)p * len + k - 1].y + 1.f, a[(size_t)p * len + k - 1].z * 0.5f, a[(size_t)p * len + k - 1].w - 3.f).y ? v.x : make_float4(a[(size_t)p * len + k - 1].x * 2.f, a[(size_t)p * len + k - 1].y + 1.f, a[(size_t)p * len + k - 1].z * 0.5f, a[(size_t)p * len + k - 1].w - 3.f).y, v.y, make_float4(a[(size_t)p * len + k - 1].x * 2.f, a[(size_t)p * len + k - 1].y + 1.f, a[(size_t)p * len + k - 1].z * 0.5f, a[(size_t)p * len + k - 1].w - 3.f).z, v.w);
    a[(size_t)p * len + k] = v;
  }
}

__global__ void w4_7(float * out, const float * in, float * last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    float v;
    int k;
    for (k = 0; (v = (float)(in[(size_t)p * len + k] * 3 + 1), k < len); k += 2) {
      out[(size_t)p * len + k] = v;
    }
    last[p] = v;
  }
}

__global__ void w4_8(int * out, const int * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 1; k < len; k += 1) {
    int v = (int)(in[(size_t)p * len + k] * 3 + 1);
    out[(size_t)p * len + k] = v;
  }
}

__global__ void w4_9(double * __restrict__ out, const double * __restrict__ in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < len; k += 1) {
    double v = (double)(in[(int)p * len + k] * 3 + 1);
    out[(int)k * n + p] = v;
  }
}

__global__ void w4_10(float * __restrict__ a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 0; k < len - 1; k += 2) {
      float v = (float)(a[(size_t)p * len + k] * 3 + 1);
      v = (v < (float)(a[(size_t)p * len + k + 1] * 3 + 1) ? v : (float)(a[(size_t)p * len + k + 1] * 3 + 1));
      a[(size_t)p * len + k] = v;
    }
  }
}

__global__ void w4_11(float * out, const float * in, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 1; k < len; k += 2) {
    float v = (float)(in[(int)p * len + k] * 3 + 1);
    v = (v < (float)(in[(int)p * len + k - 1] * 3 + 1) ? v : (float)(in[(int)p * len + k - 1] * 3 + 1));
    out[(int)k * n + p] = v;
  }
}

__global__ void w4_12(int * out, const int * in, int * last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  int v;
  int k;
  for (k = 1; (v = (int)(in[(size_t)p * len + k] * 3 + 1), k < len); k += 1) {
    out[(size_t)p * len + k] = v;
  }
  last[p] = v;
}

__global__ void w4_13(float4 * out, const float4 * in, float4 * last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    float4 v;
    int k;
    for (k = 1; (v = make_float4(in[(size_t)p * len + k].x * 2.f, in[(size_t)p * len + k].y + 1.f, in[(size_t)p * len + k].z * 0.5f, in[(size_t)p * len + k].w - 3.f), k < len); k += 1) {
      v = make_float4(v.x < make_float4(in[(size_t)p * len + k - 1].x * 2.f, in[(size_t)p * len + k - 1].y + 1.f, in[(size_t)p * len + k - 1].z * 0.5f, in[(size_t)p * len + k - 1].w - 3.f).y ? v.x : make_float4(in[(size_t)p * len + k - 1].x * 2.f, in[(size_t)p * len + k - 1].y + 1.f, in[(size_t)p * len + k - 1].z * 0.5f, in[(size_t)p * len + k - 1].w - 3.f).y, v.y, make_float4(in[(size_t)p * len + k - 1].x * 2.f, in[(size_t)p * len + k - 1].y + 1.f, in[(size_t)p * len + k - 1].z * 0.5f, in[(size_t)p * len + k - 1].w - 3.f).z, v.w);
      acc = make_float4(acc.x < v.y ? acc.x : v.y, acc.y, v.z, acc.w);
    }
    last[p] = v;
    out[p] = acc;
  }
}

__global__ void w4_14(int * __restrict__ out, const int * __restrict__ in, int * __restrict__ last, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    int v;
    int k;
    for (k = 0; (v = (int)(in[(size_t)p * len + k] * 3 + 1), k < len); k += 2) {
      out[(size_t)k * n + p] = v;
    }
    last[p] = v;
  }
}

__global__ void w4_15(int * a, int n, int len) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    for (int k = 1; k < len - 1; k += 1) {
      int v = (int)(a[(size_t)p * len + k] * 3 + 1);
      v = (v + (int)(a[(size_t)p * len + k + 1] * 3 + 1));
      a[(size_t)p * len + k] = v;
    }
  }
}

