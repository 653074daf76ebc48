// Strict reading of a JSON object for record_json.cpp: every field has the one type the schema
// gives it, and a problem names the field by its path ("figures.goodput_mbps: a string, expected
// a number"). Internal to hil/record.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "hil/record/record_json.hpp"

namespace hil::record::detail {

// The schema's word for a C++ field type.
template <typename T>
constexpr const char* type_word() {
  if constexpr (std::is_same_v<T, bool>) {
    return "true or false";
  } else if constexpr (std::is_integral_v<T>) {
    return "an integer";
  } else if constexpr (std::is_floating_point_v<T>) {
    return "a number";
  } else {
    return "a string";
  }
}

// Whether v holds a T.
template <typename T>
bool holds(const nlohmann::json& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v.is_boolean();
  } else if constexpr (std::is_integral_v<T>) {
    return v.is_number_integer();
  } else if constexpr (std::is_floating_point_v<T>) {
    return v.is_number();
  } else {
    return v.is_string();
  }
}

class object_reader {
 public:
  // Reads j, which must be an object; path names it in errors ("" for the record itself).
  object_reader(const nlohmann::json& j, std::string path) : j_(j), path_(std::move(path)) {
    if (!j_.is_object()) fail_at(path_.empty() ? "the record" : path_, j_, "an object");
  }

  // The value at key, which must be present.
  template <typename T>
  [[nodiscard]] T get(const char* key) const {
    const auto it = j_.find(key);
    if (it == j_.end()) throw record_error(name(key) + ": missing");
    return as<T>(*it, name(key));
  }

  // The value at key, or fallback when absent (a value of another type is still an error).
  template <typename T>
  [[nodiscard]] T get_or(const char* key, T fallback) const {
    const auto it = j_.find(key);
    return it == j_.end() ? fallback : as<T>(*it, name(key));
  }

  // The value at key, or nullopt when absent.
  template <typename T>
  [[nodiscard]] std::optional<T> optional(const char* key) const {
    const auto it = j_.find(key);
    if (it == j_.end()) return std::nullopt;
    return as<T>(*it, name(key));
  }

  // The array at key of values of type T; empty when absent.
  template <typename T>
  [[nodiscard]] std::vector<T> list(const char* key) const {
    std::vector<T> out;
    const auto it = j_.find(key);
    if (it == j_.end()) return out;
    if (!it->is_array()) fail_at(name(key), *it, "an array");
    for (std::size_t i = 0; i < it->size(); ++i) {
      out.push_back(as<T>((*it)[i], name(key) + "[" + std::to_string(i) + "]"));
    }
    return out;
  }

  // The JSON at key (any type), or nullptr when absent.
  [[nodiscard]] const nlohmann::json* find(const char* key) const {
    const auto it = j_.find(key);
    return it == j_.end() ? nullptr : &*it;
  }

  // The path of key in errors.
  [[nodiscard]] std::string name(const char* key) const {
    return path_.empty() ? std::string(key) : path_ + "." + key;
  }

  template <typename T>
  static T as(const nlohmann::json& v, const std::string& where) {
    if (!holds<T>(v)) fail_at(where, v, type_word<T>());
    return v.get<T>();
  }

  [[noreturn]] static void fail_at(const std::string& where, const nlohmann::json& v,
                                   const char* expected) {
    throw record_error(where + ": " + (v.is_null() ? std::string("null") : v.type_name()) +
                       ", expected " + expected);
  }

 private:
  const nlohmann::json& j_;
  std::string path_;
};

}  // namespace hil::record::detail
