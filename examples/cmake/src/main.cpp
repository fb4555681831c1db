// Plain C++ (no CUDA headers): calls the CUDA file through pixels.h.
#include <cstdio>
#include <cstring>
#include <vector>

#include "pixels.h"

int main() {
  const int n = 1000003;
  std::vector<Pixel> in(n), out(n);
  unsigned state = 7;
  for (Pixel &p : in) {
    state = state * 1664525u + 1013904223u;
    p = Pixel{(unsigned char)(state >> 8), (unsigned char)(state >> 16), (unsigned char)(state >> 24)};
  }
  char error[256];
  if (copy_pixels_on_gpu(in.data(), out.data(), n, error, sizeof error)) {
    std::fprintf(stderr, "cmake_example: %s\n", error);
    return 2;
  }
  bool same = std::memcmp(in.data(), out.data(), sizeof(Pixel) * n) == 0;
  std::printf("copy_pixels n=%d %s\n", n, same ? "ok" : "MISMATCH");

  std::vector<unsigned char> gray(n);
  if (gray_on_gpu(in.data(), gray.data(), n, error, sizeof error)) {
    std::fprintf(stderr, "cmake_example: %s\n", error);
    return 2;
  }
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += gray[i] != (unsigned char)((77 * in[i].r + 150 * in[i].g + 29 * in[i].b) >> 8);
  std::printf("to_gray n=%d %s\n", n, wrong ? "MISMATCH" : "ok");
  return same && !wrong ? 0 : 1;
}
