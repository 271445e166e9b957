#pragma once
// CC-Dubins / CC-Reeds-Shepp internals shared by cc_turn.cpp and cc_curves.cpp: the CC
// circle of a radius and sharpness, one CC turn's shape, and candidate paths. Not installed.

#include <array>
#include <string>

#include "pathlab/geometry.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/status.hpp"

namespace pathlab::detail {

/// The CC circle (Fraichard & Scheuer 2004, section on CC turns) of a turn with curvature
/// kappa = 1 / r and sharpness sigma, in the frame of the turn's start (origin, heading +x,
/// a forward left turn): centre (xo, yo), radius r_omega, crossing angle mu.
struct CcCircle {
  double kappa = 0.0;    ///< [Units: 1/cells]
  double sigma = 0.0;    ///< [Units: 1/cells^2]
  double lc = 0.0;       ///< Length of one full clothoid kappa / sigma. [Units: cells]
  double delta_c = 0.0;  ///< Its deflection kappa^2 / (2 sigma). [Units: radians]
  double xo = 0.0, yo = 0.0;  ///< Centre Omega. [Units: cells]
  double r_omega = 0.0;  ///< [Units: cells]
  double mu = 0.0;       ///< [Units: radians]
};

CcCircle make_cc_circle(double radius, double sigma);

/// How a CC turn of a given deflection is driven.
struct CcTurnShape {
  enum Kind : uint8_t { line, elementary, regular } kind = line;
  double length = 0.0;  ///< Total. [Units: cells]
  double sigma = 0.0;   ///< Elementary: the reduced sharpness. [Units: 1/cells^2]
  double kappa = 0.0;   ///< Elementary: the curvature reached. [Units: 1/cells]
  double half = 0.0;    ///< Elementary: length of each clothoid. [Units: cells]
};

/// The shape of a CC turn of deflection `delta` in [0, 2 pi); ok false when the elementary
/// path it needs would be sharper or more curved than allowed (then no such turn exists).
bool cc_turn_shape(const CcCircle& cc, double delta, CcTurnShape& out);

/// One part of a candidate: a CC turn (steer +-1, amount = deflection [radians]) or a line
/// (steer 0, amount = length [cells]), in gear +1 / -1.
struct CcPart {
  int steer = 0;
  int gear = 1;
  double amount = 0.0;
};

struct CcCandidate {
  std::array<CcPart, 3> parts{};
  int count = 0;
  double length = 0.0;  ///< [Units: cells]; infinity when none exists.
};

/// The shortest candidate from the families of cc_curves.hpp. `reverse`: CC-Reeds-Shepp.
CcCandidate cc_shortest(const CcCircle& cc, const Pose& from, const Pose& to, bool reverse);

/// Appends the segments of one part to `path` (starting at its end).
Status cc_append_part(const CcCircle& cc, const CcPart& part, SegmentPath& path);

/// "L+S+R-": one letter per part, S for lines and for turns of deflection 0.
std::string cc_word(const CcCandidate& c);

}  // namespace pathlab::detail
