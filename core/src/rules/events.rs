//! The `events` block: connection slots and how workers accept.

use super::{Ctx, Decide, Out, Rule, Text, always};
use crate::plan::Scope;

pub(super) static WORKER_CONNECTIONS: Rule = Rule {
    name: "worker_connections",
    texts: &[Text::new(
        "worker_connections",
        "Connection slots per worker: the planned clients with 50% headroom, each with a slot per upstream connection (over HTTP/2 one per request in flight, six at most) and per QUIC stream, plus the keepalive pool. A slot costs ≈0.42 KB, so slots are never cut to fit memory: running out refuses clients while RAM is free (a warning says when memory binds first).",
    )
    .inputs(&["vcpu", "workload", "clients", "tls", "http3"])],
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
            "ceil(10000 clients × 1.5 / 4 workers) + 0 keepalive + 32 spare, rounded up to 1024 = 4096"
        );
    }

    #[test]
    fn slots_count_upstream_connections_and_keepalive() {
        let p = plan(r#"{"workload":"proxy"}"#);
        let f = formula(&p, "worker_connections");
        assert!(f.contains("× (1 + 1 upstream)"), "{f}");
        assert!(!f.contains(" 0 keepalive"), "{f}");
        // HTTP/2 sends several requests at once, each to its own upstream connection.
        let h2 = plan(r#"{"workload":"proxy","tls":true}"#);
        let f = formula(&h2, "worker_connections");
        assert!(f.contains("× (1 + (1 × 6 streams) upstream)"), "{f}");
        // Every QUIC stream takes a slot.
        let h3 = plan(r#"{"tls":true,"http3":true}"#);
        let f = formula(&h3, "worker_connections");
        assert!(f.contains("× (1 + 12 QUIC streams)"), "{f}");
    }

    #[test]
    fn slots_are_never_cut_for_memory() {
        // 1,024 slots before (capped to what the memory model allowed), although an idle
        // slot costs 430 bytes: a flash crowd got "worker_connections are not enough".
        let p = plan(r#"{"vcpu":2,"ram":"512M","clients":20000,"workload":"proxy","tls":true}"#);
        let wc: u64 = value(&p, "worker_connections").unwrap().parse().unwrap();
        assert!(2 * wc >= 20_000 * 3 / 2 * 7, "{wc}");
        assert_eq!(p.capacity.clients, 20_000);
        assert_eq!(p.warnings[0].id, "capacity");
        assert!(p.capacity.memory_clients < 20_000);
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
        for name in ["use", "worker_cpu_affinity", "accept_mutex"] {
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
