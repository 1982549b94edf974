#pragma once
// Entry points of the far field's loop compiled for wider instruction sets than the library's
// (portable builds on x86-64 only; far_field_isa.cpp), and the choice among them at run time.

#include "far/far_field_leaves.hpp"

namespace vortex::detail {

// Instruction sets of the far field's loop: the library's own, and the wider copies.
enum class FarIsa { Build, Avx2, Avx512 };

// The widest set this processor has, at most `limit` (the widest there is by default; tests lower
// it to run every copy).
FarIsa far_field_isa();
void limit_far_field_isa(FarIsa limit);

#if defined(VORTEX_FAR_FIELD_DISPATCH)
void far_field_avx2(const FarInputs<double>& in);  // AVX2 and FMA: 4 doubles, 8 floats
void far_field_avx2(const FarInputs<float>& in);
void far_field_avx512(const FarInputs<double>& in);  // AVX-512F: 8 doubles, 16 floats
void far_field_avx512(const FarInputs<float>& in);
#endif

}  // namespace vortex::detail
