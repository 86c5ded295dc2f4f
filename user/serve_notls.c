// SPDX-License-Identifier: GPL-2.0
/*
 * The static collector links Debian's libmicrohttpd.a, which is built with
 * HTTPS support and so refers to GnuTLS; Debian ships no static
 * libunistring / p11-kit that a static GnuTLS needs.  faultline serve never
 * asks for TLS (no MHD_USE_TLS), so in the static build these stand in for
 * the GnuTLS entry points the library refers to: gnutls_global_init (run by
 * libmicrohttpd's constructor) succeeds, everything else fails with
 * GNUTLS_E_INTERNAL_ERROR (-59) and is never reached.  Put TLS in front
 * (a reverse proxy) where it is wanted.  Compiled only with FL_MHD_NOTLS
 * (user/Makefile, static builds); dynamic builds use the real GnuTLS.
 */
#ifdef FL_MHD_NOTLS
#include <stddef.h>

int gnutls_global_init(void);
void gnutls_global_deinit(void);
int gnutls_global_init(void) { return 0; }
void gnutls_global_deinit(void) { }
void *(*gnutls_malloc)(size_t);
const char *gnutls_strerror(int e);
const char *gnutls_strerror(int e) { (void)e; return "TLS not built into faultline"; }

#define FL_NOTLS(name) int name(void); int name(void) { return -59; }
FL_NOTLS(gnutls_alpn_set_protocols)
FL_NOTLS(gnutls_bye)
FL_NOTLS(gnutls_certificate_allocate_credentials)
FL_NOTLS(gnutls_certificate_free_credentials)
FL_NOTLS(gnutls_certificate_server_set_request)
FL_NOTLS(gnutls_certificate_set_dh_params)
FL_NOTLS(gnutls_certificate_set_retrieve_function2)
FL_NOTLS(gnutls_certificate_set_retrieve_function3)
FL_NOTLS(gnutls_certificate_set_x509_key_mem)
FL_NOTLS(gnutls_certificate_set_x509_key_mem2)
FL_NOTLS(gnutls_certificate_set_x509_trust_mem)
FL_NOTLS(gnutls_cipher_get)
FL_NOTLS(gnutls_credentials_set)
FL_NOTLS(gnutls_deinit)
FL_NOTLS(gnutls_dh_params_deinit)
FL_NOTLS(gnutls_dh_params_import_pkcs3)
FL_NOTLS(gnutls_dh_params_init)
FL_NOTLS(gnutls_handshake)
FL_NOTLS(gnutls_init)
FL_NOTLS(gnutls_priority_deinit)
FL_NOTLS(gnutls_priority_init)
FL_NOTLS(gnutls_priority_set)
FL_NOTLS(gnutls_protocol_get_version)
FL_NOTLS(gnutls_psk_allocate_server_credentials)
FL_NOTLS(gnutls_psk_free_server_credentials)
FL_NOTLS(gnutls_psk_set_server_credentials_function)
FL_NOTLS(gnutls_record_check_pending)
FL_NOTLS(gnutls_record_get_direction)
FL_NOTLS(gnutls_record_recv)
FL_NOTLS(gnutls_record_send)
FL_NOTLS(gnutls_session_get_ptr)
FL_NOTLS(gnutls_session_set_ptr)
FL_NOTLS(gnutls_transport_set_int2)
#endif
