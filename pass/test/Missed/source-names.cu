// REQUIRES: cuda
// Full debug info (device code at -O3 keeps its variables only with
// --cuda-noopt-device-debug), with and without clang's value names:
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -O3 -g --cuda-noopt-device-debug -fno-discard-value-names \
// RUN:   -emit-llvm -S %s -o %t.named.ll
// RUN: %opt -passes=coalda -pass-remarks-missed=coalda -coalda-report=%t.named.json \
// RUN:   -disable-output %t.named.ll 2> %t.named.txt
// RUN: FileCheck %s --check-prefix=VARS < %t.named.txt
// RUN: FileCheck %s --check-prefix=VARS-JSON < %t.named.json
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -O3 -g --cuda-noopt-device-debug -emit-llvm -S %s -o %t.vars.ll
// RUN: %opt -passes=coalda -pass-remarks-missed=coalda -disable-output %t.vars.ll 2> %t.vars.txt
// RUN: FileCheck %s --check-prefix=VARS < %t.vars.txt
//
// Plain -g, which clang turns into line tables alone for device code at -O3:
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -O3 -g -emit-llvm -S %s -o %t.lines.ll
// RUN: %opt -passes=coalda -pass-remarks-missed=coalda -coalda-report=%t.lines.json \
// RUN:   -disable-output %t.lines.ll 2> %t.lines.txt
// RUN: FileCheck %s --check-prefix=LINES < %t.lines.txt
// RUN: FileCheck %s --check-prefix=LINES-JSON < %t.lines.json
//
// No debug info at all, as a release clang writes it (no value names):
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -O3 -emit-llvm -S %s -o %t.bare.ll
// RUN: %opt -passes=coalda -pass-remarks-missed=coalda -disable-output %t.bare.ll 2> %t.bare.txt
// RUN: FileCheck %s --check-prefix=BARE < %t.bare.txt
//
// No debug info but clang's value names kept (-fno-discard-value-names):
// the kernel's parameters keep their names, clang's names of the values it
// computes (`add`, `sub3`) are never quoted.
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -O3 -fno-discard-value-names -emit-llvm -S %s -o %t.irnames.ll
// RUN: %opt -passes=coalda -pass-remarks-missed=coalda -disable-output %t.irnames.ll 2> %t.irnames.txt
// RUN: FileCheck %s --check-prefix=IRNAMES < %t.irnames.txt
//
// No remark or report string of any of them quotes an IR name: clang's
// names of computed values, COALDA's old `arg<N>` for an unnamed parameter,
// or an opcode standing in for a value.
// RUN: cat %t.named.txt %t.named.json %t.vars.txt %t.lines.txt %t.lines.json %t.bare.txt \
// RUN:   %t.irnames.txt | FileCheck %s --check-prefix=NOIR
// NOIR-NOT: {{`add|add <|sub3|arg[0-9]|idxprom|arrayidx|mul \+|iter\(phi\)|cmp}}

// HeCBench matrix-rotate's loop (line 65), `last` from memory (n-1-layer is linear). The loop's
// entry test is `icmp slt %add, %sub3` in the IR; %add is bound to layer,
// first and i in turn, and at the test it is i: the reason quotes the
// source's `i < last`. With line tables only, the line stands for it;
// without either, the branch alone. Where nothing names the matrix it is
// the kernel's first parameter.
// VARS: remark: {{.*}}source-names.cu:67:{{[0-9]+}}: chunk of matrix not read through a shared-memory window: the branch on `i < last` at line 65:5, between the vote
// VARS-JSON: "expr": "matrix + (4*n + 4)*gid + 4*iter(i)"
// VARS-JSON: "reason": "the branch on `i < last` at line 65:5, between the vote
// LINES: remark: {{.*}}source-names.cu:67:{{[0-9]+}}: chunk of the kernel's 1st parameter not read through a shared-memory window: the branch at line 65:5, between the vote
// LINES-JSON: "base": "the kernel's 1st parameter"
// LINES-JSON: "expr": "(the kernel's 1st parameter) + (4*(the kernel's 2nd parameter) + 4)*gid + 4*iter(the counter of the loop at line 65)"
// LINES-JSON: "reason": "the branch at line 65:5, between the vote
// BARE: remark: <unknown>:0:0: chunk of the kernel's 1st parameter not read through a shared-memory window: the branch, between the vote
// IRNAMES: remark: <unknown>:0:0: chunk of matrix not read through a shared-memory window: the branch, between the vote
__global__ void rotate(float *matrix, const int n, const int *depth) {
  int layer = blockIdx.x * blockDim.x + threadIdx.x;
  if (layer < n / 2) {
    int first = layer;
    int last = n - 1 - depth[layer];
    for (int i = first; i < last; ++i) {
      int offset = i - first;
      float top = matrix[first * n + i];
      matrix[first * n + i] = matrix[(last - offset) * n + first];
      matrix[(last - offset) * n + first] = matrix[last * n + (last - offset)];
      matrix[last * n + (last - offset)] = matrix[i * n + last];
      matrix[i * n + last] = top;
    }
  }
}

// A guard with a hole: the comparison is rebuilt from the variables its
// operands hold (`i`, the parameter `skip`), or left out where they have no
// source name.
// VARS: remark: {{.*}}: copy into dst left alone: the guard `i == skip` is not a bound on the lane index
// LINES: remark: {{.*}}: copy into the kernel's 1st parameter left alone: the guard is not a bound on the lane index
// BARE: remark: <unknown>:0:0: copy into the kernel's 1st parameter left alone: the guard is not a bound on the lane index
// IRNAMES: remark: <unknown>:0:0: copy into dst left alone: the guard `((ctaid.x * ntid.x) + tid.x) == skip` is not a bound on the lane index
struct Pixel {
  unsigned char r, g, b;
};
__global__ void holes(Pixel *dst, const Pixel *src, int n, int skip) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i != skip) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}
