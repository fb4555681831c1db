//===- PrivateMemory.cpp - Pointers into a thread's own memory ------------===//
//
// C++ device code keeps pointers in local structs: a pool's `fetch()` hands
// out pointers into a per-thread array, a cover struct holds one of them, and
// accesses go through a pointer loaded from that struct, or passed to and
// returned by a recursive function (logic-rewrite's resynCut). Those
// accesses touch local memory, not global memory, but their address is a
// load the automaton cannot read.
//
// The question "may this pointer point into global memory?" is answered for
// the kernel and every function it calls at once, as a closed world:
//
//   private objects   allocas. The kernel's by-value parameter is the
//                     thread's copy, but it arrives holding the host's
//                     pointers: it counts as memory the thread does not own
//                     (no private pointer may be stored into it). A device
//                     function's by-value parameter is a copy of the memory
//                     its caller passes, holding what that memory holds: it
//                     is read like a pointer parameter, through its Flow.
//   OnlyPrivate(p)    every underlying object of p is a private object, or
//                     null (an access through null is undefined), or a load
//                     whose address is OnlyPrivate, or a parameter or a
//                     call's result that is private at every call (Flow)
//   MayBePrivate(p)   some underlying object of p may be private: a private
//                     object, a load from memory that MayBePrivate, or a
//                     parameter or result that is private at some call
//
// The Flows of parameters and results are a fixed point over the calls in
// scope (OnlyPrivate shrinks from true, MayBePrivate grows from false).
//
// A pointer loaded from private memory is read as private. That holds when
// private memory only receives private pointers and no private address
// escapes, checked over every instruction in scope (keepsClosed):
//
//   - a store, atomic or cmpxchg of a pointer into memory that MayBePrivate
//     stores an OnlyPrivate value; one of a private address into memory that
//     is not OnlyPrivate is an escape. Bytes copied from memory to memory
//     as something else than a pointer (a 64-bit integer, a double, two
//     halves, <4 x i8> of a char-wise copy; chosen by a select or a phi,
//     passed to or returned by a function in scope on the way) count as
//     the pointers their source may hold, unless the load's alias tag reads
//     them as an integer or a float ("long long", "double": reading a
//     pointer's bytes so is undefined);
//   - a ptrtoint of a private address is an escape (it can come back); an
//     inttoptr makes a pointer to anything: the world is not closed;
//   - a memcpy or memmove moves the pointers its source may hold, as a
//     copied word does: into memory that MayBePrivate only from memory
//     that is OnlyPrivate, and out of memory that MayBePrivate only into
//     memory that is OnlyPrivate (else the private addresses it may hold
//     escape);
//   - a call to a function outside the scope (a declaration, an indirect
//     call, inline assembly) must not receive a private address, nor its
//     bytes copied as an integer: the callee could store any pointer
//     through it. Intrinsics without memory effects, lifetime markers,
//     memset, and the runtime's vprintf and __assertfail may. Bytes passed
//     to a function in scope are followed to what it does with them.
//
// Any failure makes nothing private (Closed is false): the accesses stay
// where they were, in the global space, unknown with their reason.
//
// Not covered: an address made into an integer other than by copying its
// bytes, which becomes a pointer again through memory without an inttoptr.
// A ptrtoint of a global pointer, or an integer read with an integer alias
// tag (device addresses the host wrote as unsigned long long), written into
// a local union or memcpy'd into a local pointer; a private address's bytes
// changed by arithmetic (an xor) on their way to global memory. Closing
// these needs to know which private memory a pointer load reads (integer
// stores into other private memory are everyday code).
// testcases/adversarial/private_pointers.cu pins them as strict xfails
// (tests/test_private_pointers.py).
//
//===----------------------------------------------------------------------===//

#include "PrivateMemory.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "coalda-private"

using namespace llvm;

STATISTIC(NumClosed, "Kernels whose private memory holds only private "
                     "pointers");
STATISTIC(NumOpen, "Kernels whose private pointers may escape");

