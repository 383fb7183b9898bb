//! The distributions' layouts: accounts, pid files, module directories, document roots.

use crate::inputs::Layout;

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
    }
}
