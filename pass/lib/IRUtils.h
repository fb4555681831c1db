//===- IRUtils.h - Small IR helpers every rewrite uses ----------*- C++ -*-===//
//
// IR building blocks that the copy rewrite, the element staging and the
// chunk windows all use: the i64 value of an address polynomial, the type a
// unit of a copy moves as, clones of a straight-line sequence, and the block
// split that keeps floating-point contraction. They used to live in the
// phase that first needed them (collect, region emit); they are shared, so
// they live here, once.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_IRUTILS_H
#define COALDA_LIB_IRUTILS_H

#include "coalda/CoalescingAnalysis.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

#include <vector>

namespace llvm {
class BasicBlock;
class Instruction;
class LLVMContext;
class Twine;
class Type;
class Value;
} // namespace llvm

namespace coalda {

/// IR computing Poly (in i64) at B: special registers are read, kernel
/// arguments and opaque values sign-extended. Its atoms must be available
/// at B's insertion point.
llvm::Value *materializePoly(llvm::IRBuilder<> &B, const Poly &Poly,
                             const std::vector<Atom> &Atoms);

/// i1: every atom of Poly narrower than 64 bits is not negative. The
/// polynomial reads a narrow value's sext and zext alike, and
/// materializePoly sign-extends: the two agree only then (an unsigned char
/// 200 is 200, not -56). Null when Poly has no narrow atom.
llvm::Value *narrowAtomsNonNegative(llvm::IRBuilder<> &B, const Poly &Poly,
                                    const std::vector<Atom> &Atoms);

/// `A + ABytes <= B || B + BBytes <= A` (unsigned): the byte ranges
/// [A, A + ABytes) and [B, B + BBytes) do not overlap. The B side's compare
/// is emitted first, always: the run-time checks come out the same whatever
/// compiler built the plugin (a call's arguments are evaluated in an order
/// of the compiler's choosing).
llvm::Value *emitApart(llvm::IRBuilder<> &Bld, llvm::Value *A,
                       llvm::Value *ABytes, llvm::Value *B,
                       llvm::Value *BBytes, const llvm::Twine &Name = "");

/// The IR type a copy moves a U-byte unit as: <4 x i32> for 16 bytes (one
/// ld/st.v4), else an integer of U bytes.
llvm::Type *copyUnitType(llvm::LLVMContext &Ctx, unsigned U);

/// Clones Order (in order) with the operands that refer to earlier clones
/// remapped; Place puts each clone where it belongs. Returns original ->
/// clone.
llvm::DenseMap<llvm::Value *, llvm::Value *> cloneInOrder(
    llvm::ArrayRef<llvm::Instruction *> Order,
    llvm::function_ref<void(llvm::Instruction *Clone, llvm::Instruction *Of)>
        Place);

/// BB split before At (BasicBlock::splitBasicBlock), with the floating-point
/// arithmetic before At whose users all come after it moved after it too
/// (a multiply with users before At too stays, and its adds after At become
/// explicit fmas).
/// The backend fuses a `contract` multiply into its add (an fma: one
/// rounding, not two) only within one block, so a split between them would
/// change the result's bits on the GPU; clang compiles CUDA with
/// -ffp-contract=fast. Every rewrite splits the user's blocks through this.
llvm::BasicBlock *splitKeepingContraction(llvm::BasicBlock *BB,
                                          llvm::Instruction *At,
                                          const llvm::Twine &Name);

} // namespace coalda

#endif // COALDA_LIB_IRUTILS_H
