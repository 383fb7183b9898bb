//! Kernel settings of the sysctl.d file.

use super::{Ctx, Decide, Out, Rule, Text, always};
use crate::plan::Scope;

const S: Scope = Scope::Sysctl;

/// Ports of common local services above the ephemeral range's new start; they are
/// reserved so an outgoing connection cannot take one before the service binds it.
pub const RESERVED_PORTS: &[u16] = &[11211, 15672, 27017]; // ascending
/// Start of the widened ephemeral port range: above the usual service ports
/// (3000, 5432, 6379, 8080, 9000 …), even, so its bounds differ in parity as Linux requires.
pub const EPHEMERAL_START: u16 = 10240;

pub(super) static SOMAXCONN: Rule = Rule {
    name: "net.core.somaxconn",
    texts: &[Text::new(
        "net.core.somaxconn",
        "The kernel caps every listen queue at this value; it must be at least the backlog= on nginx's listen, and is never set below the kernel's own default.",
    )
    .inputs(&["clients", "vcpu"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let f = c.t.formulas.somaxconn.clone();
        out.set_value(S, c.t.somaxconn, &SOMAXCONN.texts[0], Some(f));
    }),
};

pub(super) static TCP_MAX_SYN_BACKLOG: Rule = Rule {
    name: "net.ipv4.tcp_max_syn_backlog",
    texts: &[
        Text::new(
            "net.ipv4.tcp_max_syn_backlog",
            "Half-open connections the kernel keeps while SYN cookies are off; raised to the listen backlog.",
        )
        .inputs(&["ram", "clients"]),
        Text::new(
            "omit.net.ipv4.tcp_max_syn_backlog",
            "The kernel's default for this much RAM already covers the listen backlog.",
        ),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.t.backlog > c.t.syn_backlog_default {
            let f = c.t.formulas.syn_backlog.clone();
            out.set_value(S, c.t.backlog, &TCP_MAX_SYN_BACKLOG.texts[0], Some(f));
        } else {
            out.omit(S, &TCP_MAX_SYN_BACKLOG.texts[1]);
        }
    }),
};

pub(super) static TCP_FASTOPEN: Rule = Rule {
    name: "net.ipv4.tcp_fastopen",
    texts: &[
        Text::new(
            "net.ipv4.tcp_fastopen",
            "Enable TCP Fast Open for servers too; paired with fastopen= on the listen socket. Only for static files, because a SYN's data may be replayed.",
        )
        .inputs(&["workload", "behind_lb"]),
        Text::new(
            "omit.net.ipv4.tcp_fastopen",
            "Fast Open data may be replayed, so it is used only for static files served directly; without fastopen= on the listen socket the sysctl does nothing.",
        ),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.t.fastopen.is_some() {
            out.set(S, &["3"], &TCP_FASTOPEN.texts[0]);
        } else {
            out.omit(S, &TCP_FASTOPEN.texts[1]);
        }
    }),
};

/// Whether nginx opens TCP connections to an upstream (Unix sockets take no ports).
fn tcp_upstreams(c: &Ctx) -> bool {
    c.i.workload.proxies() && c.i.upstreams.iter().any(crate::inputs::Upstream::is_tcp)
}

