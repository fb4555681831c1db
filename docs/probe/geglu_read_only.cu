// Probe for issue 39's read-only rule: does staging geglu's read-only
// loads pay? HeCBench geglu (corpus/hecbench/geglu-cuda) is census-only: its
// host draws about 4.6e9 random floats before the first timed launch. This
// probe keeps its kernel and its launch (geglu_kernel and geglu_gpu below
// are main.cu's) at the program's 18 timed configurations, fills the input
// on the device instead, and prints, per configuration, the median of 20
// timed launches (CUDA events, after 3 warm-ups) and a 64-bit checksum of
// the output's bytes.
//
// At every size main.cu launches, n * dim_last is a multiple of 2560, so
// geglu_gpu picks FOR_LOOP = 2; COALDA stages only the FOR_LOOP = 1
// instances (the census counts those), which the program never launches.
// With the argument `loop1` geglu_gpu starts from FOR_LOOP = 1 instead, to
// time the staged instances at the same sizes.
//
// Built three ways by run_geglu_read_only.sh (the same source and flags):
//   plain      coalda cc -fno-coalda (no pass)
//   coalda     coalda cc (the default: the stores of `out` are staged)
//   read-only  coalda cc -mllvm -coalda-stage-read-only (the loads of
//              x_and_gate join the staging)
// The builds compute the same bytes exactly when the checksums agree.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                    \
do {                                                                        \
    cudaError_t err_ = call;                                                \
    if (err_ != cudaSuccess) {                                              \
        fprintf(stderr, "CUDA error at %s:%d (%s)\n", __FILE__, __LINE__,   \
                cudaGetErrorString(err_));                                  \
        exit(EXIT_FAILURE);                                                 \
    }                                                                       \
} while (0)

template<typename opmath_t>
__device__ __inline__ opmath_t gelu(opmath_t x) {
    constexpr opmath_t kAlpha = M_SQRT1_2;
    return x * opmath_t(0.5) * (opmath_t(1) + erf(x * kAlpha));
}

template<typename scalar_t, typename opmath_t, int BLOCK_DIM_X, int DIM_LAST, int VEC_ELEMS, int FOR_LOOP>
__global__ void geglu_kernel(scalar_t *out, const scalar_t *x_and_gate)
{
    static_assert(DIM_LAST % (BLOCK_DIM_X * VEC_ELEMS) == 0, "cannot decide CHUNKS_PER_ROW");
    constexpr int CHUNKS_PER_ROW = DIM_LAST / (BLOCK_DIM_X * VEC_ELEMS);
    struct alignas(sizeof(scalar_t) * VEC_ELEMS) U {
        scalar_t data[VEC_ELEMS];
    };
    U ux[FOR_LOOP];
    U ugate[FOR_LOOP];
    U uout[FOR_LOOP];
    for (int k = 0; k < FOR_LOOP; k++) {
        int idxN = (blockIdx.x * FOR_LOOP + k) / CHUNKS_PER_ROW;
        int idxR = ((blockIdx.x * FOR_LOOP + k) % CHUNKS_PER_ROW * BLOCK_DIM_X + threadIdx.x) * VEC_ELEMS;
        ux[k]    = *reinterpret_cast<U const *>(&x_and_gate[(idxN * 2 + 0) * (int64_t)DIM_LAST + idxR]);
        ugate[k] = *reinterpret_cast<U const *>(&x_and_gate[(idxN * 2 + 1) * (int64_t)DIM_LAST + idxR]);
    }
    for (int k = 0; k < FOR_LOOP; k++) {
        for (int i = 0; i < VEC_ELEMS; i++) {
            opmath_t gelu_out = gelu(static_cast<opmath_t>(ugate[k].data[i]));
            uout[k].data[i] = static_cast<scalar_t>(static_cast<opmath_t>(ux[k].data[i]) * gelu_out);
        }
    }
    for (int k = 0; k < FOR_LOOP; k++) {
        int idxN = (blockIdx.x * FOR_LOOP + k) / CHUNKS_PER_ROW;
        int idxR = ((blockIdx.x * FOR_LOOP + k) % CHUNKS_PER_ROW * BLOCK_DIM_X + threadIdx.x) * VEC_ELEMS;
        *reinterpret_cast<U *>(&out[idxN * (int64_t)DIM_LAST + idxR]) = uout[k];
    }
}

#define DISPATCH_DIM_LAST(VALUE, CONST_NAME, ...) [&] { \
    if (VALUE == 1280) { constexpr int CONST_NAME = 1280; return __VA_ARGS__(); } \
    if (VALUE == 2560) { constexpr int CONST_NAME = 2560; return __VA_ARGS__(); } \
    if (VALUE == 5120) { constexpr int CONST_NAME = 5120; return __VA_ARGS__(); } \
    throw std::invalid_argument("DISPATCH_DIM_LAST " + std::to_string(VALUE)); \
    }()

