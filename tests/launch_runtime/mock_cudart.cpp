// A stand-in for the CUDA runtime, for tests/test_launch_runtime.py: the
// calls pass/runtime/LaunchGrid.cpp makes, on a simulated device whose
// kernels take the times the environment gives, and a driver that launches
// through __coalda_launch_grid and prints one line per launch.
//
//   mock_launch N GRID_X GRID_Y BLOCK [capture]
// Environment: MOCK_ORIG_MS, MOCK_VAR_MS (kernel times), MOCK_DELAY (queries
// before an event completes), MOCK_PER_SM (the variant's occupancy; 0 fails
// the query), MOCK_PREFERRED (the variant launches until measured),
// MOCK_FORM (1: the variant is of the tile form, 2: of the rewrite form,
// the kernel as written beside its rewrite, which takes the kernel's own
// arguments and nothing more; printed as "args 2"; 3: of the bounded form,
// the kernel without its register limit, the same arguments), MOCK_BLOCK_Y (the block's
// y size, 1 by default), MOCK_FIRST_MS (the time of the program's first
// kernel launch, whichever kernel it is: a first launch unlike the later
// ones, as docs/runs/launches/ runs 12-14 found on the GPU), MOCK_OTHER_BLOCK=X,Y (the block of odd launches),
// MOCK_CAPTURE_FROM=K (from launch K on, a capture in the global mode is
// under way: of the launches' own stream with `capture`, else of another
// thread's; an event read then, outside the relaxed capture mode, fails
// and prints "unsafe call in a capture", as CUDA's would invalidate the
// capture), MOCK_NESTED=K (launch K's kernel launch starts one more launch
// first, as another host thread could at that moment), MOCK_SEED=S (each
// launch draws, from S, whether a global capture is under way, whether it
// is of the launches' own stream, and whether its kernel launch starts
// another launch first), MOCK_DEVICES=D (the devices the process sees, 1
// by default; with more, launch K runs on device K mod D), MOCK_ASKED=1
// (prints "device asked N" last: the calls to cudaGetDevice), MOCK_EVENTS=1
// (prints "events created N" last), MOCK_OCCUPANCY=1 (prints "occupancy asked
// N" last), MOCK_GRIDS=1 (launch K's grid is GRID_X << (K % 20): a program
// that launches one kernel on many grid sizes).
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" {
struct CoaldaDim3 {
  unsigned x, y, z;
};
int __coalda_launch_grid(const void *Kernel, const void *Variant, const char *Name, uint64_t GridXY,
                         uint32_t GridZ, uint64_t BlockXY, uint32_t BlockZ, void **Args, uint32_t NumArgs,
                         uint64_t SharedMem, void *Stream, uint32_t Preferred, uint32_t Form);
}

static char Original, Variant;
static double Clock;          // the simulated stream's time, ms
static int Errors;            // errors left for cudaGetLastError
static bool GlobalCapture;    // a capture in the global mode is under way
static bool StreamCaptured;   // ... of the launches' own stream
static int ThreadMode;        // the thread's capture mode (2: relaxed)
static int Launch, NestedAt = -1;
static bool Nesting;          // in the nested launch
static void launchOnce(int k);

static double envMs(const char *name, double fallback) {
  const char *v = getenv(name);
  return v ? atof(v) : fallback;
}

struct Event {
  double Time;
  int Queries;
};

