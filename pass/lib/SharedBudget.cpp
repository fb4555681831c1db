//===- SharedBudget.cpp - The shared memory a tile may take ---------------===//
//
// The budget of SharedBudget.h: the static shared memory a kernel already
// uses, against which the element staging's tiles and the chunk windows are
// sized (each with its own rule for how many threads to size for).
//
//===----------------------------------------------------------------------===//

#include "SharedBudget.h"
#include "Staging.h"

#include "llvm/IR/Function.h"

using namespace llvm;

namespace coalda {

std::variant<SharedBudget, Missed> sharedBudget(const Function &F,
                                                StringRef Tile) {
  std::optional<uint64_t> Static = staticSharedBytes(F);
  if (!Static)
    return Missed{MissedReason::StagingTileTooLarge,
                  "the kernel uses dynamic shared memory (extern __shared__): "
                  "a static " +
                      Tile.str() + " might not fit beside it"};
  return SharedBudget{*Static};
}

} // namespace coalda
