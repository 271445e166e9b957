#pragma once
// Command-line parsing for pathlab-cli: "--name value" options, "--flag" switches and
// positional arguments. Every error names the argument; the CLI prints it as one
// "error: ..." line on stderr and exits with status 2.

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "pathlab/geometry.hpp"

namespace pathlab::cli {

/// A user error: printed as "error: <what>" with exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A point given as "X,Y", "X,Y,DEG" or "X,Y,RADrad" (the heading in radians, for commands that
/// must reproduce a heading exactly: not every double in radians is deg_to_rad of a double).
struct PointArg {
  Vec2 pos;
  std::optional<double> heading_deg;  ///< with "RADrad": rad_to_deg(RAD), for printing
  std::optional<double> exact_rad;    ///< "RADrad": the heading as given [Units: rad]
  /// The heading in radians: as given, or deg_to_rad(DEG); 0 without one.
  double heading_rad() const { return exact_rad ? *exact_rad : deg_to_rad(heading_deg.value_or(0.0)); }
};

class Args {
 public:
  /// `flags` are the switches that take no value; every other "--name" takes one.
  Args(int argc, char** argv, int first, std::set<std::string> flags);

  /// Fails on any option that was given but never asked for (a typo must not pass silently).
  void reject_unknown() const;

  bool flag(const std::string& name);
  std::optional<std::string> str(const std::string& name);
  std::string required(const std::string& name);
  std::optional<double> number(const std::string& name);
  double number_or(const std::string& name, double fallback);
  std::optional<long long> integer(const std::string& name);
  std::optional<PointArg> point(const std::string& name);
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> switches_;
  std::set<std::string> known_flags_;
  std::set<std::string> used_;
  std::vector<std::string> positional_;
};

/// Parses a finite number; `what` names it in the error.
double parse_number(const std::string& text, const std::string& what);
long long parse_integer(const std::string& text, const std::string& what);
/// Parses "X,Y" or "X,Y,DEG".
PointArg parse_point(const std::string& text, const std::string& what);

/// The one stderr line for a failed command: "error: WHAT\n", with every byte outside
/// printable ASCII (a newline or control byte from a file or an argument) shown as \xNN.
std::string error_line(const std::string& what);

/// One query of a `--queries` file: its text and "FILE:LINE: " to prefix its errors with.
struct QueryLine {
  std::string text;
  std::string where;
};
/// Reads a `--queries` file: CRLF accepted, blank lines and `#` comments skipped. An
/// unreadable file is a UsageError naming it.
std::vector<QueryLine> read_query_lines(const std::string& path);

}  // namespace pathlab::cli
