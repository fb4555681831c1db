//===- PrivateMemory.h - Pointers into a thread's own memory ----*- C++ -*-===//
//
// Which addresses of a kernel can only point into the thread's own memory
// (its allocas, the local address space), so that
// accesses through them are not reported as global ones. See
// PrivateMemory.cpp for the algorithm.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_PRIVATEMEMORY_H
#define COALDA_PRIVATEMEMORY_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"

namespace coalda {

class PrivatePointers {
public:
  /// Reads Root and every function it calls; Root's pointer parameters
  /// point into memory it does not own when RootIsKernel.
  PrivatePointers(const llvm::Function &Root, bool RootIsKernel);

  /// Whether every object Ptr may point into is thread-private (a null
  /// choice counts for none: an access through it is undefined).
  bool isPrivate(const llvm::Value *Ptr) const;

private:
  /// What is known of a parameter or a return value, over the calls.
  struct Flow {
    bool MayBePrivate = false; // some call passes (returns) a private pointer
    bool OnlyPrivate = true;   // every call passes (returns) one
  };

  /// Whether private memory provably holds no pointer but private ones, and
  /// no private address leaves for memory the thread does not own.
  bool Closed = false;
  llvm::SetVector<const llvm::Function *> Scope;
  llvm::DenseMap<const llvm::Value *, Flow> Flows; // arguments, functions
  /// What the calls in scope pass each parameter of a function in scope.
  llvm::DenseMap<const llvm::Argument *,
                 llvm::SmallVector<const llvm::Value *, 2>>
      Actuals;
  /// What each function in scope returns.
  llvm::DenseMap<const llvm::Function *,
                 llvm::SmallVector<const llvm::Value *, 2>>
      Returned;

  void collectScope(const llvm::Function &Root);
  bool propagate();
  bool keepsClosed(const llvm::Instruction &I) const;
  bool storeKeepsClosed(const llvm::Value *Stored,
                        const llvm::Value *Dest) const;
  bool wordKeepsClosed(const llvm::Value *From, const llvm::Value *Dest) const;
  bool callKeepsClosed(const llvm::CallBase &Call) const;
  void copiedLoads(const llvm::Value *V,
                   llvm::SmallPtrSetImpl<const llvm::Value *> &Seen,
                   llvm::SmallVectorImpl<const llvm::LoadInst *> &Loads) const;
  bool bytesMayBePrivate(const llvm::Value *V) const;
  bool onlyPrivate(const llvm::Value *Ptr, bool AllowNull) const;
  bool mayBePrivate(const llvm::Value *Ptr) const;
  bool objectOnlyPrivate(const llvm::Value *Object) const;
  bool objectMayBePrivate(const llvm::Value *Object) const;
};

} // namespace coalda

#endif // COALDA_PRIVATEMEMORY_H
