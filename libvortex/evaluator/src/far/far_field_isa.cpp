// The far field's loop compiled for one wider instruction set (portable builds on x86-64): the
// build compiles this file once per set, with its flags and VORTEX_FAR_FIELD_ISA naming the entry
// points, and far_field_cpu.cpp calls them where the processor has the set.

#include "far/far_field_isa.hpp"
#include "far/far_field_leaves.hpp"

namespace vortex::detail {

#define VORTEX_FAR_FIELD_ENTRY_(isa) far_field_##isa
#define VORTEX_FAR_FIELD_ENTRY(isa) VORTEX_FAR_FIELD_ENTRY_(isa)

void VORTEX_FAR_FIELD_ENTRY(VORTEX_FAR_FIELD_ISA)(const FarInputs<double>& in) {
  run_far_field_leaves(in);
}
void VORTEX_FAR_FIELD_ENTRY(VORTEX_FAR_FIELD_ISA)(const FarInputs<float>& in) {
  run_far_field_leaves(in);
}

}  // namespace vortex::detail
