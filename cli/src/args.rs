//! Command-line flags. Values stay text here: core validates them (one parser for every
//! front end), so `--ram 8Q` and `{"ram": "8Q"}` get the same message.
#![allow(
    clippy::doc_markdown,
    reason = "doc comments here are the --help text, shown verbatim"
)]

use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand};
use clap_complete::Shell;
use nginx_gen_core::{Format, Lang, Layout, RawInputs, TlsProfile, Workload, inputs::Scalar};

const EXAMPLES: &str = "\
Examples:
  nginx-gen                                   tune for this machine (detected)
  nginx-gen --vcpu 4 --ram 8G                 the guide's VPS, static site
  nginx-gen --vcpu 2 --ram 4G --workload proxy --upstream 127.0.0.1:3000 --tls \\
            --server-name example.com --out /tmp/nginx-gen
  nginx-gen --vcpu 8 --ram 16G --format explain
  nginx-gen explain worker_connections --vcpu 4 --ram 8G
  nginx-gen --input site.json --format json

Exit codes: 0 success, 2 invalid input or usage, 1 anything else.";

/// Turns a machine's size and workload into a tuned, validated nginx setup:
/// nginx.conf, a site file, a sysctl.d file and a systemd drop-in, each value with its reason.
#[derive(Debug, Parser)]
#[command(name = "nginx-gen", version, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub generate: Generate,
}

#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant, reason = "parsed once per run")]
pub enum Command {
    /// Explain one directive, sysctl or limit: its value for these inputs and why.
    Explain {
        /// Directive, sysctl key or systemd setting, e.g. worker_connections.
        name: String,
        #[command(flatten)]
        generate: Generate,
    },
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: Shell,
    },
    /// Print the man page (roff).
    Man,
}

/// The inputs and where the output goes.
#[derive(Debug, Args)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "one field per command-line switch"
)]
pub struct Generate {
    /// vCPUs nginx may use, 1–1024 [default: detected]
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        help_heading = "Machine"
    )]
    pub vcpu: Option<String>,
    /// Memory, e.g. 8G, 512MiB, 1.5G (binary units), 256M–16T [default: detected]
    #[arg(
        long,
        value_name = "SIZE",
        allow_hyphen_values = true,
        help_heading = "Machine"
    )]
    pub ram: Option<String>,
    /// Do not probe the host; use the built-in defaults (4 vCPU, 8G) for missing values
    #[arg(long, help_heading = "Machine")]
    pub no_detect: bool,

    /// What the server mostly does [default: static]
    #[arg(long, value_name = "KIND", value_parser = PossibleValuesParser::new(Workload::NAMES), help_heading = "Workload")]
    pub workload: Option<String>,
    /// Expected peak concurrent client connections [default: derived from the machine]
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        help_heading = "Workload"
    )]
    pub clients: Option<String>,
    /// Number of static files served [default: 1000]
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        help_heading = "Workload"
    )]
    pub static_files: Option<String>,
    /// Typical response size [default: 32K]
    #[arg(
        long,
        value_name = "SIZE",
        allow_hyphen_values = true,
        help_heading = "Workload"
    )]
    pub response_size: Option<String>,
    /// Application server, host:port or unix:/path (repeatable) [default: 127.0.0.1:8080]
    #[arg(long = "upstream", value_name = "ADDR", help_heading = "Workload")]
    pub upstreams: Vec<String>,
    /// Clients arrive through a load balancer or CDN
    #[arg(long, help_heading = "Workload")]
    pub behind_lb: bool,
    /// Load balancer address or network trusted for X-Forwarded-For (repeatable) [default: private networks]
    #[arg(long = "trusted-proxy", value_name = "CIDR", help_heading = "Workload")]
    pub trusted_proxies: Vec<String>,

    /// Serve HTTPS and redirect HTTP to it
    #[arg(long, help_heading = "TLS and HTTP")]
    pub tls: bool,
    /// Certificate chain [default: /etc/letsencrypt/live/<name>/fullchain.pem]
    #[arg(long, value_name = "PATH", help_heading = "TLS and HTTP")]
    pub tls_cert: Option<String>,
    /// Private key [default: /etc/letsencrypt/live/<name>/privkey.pem]
    #[arg(long, value_name = "PATH", help_heading = "TLS and HTTP")]
    pub tls_key: Option<String>,
    /// Mozilla TLS profile (guideline 6.0) [default: intermediate]
    #[arg(long, value_name = "PROFILE", value_parser = PossibleValuesParser::new(TlsProfile::NAMES), help_heading = "TLS and HTTP")]
    pub tls_profile: Option<String>,
    /// HTTPS port [default: 443]
    #[arg(
        long,
        value_name = "PORT",
        allow_hyphen_values = true,
        help_heading = "TLS and HTTP"
    )]
    pub tls_port: Option<String>,
    /// Staple OCSP responses (Let's Encrypt ended OCSP in 2025)
    #[arg(long, help_heading = "TLS and HTTP")]
    pub ocsp_stapling: bool,
    /// Serve HTTP/3 (nginx 1.25 or later, with --tls)
    #[arg(long, help_heading = "TLS and HTTP")]
    pub http3: bool,
    /// Host name of the site (repeatable) [default: example.com]
    #[arg(
        long = "server-name",
        value_name = "NAME",
        help_heading = "TLS and HTTP"
    )]
    pub server_names: Vec<String>,
    /// Plain-HTTP listen port or address:port [default: 80]
    #[arg(long, value_name = "ADDR", help_heading = "TLS and HTTP")]
    pub listen: Option<String>,
    /// Document root [default: the layout's, e.g. /var/www/html]
    #[arg(long, value_name = "PATH", help_heading = "TLS and HTTP")]
    pub root: Option<String>,

    /// nginx version the files are for [default: 1.30, or detected]
    #[arg(long, value_name = "VERSION", help_heading = "Software")]
    pub nginx_version: Option<String>,
    /// OpenSSL version nginx uses [default: 3.0, or detected]
    #[arg(long, value_name = "VERSION", help_heading = "Software")]
    pub openssl_version: Option<String>,
    /// The brotli modules are installed
    #[arg(long, help_heading = "Software")]
    pub brotli: bool,
    /// Distribution layout [default: debian]
    #[arg(long, value_name = "LAYOUT", value_parser = PossibleValuesParser::new(Layout::NAMES), help_heading = "Software")]
    pub layout: Option<String>,

    /// Read inputs from a JSON file (or - for stdin); flags override its values
    #[arg(long, value_name = "FILE", help_heading = "Input and output")]
    pub input: Option<PathBuf>,
    /// What to print [default: all]
    #[arg(long, value_name = "FORMAT", value_parser = PossibleValuesParser::new(Format::NAMES), help_heading = "Input and output")]
    pub format: Option<String>,
    /// Write the files under DIR (DIR/etc/nginx/nginx.conf, …) instead of printing them
    #[arg(long, value_name = "DIR", help_heading = "Input and output")]
    pub out: Option<PathBuf>,
    /// Language of comments and reasons [default: en]
    #[arg(long, value_name = "LANG", value_parser = PossibleValuesParser::new(Lang::NAMES), help_heading = "Input and output")]
    pub lang: Option<String>,
}