#define DISPATCH_FOR_LOOP(VALUE, CONST_NAME, ...) [&] { \
    if (VALUE == 1) { constexpr int CONST_NAME = 1; return __VA_ARGS__(); } \
    if (VALUE == 2) { constexpr int CONST_NAME = 2; return __VA_ARGS__(); } \
    throw std::invalid_argument("DISPATCH_FOR_LOOP " + std::to_string(VALUE)); \
    }()

// 2 as main.cu; 1 with the argument `loop1` (the instances COALDA stages)
static int first_for_loop = 2;

template <typename scalar_t>
void geglu_gpu(scalar_t *out, const scalar_t *x_and_gate, int64_t n, int dim_last)
{
    using opmath_t = float;
    constexpr int VEC_ELEMS = 8;
    constexpr int BLOCK_DIM_X = 160;
    int for_loop = first_for_loop;
    while (for_loop > 0 && n * dim_last % (BLOCK_DIM_X * VEC_ELEMS * for_loop) != 0) {
        for_loop /= 2;
    }
    if (for_loop == 0) {
        throw std::invalid_argument("cannot determine grid_dim");
    }
    dim3 grid_dim(n * dim_last / (BLOCK_DIM_X * VEC_ELEMS * for_loop));
    DISPATCH_FOR_LOOP(for_loop, FOR_LOOP, [&] {
        DISPATCH_DIM_LAST(dim_last, DIM_LAST, [&] {
            geglu_kernel<scalar_t, opmath_t, BLOCK_DIM_X, DIM_LAST, VEC_ELEMS, FOR_LOOP><<<grid_dim, BLOCK_DIM_X>>>(out, x_and_gate);
        });
    });
}

// The input: uniform in [-6, 6) as main.cu draws it, from a hash of the
// index (the same bytes in every build).
__global__ void fill(float *x, uint64_t n) {
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 31; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 27;
        x[i] = -6.f + 12.f * (float)(h >> 40) / (float)(1ull << 24);
    }
}

// sum over words w[i] * (2i + 1): two outputs of different bytes differ
__global__ void checksum(const uint32_t *w, uint64_t n, unsigned long long *sum) {
    unsigned long long s = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        s += (unsigned long long)w[i] * (2 * i + 1);
    atomicAdd(sum, s);
}

int main(int argc, char **argv) {
    bool only_small = false;  // for the sanitizers
    for (int k = 1; k < argc; k++) {
        only_small |= std::string(argv[k]) == "small";
        if (std::string(argv[k]) == "loop1") first_for_loop = 1;
    }
    for (int batch = 1; batch <= 16; batch *= 4) {
        for (int shape = 4096; shape <= 8192; shape *= 2) {
            for (int dim_last = 1280; dim_last <= 5120; dim_last *= 2) {
                if (only_small && (batch > 1 || shape > 4096 || dim_last > 1280)) continue;
                const uint64_t nelems = (uint64_t)batch * shape * dim_last * 2;
                float *x, *out;
                unsigned long long *sum;
                CUDA_CHECK(cudaMalloc(&x, nelems * sizeof(float)));
                CUDA_CHECK(cudaMalloc(&out, nelems / 2 * sizeof(float)));
                CUDA_CHECK(cudaMalloc(&sum, sizeof(*sum)));
                fill<<<4096, 256>>>(x, nelems);
                CUDA_CHECK(cudaMemset(out, 0, nelems / 2 * sizeof(float)));
                cudaEvent_t a, b;
                CUDA_CHECK(cudaEventCreate(&a));
                CUDA_CHECK(cudaEventCreate(&b));
                const int warm = only_small ? 1 : 3, timed = only_small ? 1 : 20;
                std::vector<float> ms;
                for (int r = 0; r < warm + timed; r++) {
                    CUDA_CHECK(cudaEventRecord(a));
                    geglu_gpu(out, x, (int64_t)batch * shape, dim_last);
                    CUDA_CHECK(cudaEventRecord(b));
                    CUDA_CHECK(cudaEventSynchronize(b));
                    float t;
                    CUDA_CHECK(cudaEventElapsedTime(&t, a, b));
                    if (r >= warm) ms.push_back(t);
                }
                CUDA_CHECK(cudaGetLastError());
                std::sort(ms.begin(), ms.end());
                CUDA_CHECK(cudaMemset(sum, 0, sizeof(*sum)));
                checksum<<<1024, 256>>>(reinterpret_cast<const uint32_t *>(out), nelems / 2, sum);
                unsigned long long host = 0;
                CUDA_CHECK(cudaMemcpy(&host, sum, sizeof(host), cudaMemcpyDeviceToHost));
                printf("batch %2d shape %4d dim_last %4d  %9.4f ms  checksum %016llx\n", batch, shape, dim_last,
                       ms[ms.size() / 2], host);
                CUDA_CHECK(cudaFree(x));
                CUDA_CHECK(cudaFree(out));
                CUDA_CHECK(cudaFree(sum));
                CUDA_CHECK(cudaEventDestroy(a));
                CUDA_CHECK(cudaEventDestroy(b));
            }
        }
    }
    return 0;
}