namespace coalda {

namespace {

/// How many functions one kernel's closed world may read.
constexpr unsigned MaxScope = 256;

bool isPointerValue(const Value *V) {
  return V->getType()->isPtrOrPtrVectorTy();
}

SmallVector<const Value *, 4> objectsOf(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, nullptr, /*MaxLookup=*/0);
  return Objects;
}

/// Whether Load may read a pointer's bytes as a value of another type: it
/// has no alias tag, or one of char or of a pointer. A tag of an integer or
/// a floating-point scalar says not: reading a pointer's bytes so is
/// undefined.
bool mayReadPointerBytes(const LoadInst &Load) {
  const auto *Tag = dyn_cast_or_null<MDNode>(Load.getMetadata(LLVMContext::MD_tbaa));
  const auto *Type = Tag && Tag->getNumOperands() >= 2
                         ? dyn_cast<MDNode>(Tag->getOperand(1))
                         : nullptr;
  const auto *Name = Type && Type->getNumOperands() >= 1
                         ? dyn_cast<MDString>(Type->getOperand(0))
                         : nullptr;
  if (!Name)
    return true;
  StringRef N = Name->getString();
  return N.contains("pointer") || N.contains("char") || N.starts_with("p");
}

const Function *directCallee(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && !Callee->isDeclaration() ? Callee : nullptr;
}

} // namespace

PrivatePointers::PrivatePointers(const Function &Root, bool RootIsKernel) {
  collectScope(Root);
  if (Scope.size() > MaxScope) {
    LLVM_DEBUG(dbgs() << "coalda-private: too many callees\n");
    ++NumOpen;
    return;
  }
  for (const Function *F : Scope)
    for (const Argument &Arg : F->args()) {
      // The kernel's by-value parameters hold the host's pointers (no Flow:
      // see objectMayBePrivate). A device function's copy holds what the
      // memory each call passes holds: its Flow is that of the pointers
      // the calls pass, as for a pointer parameter (a copy of private
      // memory holds private pointers; one of other memory, none).
      if (Arg.hasByValAttr() && RootIsKernel && F == &Root)
        continue;
      // The root's callers, and callers through a function pointer, are
      // not in scope: their pointers may be anything but this thread's.
      bool Unseen = F == &Root || F->hasAddressTaken();
      Flows[&Arg] = Unseen ? Flow{!RootIsKernel || F != &Root, false}
                           : Flow{};
    }
  for (const Function *F : Scope)
    for (const Instruction &I : instructions(*F)) {
      if (const auto *Ret = dyn_cast<ReturnInst>(&I);
          Ret && Ret->getReturnValue())
        Returned[F].push_back(Ret->getReturnValue());
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = directCallee(*Call))
          for (const Argument &Formal : Callee->args())
            if (Formal.getArgNo() < Call->arg_size())
              Actuals[&Formal].push_back(Call->getArgOperand(Formal.getArgNo()));
    }
  while (propagate())
    ;
  Closed = true;
  for (const Function *F : Scope)
    for (const Instruction &I : instructions(*F))
      if (!keepsClosed(I)) {
        LLVM_DEBUG(dbgs() << "coalda-private: not closed at " << I << "\n");
        Closed = false;
        ++NumOpen;
        return;
      }
  ++NumClosed;
}

void PrivatePointers::collectScope(const Function &Root) {
  Scope.insert(&Root);
  for (unsigned I = 0; I < Scope.size() && Scope.size() <= MaxScope; ++I)
    for (const Instruction &Inst : instructions(*Scope[I]))
      if (const auto *Call = dyn_cast<CallBase>(&Inst))
        if (const Function *Callee = directCallee(*Call))
          Scope.insert(Callee);
}

/// One round over the calls in scope; whether a Flow changed.
bool PrivatePointers::propagate() {
  bool Changed = false;
  auto Meet = [&](const Value *Key, const Value *Actual) {
    auto It = Flows.find(Key);
    if (It == Flows.end())
      return;
    Flow Old = It->second;
    It->second.MayBePrivate |= mayBePrivate(Actual);
    It->second.OnlyPrivate &= onlyPrivate(Actual, /*AllowNull=*/true);
    Changed |= Old.MayBePrivate != It->second.MayBePrivate ||
               Old.OnlyPrivate != It->second.OnlyPrivate;
  };
  for (const Function *F : Scope) {
    if (F->getReturnType()->isPointerTy() && !Flows.count(F))
      Flows[F] = F->hasAddressTaken() ? Flow{false, false} : Flow{};
    for (const Instruction &I : instructions(*F)) {
      if (const auto *Ret = dyn_cast<ReturnInst>(&I);
          Ret && Ret->getReturnValue() && isPointerValue(Ret->getReturnValue()))
        Meet(F, Ret->getReturnValue());
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? directCallee(*Call) : nullptr;
      if (!Callee)
        continue;
      for (const Argument &Formal : Callee->args())
        if (Formal.getArgNo() < Call->arg_size() &&
            isPointerValue(Call->getArgOperand(Formal.getArgNo())))
          Meet(&Formal, Call->getArgOperand(Formal.getArgNo()));
    }
  }
  return Changed;
}

