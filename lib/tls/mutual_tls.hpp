#pragma once
// The TLS of the link between a controller and a data plane serving TCP (`linerate-dataplane
// --listen`): mutual, both ends showing a certificate their lab's CA signed, TLS 1.2 or
// newer (Boost.Asio over OpenSSL). The data plane refuses a peer without one, or with one
// another CA signed, at the handshake; the controller checks the data plane's certificate
// names the host it dialled. A CA of your own is what makes the link trusted: no public CA
// is read.

#include <boost/asio/ssl/context.hpp>

#include <string>

#include "lib/common/result.hpp"

namespace lr::tls {

/// The three PEM files each end needs, and the options that named them (for messages:
/// "--tls-" on the data plane, "--engine-" on the controller).
struct MutualTlsFiles {
  std::string ca;    ///< the CA (one or more certificates) that signs the other end
  std::string cert;  ///< this end's certificate, with its chain
  std::string key;   ///< this end's private key
  std::string option_prefix = "--tls-";

  bool any() const noexcept { return !ca.empty() || !cert.empty() || !key.empty(); }
  bool all() const noexcept { return !ca.empty() && !cert.empty() && !key.empty(); }
};

enum class TlsSide : uint8_t { kServer, kClient };

/// A context for `side` from `files` (all three given). Errors (kInvalid): the option and
/// file that cannot serve and why ("--tls-key k.pem: key values mismatch"), or which of the
/// three is missing.
Result<boost::asio::ssl::context> make_mutual_tls_context(const MutualTlsFiles& files, TlsSide side);

/// The subject's common name of the certificate the peer of `ssl` showed ("" without one).
std::string peer_common_name(const ::SSL* ssl);

}  // namespace lr::tls
