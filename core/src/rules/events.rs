//! The `events` block: connection slots and how workers accept.

use super::{Ctx, Decide, Out, Rule, Text, always};
use crate::plan::Scope;

pub(super) static WORKER_CONNECTIONS: Rule = Rule {
    name: "worker_connections",
    texts: &[Text::new(
        "worker_connections",
        "Connection slots per worker: the planned clients with 50% headroom, plus a slot per upstream connection and the keepalive pool. Each slot is preallocated (≈0.42 KB), so it is not oversized.",
    )
    .inputs(&["vcpu", "ram", "workload", "clients", "tls"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let f = c.t.formulas.worker_connections.clone();
        out.set_value(Scope::Events, c.t.worker_connections, &WORKER_CONNECTIONS.texts[0], Some(f));
    }),
};

pub(super) static USE: Rule = Rule {
    name: "use",
    texts: &[Text::new(
        "omit.use",
        "nginx picks epoll on Linux by itself; naming it changes nothing.",
    )],
    decide: Decide::Omit {
        when: always,
        scope: Scope::Events,
    },
};

pub(super) static LISTEN_DEFERRED: Rule = Rule {
    name: "listen deferred",
    texts: &[Text::new(
        "omit.listen.deferred",
        "TCP_DEFER_ACCEPT hides a connection from nginx until its first data arrives. Measured here: with 1000 clients connecting at once it raised p99 latency from about 40 ms to 60-500 ms (docs/benchmarks.md).",
    )],
    decide: Decide::Omit {
        when: always,
        scope: Scope::Server {
            server: crate::plan::ServerRole::CatchAll,
        },
    },
};

pub(super) static MULTI_ACCEPT: Rule = Rule {
    name: "multi_accept",
    texts: &[
        Text::new(
            "multi_accept",
            "Accept every waiting connection per wake-up instead of one. Safe here: the worker drains only its own queue (one worker, or reuseport), so no worker can take another's share.",
        )
        .inputs(&["vcpu"]),
        Text::new(
            "omit.multi_accept",
            "Off by default. With EPOLLEXCLUSIVE (nginx ≥ {EpollExclusive}) it lets one worker drain the whole queue and unbalances load; no benchmark shows a gain.",
        ),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.t.workers == 1 || c.t.reuseport {
            out.set(Scope::Events, &["on"], &MULTI_ACCEPT.texts[0]);
        } else {
            out.omit(Scope::Events, &MULTI_ACCEPT.texts[1]);
        }
    }),
};

pub(super) static WORKER_CPU_AFFINITY: Rule = Rule {
    name: "worker_cpu_affinity",
    texts: &[Text::new(
        "omit.worker_cpu_affinity",
        "Pinning helps only on dedicated hosts; on shared or quota-limited VPS it can pin workers to busy or unavailable CPUs.",
    )],
    decide: Decide::Omit {
        when: always,
        scope: Scope::Main,
    },
};

pub(super) static ACCEPT_MUTEX: Rule = Rule {
    name: "accept_mutex",
    texts: &[Text::new(
        "omit.accept_mutex",
        "Off by default since nginx {EpollExclusive}; the kernel spreads new connections.",
    )],
    decide: Decide::Omit {
        when: always,
        scope: Scope::Events,
    },
};

#[cfg(test)]
mod tests {
    use crate::rules::testing::{formula, omitted, plan, value};

    #[test]
    fn slots_for_the_guide_machine() {
        let p = plan("{}");
        assert_eq!(value(&p, "worker_connections").as_deref(), Some("4096"));
        assert_eq!(
            formula(&p, "worker_connections"),
            "ceil(10000 clients × 1.5 / 4 workers) × (1 + 0) + 0 keepalive + 32 spare, rounded up to 1024 = 4096"
        );
    }

    #[test]
    fn slots_count_upstream_connections_and_keepalive() {
        let p = plan(r#"{"workload":"proxy"}"#);
        let f = formula(&p, "worker_connections");
        assert!(f.contains("× (1 + 1)"), "{f}");
        assert!(!f.contains(" 0 keepalive"), "{f}");
    }

    #[test]
    fn the_cap_shows_in_the_formula() {
        let p = plan(r#"{"vcpu":1,"ram":"16T","clients":10000000}"#);
        assert_eq!(value(&p, "worker_connections").as_deref(), Some("262144"));
        assert!(formula(&p, "worker_connections").starts_with("min("));
    }

    #[test]
    fn fixed_omissions() {
        let p = plan("{}");
        for name in [
            "use",
            "listen deferred",
            "worker_cpu_affinity",
            "accept_mutex",
        ] {
            assert!(omitted(&p, name), "{name}");
        }
    }

    #[test]
    fn multi_accept_only_with_a_queue_per_worker() {
        // One worker, or four and more (reuseport): on.
        for vcpu in [1, 4, 8] {
            let p = plan(&format!(r#"{{"vcpu":{vcpu}}}"#));
            assert_eq!(value(&p, "multi_accept").as_deref(), Some("on"), "{vcpu}");
        }
        // Two or three workers share one queue: left off.
        for vcpu in [2, 3] {
            let p = plan(&format!(r#"{{"vcpu":{vcpu}}}"#));
            assert!(omitted(&p, "multi_accept"), "{vcpu}");
        }
        // HTTP/3 needs reuseport with several workers, so two workers get it too.
        let h3 = plan(r#"{"vcpu":2,"tls":true,"http3":true}"#);
        assert_eq!(value(&h3, "multi_accept").as_deref(), Some("on"));
    }
}