bool PrivatePointers::isPrivate(const Value *Ptr) const {
  return Closed && onlyPrivate(Ptr, /*AllowNull=*/true);
}

bool PrivatePointers::objectOnlyPrivate(const Value *Object) const {
  if (isa<AllocaInst>(Object))
    return true;
  if (const auto *Arg = dyn_cast<Argument>(Object)) {
    auto It = Flows.find(Arg);
    return It != Flows.end() && It->second.OnlyPrivate;
  }
  if (const auto *Load = dyn_cast<LoadInst>(Object))
    return onlyPrivate(Load->getPointerOperand(), /*AllowNull=*/false);
  if (const auto *Call = dyn_cast<CallBase>(Object)) {
    const Function *Callee = directCallee(*Call);
    auto It = Callee ? Flows.find(Callee) : Flows.end();
    return It != Flows.end() && It->second.OnlyPrivate;
  }
  return false;
}

bool PrivatePointers::onlyPrivate(const Value *Ptr, bool AllowNull) const {
  SmallVector<const Value *, 4> Objects = objectsOf(Ptr);
  return !Objects.empty() && all_of(Objects, [&](const Value *Object) {
    return (AllowNull && isa<ConstantPointerNull>(Object)) ||
           objectOnlyPrivate(Object);
  });
}

bool PrivatePointers::objectMayBePrivate(const Value *Object) const {
  if (isa<ConstantPointerNull>(Object) || isa<GlobalValue>(Object))
    return false;
  if (const auto *Arg = dyn_cast<Argument>(Object)) {
    auto It = Flows.find(Arg);
    if (It != Flows.end())
      return It->second.MayBePrivate;
    // the kernel's parameter memory: the host's pointers (see the top)
    return !Arg->hasByValAttr();
  }
  if (const auto *Load = dyn_cast<LoadInst>(Object))
    return mayBePrivate(Load->getPointerOperand()); // no private address
                                                   // reaches other memory
  if (const auto *Call = dyn_cast<CallBase>(Object)) {
    const Function *Callee = directCallee(*Call);
    if (!Callee) // a declaration (malloc) given no private address
      return false;
    auto It = Flows.find(Callee);
    return It == Flows.end() || It->second.MayBePrivate;
  }
  return true; // an alloca, or a pointer from anywhere
}

bool PrivatePointers::mayBePrivate(const Value *Ptr) const {
  return any_of(objectsOf(Ptr),
                [&](const Value *O) { return objectMayBePrivate(O); });
}

/// A store of Stored at Dest: into private memory only private pointers
/// (or data), and no private address into memory that may not be private.
/// The loads whose bytes the non-pointer value V passes on, and that may be
/// a pointer's (mayReadPointerBytes): V itself, or what it is chosen from
/// (select, phi), moved from unchanged (bitcast, freeze, vector element
/// moves), for a parameter, passed at each call in scope (the root's and a
/// function pointer's other callers pass no private bytes: checked at the
/// call, callKeepsClosed), for a call in scope, what its callee returns.
/// Arithmetic makes a new value: not followed.
void PrivatePointers::copiedLoads(const Value *V,
                                  SmallPtrSetImpl<const Value *> &Seen,
                                  SmallVectorImpl<const LoadInst *> &Loads) const {
  if (!Seen.insert(V).second)
    return;
  if (const auto *Load = dyn_cast<LoadInst>(V)) {
    if (mayReadPointerBytes(*Load))
      Loads.push_back(Load);
    return;
  }
  if (const auto *Arg = dyn_cast<Argument>(V)) {
    if (auto It = Actuals.find(Arg); It != Actuals.end())
      for (const Value *Actual : It->second)
        copiedLoads(Actual, Seen, Loads);
  } else if (const auto *Call = dyn_cast<CallBase>(V)) {
    if (const Function *Callee = directCallee(*Call))
      if (auto It = Returned.find(Callee); It != Returned.end())
        for (const Value *Result : It->second)
          copiedLoads(Result, Seen, Loads);
  } else if (const auto *Select = dyn_cast<SelectInst>(V)) {
    copiedLoads(Select->getTrueValue(), Seen, Loads);
    copiedLoads(Select->getFalseValue(), Seen, Loads);
  } else if (isa<PHINode>(V) || isa<BitCastInst>(V) || isa<FreezeInst>(V) ||
             isa<ShuffleVectorInst>(V)) {
    for (const Value *Op : cast<Instruction>(V)->operands())
      copiedLoads(Op, Seen, Loads);
  } else if (const auto *Insert = dyn_cast<InsertElementInst>(V)) {
    copiedLoads(Insert->getOperand(0), Seen, Loads); // the vector
    copiedLoads(Insert->getOperand(1), Seen, Loads); // the element
  } else if (const auto *Extract = dyn_cast<ExtractElementInst>(V)) {
    copiedLoads(Extract->getVectorOperand(), Seen, Loads);
  }
}

