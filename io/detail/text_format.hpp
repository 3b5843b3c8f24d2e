// Small text helpers shared by the io writers. Not part of the public io API.
#pragma once

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace cb::io::detail {

// The shortest of %.15g and %.17g that reads back as the same double.
inline std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", value);
  if (std::strtod(text, nullptr) != value) std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

inline std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// The step of a file named `<prefix><digits><suffix>`, or -1 for any other name.
inline long step_in_file_name(const std::string& name, const std::string& prefix,
                              const std::string& suffix) {
  if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return -1;
  const std::string digits =
      name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  const bool numeric =
      digits.size() <= 18 && std::all_of(digits.begin(), digits.end(),
                                         [](unsigned char c) { return std::isdigit(c) != 0; });
  return numeric ? std::stol(digits) : -1;
}

// A temporal collection `name` of the `grids` (the <Grid> elements of the time
// steps).
inline std::string xdmf_temporal_collection(const std::string& name, const std::string& grids) {
  return "    <Grid Name=\"" + name + "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n" +
         grids + "    </Grid>\n";
}

// An XDMF 3 document whose domain holds `grids`, as ParaView and VisIt open it.
inline std::string xdmf_document(const std::string& grids) {
  return "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
         "<Xdmf Version=\"3.0\">\n  <Domain>\n" +
         grids + "  </Domain>\n</Xdmf>\n";
}

// An XDMF 3 document holding one temporal collection `name` of the `grids`.
inline std::string xdmf_time_series(const std::string& name, const std::string& grids) {
  return xdmf_document(xdmf_temporal_collection(name, grids));
}

// Writes `text` to `path` through `path`.tmp and a rename, so a reader never
// sees a half-written file. Returns "" or what failed.
inline std::string write_text_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  std::ofstream out(temporary, std::ios::trunc | std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) return "cannot write " + temporary;
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
    return "cannot rename " + temporary + ": " + std::strerror(errno);
  return "";
}

}  // namespace cb::io::detail
