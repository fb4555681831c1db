// Probe for issue 39's read-only rule: does staging geglu's read-only
// loads pay? HeCBench geglu (corpus/hecbench/geglu-cuda) is census-only: its
// host draws about 4.6e9 random floats before the first timed launch. This
// probe keeps its kernel and its launch (main.cu's own, included below) at
// the program's 18 timed configurations, fills the input
// on the device instead, and prints, per configuration, the median of 20
// timed launches (CUDA events, after 3 warm-ups) and a 64-bit checksum of
// the output's bytes.
//
// At every size main.cu launches, n * dim_last is a multiple of 2560, so
// geglu_gpu picks FOR_LOOP = 2; COALDA stages only the FOR_LOOP = 1
// instances (the census counts those), which the program never launches.
// With the argument `loop1` the launch starts from FOR_LOOP = 1 instead, to
// time the staged instances at the same sizes.
//
// Built three ways by run_geglu_read_only.sh (the same source and flags):
//   plain      coalda cc -fno-coalda (no pass)
//   coalda     coalda cc -mllvm -coalda-stage-small-always: the stores of
//              `out` staged, as the default did before the cost rule this
//              probe led to (which now leaves them alone)
//   read-only  the same and -mllvm -coalda-stage-read-only (the loads of
//              x_and_gate join the staging)
// The builds compute the same bytes exactly when the checksums agree.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

// HeCBench's geglu, as the corpus holds it (its license:
// corpus/hecbench/LICENSE): gelu, geglu_kernel, the DISPATCH macros and
// geglu_gpu; its main() renamed out of the way.
#define main hecbench_geglu_main
#include "../../corpus/hecbench/geglu-cuda/main.cu"
#undef main

// main.cu's launch (FOR_LOOP = 2 at every size it runs), or with LOOP1 the
// same launch of its FOR_LOOP = 1 instances, the ones COALDA stages (at
// these sizes n * dim_last is a multiple of BLOCK_DIM_X * VEC_ELEMS).
void geglu_launch(float *out, const float *x_and_gate, int64_t n, int dim_last, bool loop1)
{
    if (!loop1)
        return geglu_gpu(out, x_and_gate, n, dim_last);
    dim3 grid_dim(n * dim_last / (160 * 8));
    DISPATCH_DIM_LAST(dim_last, DIM_LAST, [&] {
        geglu_kernel<float, float, 160, DIM_LAST, 8, 1><<<grid_dim, 160>>>(out, x_and_gate);
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
    bool loop1 = false;
    bool only_small = false;  // for the sanitizers
    for (int k = 1; k < argc; k++) {
        only_small |= std::string(argv[k]) == "small";
        loop1 |= std::string(argv[k]) == "loop1";
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
                    geglu_launch(out, x, (int64_t)batch * shape, dim_last, loop1);
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