extern "C" {
int cudaLaunchKernel(const void *Func, CoaldaDim3 Grid, CoaldaDim3 Block, void **Args, size_t, void *) {
  if (Launch == NestedAt) {  // another thread's launch, at this moment
    NestedAt = -1;
    printf("nested ");
    Nesting = true;
    launchOnce(Launch);
    Nesting = false;
  }
  bool IsVariant = Func == &Variant;
  static bool Launched; // the program's first kernel launch: MOCK_FIRST_MS
  double Ms = envMs(IsVariant ? "MOCK_VAR_MS" : "MOCK_ORIG_MS", 1.0);
  Clock += !Launched && getenv("MOCK_FIRST_MS") ? envMs("MOCK_FIRST_MS", Ms) : Ms;
  Launched = true;
  printf("launch %s grid %u,%u block %u", IsVariant ? "variant" : "original", Grid.x, Grid.y, Block.x);
  if (Block.y != 1)
    printf("x%u", Block.y);
  if (IsVariant && envMs("MOCK_FORM", 0) >= 2)
    printf(" args 2"); // the kernel's own: Args[2] is none of its own
  else if (IsVariant)
    printf(" G %u", *static_cast<unsigned *>(Args[2]));
  if (IsVariant && envMs("MOCK_FORM", 0) == 1)
    printf(",%u", *static_cast<unsigned *>(Args[3]));
  printf(" n %d\n", *static_cast<int *>(Args[1]));
  return 0;
}
static int Asked; // calls to cudaGetDevice
int cudaGetDevice(int *Device) {
  ++Asked;
  *Device = Launch % int(envMs("MOCK_DEVICES", 1));
  return 0;
}
int cudaGetDeviceCount(int *Count) {
  *Count = int(envMs("MOCK_DEVICES", 1));
  return 0;
}
int cudaDeviceGetAttribute(int *Value, int, int) {
  *Value = 132;
  return 0;
}
static int Occupancies; // cudaOccupancyMaxActiveBlocksPerMultiprocessor's calls
int cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *Blocks, const void *, int, size_t) {
  ++Occupancies;
  *Blocks = int(envMs("MOCK_PER_SM", 8));
  if (*Blocks > 0)
    return 0;
  ++Errors;
  return 98;  // cudaErrorInvalidDeviceFunction
}
int cudaGetLastError(void) {
  if (Errors) {
    --Errors;
    printf("cleared an error\n");
  }
  return 0;
}
static int Created; // cudaEventCreate's calls
int cudaEventCreate(void **E) {
  ++Created;
  *E = new Event{0, 0};
  return 0;
}
int cudaEventDestroy(void *E) {
  delete static_cast<Event *>(E);
  return 0;
}
int cudaEventRecord(void *E, void *) {
  *static_cast<Event *>(E) = Event{Clock, 0};
  return 0;
}
static bool unsafeInCapture() {
  if (!GlobalCapture || ThreadMode == 2)
    return false;
  printf("unsafe call in a capture\n");
  return true;
}
int cudaEventQuery(void *E) {
  if (unsafeInCapture())
    return 900;  // cudaErrorStreamCaptureUnsupported
  return static_cast<Event *>(E)->Queries++ >= int(envMs("MOCK_DELAY", 0)) ? 0 : 600;
}
int cudaEventElapsedTime(float *Ms, void *Start, void *End) {
  if (unsafeInCapture())
    return 900;
  *Ms = float(static_cast<Event *>(End)->Time - static_cast<Event *>(Start)->Time);
  return 0;
}
int cudaStreamIsCapturing(void *Stream, int *Status) {
  *Status = Stream == reinterpret_cast<void *>(0xCA) && StreamCaptured;
  return 0;
}
int cudaThreadExchangeStreamCaptureMode(int *Mode) {
  int Old = ThreadMode;
  ThreadMode = *Mode;
  *Mode = Old;
  return 0;
}
}

static bool Capture;  // the `capture` argument
static unsigned GridX, GridY, BlockArg;
static uint64_t Seed;  // MOCK_SEED's generator state; 0: not drawn

static unsigned draw(unsigned Range) {  // a 64-bit LCG's high bits
  Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
  return unsigned(Seed >> 33) % Range;
}

static void launchOnce(int k) {
  int n = k;
  float *p = nullptr;
  void *Args[] = {&p, &n};
  uint64_t BlockX = BlockArg, BlockY = uint64_t(envMs("MOCK_BLOCK_Y", 1));
  if (k % 2 && getenv("MOCK_OTHER_BLOCK"))  // odd launches: X,Y
    sscanf(getenv("MOCK_OTHER_BLOCK"), "%lu,%lu", &BlockX, &BlockY);
  if (Seed) {
    GlobalCapture = draw(3) == 0;
    StreamCaptured = GlobalCapture && draw(2);
    if (!Nesting && draw(2) == 0)
      NestedAt = k;
  } else {
    GlobalCapture = k >= int(envMs("MOCK_CAPTURE_FROM", 1e9));
    StreamCaptured = Capture && (GlobalCapture || !getenv("MOCK_CAPTURE_FROM"));
  }
  void *Stream = Capture || StreamCaptured ? reinterpret_cast<void *>(0xCA) : nullptr;
  uint64_t X = getenv("MOCK_GRIDS") ? uint64_t(GridX) << (k % 20) : GridX;
  __coalda_launch_grid(&Original, &Variant, "_Z1kPfi", X | uint64_t(GridY) << 32, 1, BlockX | BlockY << 32, 1,
                       Args, 2, 0, Stream, uint32_t(envMs("MOCK_PREFERRED", 0)), uint32_t(envMs("MOCK_FORM", 0)));
}

int main(int argc, char **argv) {
  if (argc < 5)
    return 2;
  int N = atoi(argv[1]);
  GridX = unsigned(atoi(argv[2]));
  GridY = unsigned(atoi(argv[3]));
  BlockArg = unsigned(atoi(argv[4]));
  Capture = argc > 5;
  NestedAt = int(envMs("MOCK_NESTED", -1));
  Seed = uint64_t(envMs("MOCK_SEED", 0));
  for (Launch = 0; Launch < N; ++Launch)
    launchOnce(Launch);
  if (getenv("MOCK_ASKED"))
    printf("device asked %d\n", Asked);
  if (getenv("MOCK_EVENTS"))
    printf("events created %d\n", Created);
  if (getenv("MOCK_OCCUPANCY"))
    printf("occupancy asked %d\n", Occupancies);
  return 0;
}
