#pragma once
// The TLS side of linerate's HTTP servers (Boost.Asio over OpenSSL): a server context
// from a certificate and key in PEM files, or, asked for none, with a self-signed
// certificate made at start (an ECDSA P-256 key that lives as long as the process), as
// ixia-c serves its OTG API, so a snappi script with verify=False connects unchanged.

#include <boost/asio/ssl/context.hpp>

#include <optional>
#include <string>

namespace lr::ctl {

struct TlsContext {
  std::optional<boost::asio::ssl::context> context;  ///< none: `error` says why
  std::string certificate;  ///< what serves: "FILE" or "self-signed (SHA-256 AB:CD:...)"
  std::string error;
};

/// A TLS 1.2+ server context: `cert_file` / `key_file` (PEM) when given, else self-signed.
TlsContext make_tls_context(const std::string& cert_file, const std::string& key_file);

}  // namespace lr::ctl
