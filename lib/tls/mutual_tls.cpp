#include "lib/tls/mutual_tls.hpp"

#include <fmt/format.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace lr::tls {

namespace ssl = boost::asio::ssl;

namespace {

// Why `path` (named by `option`) cannot be read, or "".
std::string unreadable(const std::string& option, const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "r");
  if (file == nullptr) return fmt::format("{} {}: cannot read it: {}", option, path, std::strerror(errno));
  std::fclose(file);
  return "";
}

}  // namespace

Result<ssl::context> make_mutual_tls_context(const MutualTlsFiles& files, TlsSide side) {
  const std::string& prefix = files.option_prefix;
  if (!files.all()) {
    std::string missing;
    for (const auto& [name, value] : {std::pair{"ca", &files.ca}, {"cert", &files.cert}, {"key", &files.key}})
      if (value->empty()) missing += fmt::format("{}{}{}", missing.empty() ? "" : ", ", prefix, name);
    return make_error(Errc::kInvalid,
                      fmt::format("mutual TLS needs {0}ca, {0}cert and {0}key; {1} missing", prefix, missing));
  }
  for (const auto& [name, path] : {std::pair{"ca", &files.ca}, {"cert", &files.cert}, {"key", &files.key}})
    if (std::string why = unreadable(prefix + name, *path); !why.empty()) return make_error(Errc::kInvalid, why);
  ssl::context context(side == TlsSide::kServer ? ssl::context::tls_server : ssl::context::tls_client);
  context.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                      ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  boost::system::error_code ec;
  context.load_verify_file(files.ca, ec);
  if (ec)
    return make_error(Errc::kInvalid,
                      fmt::format("{}ca {}: not a PEM CA certificate: {}", prefix, files.ca, ec.message()));
  context.use_certificate_chain_file(files.cert, ec);
  if (ec) return make_error(Errc::kInvalid, fmt::format("{}cert {}: {}", prefix, files.cert, ec.message()));
  // OpenSSL checks the key against the certificate here ("key values mismatch").
  context.use_private_key_file(files.key, ssl::context::pem, ec);
  if (ec) return make_error(Errc::kInvalid, fmt::format("{}key {}: {}", prefix, files.key, ec.message()));
  if (side == TlsSide::kServer) {
    // The CertificateRequest names the CA, so a client holding several certificates shows ours.
    if (STACK_OF(X509_NAME)* names = SSL_load_client_CA_file(files.ca.c_str()); names != nullptr)
      SSL_CTX_set_client_CA_list(context.native_handle(), names);  // the context owns them now
    context.set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
  } else {
    context.set_verify_mode(ssl::verify_peer);
  }
  return context;
}

std::string peer_common_name(const ::SSL* ssl) {
  X509* cert = SSL_get1_peer_certificate(ssl);
  if (cert == nullptr) return "";
  char name[256] = "";
  X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, name, sizeof name);
  X509_free(cert);
  return name;
}

}  // namespace lr::tls
