#pragma once
// The TLS side of linerate's HTTP servers (Boost.Asio over OpenSSL): a server context
// from a certificate and key in PEM files, or, asked for none, with a self-signed
// certificate made at start (an ECDSA P-256 key that lives as long as the process), as
// ixia-c serves its OTG API, so a snappi script with verify=False connects unchanged.
// With a client CA (`otg serve --client-ca FILE`), mutual TLS: a client without a
// certificate, or with one that CA did not sign, fails the handshake.

#include <boost/asio/ssl/context.hpp>

#include <optional>
#include <string>

namespace lr::ctl {

struct TlsContext {
  std::optional<boost::asio::ssl::context> context;  ///< none: `error` says why
  std::string certificate;  ///< what serves: "FILE" or "self-signed (SHA-256 AB:CD:...)"
  std::string error;
  bool bad_file = false;  ///< `error` is about a file given (a usage error), not OpenSSL's own
};

/// A TLS 1.2+ server context: `cert_file` / `key_file` (PEM) when given, else self-signed;
/// with `client_ca_file` (PEM, one or more CA certificates) clients must show a
/// certificate one of them signed, and the handshake tells them which CAs those are.
TlsContext make_tls_context(const std::string& cert_file, const std::string& key_file,
                            const std::string& client_ca_file = "");

}  // namespace lr::ctl
