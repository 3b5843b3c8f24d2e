// printf-style formatting into a std::string (host code: messages, logs).
#pragma once

#include <cstdio>
#include <string>

namespace cb {

template <class... Args>
std::string format_text(const char* pattern, Args... args) {
  const int size = std::snprintf(nullptr, 0, pattern, args...);
  if (size <= 0) return {};
  std::string text(static_cast<std::size_t>(size), '\0');
  std::snprintf(text.data(), text.size() + 1, pattern, args...);
  return text;
}

}  // namespace cb