pub(super) static IP_LOCAL_PORT_RANGE: Rule = Rule {
    name: "net.ipv4.ip_local_port_range",
    texts: &[
        Text::new(
            "net.ipv4.ip_local_port_range",
            "More ephemeral ports for connections to the application, starting above the usual service ports so none is taken before its service binds it.",
        )
        .inputs(&["workload"]),
        Text::new(
            "omit.net.ipv4.ip_local_port_range",
            "Only outgoing connections use ephemeral ports, and a static site opens none.",
        ),
        Text::new(
            "omit.net.ipv4.ip_local_port_range.unix",
            "Only outgoing TCP connections use ephemeral ports, and these upstreams are Unix sockets.",
        )
        .inputs(&["upstreams"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.workload.proxies() && !tcp_upstreams(c) {
            out.omit(S, &IP_LOCAL_PORT_RANGE.texts[2]);
        } else if c.i.workload.proxies() {
            let range = format!("{EPHEMERAL_START} 65535");
            out.set_args(S, vec![range.into()], &IP_LOCAL_PORT_RANGE.texts[0], None);
        } else {
            out.omit(S, &IP_LOCAL_PORT_RANGE.texts[1]);
        }
    }),
};

pub(super) static IP_LOCAL_RESERVED_PORTS: Rule = Rule {
    name: "net.ipv4.ip_local_reserved_ports",
    texts: &[Text::new(
        "net.ipv4.ip_local_reserved_ports",
        "Service ports inside the widened range (memcached, RabbitMQ, MongoDB and local upstreams) stay free for their services.",
    )
    .inputs(&["upstreams"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !tcp_upstreams(c) {
            return;
        }
        // Ascending and without repeats; inserted in place (a sort would add 3.5 KB of
        // code to the wasm builds).
        let mut reserved: Vec<u16> = RESERVED_PORTS.to_vec();
        let local = c.i.upstreams.iter().filter(|u| u.is_local());
        for port in local.filter_map(crate::inputs::Upstream::port) {
            if let (true, Err(at)) = (port >= EPHEMERAL_START, reserved.binary_search(&port)) {
                reserved.insert(at, port);
            }
        }
        let list: Vec<String> = reserved.iter().map(ToString::to_string).collect();
        out.set_args(S, vec![list.join(",").into()], &IP_LOCAL_RESERVED_PORTS.texts[0], None);
    }),
};

pub(super) static TCP_TW_REUSE: Rule = Rule {
    name: "net.ipv4.tcp_tw_reuse",
    texts: &[
        Text::new(
            "net.ipv4.tcp_tw_reuse",
            "Reuse TIME-WAIT ports for new outgoing connections to remote application servers; the default (2) does it only for loopback.",
        )
        .inputs(&["upstreams"]),
        Text::new(
            "omit.net.ipv4.tcp_tw_reuse.local",
            "The default (2) already reuses TIME-WAIT ports on loopback, where these upstreams are.",
        ),
        Text::new(
            "omit.net.ipv4.tcp_tw_reuse",
            "It affects only outgoing connections, and a static site opens none (the default is 2, not 0).",
        ),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.workload.proxies() {
            out.omit(S, &TCP_TW_REUSE.texts[2]);
        } else if c.i.upstreams.iter().any(|u| u.is_tcp() && !u.is_local()) {
            out.set(S, &["1"], &TCP_TW_REUSE.texts[0]);
        } else {
            out.omit(S, &TCP_TW_REUSE.texts[1]);
        }
    }),
};

pub(super) static FILE_MAX: Rule = Rule {
    name: "fs.file-max",
    texts: &[
        Text::new(
            "fs.file-max",
            "The workers together may open more files than this host's fs.file-max (detected) allows; raised to what they need.",
        )
        .inputs(&["vcpu", "file_max"]),
        Text::new(
            "omit.fs.file-max",
            "systemd (240 or later) raises fs.file-max to its largest value at boot, or the detected value already covers what all workers can open: a fixed number would only lower it.",
        )
        .inputs(&["file_max"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        match (c.t.file_max, &c.t.formulas.file_max) {
            (Some(n), Some(f)) => out.set_value(S, n, &FILE_MAX.texts[0], Some(f.clone())),
            _ => out.omit(S, &FILE_MAX.texts[1]),
        }
    }),
};

/// Socket buffer of the QUIC listen sockets (`listen … quic rcvbuf= sndbuf=`), and the
/// kernel's maximum for it: a burst of datagrams waits there for a worker.
pub const QUIC_SOCKET_BUFFER: u32 = 7_500_000;

const UDP_BUFFERS: Text = Text::new(
    "udp_buffers",
    "The largest socket buffer the kernel grants; raised to the rcvbuf=/sndbuf= of the QUIC listen sockets, which nginx sets only when told, so bursts of datagrams wait instead of being dropped.",
)
.inputs(&["http3"]);

pub(super) static RMEM_MAX: Rule = Rule {
    name: "net.core.rmem_max",
    texts: &[UDP_BUFFERS],
    decide: Decide::When {
        when: |c| c.i.http3,
        scope: S,
        args: &["7500000"], // QUIC_SOCKET_BUFFER
    },
};

pub(super) static WMEM_MAX: Rule = Rule {
    name: "net.core.wmem_max",
    texts: &[UDP_BUFFERS],
    decide: Decide::When {
        when: |c| c.i.http3,
        scope: S,
        args: &["7500000"],
    },
};

pub(super) static NETDEV_MAX_BACKLOG: Rule = Rule {
    name: "net.core.netdev_max_backlog",
    texts: &[Text::new(
        "omit.net.core.netdev_max_backlog",
        "Raise it only when the second column of /proc/net/softnet_stat (drops) grows; the default suits VPS network rates.",
    )],
    decide: Decide::Omit {
        when: always,
        scope: S,
    },
};

#[cfg(test)]
mod tests {
    use crate::rules::testing::{formula, omitted, plan, value};

    #[test]
    fn somaxconn_never_below_the_kernel_default() {
        let p = plan("{}");
        assert_eq!(value(&p, "net.core.somaxconn").as_deref(), Some("4096"));
        assert_eq!(
            formula(&p, "net.core.somaxconn"),
            "max(backlog 4096, kernel default 4096) = 4096"
        );
        let big = plan(r#"{"vcpu":32,"ram":"64G","clients":200000}"#);
        assert_eq!(value(&big, "net.core.somaxconn").as_deref(), Some("32768"));
    }

    #[test]
    fn syn_backlog_only_above_the_kernel_default() {
        let p = plan("{}");
        assert_eq!(
            value(&p, "net.ipv4.tcp_max_syn_backlog").as_deref(),
            Some("4096")
        );
        assert_eq!(
            formula(&p, "net.ipv4.tcp_max_syn_backlog"),
            "backlog 4096 > kernel default 512"
        );
        let big_ram = plan(r#"{"ram":"64G"}"#);
        assert!(omitted(&big_ram, "net.ipv4.tcp_max_syn_backlog"));
    }

    #[test]
    fn fastopen_for_static_files_served_directly() {
        assert_eq!(
            value(&plan("{}"), "net.ipv4.tcp_fastopen").as_deref(),
            Some("3")
        );
        assert!(omitted(
            &plan(r#"{"behind_lb":true}"#),
            "net.ipv4.tcp_fastopen"
        ));
        assert!(omitted(
            &plan(r#"{"workload":"proxy"}"#),
            "net.ipv4.tcp_fastopen"
        ));
    }

    #[test]
    fn ports_for_proxies() {
        let s = plan("{}");
        assert!(omitted(&s, "net.ipv4.ip_local_port_range"));
        assert!(omitted(&s, "net.ipv4.tcp_tw_reuse"));
        let local =
            plan(r#"{"workload":"proxy","upstreams":["127.0.0.1:3000","127.0.0.1:20000"]}"#);
        assert_eq!(
            value(&local, "net.ipv4.ip_local_port_range").as_deref(),
            Some("10240 65535")
        );
        assert_eq!(
            value(&local, "net.ipv4.ip_local_reserved_ports").as_deref(),
            Some("11211,15672,20000,27017")
        );
        assert!(omitted(&local, "net.ipv4.tcp_tw_reuse"));
        let remote = plan(r#"{"workload":"proxy","upstreams":["10.0.0.2:8080"]}"#);
        assert_eq!(
            value(&remote, "net.ipv4.tcp_tw_reuse").as_deref(),
            Some("1")
        );
        assert_eq!(
            value(&remote, "net.ipv4.ip_local_reserved_ports").as_deref(),
            Some("11211,15672,27017")
        );
    }

    #[test]
    fn file_max_only_where_the_detected_value_is_lower() {
        // Not detected (the page, --no-detect): systemd's value, the largest, stands.
        let big = r#"{"vcpu":64,"ram":"2G","clients":1000000}"#;
        assert!(omitted(&plan(big), "fs.file-max"));
        // systemd's LONG_MAX, read as the largest input.
        let systemd = big.replace('}', r#","file_max":4294967295}"#);
        assert!(omitted(&plan(&systemd), "fs.file-max"));
        let low = big.replace('}', r#","file_max":200000}"#);
        let p = plan(&low);
        let v: u64 = value(&p, "fs.file-max").unwrap().parse().unwrap();
        assert!(v > 200_000, "{v}");
        assert!(
            formula(&p, "fs.file-max").ends_with("> detected 200000"),
            "{}",
            formula(&p, "fs.file-max")
        );
        assert!(omitted(&plan(r#"{"file_max":200000}"#), "fs.file-max"));
    }

    #[test]
    fn udp_buffers_for_http3() {
        let p = plan(r#"{"tls":true,"http3":true}"#);
        assert_eq!(value(&p, "net.core.rmem_max").as_deref(), Some("7500000"));
        assert_eq!(value(&p, "net.core.wmem_max").as_deref(), Some("7500000"));
        let buffer = super::QUIC_SOCKET_BUFFER.to_string();
        assert_eq!(value(&p, "net.core.rmem_max"), Some(buffer));
        assert_eq!(value(&plan("{}"), "net.core.rmem_max"), None);
        assert!(omitted(&plan("{}"), "net.core.netdev_max_backlog"));
    }

    #[test]
    fn unix_socket_upstreams_take_no_ports() {
        let unix = plan(r#"{"workload":"proxy","upstreams":["unix:/run/app.sock"]}"#);
        assert!(omitted(&unix, "net.ipv4.ip_local_port_range"));
        assert_eq!(value(&unix, "net.ipv4.ip_local_reserved_ports"), None);
        assert_eq!(value(&unix, "net.ipv4.tcp_tw_reuse"), None);
        let tcp = plan(r#"{"workload":"proxy","upstreams":["unix:/run/a.sock","10.0.0.5:80"]}"#);
        assert!(value(&tcp, "net.ipv4.ip_local_port_range").is_some());
        assert_eq!(value(&tcp, "net.ipv4.tcp_tw_reuse").as_deref(), Some("1"));
    }
}
