#include "pathlab/status.hpp"

namespace pathlab {

const char* to_string(StatusCode code) noexcept {
  switch (code) {
    case StatusCode::ok: return "ok";
    case StatusCode::invalid_argument: return "invalid_argument";
    case StatusCode::parse_error: return "parse_error";
    case StatusCode::io_error: return "io_error";
    case StatusCode::out_of_bounds: return "out_of_bounds";
    case StatusCode::blocked: return "blocked";
    case StatusCode::too_large: return "too_large";
    case StatusCode::unsupported: return "unsupported";
  }
  return "unknown";
}

}  // namespace pathlab
