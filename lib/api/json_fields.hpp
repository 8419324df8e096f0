#pragma once
// A struct's JSON names, written once: its field list (fn(name, member); LR_JSON_FIELDS
// where the name is the member's own) and its parts list (its nested arrays and objects),
// which to_json and the reader both walk.

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace lr::api {

/// A JSON error's own words, without nlohmann's "[json.exception.type_error.302] ".
inline std::string json_error_text(const nlohmann::json::exception& e) {
  const std::string_view what = e.what();
  const size_t at = what.starts_with("[json.exception.") ? what.find("] ") : std::string_view::npos;
  return std::string(at == std::string_view::npos ? what : what.substr(at + 2));
}

/// `e` again, said at `path` ("throughput[2]", "pps"): the errors of nested readers join
/// into one path ("throughput[2].pps: type must be number, but is string").
[[noreturn]] inline void throw_at(const std::string& path, const nlohmann::json::exception& e) {
  constexpr int kAtPath = 501;  // other_error: a value missing or of the wrong type, at a path
  const bool nested = e.id == kAtPath && std::string_view(e.what()).starts_with("[json.exception.other_error.501] ");
  const std::string text = json_error_text(e);
  const char* join = !nested ? ": " : text.starts_with("[") ? "" : ".";  // "tx[3]: ...", "trials[3].lost: ..."
  throw nlohmann::json::other_error::create(kAtPath, path + join + text, nullptr);
}

/// A field list whose JSON names are the members' own, each written once:
/// `LR_JSON_FIELDS(port, file)` is `[](auto& value, auto&& fn) { fn("port", value.port); fn("file", value.file); }`.
/// A list that renames or nests a member spells that member out beside it.
#define LR_JSON_FIELD(member) fn(#member, value.member);
#define LR_JSON_FIELDS(...) \
  [](auto& value, auto&& fn) { NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(LR_JSON_FIELD, __VA_ARGS__)) }

template <class T>
inline constexpr bool kIsOptional = false;
template <class T>
inline constexpr bool kIsOptional<std::optional<T>> = true;

/// How a writer says an optional without a value: null, or by leaving its key out.
enum class Absent { kNull, kLeftOut };

/// Writes each field under its name.
inline auto writer(nlohmann::json& j, Absent absent = Absent::kNull) {
  return [&j, absent](const char* key, const auto& value) {
    if constexpr (kIsOptional<std::remove_cvref_t<decltype(value)>>) {
      if (value) j[key] = *value;
      else if (absent == Absent::kNull) j[key] = nullptr;
    } else {
      j[key] = value;
    }
  };
}

template <class T>
inline constexpr bool kIsVector = false;
template <class T>
inline constexpr bool kIsVector<std::vector<T>> = true;

/// `node` into `out`; an integer field takes only a whole number in its type's range (nlohmann
/// casts any number: a float beyond the type is undefined behaviour, an integer wraps).
/// A vector's items are checked each.
template <class T>
void get_checked(const nlohmann::json& node, T& out) {
  if constexpr (kIsVector<T>) {
    // Each item checked as its own field would be (a vector of counters is one of numbers).
    if (!node.is_array())
      throw nlohmann::json::type_error::create(302, std::string("type must be array, but is ") + node.type_name(),
                                               nullptr);
    T items(node.size());
    for (size_t i = 0; i < node.size(); ++i) {
      try {
        if constexpr (std::is_same_v<T, std::vector<bool>>) items[i] = node[i].get<bool>();
        else get_checked(node[i], items[i]);
      } catch (const nlohmann::json::exception& e) {
        throw_at("[" + std::to_string(i) + "]", e);
      }
    }
    out = std::move(items);
    return;
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (node.is_number()) {
      using Limits = std::numeric_limits<T>;
      bool fits = false;
      if (node.is_number_float()) {
        const double d = node.get<double>();
        // Below 2^digits (the type's max + 1, exact in a double) and at least its lowest.
        fits = d == std::trunc(d) && d >= static_cast<double>(Limits::lowest()) && d < std::ldexp(1.0, Limits::digits);
      } else if (node.is_number_unsigned()) {
        fits = node.get<uint64_t>() <= static_cast<uint64_t>(Limits::max());
      } else {
        const int64_t v = node.get<int64_t>();
        fits = v >= 0 ? static_cast<uint64_t>(v) <= static_cast<uint64_t>(Limits::max())
                      : Limits::is_signed && v >= static_cast<int64_t>(Limits::lowest());
      }
      if (!fits)
        throw nlohmann::json::type_error::create(302,
                                                 "number " + node.dump() + " is not a whole number from " +
                                                     std::to_string(Limits::lowest()) + " to " +
                                                     std::to_string(Limits::max()),
                                                 nullptr);
      out = node.is_number_float()      ? static_cast<T>(node.get<double>())
            : node.is_number_unsigned() ? static_cast<T>(node.get<uint64_t>())
                                        : static_cast<T>(node.get<int64_t>());
      return;
    }
  }
  node.get_to(out);
}

/// `j[key]` by get_checked when it is there and not null, else `fallback`: nlohmann's
/// `value(key, fallback)` for a number, without its unchecked cast. Errors name the key.
template <class T>
T value_checked(const nlohmann::json& j, const char* key, T fallback) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  try {
    get_checked(*it, fallback);
  } catch (const nlohmann::json::exception& e) {
    throw_at(key, e);
  }
  return fallback;
}

/// Reads each field present (and not null); an absent one keeps its default (an optional:
/// none). Throws nlohmann::json::exception on a field of the wrong type, or an integer field
/// given a number its type cannot hold, naming the field.
inline auto reader(const nlohmann::json& j) {
  return [&j](const char* key, auto& value) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return;
    try {
      if constexpr (kIsOptional<std::remove_cvref_t<decltype(value)>>) get_checked(*it, value.emplace());
      else get_checked(*it, value);
    } catch (const nlohmann::json::exception& e) {
      throw_at(key, e);
    }
  };
}

