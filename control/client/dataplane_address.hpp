#pragma once
// Where a front end finds its data plane: a Unix socket on this host (--socket), or a data
// plane on another host serving TCP (--engine HOST:PORT, `linerate-dataplane --listen`),
// reached over mutual TLS with the controller's own certificate (--engine-ca,
// --engine-cert, --engine-key; distinct from `otg serve --tls`, which is the OTG server's).

#include <string>

#include "lib/tls/mutual_tls.hpp"

namespace lr::ctl {

struct DataplaneAddress {
  std::string socket;       ///< the Unix socket: used when `engine` is empty
  std::string engine;       ///< "HOST:PORT" ("[::1]:7300" for IPv6)
  tls::MutualTlsFiles tls;  ///< none: plain TCP, which only a loopback `--insecure` data plane serves
  bool named = false;       ///< the user named it: a front end must not start a data plane of its own instead
  /// A run over several data planes: each ends its run by itself once this controller has
  /// sent it nothing for this long (traffic.start's lease), so none runs unattended.
  int64_t lease_ms = 10000;

  /// "/run/linerate/dataplane.sock" or "10.0.0.2:7300": for messages.
  const std::string& text() const noexcept { return engine.empty() ? socket : engine; }
};

/// A Unix socket, as given (a data plane this process started, a test's).
DataplaneAddress unix_socket_address(const std::string& path);

/// The data plane the options name: --engine, else --socket, else $LINERATE_ENGINE, else
/// $LINERATE_SOCKET, else /run/linerate/dataplane.sock; each TLS file from its option,
/// else $LINERATE_ENGINE_CA / _CERT / _KEY.
DataplaneAddress dataplane_address(const std::string& socket_option, const std::string& engine_option,
                                   const tls::MutualTlsFiles& tls_options);

/// The data plane serving TCP at `endpoint` (HOST:PORT), reached with `options`' TLS files
/// and lease: one of several a controller names by location.
DataplaneAddress engine_address(const DataplaneAddress& options, const std::string& endpoint);

/// "HOST" and "PORT" of an engine address; false where it is not HOST:PORT.
bool split_engine_address(const std::string& address, std::string& host, std::string& port);

}  // namespace lr::ctl
