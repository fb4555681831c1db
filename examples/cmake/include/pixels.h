// The interface between the C++ main and the CUDA file: plain C++ types only,
// so main.cpp compiles without CUDA headers.
#pragma once
#include <cstddef>

struct Pixel {
  unsigned char r, g, b;
};

// Copies n pixels on the GPU with a member-by-member kernel (which COALDA
// rewrites into a coalesced copy). Returns 0, or writes the CUDA error into
// error (size bytes) and returns 1.
int copy_pixels_on_gpu(const Pixel *in, Pixel *out, int n, char *error, std::size_t size);

// Converts n pixels to gray ((77 r + 150 g + 29 b) >> 8) on the GPU. Returns 0,
// or writes the CUDA error into error (size bytes) and returns 1.
int gray_on_gpu(const Pixel *in, unsigned char *out, int n, char *error, std::size_t size);
