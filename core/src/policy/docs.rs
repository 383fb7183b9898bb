//! Documentation links: a page per name, or per prefix for families of names.

/// Documentation pages that are not a module's page with the directive as anchor (see
/// [`NGINX_MODULES`]); other names are looked up by prefix in [`doc_link`].
pub const DOC_LINKS: &[(&str, &str)] = &[
    (
        "add_header X-Frame-Options, X-Content-Type-Options",
        "https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/X-Frame-Options",
    ),
    (
        "add_header Referrer-Policy",
        "https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Referrer-Policy",
    ),
];

/// Documentation page for a directive, sysctl or systemd setting.
pub fn doc_link(name: &str) -> &'static str {
    doc_in(super::defaults::known_doc(name), name)
}

/// nginx modules (and `ngx_brotli`) and the directives of theirs that nginx-gen writes: each
/// directive's link is its module's page with the directive as anchor
/// (`…/ngx_http_ssl_module.html#ssl_ciphers`), written once per module.
pub const NGINX_MODULES: &[(&str, &[&str])] = &[
    (
        "https://nginx.org/en/docs/ngx_core_module.html",
        &[
            "worker_processes",
            "worker_rlimit_nofile",
            "worker_cpu_affinity",
            "worker_connections",
            "multi_accept",
            "pcre_jit",
            "use",
            "accept_mutex",
            "user",
            "pid",
            "error_log",
            "include",
            "load_module",
        ],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html",
        &[
            "gzip",
            "gzip_comp_level",
            "gzip_min_length",
            "gzip_types",
            "gzip_proxied",
            "gzip_vary",
        ],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_gzip_static_module.html",
        &["gzip_static"],
    ),
    (
        "https://github.com/google/ngx_brotli",
        &[
            "brotli",
            "brotli_comp_level",
            "brotli_types",
            "brotli_static",
        ],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_realip_module.html",
        &["set_real_ip_from", "real_ip_header", "real_ip_recursive"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_headers_module.html",
        &["add_header", "expires"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_upstream_module.html",
        &[
            "server",
            "keepalive",
            "zone",
            "upstream keepalive_timeout",
            "upstream resolver",
        ],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_v3_module.html",
        &["http3"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_v2_module.html",
        &["http2", "http2_idle_timeout"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_core_module.html",
        &[
            "absolute_redirect",
            "aio",
            "client_body_buffer_size",
            "client_body_timeout",
            "client_header_buffer_size",
            "client_header_timeout",
            "client_max_body_size",
            "default_type",
            "keepalive_requests",
            "keepalive_timeout",
            "large_client_header_buffers",
            "listen",
            "open_file_cache",
            "open_file_cache_errors",
            "open_file_cache_min_uses",
            "open_file_cache_valid",
            "resolver",
            "root",
            "send_timeout",
            "sendfile",
            "server_name",
            "server_names_hash_bucket_size",
            "server_tokens",
            "tcp_nodelay",
            "tcp_nopush",
            "try_files",
            "types",
            "types_hash_max_size",
        ],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_limit_req_module.html",
        &["limit_req", "limit_req_status", "limit_req_zone"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_limit_conn_module.html",
        &["limit_conn", "limit_conn_status", "limit_conn_zone"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_map_module.html",
        &["map"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_log_module.html",
        &["access_log", "log_format"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_stub_status_module.html",
        &["stub_status"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_access_module.html",
        &["allow", "deny"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html",
        &["return", "set"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_charset_module.html",
        &["charset", "charset_types"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_index_module.html",
        &["index"],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_proxy_module.html",
        &[
            "proxy_buffer_size",
            "proxy_buffers",
            "proxy_busy_buffers_size",
            "proxy_cache",
            "proxy_cache_background_update",
            "proxy_cache_bypass",
            "proxy_cache_key",
            "proxy_cache_lock",
            "proxy_cache_path",
            "proxy_cache_use_stale",
            "proxy_cache_valid",
            "proxy_connect_timeout",
            "proxy_read_timeout",
            "proxy_http_version",
            "proxy_no_cache",
            "proxy_pass",
            "proxy_set_header",
        ],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_fastcgi_module.html",
        &[
            "fastcgi_buffer_size",
            "fastcgi_buffers",
            "fastcgi_busy_buffers_size",
            "fastcgi_cache",
            "fastcgi_cache_background_update",
            "fastcgi_cache_bypass",
            "fastcgi_cache_key",
            "fastcgi_cache_lock",
            "fastcgi_cache_path",
            "fastcgi_cache_use_stale",
            "fastcgi_cache_valid",
            "fastcgi_ignore_headers",
            "fastcgi_no_cache",
            "fastcgi_param",
            "fastcgi_pass",
            "fastcgi_split_path_info",
        ],
    ),
    (
        "https://nginx.org/en/docs/http/ngx_http_ssl_module.html",
        &[
            "ssl_buffer_size",
            "ssl_certificate",
            "ssl_certificate_key",
            "ssl_ciphers",
            "ssl_conf_command",
            "ssl_ecdh_curve",
            "ssl_prefer_server_ciphers",
            "ssl_protocols",
            "ssl_reject_handshake",
            "ssl_session_cache",
            "ssl_session_tickets",
            "ssl_session_timeout",
            "ssl_stapling",
            "ssl_stapling_verify",
            "ssl_trusted_certificate",
        ],
    ),
];

/// PHP-FPM's configuration page.
const PHP_FPM: &str = "https://www.php.net/manual/en/install.fpm.configuration.php";

/// Documentation pages of names in neither table, by prefix: kernel settings (the pages
/// have no anchor per setting) and systemd's resource limits (one entry for all).
const PREFIXED: &[(&str, &str)] = &[
    ("net.", "https://docs.kernel.org/networking/ip-sysctl.html"),
    ("fs.", "https://docs.kernel.org/admin-guide/sysctl/fs.html"),
    // The PHP-FPM pool's settings.
    ("pm", PHP_FPM),
    ("request_terminate_timeout", PHP_FPM),
    ("security.limit_extensions", PHP_FPM),
    ("php_admin_value", PHP_FPM),
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
    "https://nginx.org/en/docs/dirindex.html"
}
