//! The distributions' layouts: accounts, pid files, module directories, document roots.

use crate::inputs::{Layout, PhpVersion};

impl Layout {
    /// The account workers run as.
    pub const fn user(self) -> &'static str {
        match self {
            Self::Debian => "www-data",
            Self::Rhel | Self::NginxOrg | Self::Docker => "nginx",
        }
    }
    /// The master's pid file.
    pub const fn pid(self) -> &'static str {
        match self {
            Self::Debian | Self::Rhel => "/run/nginx.pid",
            Self::NginxOrg | Self::Docker => "/var/run/nginx.pid",
        }
    }
    /// Where the package's dynamic modules are enabled, if it has such a directory.
    pub const fn modules_include(self) -> Option<&'static str> {
        match self {
            Self::Debian => Some("/etc/nginx/modules-enabled/*.conf"),
            Self::Rhel => Some("/usr/share/nginx/modules/*.conf"),
            Self::NginxOrg | Self::Docker => None,
        }
    }
    /// The DNS server nginx asks when the host's is not known: Docker's embedded DNS in a
    /// container, else systemd-resolved's local stub (Ubuntu's and many cloud images').
    pub const fn resolver(self) -> &'static str {
        match self {
            Self::Docker => "127.0.0.11",
            Self::Debian | Self::Rhel | Self::NginxOrg => "127.0.0.53",
        }
    }
    /// Where the package keeps its site files besides `conf.d/`, as the stock nginx.conf
    /// includes it (relative to the configuration's directory, like `conf.d/*.conf`, so a
    /// generated tree checks as a whole): Debian's `include /etc/nginx/sites-enabled/*;`.
    /// The other layouts' stock files include only `mime.types`, the modules and `conf.d/`
    /// (RHEL also `default.d/*.conf` inside its own default server, which the generated
    /// file replaces).
    pub const fn sites_include(self) -> Option<&'static str> {
        match self {
            Self::Debian => Some("sites-enabled/*"),
            Self::Rhel | Self::NginxOrg | Self::Docker => None,
        }
    }
    /// The directories the package's sites live in (what the CLI scans for an existing
    /// `default_server`).
    pub const fn site_dirs(self) -> &'static [&'static str] {
        match self {
            Self::Debian => &["/etc/nginx/sites-enabled", "/etc/nginx/conf.d"],
            Self::Rhel | Self::NginxOrg | Self::Docker => &["/etc/nginx/conf.d"],
        }
    }
    /// Whether the brotli modules are packaged for this layout's current releases (Debian
    /// 12+ and Ubuntu 24.04+: libnginx-mod-http-brotli; nginx.org: nginx-module-brotli;
    /// not in RHEL nor in the official image). A release's row is more precise.
    pub const fn packages_brotli(self) -> bool {
        matches!(self, Self::Debian | Self::NginxOrg)
    }
    /// A directory the package creates for nginx's own data, where nginx makes the
    /// micro-cache's directory (it creates only the last component).
    pub const fn cache_parent(self) -> &'static str {
        match self {
            Self::Debian | Self::Rhel => "/var/lib/nginx",
            Self::NginxOrg | Self::Docker => "/var/cache/nginx",
        }
    }
    /// PHP-FPM's default pool file, which the generated pool replaces: Debian's
    /// `php8.2-fpm` (also under nginx.org's and the image's layouts), RHEL's `php-fpm`.
    pub fn php_pool(self, php: PhpVersion) -> String {
        match self {
            Self::Rhel => "/etc/php-fpm.d/www.conf".into(),
            Self::Debian | Self::NginxOrg | Self::Docker => {
                ["/etc/php/", php.as_str(), "/fpm/pool.d/www.conf"].concat()
            }
        }
    }
    /// PHP-FPM's main configuration file, whose `include` reads the pool directory:
    /// Debian's `/etc/php/8.2/fpm/php-fpm.conf`, RHEL's `/etc/php-fpm.conf`.
    pub fn php_fpm_conf(self, php: PhpVersion) -> String {
        match self {
            Self::Rhel => "/etc/php-fpm.conf".into(),
            Self::Debian | Self::NginxOrg | Self::Docker => {
                ["/etc/php/", php.as_str(), "/fpm/php-fpm.conf"].concat()
            }
        }
    }
    /// The socket of PHP-FPM's default pool, where the packages' tools expect it.
    pub fn php_socket(self, php: PhpVersion) -> String {
        match self {
            Self::Rhel => "/run/php-fpm/www.sock".into(),
            Self::Debian | Self::NginxOrg | Self::Docker => {
                ["/run/php/php", php.as_str(), "-fpm.sock"].concat()
            }
        }
    }
    /// PHP-FPM's service (and package) name: Debian's `php8.2-fpm`, RHEL's `php-fpm`.
    pub fn php_fpm(self, php: PhpVersion) -> String {
        match self {
            Self::Rhel => "php-fpm".into(),
            Self::Debian | Self::NginxOrg | Self::Docker => ["php", php.as_str(), "-fpm"].concat(),
        }
    }
    /// PHP-FPM's program, whose `-t` checks its configuration: Debian's `php-fpm8.2`
    /// (in `/usr/sbin`; the service is `php8.2-fpm`), RHEL's `php-fpm`.
    pub fn php_fpm_program(self, php: PhpVersion) -> String {
        match self {
            Self::Rhel => "php-fpm".into(),
            Self::Debian | Self::NginxOrg | Self::Docker => ["php-fpm", php.as_str()].concat(),
        }
    }
    /// The package's usual document root.
    pub const fn default_root(self) -> &'static str {
        match self {
            Self::Debian => "/var/www/html",
            Self::Rhel | Self::NginxOrg | Self::Docker => "/usr/share/nginx/html",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_has_its_paths() {
        for layout in [
            Layout::Debian,
            Layout::Rhel,
            Layout::NginxOrg,
            Layout::Docker,
        ] {
            assert!(layout.pid().starts_with('/') && layout.default_root().starts_with('/'));
            assert!(!layout.user().is_empty());
        }
        assert_eq!(
            Layout::Debian.modules_include(),
            Some("/etc/nginx/modules-enabled/*.conf")
        );
        assert_eq!(Layout::Docker.modules_include(), None);
        assert_eq!(Layout::Debian.sites_include(), Some("sites-enabled/*"));
        assert_eq!(Layout::Rhel.sites_include(), None);
        let php = PhpVersion::V82;
        assert_eq!(
            Layout::Debian.php_pool(php),
            "/etc/php/8.2/fpm/pool.d/www.conf"
        );
        assert_eq!(Layout::Debian.php_socket(php), "/run/php/php8.2-fpm.sock");
        assert_eq!(Layout::Rhel.php_pool(php), "/etc/php-fpm.d/www.conf");
        assert_eq!(Layout::Rhel.php_socket(php), "/run/php-fpm/www.sock");
        assert_eq!(Layout::Debian.php_fpm(php), "php8.2-fpm");
        assert_eq!(Layout::Debian.php_fpm_program(php), "php-fpm8.2");
        assert_eq!(Layout::Rhel.php_fpm_program(php), "php-fpm");
        assert_eq!(
            Layout::Debian.php_fpm_conf(php),
            "/etc/php/8.2/fpm/php-fpm.conf"
        );
        assert_eq!(Layout::Rhel.php_fpm_conf(php), "/etc/php-fpm.conf");
    }
}
