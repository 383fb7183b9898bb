//! The distribution releases a user may run, as data: each with the nginx, OpenSSL and
//! PHP versions its packages carry, the layout of its package and whether the brotli
//! modules are packaged for it. The `release` input picks a row; the row sets the defaults
//! of the version and layout inputs (each still overridable; what the CLI detects wins).
//!
//! Versions are those of an updated system of each release; only the version gates
//! (`super::GATES`) depend on them, so a later patch release of the same branch gives the
//! same output. Sources are named beside each row.

use super::v;
use crate::inputs::{Layout, PhpVersion, Release, Target};

/// One release's packages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReleaseRow {
    /// The release.
    pub release: Release,
    /// Its name for people (`Debian 12 (bookworm)`).
    pub title: &'static str,
    /// The nginx of its package.
    pub nginx: Target,
    /// The OpenSSL nginx is linked with (`any` where it depends on the host's distribution).
    pub openssl: Target,
    /// Its package's layout.
    pub layout: Layout,
    /// The PHP-FPM its packages carry, where the paths name the version (Debian's and
    /// Ubuntu's `/run/php/php8.2-fpm.sock`); `None` where they do not (RHEL's `php-fpm`)
    /// or PHP does not come with the release (nginx.org's packages, the image).
    pub php: Option<PhpVersion>,
    /// Whether the brotli modules are packaged for it (they are never installed with
    /// nginx, so the `brotli` switch stays the user's or the detection's).
    pub brotli: bool,
}

const fn known(major: u16, minor: u16, patch: u16) -> Target {
    Target::Known(v(major, minor, patch))
}

/// The release the web page and the documentation widget start from, where nothing can be
/// detected: Ubuntu 24.04 LTS. Ubuntu is the Linux distribution most web servers run and
/// 24.04 is its current LTS, the default server image of the large cloud providers; its
/// nginx 1.24 and OpenSSL 3.0 are older than Debian 13's, so what is written for it also
/// loads on the newer releases (docs/architecture.md, Decisions).
pub const SUGGESTED: Release = Release::Ubuntu2404;

