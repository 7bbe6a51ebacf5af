// The backend-independent pieces of the contract: random blinding and start-then-finish.
#include "groth16/backend.hpp"

#include "core/status_macros.hpp"
#include "groth16/random_scalar.hpp"

namespace pp::groth16 {

blinding random_blinding() { return {random_scalar_csprng(), random_scalar_csprng()}; }

result<prove_output> prove(backend& be, const prove_request& req) {
  PP_ASSIGN_OR_RETURN(pending_ptr p, be.start(req));
  return be.finish(std::move(p));
}

}  // namespace pp::groth16
