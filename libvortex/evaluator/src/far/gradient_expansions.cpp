// Gradient expansions of every source node (multipole/gradient_expansion.hpp), the input of the
// CPU far field's M2P of velocity and gradient, from the plan's (normalized) velocity expansions.

#include "backend/cpu_stages.hpp"
#include "vortex/multipole/expansion_scale.hpp"
#include "vortex/multipole/gradient_expansion.hpp"

namespace vortex::detail {

template <class T>
void gradient_expansions_cpu(const TreePlan& plan, std::vector<T>& expansions) {
  const int p = plan.order;
  const std::size_t vsize = multipole::velocity_expansion_size(p);
  const std::size_t gsize = multipole::gradient_expansion_size(p);
  const int num_nodes = static_cast<int>(plan.source_tree.nodes.size());
  expansions.resize(gsize * num_nodes);
#pragma omp parallel for schedule(static)
  for (int k = 0; k < num_nodes; ++k) {
    T* G = expansions.data() + k * gsize;
    multipole::gradient_expansion(p, plan.velocity_expansions.data() + k * vsize, G);
    // The velocity expansions are normalized (expansion_scale.hpp): their derivatives are taken in
    // d / b, so the gradient's terms carry one more 1 / b.
    const int e = multipole::scale_exponent(plan.source_tree.nodes[k].radius);
    multipole::scale_gradient_terms(p, e, G);
  }
}

template void gradient_expansions_cpu(const TreePlan&, std::vector<double>&);
template void gradient_expansions_cpu(const TreePlan&, std::vector<float>&);

}  // namespace vortex::detail
