#include "args.hpp"

#include "pathlab/io/json_guard.hpp"
#include "pathlab/map_io.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

namespace pathlab::cli {

Args::Args(int argc, char** argv, int first, std::set<std::string> flags) : known_flags_(std::move(flags)) {
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) == 0 && a.size() > 2) {
      std::string name = a.substr(2);
      if (const size_t eq = name.find('='); eq != std::string::npos) {
        values_[name.substr(0, eq)] = name.substr(eq + 1);
        continue;
      }
      if (known_flags_.count(name)) {
        switches_.insert(name);
        continue;
      }
      if (i + 1 >= argc) throw UsageError("--" + name + " needs a value");
      values_[name] = argv[++i];
    } else {
      positional_.push_back(a);
    }
  }
}

void Args::reject_unknown() const {
  for (const auto& [name, value] : values_)
    if (!used_.count(name)) throw UsageError("unknown option --" + name);
  for (const auto& name : switches_)
    if (!used_.count(name)) throw UsageError("option --" + name + " does not apply here");
}

bool Args::flag(const std::string& name) {
  used_.insert(name);
  return switches_.count(name) > 0;
}

std::optional<std::string> Args::str(const std::string& name) {
  used_.insert(name);
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string Args::required(const std::string& name) {
  auto v = str(name);
  if (!v) throw UsageError("missing --" + name);
  return *v;
}

std::optional<double> Args::number(const std::string& name) {
  auto v = str(name);
  if (!v) return std::nullopt;
  return parse_number(*v, "--" + name);
}

double Args::number_or(const std::string& name, double fallback) { return number(name).value_or(fallback); }

std::optional<long long> Args::integer(const std::string& name) {
  auto v = str(name);
  if (!v) return std::nullopt;
  return parse_integer(*v, "--" + name);
}

std::optional<PointArg> Args::point(const std::string& name) {
  auto v = str(name);
  if (!v) return std::nullopt;
  return parse_point(*v, "--" + name);
}

double parse_number(const std::string& text, const std::string& what) {
  double v = 0;
  const char* b = text.data();
  const char* e = b + text.size();
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || p != e) throw UsageError(what + ": '" + text + "' is not a number");
  if (!std::isfinite(v)) throw UsageError(what + ": '" + text + "' is not a finite number");
  return v;
}

long long parse_integer(const std::string& text, const std::string& what) {
  long long v = 0;
  const char* b = text.data();
  const char* e = b + text.size();
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || p != e) throw UsageError(what + ": '" + text + "' is not an integer");
  return v;
}

PointArg parse_point(const std::string& text, const std::string& what) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) parts.push_back(part);
  if (parts.size() != 2 && parts.size() != 3)
    throw UsageError(what + ": expected X,Y or X,Y,DEG (or X,Y,RADrad), got '" + text + "'");
  PointArg p;
  p.pos = Vec2(parse_number(parts[0], what + " X"), parse_number(parts[1], what + " Y"));
  if (parts.size() == 3) {
    const std::string& h = parts[2];
    if (h.size() > 3 && h.compare(h.size() - 3, 3, "rad") == 0) {
      p.exact_rad = parse_number(h.substr(0, h.size() - 3), what + " RAD");
      p.heading_deg = rad_to_deg(*p.exact_rad);
      if (!std::isfinite(*p.heading_deg)) throw UsageError(what + ": '" + h + "' is not a finite heading");
    } else {
      p.heading_deg = parse_number(h, what + " DEG");
    }
  }
  return p;
}

std::string error_line(const std::string& what) { return "error: " + io::printable_text(what, 2000) + "\n"; }

std::vector<QueryLine> read_query_lines(const std::string& path) {
  auto text = read_text_file(path);
  if (!text) throw UsageError(text.error().message);
  std::vector<QueryLine> lines;
  std::istringstream in(*text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    lines.push_back({line, path + ":" + std::to_string(n) + ": "});
  }
  return lines;
}

}  // namespace pathlab::cli