/// `value` as an object written by its field list (`fields(value, fn)`).
template <class T, class Fields>
nlohmann::json write_fields(const T& value, Fields&& fields, Absent absent = Absent::kNull) {
  nlohmann::json j = nlohmann::json::object();
  fields(value, writer(j, absent));
  return j;
}

/// A T read by its field list; a field absent keeps its default.
template <class T, class Fields>
T read_fields(const nlohmann::json& j, Fields&& fields) {
  T value;
  fields(value, reader(j));
  return value;
}

/// The two codecs of a type its field list says all of: `nlohmann::json to_json(const Type&)`
/// and `Type read_fn(const nlohmann::json&)`.
#define LR_JSON_CODEC(Type, read_fn, fields)                                                   \
  nlohmann::json to_json(const Type& value) { return ::lr::api::write_fields(value, fields); } \
  Type read_fn(const nlohmann::json& j) { return ::lr::api::read_fields<Type>(j, fields); }

/// nlohmann's own pair (`to_json(json&, const Type&)`, `from_json(const json&, Type&)`), for
/// `json(value)` and `j.get<Type>()`, by the members named: NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT
/// with the reader's checks (its `value(key, default)` casts any number). Not an object: refused.
#define LR_JSON_ADL(Type, ...)                                                                                   \
  inline void to_json(nlohmann::json& j, const Type& object) {                                                   \
    j = ::lr::api::write_fields(object, LR_JSON_FIELDS(__VA_ARGS__));                                            \
  }                                                                                                              \
  inline void from_json(const nlohmann::json& j, Type& object) {                                                 \
    if (!j.is_object())                                                                                          \
      throw nlohmann::json::type_error::create(302, std::string("type must be object, but is ") + j.type_name(), \
                                               nullptr);                                                         \
    object = ::lr::api::read_fields<Type>(j, LR_JSON_FIELDS(__VA_ARGS__));                                       \
  }

/// Each item by its own to_json, as an array.
template <class T>
nlohmann::json json_array(const std::vector<T>& items) {
  nlohmann::json out = nlohmann::json::array();
  for (const T& item : items) out.push_back(to_json(item));
  return out;
}

/// Each item written by its field list, as an array.
template <class T, class Fields>
nlohmann::json write_items(const std::vector<T>& items, Fields&& fields) {
  nlohmann::json out = nlohmann::json::array();
  for (const T& item : items) out.push_back(write_fields(item, fields));
  return out;
}

/// Each item of the array `key` of `j` read by `read(item)` into `out`; errors name the
/// item ("trials[3].lost: ..."). None when there is no such array.
template <class T, class ReadFn>
void read_items(const nlohmann::json& j, const char* key, std::vector<T>& out, ReadFn&& read);

/// The object `key` of `j` read by `read(object)` into `out` when it is there and not null;
/// errors name it ("mac_control.pfc[1].xoff: ...").
template <class T, class ReadFn>
void read_object(const nlohmann::json& j, const char* key, std::optional<T>& out, ReadFn&& read) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  try {
    out = read(*it);
  } catch (const nlohmann::json::exception& e) {
    throw_at(key, e);
  }
}

/// Each item of the array `key` read by its field list (errors name the item).
template <class T, class Fields>
void read_field_items(const nlohmann::json& j, const char* key, std::vector<T>& out, Fields&& fields) {
  read_items(j, key, out, [&](const nlohmann::json& item) { return read_fields<T>(item, fields); });
}

template <class T, class ReadFn>
void read_items(const nlohmann::json& j, const char* key, std::vector<T>& out, ReadFn&& read) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return;
  for (size_t i = 0; i < it->size(); ++i) {
    try {
      out.push_back(read((*it)[i]));
    } catch (const nlohmann::json::exception& e) {
      throw_at(std::string(key) + "[" + std::to_string(i) + "]", e);
    }
  }
}

/// The walkers of a parts list (fn(name, part, read_fn[, empty])): a struct's arrays and
/// objects of types with codecs of their own, each with the reader that reads it back.
/// An empty array or an absent object is left out, unless `empty` is Absent::kNull (an
/// array always written, [] when empty).
inline auto part_writer(nlohmann::json& j) {
  return [&j](const char* key, const auto& part, const auto& /*read_fn*/, Absent empty = Absent::kLeftOut) {
    if constexpr (kIsOptional<std::remove_cvref_t<decltype(part)>>) {
      if (part) j[key] = to_json(*part);
    } else if (!part.empty() || empty == Absent::kNull) {
      j[key] = json_array(part);
    }
  };
}

inline auto part_reader(const nlohmann::json& j) {
  return [&j](const char* key, auto& part, const auto& read_fn, Absent /*empty*/ = Absent::kLeftOut) {
    if constexpr (kIsOptional<std::remove_cvref_t<decltype(part)>>) read_object(j, key, part, read_fn);
    else read_items(j, key, part, read_fn);
  };
}

/// `value` as an object written by its field list and its parts list.
template <class T, class Fields, class Parts>
nlohmann::json write_with_parts(const T& value, Fields&& fields, Parts&& parts) {
  nlohmann::json j = write_fields(value, fields);
  parts(value, part_writer(j));
  return j;
}

/// A T read by its field list and its parts list.
template <class T, class Fields, class Parts>
T read_with_parts(const nlohmann::json& j, Fields&& fields, Parts&& parts) {
  T value = read_fields<T>(j, fields);
  parts(value, part_reader(j));
  return value;
}

}  // namespace lr::api
