//===- Options.h - The transformation's command-line switches -------------===//
//
// Every -coalda-* switch in one place, so that a reader sees all knobs at
// once. Defined in Options.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_OPTIONS_H
#define COALDA_LIB_OPTIONS_H

#include "RewriteKind.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace coalda::opts {

extern llvm::cl::opt<std::string> ReportFile;
extern llvm::cl::opt<bool> RuntimeChecks;
extern llvm::cl::opt<bool> AnalyzeOnly;
extern llvm::cl::opt<unsigned> MaxUnitWidth;
extern llvm::cl::opt<bool> InvariantLoads;
extern llvm::cl::opt<bool> FlatLoops;
extern llvm::cl::opt<bool> CostRules;
extern llvm::cl::opt<unsigned> WideBlock;
extern llvm::cl::opt<bool> FastFullRow;
extern llvm::cl::opt<bool> CopyIndex32;
extern llvm::cl::opt<bool> StageIndex32;
extern llvm::cl::opt<unsigned> StageUnroll;
extern llvm::cl::opt<unsigned> StageEarlyLoads;
extern llvm::cl::opt<bool> BreakForTesting;
extern llvm::cl::opt<unsigned> MaxStride;
extern llvm::cl::opt<bool> PromoteLoops;
extern llvm::cl::opt<bool> Staging;
extern llvm::cl::opt<bool> StageArraysInTurn;
extern llvm::cl::opt<bool> ReshapeLaunches;
extern llvm::cl::opt<bool> ReshapeBlockLoops;
extern llvm::cl::opt<bool> ChooseRewrites;
extern llvm::cl::opt<bool> StageReadOnly;
extern llvm::cl::opt<unsigned> StageReadOnlyRows;
extern llvm::cl::opt<unsigned> StagePartialGap;
extern llvm::cl::opt<unsigned> StageTileBudget;
extern llvm::cl::opt<unsigned> MaxRegisters;
extern llvm::cl::opt<unsigned> StageSmallRMWThreads;
extern llvm::cl::opt<bool> StageSmallAlways;
extern llvm::cl::opt<unsigned> KernelWorkLoopTrips;
extern llvm::cl::opt<unsigned> KernelWorkShare;
extern llvm::cl::opt<unsigned> WindowMinBlocksPerSM;
extern llvm::cl::opt<bool> TransposeAddressTile;
extern llvm::cl::opt<bool> StageAlwaysVote;
/// Where element stagings use warp tiles (Options.cpp).
enum class WarpTiles { Never, Fallback, Measured, Always };
extern llvm::cl::opt<WarpTiles> StageWarpTiles;
extern llvm::cl::opt<unsigned> WindowMinRow;
extern llvm::cl::opt<bool> WindowArms;
extern llvm::cl::opt<unsigned> WindowTileThreads;
/// Who refills a chunk window (Options.cpp).
extern llvm::cl::opt<WindowScope> WindowRefills;
extern llvm::cl::opt<unsigned> WindowRowBytes;
extern llvm::cl::opt<unsigned> WindowIterationBytes;
extern llvm::cl::opt<bool> WindowStores;
extern llvm::cl::opt<unsigned> WindowStoreBytes;
/// Which loops that only read their chunks take a window (Options.cpp).
enum class WindowReadOnly { Never, ConstantRows, RunTimeRows };
extern llvm::cl::opt<WindowReadOnly> WindowReadOnlyLoops;
extern llvm::cl::opt<unsigned> WindowReadOnlyModulus;
extern llvm::cl::opt<unsigned> MaxFunctionSize;

} // namespace coalda::opts

#endif // COALDA_LIB_OPTIONS_H