/// Whether the non-pointer value V may carry a private address's bytes: a
/// load it copies reads memory that MayBePrivate.
bool PrivatePointers::bytesMayBePrivate(const Value *V) const {
  SmallPtrSet<const Value *, 8> Seen;
  SmallVector<const LoadInst *, 4> Loads;
  copiedLoads(V, Seen, Loads);
  return any_of(Loads, [&](const LoadInst *Load) {
    return mayBePrivate(Load->getPointerOperand());
  });
}

bool PrivatePointers::storeKeepsClosed(const Value *Stored,
                                       const Value *Dest) const {
  if (!isPointerValue(Stored)) {
    SmallPtrSet<const Value *, 8> Seen;
    SmallVector<const LoadInst *, 4> Loads;
    copiedLoads(Stored, Seen, Loads);
    return all_of(Loads, [&](const LoadInst *Load) {
      return wordKeepsClosed(Load->getPointerOperand(), Dest);
    });
  }
  bool IntoPrivate = mayBePrivate(Dest);
  bool IntoOther = !onlyPrivate(Dest, /*AllowNull=*/true);
  return (!IntoPrivate || onlyPrivate(Stored, /*AllowNull=*/true)) &&
         (!IntoOther || !mayBePrivate(Stored));
}

/// Bytes loaded at From and stored at Dest, which may be a pointer's moved
/// as another type (copiedLoads), or the bytes a memcpy moves: like a
/// pointer, they may not bring a pointer from elsewhere into private memory,
/// nor a private one out.
bool PrivatePointers::wordKeepsClosed(const Value *From,
                                      const Value *Dest) const {
  return (!mayBePrivate(Dest) || onlyPrivate(From, /*AllowNull=*/false)) &&
         (onlyPrivate(Dest, /*AllowNull=*/true) || !mayBePrivate(From));
}

bool PrivatePointers::callKeepsClosed(const CallBase &Call) const {
  if (directCallee(Call))
    return true; // in scope: its own instructions are checked
  if (const auto *MT = dyn_cast<MemTransferInst>(&Call))
    return wordKeepsClosed(MT->getSource(), MT->getDest());
  if (isa<MemSetInst>(&Call) || Call.isLifetimeStartOrEnd() ||
      isa<DbgInfoIntrinsic>(&Call))
    return true;
  if (isa<IntrinsicInst>(&Call) && Call.doesNotAccessMemory())
    return true;
  if (const Function *Callee = Call.getCalledFunction();
      Callee && (Callee->getName() == "vprintf" ||
                 Callee->getName() == "__assertfail"))
    return true; // the CUDA runtime's printf and assert only read, and print
  return none_of(Call.args(), [&](const Use &Arg) {
    return isPointerValue(Arg.get()) ? mayBePrivate(Arg.get())
                                     : bytesMayBePrivate(Arg.get());
  });
}

bool PrivatePointers::keepsClosed(const Instruction &I) const {
  if (const auto *S = dyn_cast<StoreInst>(&I))
    return storeKeepsClosed(S->getValueOperand(), S->getPointerOperand());
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return storeKeepsClosed(RMW->getValOperand(), RMW->getPointerOperand());
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return storeKeepsClosed(CX->getNewValOperand(), CX->getPointerOperand());
  if (const auto *P2I = dyn_cast<PtrToIntInst>(&I))
    return !mayBePrivate(P2I->getPointerOperand());
  if (isa<IntToPtrInst>(&I))
    return false;
  if (const auto *Call = dyn_cast<CallBase>(&I))
    return callKeepsClosed(*Call);
  return true;
}

} // namespace coalda
