//! The shaped-link mode: two network namespaces created for the run (server and client),
//! joined by a veth pair whose both ends are rate-limited with `tc`, so bytes on the wire
//! matter as on a real VPS. Only addresses inside these namespaces are used.

use crate::proc;

pub const SERVER_ADDR: &str = "10.213.0.1";
const CLIENT_ADDR: &str = "10.213.0.2";
/// One-way delay added with netem when the kernel has it (RTT = 2 × this).
pub const DELAY_MS: u32 = 2;

/// Runs `program args…` (the first element is the program).
fn run(args: &[&str]) -> Result<(), String> {
    nginx_gen_testsupport::run(args[0], &args[1..])
}

/// The server and client namespaces; deleted on drop (and by the cleanup registry).
#[derive(Debug)]
pub struct Link {
    pub server: String,
    pub client: String,
    dev_s: String,
    dev_c: String,
    /// Whether netem (delay) is available; otherwise tbf shapes the rate only.
    pub netem: bool,
}

impl Link {
    /// Creates the namespaces and the veth pair, or says why it cannot.
    pub fn create() -> Result<Self, String> {
        let id = std::process::id();
        let me = Self {
            server: format!("ngb-s-{id}"),
            client: format!("ngb-c-{id}"),
            dev_s: format!("ngbs{id}"),
            dev_c: format!("ngbc{id}"),
            netem: false,
        };
        for ns in [&me.server, &me.client] {
            run(&["ip", "netns", "add", ns])?;
            proc::register_netns(ns);
        }
        run(&[
            "ip", "link", "add", &me.dev_s, "netns", &me.server, "type", "veth", "peer", "name",
            &me.dev_c, "netns", &me.client,
        ])?;
        for (ns, dev, addr) in [
            (&me.server, &me.dev_s, SERVER_ADDR),
            (&me.client, &me.dev_c, CLIENT_ADDR),
        ] {
            run(&[
                "ip",
                "-n",
                ns,
                "addr",
                "add",
                &format!("{addr}/24"),
                "dev",
                dev,
            ])?;
            run(&["ip", "-n", ns, "link", "set", dev, "up"])?;
            run(&["ip", "-n", ns, "link", "set", "lo", "up"])?;
        }
        // The client reconnects a lot (new connection per request): let it reuse TIME_WAIT
        // ports (these sysctls belong to the namespace, not to the host).
        for setting in [
            "net.ipv4.tcp_tw_reuse=1",
            "net.ipv4.ip_local_port_range=10240 65000",
        ] {
            let _ = run(&[
                "ip", "netns", "exec", &me.client, "sysctl", "-q", "-w", setting,
            ]);
        }
        let mut me = me;
        me.netem = run(&[
            "ip", "netns", "exec", &me.server, "tc", "qdisc", "add", "dev", &me.dev_s, "root",
            "netem", "delay", "1ms",
        ])
        .is_ok();
        Ok(me)
    }

    /// Shapes both directions to `mbit` Mbit/s (plus the delay when netem exists).
    pub fn shape(&self, mbit: u32) -> Result<(), String> {
        for (ns, dev) in [(&self.server, &self.dev_s), (&self.client, &self.dev_c)] {
            let _ = run(&[
                "ip", "netns", "exec", ns, "tc", "qdisc", "del", "dev", dev, "root",
            ]);
            let rate = format!("{mbit}mbit");
            if self.netem {
                let delay = format!("{DELAY_MS}ms");
                run(&[
                    "ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", dev, "root", "netem",
                    "delay", &delay, "rate", &rate, "limit", "100000",
                ])?;
            } else {
                // burst: at least 4 ms of traffic and 128 KB (veth hands over GSO packets).
                let burst = format!("{}", (u64::from(mbit) * 125_000 / 250).max(128 * 1024));
                run(&[
                    "ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", dev, "root", "tbf",
                    "rate", &rate, "burst", &burst, "latency", "50ms",
                ])?;
            }
        }
        Ok(())
    }

    pub fn describe(&self, mbit: u32) -> String {
        if self.netem {
            format!("{mbit} Mbit/s each way, {} ms RTT (netem)", 2 * DELAY_MS)
        } else {
            format!("{mbit} Mbit/s each way (tbf), no added delay: this kernel has no sch_netem")
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        for ns in [&self.server, &self.client] {
            let _ = run(&["ip", "netns", "del", ns]);
            proc::forget_netns(ns);
        }
    }
}
