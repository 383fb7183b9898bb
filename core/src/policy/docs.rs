//! Documentation links: a page per name, or per prefix for families of names.

/// Documentation pages of directives by name; other names are looked up by prefix in
/// [`doc_link`].
pub const DOC_LINKS: &[(&str, &str)] = &[
    (
        "listen deferred",
        "https://nginx.org/en/docs/http/ngx_http_core_module.html#listen",
    ),
    (
        "add_header X-Frame-Options, X-Content-Type-Options",
        "https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/X-Frame-Options",
    ),
    (
        "add_header Referrer-Policy",
        "https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Referrer-Policy",
    ),
    (
        "worker_processes",
        "https://nginx.org/en/docs/ngx_core_module.html#worker_processes",
    ),
    (
        "worker_rlimit_nofile",
        "https://nginx.org/en/docs/ngx_core_module.html#worker_rlimit_nofile",
    ),
    (
        "worker_cpu_affinity",
        "https://nginx.org/en/docs/ngx_core_module.html#worker_cpu_affinity",
    ),
    (
        "worker_connections",
        "https://nginx.org/en/docs/ngx_core_module.html#worker_connections",
    ),
    (
        "multi_accept",
        "https://nginx.org/en/docs/ngx_core_module.html#multi_accept",
    ),
    (
        "pcre_jit",
        "https://nginx.org/en/docs/ngx_core_module.html#pcre_jit",
    ),
    ("use", "https://nginx.org/en/docs/ngx_core_module.html#use"),
    (
        "accept_mutex",
        "https://nginx.org/en/docs/ngx_core_module.html#accept_mutex",
    ),
    (
        "user",
        "https://nginx.org/en/docs/ngx_core_module.html#user",
    ),
    ("pid", "https://nginx.org/en/docs/ngx_core_module.html#pid"),
    (
        "error_log",
        "https://nginx.org/en/docs/ngx_core_module.html#error_log",
    ),
    (
        "include",
        "https://nginx.org/en/docs/ngx_core_module.html#include",
    ),
    (
        "load_module",
        "https://nginx.org/en/docs/ngx_core_module.html#load_module",
    ),
    (
        "gzip",
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip",
    ),
    (
        "gzip_comp_level",
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip_comp_level",
    ),
    (
        "gzip_min_length",
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip_min_length",
    ),
    (
        "gzip_types",
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip_types",
    ),
    (
        "gzip_proxied",
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip_proxied",
    ),
    (
        "gzip_vary",
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip_vary",
    ),
    (
        "gzip_static",
        "https://nginx.org/en/docs/http/ngx_http_gzip_static_module.html#gzip_static",
    ),
    ("brotli", "https://github.com/google/ngx_brotli#brotli"),
    (
        "brotli_comp_level",
        "https://github.com/google/ngx_brotli#brotli_comp_level",
    ),
    (
        "brotli_types",
        "https://github.com/google/ngx_brotli#brotli_types",
    ),
    (
        "brotli_static",
        "https://github.com/google/ngx_brotli#brotli_static",
    ),
    (
        "access_log",
        "https://nginx.org/en/docs/http/ngx_http_log_module.html#access_log",
    ),
    (
        "set_real_ip_from",
        "https://nginx.org/en/docs/http/ngx_http_realip_module.html#set_real_ip_from",
    ),
    (
        "real_ip_header",
        "https://nginx.org/en/docs/http/ngx_http_realip_module.html#real_ip_header",
    ),
    (
        "real_ip_recursive",
        "https://nginx.org/en/docs/http/ngx_http_realip_module.html#real_ip_recursive",
    ),
    (
        "add_header",
        "https://nginx.org/en/docs/http/ngx_http_headers_module.html#add_header",
    ),
    (
        "expires",
        "https://nginx.org/en/docs/http/ngx_http_headers_module.html#expires",
    ),
    (
        "server",
        "https://nginx.org/en/docs/http/ngx_http_upstream_module.html#server",
    ),
    (
        "keepalive",
        "https://nginx.org/en/docs/http/ngx_http_upstream_module.html#keepalive",
    ),
    (
        "http3",
        "https://nginx.org/en/docs/http/ngx_http_v3_module.html#http3",
    ),
    (
        "http2",
        "https://nginx.org/en/docs/http/ngx_http_v2_module.html#http2",
    ),
];

/// Documentation page for a directive, sysctl or systemd setting.
pub fn doc_link(name: &str) -> &'static str {
    doc_in(super::defaults::known_doc(name), name)
}

/// Documentation pages of names not in [`DOC_LINKS`], by prefix.
const PREFIXED: &[(&str, &str)] = &[
    (
        "proxy_",
        "https://nginx.org/en/docs/http/ngx_http_proxy_module.html#",
    ),
    (
        "ssl_",
        "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#",
    ),
    ("net.", "https://docs.kernel.org/networking/ip-sysctl.html"),
    ("fs.", "https://docs.kernel.org/admin-guide/sysctl/fs.html"),
    (
        "Limit",
        "https://www.freedesktop.org/software/systemd/man/latest/systemd.exec.html#LimitCPU=",
    ),
];

pub(super) fn doc_in(known: Option<&'static str>, name: &str) -> &'static str {
    if let Some(url) = known {
        return url;
    }
    if let Some((_, url)) = PREFIXED.iter().find(|(p, _)| name.starts_with(p)) {
        return url;
    }
    "https://nginx.org/en/docs/http/ngx_http_core_module.html"
}