fn flag(on: bool) -> Option<bool> {
    on.then_some(true)
}

fn list(values: &[String]) -> Option<Vec<String>> {
    (!values.is_empty()).then(|| values.to_vec())
}

impl Generate {
    /// The inputs given as flags (unset flags are `None`).
    pub fn raw(&self) -> RawInputs {
        RawInputs {
            vcpu: self.vcpu.clone().map(Scalar::Text),
            ram: self.ram.clone(),
            workload: self.workload.clone(),
            nginx_version: self.nginx_version.clone(),
            openssl_version: self.openssl_version.clone(),
            tls: flag(self.tls),
            tls_cert: self.tls_cert.clone(),
            tls_key: self.tls_key.clone(),
            tls_profile: self.tls_profile.clone(),
            tls_port: self.tls_port.clone().map(Scalar::Text),
            ocsp_stapling: flag(self.ocsp_stapling),
            http3: flag(self.http3),
            server_names: list(&self.server_names),
            root: self.root.clone(),
            listen: self.listen.clone(),
            upstreams: list(&self.upstreams),
            clients: self.clients.clone().map(Scalar::Text),
            static_files: self.static_files.clone().map(Scalar::Text),
            response_size: self.response_size.clone(),
            behind_lb: flag(self.behind_lb),
            trusted_proxies: list(&self.trusted_proxies),
            brotli: flag(self.brotli),
            layout: self.layout.clone(),
            lang: self.lang.clone(),
        }
    }

    /// The chosen output format.
    pub fn format(&self) -> Format {
        self.format
            .as_deref()
            .and_then(|f| f.parse().ok())
            .unwrap_or(Format::All)
    }
}

/// The flag that sets a JSON field, for error messages.
pub fn flag_of(field: &str) -> Option<&'static str> {
    Some(match field {
        "vcpu" => "--vcpu",
        "ram" => "--ram",
        "workload" => "--workload",
        "nginx_version" => "--nginx-version",
        "openssl_version" => "--openssl-version",
        "tls" => "--tls",
        "tls_cert" => "--tls-cert",
        "tls_key" => "--tls-key",
        "tls_profile" => "--tls-profile",
        "tls_port" => "--tls-port",
        "ocsp_stapling" => "--ocsp-stapling",
        "http3" => "--http3",
        "server_names" => "--server-name",
        "root" => "--root",
        "listen" => "--listen",
        "upstreams" => "--upstream",
        "clients" => "--clients",
        "static_files" => "--static-files",
        "response_size" => "--response-size",
        "behind_lb" => "--behind-lb",
        "trusted_proxies" => "--trusted-proxy",
        "brotli" => "--brotli",
        "layout" => "--layout",
        "lang" => "--lang",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        super::Cli::command().debug_assert();
    }
}
