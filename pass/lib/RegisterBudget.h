//===- RegisterBudget.h - Kernels launch where they did ---------*- C++ -*-===//
//
// The register limit that keeps a rewritten kernel launchable with the
// blocks its original took: see RegisterBudget.cpp for the rule and its
// measurement.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_REGISTERBUDGET_H
#define COALDA_LIB_REGISTERBUDGET_H

namespace llvm {
class Function;
} // namespace llvm

namespace coalda {

/// What boundRegisters did to a rewritten kernel.
enum class RegisterBound {
  Added,     ///< maxnreg added: ptxas keeps it within -coalda-max-registers
  UserBound, ///< it declares maxntid, reqntid or maxnreg: left as it is
  Disabled,  ///< -coalda-max-registers=0
};

/// Called on a kernel COALDA rewrote: limits its registers to
/// -coalda-max-registers (off by default), unless it declares a bound of
/// its own.
RegisterBound boundRegisters(llvm::Function &Kernel);

} // namespace coalda

#endif // COALDA_LIB_REGISTERBUDGET_H