/// Every release but `any`, in the order of [`Release::NAMES`].
pub static RELEASES: &[ReleaseRow] = &[
    // Debian 12: `apt-cache policy nginx libssl3 libnginx-mod-http-brotli-filter` on a
    // bookworm host: nginx 1.22.1-9+deb12u11, libssl3 3.0.22-1~deb12u2 (security suite),
    // libnginx-mod-http-brotli-filter 1.0.0~rc-3 (main); php8.2-fpm 8.2.x (main).
    ReleaseRow {
        release: Release::Debian12,
        title: "Debian 12 (bookworm)",
        nginx: known(1, 22, 1),
        openssl: known(3, 0, 22),
        layout: Layout::Debian,
        php: Some(PhpVersion::V82),
        brotli: true,
    },
    // Debian 13: `apt-cache showsrc nginx openssl libnginx-mod-http-brotli` with the trixie
    // deb-src entry of scripts/build-nginx.sh: nginx 1.26.3-3+deb13u10, openssl
    // 3.5.7-1~deb13u2 .. 3.5.9-1~deb13u1, libnginx-mod-http-brotli 1.0.0~rc-6; php8.4-fpm
    // (trixie's PHP).
    ReleaseRow {
        release: Release::Debian13,
        title: "Debian 13 (trixie)",
        nginx: known(1, 26, 3),
        openssl: known(3, 5, 7),
        layout: Layout::Debian,
        php: Some(PhpVersion::V84),
        brotli: true,
    },
    // Ubuntu 22.04: packages.ubuntu.com jammy: nginx 1.18.0-6ubuntu14.x, openssl
    // 3.0.2-0ubuntu1.x; libnginx-mod-http-brotli is packaged from noble on (its source
    // package page lists noble and later only); php8.1-fpm (jammy's PHP).
    ReleaseRow {
        release: Release::Ubuntu2204,
        title: "Ubuntu 22.04 LTS",
        nginx: known(1, 18, 0),
        openssl: known(3, 0, 2),
        layout: Layout::Debian,
        php: Some(PhpVersion::V81),
        brotli: false,
    },
    // Ubuntu 24.04: packages.ubuntu.com noble: nginx 1.24.0-2ubuntu7.x, openssl
    // 3.0.13-0ubuntu3.x, libnginx-mod-http-brotli 1.0.0~rc-5build1 (universe); php8.3-fpm
    // (noble's PHP).
    ReleaseRow {
        release: Release::Ubuntu2404,
        title: "Ubuntu 24.04 LTS",
        nginx: known(1, 24, 0),
        openssl: known(3, 0, 13),
        layout: Layout::Debian,
        php: Some(PhpVersion::V83),
        brotli: true,
    },
    // RHEL 9: AppStream's default nginx is 1.20.1 (streams 1.22-1.26 exist as modules:
    // give --nginx-version for them); OpenSSL 3.0.7 until 9.4, rebased to 3.2.2 in 9.5
    // (both below the post-quantum gate). No brotli module in RHEL.
    ReleaseRow {
        release: Release::Rhel9,
        title: "RHEL 9 (Rocky, Alma)",
        nginx: known(1, 20, 1),
        openssl: known(3, 2, 2),
        layout: Layout::Rhel,
        php: None,
        brotli: false,
    },
    // RHEL 10: AppStream nginx 1.26.3; OpenSSL 3.5 since 10.1 (Red Hat's "Interoperability
    // of RHEL 10 post-quantum cryptography": "OpenSSL 3.5 in RHEL 10.1"). No brotli module.
    ReleaseRow {
        release: Release::Rhel10,
        title: "RHEL 10 (Rocky, Alma)",
        nginx: known(1, 26, 3),
        openssl: known(3, 5, 0),
        layout: Layout::Rhel,
        php: None,
        brotli: false,
    },
    // nginx.org stable: 1.30.0 (nginx/docker-nginx stable/debian/Dockerfile, 2026-04-14;
    // Debian unstable's 1.30.6 shows the later patch releases of the branch). The packages
    // link the distribution's OpenSSL, so that stays `any` unless detected or given;
    // nginx-module-brotli is packaged (nginx/pkg-oss debian/Makefile.module-brotli).
    ReleaseRow {
        release: Release::NginxOrgStable,
        title: "nginx.org packages, stable",
        nginx: known(1, 30, 0),
        openssl: Target::Any,
        layout: Layout::NginxOrg,
        php: None,
        brotli: true,
    },
    // nginx.org mainline: 1.31.0 (nginx.org packages index, mainline/rhel/10, 2026-05-13;
    // pkg-oss had 1.29.8 on 2026-04-07).
    ReleaseRow {
        release: Release::NginxOrgMainline,
        title: "nginx.org packages, mainline",
        nginx: known(1, 31, 0),
        openssl: Target::Any,
        layout: Layout::NginxOrg,
        php: None,
        brotli: true,
    },
    // Docker `nginx:stable`: nginx.org's 1.30.0 on debian:trixie-slim (docker-nginx
    // stable/debian/Dockerfile), so Debian 13's OpenSSL 3.5; the image installs the xslt,
    // geoip, image-filter, njs and acme modules, not brotli.
    ReleaseRow {
        release: Release::DockerStable,
        title: "Docker nginx:stable",
        nginx: known(1, 30, 0),
        openssl: known(3, 5, 7),
        layout: Layout::Docker,
        php: None,
        brotli: false,
    },
    // Docker `nginx:mainline` / `latest`: nginx.org's mainline on debian:trixie-slim
    // (docker-nginx mainline/debian/Dockerfile; 1.31.0 as nginx.org's mainline above).
    ReleaseRow {
        release: Release::DockerMainline,
        title: "Docker nginx:mainline",
        nginx: known(1, 31, 0),
        openssl: known(3, 5, 7),
        layout: Layout::Docker,
        php: None,
        brotli: false,
    },
];

impl Release {
    /// Its row; `None` for `any`.
    pub fn row(self) -> Option<&'static ReleaseRow> {
        RELEASES.iter().find(|r| r.release == self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_release_has_one_row_in_order() {
        let named: Vec<Release> = RELEASES.iter().map(|r| r.release).collect();
        assert_eq!(named, Release::ALL[1..]);
        assert_eq!(Release::Any.row(), None);
        assert!(SUGGESTED.row().is_some());
        // Every known version is one the inputs accept.
        for r in RELEASES {
            if let Target::Known(n) = r.nginx {
                assert!(n >= crate::inputs::limits::NGINX_MIN, "{}", r.title);
            }
            if let Target::Known(o) = r.openssl {
                assert!(o >= crate::inputs::limits::OPENSSL_MIN, "{}", r.title);
            }
        }
    }

    #[test]
    fn the_suggested_release_is_not_the_newest_nginx() {
        let newest = RELEASES.iter().filter_map(|r| r.nginx.known()).max();
        assert!(SUGGESTED.row().and_then(|r| r.nginx.known()) < newest);
    }
}
