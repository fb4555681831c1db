//===- IRUtils.cpp - Small IR helpers every rewrite uses ------------------===//
//
// The IR helpers of IRUtils.h: an address polynomial's i64 value, a copy
// unit's type, clones of a straight-line sequence, and the block split that
// keeps floating-point contraction. The copy rewrite, the element staging
// and the chunk windows all build with them, so they live here rather than
// in one of those phases.
//
//===----------------------------------------------------------------------===//

#include "IRUtils.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace coalda {

Value *materializePoly(IRBuilder<> &B, const Poly &Poly,
                       const std::vector<Atom> &Atoms) {
  static const Intrinsic::ID Registers[4][3] = {
      {Intrinsic::nvvm_read_ptx_sreg_tid_x, Intrinsic::nvvm_read_ptx_sreg_tid_y,
       Intrinsic::nvvm_read_ptx_sreg_tid_z},
      {Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
       Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
       Intrinsic::nvvm_read_ptx_sreg_ctaid_z},
      {Intrinsic::nvvm_read_ptx_sreg_ntid_x,
       Intrinsic::nvvm_read_ptx_sreg_ntid_y,
       Intrinsic::nvvm_read_ptx_sreg_ntid_z},
      {Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
       Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
       Intrinsic::nvvm_read_ptx_sreg_nctaid_z}};
  Type *I64 = B.getInt64Ty();
  Value *Sum = B.getInt64(0);
  for (const auto &[M, C] : Poly.Terms) {
    Value *Term = B.getInt64(C);
    for (unsigned Id : M) {
      const Atom &A = Atoms[Id];
      Value *V;
      if (A.Kind <= Atom::GridDim)
        V = B.CreateZExt(B.CreateIntrinsic(Registers[A.Kind][A.Dim], {}, {}),
                         I64);
      else // kernel argument or opaque row-uniform value (Iteration: never)
        V = B.CreateSExtOrTrunc(const_cast<Value *>(A.V), I64);
      Term = B.CreateMul(Term, V);
    }
    Sum = B.CreateAdd(Sum, Term);
  }
  return Sum;
}

Value *narrowAtomsNonNegative(IRBuilder<> &B, const Poly &Poly,
                              const std::vector<Atom> &Atoms) {
  Value *All = nullptr;
  for (const auto &[M, C] : Poly.Terms)
    for (unsigned Id : M)
      if (const Value *V = Atoms[Id].V;
          V && Atoms[Id].Kind > Atom::GridDim &&
          V->getType()->getIntegerBitWidth() < 64) {
        Value *Ok =
            B.CreateICmpSGE(const_cast<Value *>(V),
                            ConstantInt::get(V->getType(), 0),
                            "coalda.stride.atom.ok");
        All = All ? B.CreateAnd(All, Ok) : Ok;
      }
  return All;
}

Value *emitApart(IRBuilder<> &Bld, Value *A, Value *ABytes, Value *B,
                 Value *BBytes, const Twine &Name) {
  Value *BEndsFirst = Bld.CreateICmpULE(Bld.CreateAdd(B, BBytes), A);
  Value *AEndsFirst = Bld.CreateICmpULE(Bld.CreateAdd(A, ABytes), B);
  return Bld.CreateOr(AEndsFirst, BEndsFirst, Name);
}

DenseMap<Value *, Value *>
cloneInOrder(ArrayRef<Instruction *> Order,
             function_ref<void(Instruction *Clone, Instruction *Of)> Place) {
  DenseMap<Value *, Value *> Clones;
  for (Instruction *I : Order) {
    Instruction *C = I->clone();
    for (Use &U : C->operands())
      if (Value *Mapped = Clones.lookup(U.get()))
        U.set(Mapped);
    Place(C, I);
    Clones[I] = C;
  }
  return Clones;
}

Type *copyUnitType(LLVMContext &Ctx, unsigned U) {
  if (U == 16)
    return FixedVectorType::get(Type::getInt32Ty(Ctx), 4);
  return Type::getIntNTy(Ctx, U * 8);
}

/// The add or subtract using Mul through U, when llc would fuse the two (both
/// `contract`), replaced by the fma: a*b + c, a*b - c = fma(a, b, -c),
/// c - a*b = fma(-a, b, c).
static void fuseIntoUser(BinaryOperator *Mul, Use &U) {
  auto *User = dyn_cast<BinaryOperator>(U.getUser());
  if (!User || !User->hasAllowContract() ||
      (User->getOpcode() != Instruction::FAdd &&
       User->getOpcode() != Instruction::FSub) ||
      User->getOperand(0) == User->getOperand(1))
    return;
  IRBuilder<> B(User);
  B.setFastMathFlags(User->getFastMathFlags());
  Value *A = Mul->getOperand(0);
  Value *Other = User->getOperand(1 - U.getOperandNo());
  if (User->getOpcode() == Instruction::FSub) {
    if (U.getOperandNo() == 0)
      Other = B.CreateFNeg(Other);
    else
      A = B.CreateFNeg(A);
  }
  Value *Fma = B.CreateIntrinsic(Intrinsic::fma, {User->getType()},
                                 {A, Mul->getOperand(1), Other});
  Fma->takeName(User);
  User->replaceAllUsesWith(Fma);
  User->eraseFromParent();
}

BasicBlock *splitKeepingContraction(BasicBlock *BB, Instruction *At,
                                    const Twine &Name) {
  BasicBlock *After = BB->splitBasicBlock(At, Name);
  // Backwards, so that an operand whose users have just moved moves too
  // (fneg -> fmul -> fadd), each to the front of what moved before it. A
  // multiply with users on both sides stays, and each add after the split
  // that llc would have fused with it becomes the fma itself (a copy of the
  // multiply would not do: llc's GVN merges it back into the original).
  Instruction *Front = &After->front();
  for (Instruction &I : make_early_inc_range(reverse(*BB))) {
    if (I.isTerminator() || isa<PHINode>(I) || isa<CallBase>(I) ||
        !I.getType()->isFPOrFPVectorTy() || I.mayReadOrWriteMemory())
      continue;
    auto IsAfter = [&](const Use &U) {
      return cast<Instruction>(U.getUser())->getParent() == After;
    };
    if (none_of(I.uses(), IsAfter))
      continue;
    if (all_of(I.uses(), IsAfter)) {
      I.moveBefore(Front);
      Front = &I;
      continue;
    }
    if (I.getOpcode() != Instruction::FMul || !I.hasAllowContract())
      continue;
    for (Use &U : make_early_inc_range(I.uses()))
      if (IsAfter(U))
        fuseIntoUser(cast<BinaryOperator>(&I), U);
  }
  return After;
}

} // namespace coalda
