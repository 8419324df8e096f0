#include "control/http/tls_context.hpp"

#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace lr::ctl {

namespace ssl = boost::asio::ssl;

namespace {

template <auto Free>
struct Freer {
  template <class T>
  void operator()(T* p) const noexcept {
    Free(p);
  }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, Freer<EVP_PKEY_free>>;
using CertPtr = std::unique_ptr<X509, Freer<X509_free>>;

std::string openssl_error() {
  char text[256] = "unknown error";
  if (const unsigned long e = ERR_get_error(); e != 0) ERR_error_string_n(e, text, sizeof text);
  return text;
}

// A certificate for "linerate" (localhost, 127.0.0.1, ::1), valid for a year from now,
// signed by its own key; the fingerprint is printed so a client can pin it.
std::string self_sign(ssl::context& context) {
  KeyPtr key(EVP_EC_gen("P-256"));
  CertPtr cert(X509_new());
  if (!key || !cert) return "";
  unsigned char serial[8];
  RAND_bytes(serial, sizeof serial);
  uint64_t number = 0;
  for (unsigned char b : serial) number = number << 8 | b;
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set_uint64(X509_get_serialNumber(cert.get()), number >> 1);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -60);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 365L * 24 * 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("linerate"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, cert.get(), cert.get(), nullptr, nullptr, 0);
  X509_EXTENSION* san = X509V3_EXT_conf_nid(nullptr, &v3, NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1");
  if (san == nullptr) return "";
  X509_add_ext(cert.get(), san, -1);
  X509_EXTENSION_free(san);
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) return "";
  if (SSL_CTX_use_certificate(context.native_handle(), cert.get()) != 1 ||
      SSL_CTX_use_PrivateKey(context.native_handle(), key.get()) != 1)
    return "";
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  X509_digest(cert.get(), EVP_sha256(), digest, &length);
  std::string fingerprint;
  for (unsigned i = 0; i < length; ++i) fingerprint += fmt::format("{}{:02X}", i == 0 ? "" : ":", digest[i]);
  return fingerprint;
}

// Mutual TLS: the client's certificate verified against the CAs of `ca_file`, whose
// names the server's CertificateRequest lists. Returns "" or why the file cannot serve.
std::string require_client_certificates(ssl::context& context, const std::string& ca_file) {
  std::FILE* readable = std::fopen(ca_file.c_str(), "r");
  if (readable == nullptr) return fmt::format("--client-ca {}: cannot read it: {}", ca_file, std::strerror(errno));
  std::fclose(readable);
  ERR_clear_error();
  STACK_OF(X509_NAME)* names = SSL_load_client_CA_file(ca_file.c_str());
  if (names == nullptr) return fmt::format("--client-ca {}: no PEM certificate in it", ca_file);
  SSL_CTX_set_client_CA_list(context.native_handle(), names);  // the context owns `names` now
  boost::system::error_code ec;
  context.load_verify_file(ca_file, ec);
  if (ec) return fmt::format("--client-ca {}: cannot use it as a CA: {}", ca_file, ec.message());
  context.set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
  return "";
}

// The server's own certificate: from the files, or self-signed. Sets `out`'s certificate or error.
void use_server_certificate(TlsContext& out, const std::string& cert_file, const std::string& key_file) {
  ssl::context& context = *out.context;
  if (cert_file.empty()) {
    const std::string fingerprint = self_sign(context);
    if (fingerprint.empty()) {
      out.error = "cannot make a self-signed certificate: " + openssl_error();
      return;
    }
    out.certificate = "self-signed, SHA-256 " + fingerprint;
    return;
  }
  out.certificate = cert_file;
  boost::system::error_code ec;
  context.use_certificate_chain_file(cert_file, ec);
  if (ec) {
    out.error = fmt::format("--tls: cannot use the certificate {}: {}", cert_file, ec.message());
  } else if (context.use_private_key_file(key_file, ssl::context::pem, ec); ec) {
    // OpenSSL checks the key against the certificate here ("key values mismatch").
    out.error = fmt::format("--tls: cannot use the key {}: {}", key_file, ec.message());
  }
  out.bad_file = !out.error.empty();
}

}  // namespace

TlsContext make_tls_context(const std::string& cert_file, const std::string& key_file,
                            const std::string& client_ca_file) {
  TlsContext out;
  out.context.emplace(ssl::context::tls_server);
  ssl::context& context = *out.context;
  context.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                      ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  use_server_certificate(out, cert_file, key_file);
  if (out.error.empty() && !client_ca_file.empty()) {
    out.error = require_client_certificates(context, client_ca_file);
    out.bad_file = !out.error.empty();
  }
  if (!out.error.empty()) out.context.reset();
  return out;
}

}  // namespace lr::ctl
