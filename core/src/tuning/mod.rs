//! The numbers: every computed value, from the formulas in docs/formulas.md.
//!
//! This module only does arithmetic on [`Inputs`]; [`crate::plan`] turns the numbers into
//! directives with their reasons. Integer arithmetic throughout, so native and wasm builds
//! agree to the byte.

use crate::inputs::{Inputs, Workload};
use crate::rules::formula::{Formula, Term};
use crate::size::ByteSize;

mod constants;
mod php;
mod proxy_buffers;
pub mod rate;

pub use constants::*;
pub use php::{PHP_CHILDREN_PER_VCPU, PhpPool};
pub use proxy_buffers::{ProxyBuffers, ProxyFormulas};

/// Per-workload parameters of the formulas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// Concurrent clients one vCPU serves, used when `clients` is not given.
    pub clients_per_vcpu: u32,
    /// Upstream connections per client connection, in thousandths (the `p` of the
    /// formulas): 0 for files, 1000 when every request may be proxied.
    pub upstream_permille: u32,
    /// Share of connected clients with a request in flight to the upstream, in
    /// thousandths (sizes the upstream keepalive pool).
    pub in_flight_permille: u32,
    /// Share of memory (after the OS reserve) nginx may plan for, in percent.
    pub memory_percent: u64,
    /// `proxy_buffer_size` (`fastcgi_buffer_size` for php): the first buffer of a response,
    /// its headers and the start of its body, sized to hold the typical response within
    /// this range ([`ProxyBuffers::for_response`]).
    pub header_buffer: (ByteSize, ByteSize),
}

impl Profile {
    /// The parameters of `workload`.
    pub const fn of(workload: Workload) -> Self {
        match workload {
            Workload::Static => Self {
                clients_per_vcpu: 2500,
                upstream_permille: 0,
                in_flight_permille: 0,
                memory_percent: 50,
                header_buffer: (ByteSize::kib(8), ByteSize::kib(8)),
            },
            Workload::Mixed => Self {
                clients_per_vcpu: 1500,
                upstream_permille: 500,
                in_flight_permille: 50,
                memory_percent: 25,
                header_buffer: (ByteSize::kib(16), ByteSize::kib(32)),
            },
            Workload::Proxy => Self {
                clients_per_vcpu: 1000,
                upstream_permille: 1000,
                in_flight_permille: 50,
                memory_percent: 25,
                header_buffer: (ByteSize::kib(16), ByteSize::kib(32)),
            },
            Workload::Api => Self {
                clients_per_vcpu: 1000,
                upstream_permille: 1000,
                in_flight_permille: 100,
                memory_percent: 25,
                header_buffer: (ByteSize::kib(16), ByteSize::kib(32)),
            },
            Workload::Php => Self {
                clients_per_vcpu: 1000,
                upstream_permille: 500,
                in_flight_permille: 50,
                memory_percent: 25,
                // FastCGI: the first buffer's size was not measured; it stays at 16k.
                header_buffer: (ByteSize::kib(16), ByteSize::kib(16)),
            },
        }
    }
}

/// `open_file_cache` parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenFileCache {
    /// Entries per worker.
    pub max: u32,
}

/// The formulas behind the computed values, each the text of the very computation that
/// produced the number (see [`Term`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formulas {
    /// `worker_connections`.
    pub worker_connections: Formula,
    /// `worker_rlimit_nofile`.
    pub rlimit_nofile: Formula,
    /// `LimitNOFILE`.
    pub limit_nofile: Formula,
    /// `fs.file-max`, when written.
    pub file_max: Option<Formula>,
    /// `listen … backlog=`.
    pub backlog: Formula,
    /// `net.core.somaxconn`.
    pub somaxconn: Formula,
    /// `net.ipv4.tcp_max_syn_backlog`, when written.
    pub syn_backlog: Formula,
    /// Upstream `keepalive`, for workloads that proxy.
    pub upstream_keepalive: Option<Formula>,
    /// `open_file_cache max=`.
    pub open_file_cache: Option<Formula>,
    /// `ssl_session_cache` size.
    pub session_cache: Formula,
    /// `ssl_session_timeout` in seconds, where the cache cannot hold a day.
    pub session_timeout: Option<Formula>,
    /// Proxy (or `FastCGI`) buffers, for workloads that proxy or run PHP.
    pub proxy: Option<ProxyFormulas>,
    /// `aio threads`.
    pub aio: Formula,
}

/// Every number the plan uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tuning {
    /// The workload's parameters.
    pub profile: Profile,
    /// `worker_processes`.
    pub workers: u32,
    /// Concurrent clients aimed for before the memory check.
    pub clients_target: u32,
    /// Concurrent clients RAM allows with these settings.
    pub memory_clients: u32,
    /// Concurrent clients the configuration is sized for (the capacity).
    pub clients: u32,
    /// Estimated memory of one active client (idle cost included).
    pub client_bytes: u64,
    /// Estimated memory of one idle keep-alive connection.
    pub idle_bytes: u64,
    /// Connections transferring at once at the planned clients ([`ACTIVE_PERMILLE`]).
    pub active_clients: u64,
    /// Connection slots one client may take (its own, upstream, QUIC streams), in
    /// thousandths.
    pub slots_permille: u64,
    /// Memory of one worker before any client: [`WORKER_BYTES`] and its slots.
    pub worker_bytes: u64,
    /// Memory of the master and every worker before any client.
    pub fixed_memory: u64,
    /// Upstream connections of the active clients' requests in flight (each HTTP/2 or
    /// HTTP/3 request on its own connection).
    pub upstream_in_flight: u64,
    /// Memory nginx may plan for.
    pub memory_budget: u64,
    /// Upstream `keepalive` per worker, for workloads that proxy.
    pub upstream_keepalive: Option<u32>,
    /// `worker_connections`.
    pub worker_connections: u32,
    /// `open_file_cache`, for workloads that serve files.
    pub open_file_cache: Option<OpenFileCache>,
    /// `worker_rlimit_nofile`.
    pub rlimit_nofile: u32,
    /// systemd `LimitNOFILE`.
    pub limit_nofile: u32,
    /// `fs.file-max` when the detected value is too small.
    pub file_max: Option<u64>,
    /// The kernel's own `fs.file-max` for this RAM.
    pub file_max_default: u64,
    /// `listen … backlog=`.
    pub backlog: u32,
    /// `net.core.somaxconn`.
    pub somaxconn: u32,
    /// The kernel's own `tcp_max_syn_backlog` for this RAM.
    pub syn_backlog_default: u32,
    /// `listen … fastopen=` and `tcp_fastopen = 3`, for static files served directly.
    pub fastopen: Option<u32>,
    /// `listen … reuseport`.
    pub reuseport: bool,
    /// Proxy buffers for workloads that proxy, `FastCGI` buffers for php.
    pub proxy: Option<ProxyBuffers>,
    /// The PHP-FPM pool, for php.
    pub php: Option<PhpPool>,
    /// `ssl_session_cache` size in MiB.
    pub session_cache_mib: u32,
    /// `ssl_session_timeout` in seconds where the cache holds less than a day.
    pub session_timeout: Option<u32>,
    /// Files times typical size exceed half the RAM: serve them with `aio threads`.
    pub aio_threads: bool,
    /// Estimated memory of all workers with every planned client connected and idle.
    pub idle_memory: u64,
    /// Estimated memory with the active share of them transferring.
    pub peak_memory: u64,
    /// How the computed values were computed.
    pub formulas: Formulas,
}

/// Kernel default of `tcp_max_syn_backlog`: max(128, ehash buckets / 128), with one
/// established-hash bucket per 128 KiB of RAM, rounded up to a power of two, at most 512Ki.
pub fn syn_backlog_default(ram: ByteSize) -> u32 {
    let buckets = (ram.as_u64() / (128 * 1024))
        .next_power_of_two()
        .min(512 * 1024);
    (buckets / 128).max(128) as u32
}

fn num(n: impl Into<u64>) -> Term {
    Term::num(n.into())
}

/// The memory kept for the system (kernel, sshd, the page cache's minimum): an eighth of
/// the RAM, 128 MiB to 1 GiB.
pub const fn system_reserve(ram: ByteSize) -> ByteSize {
    let (least, most) = (ByteSize::mib(128).as_u64(), ByteSize::GIB.as_u64());
    let eighth = ram.as_u64() / 8;
    ByteSize::bytes(if eighth < least {
        least
    } else if eighth > most {
        most
    } else {
        eighth
    })
}

/// The least memory the host's other services must leave: the system's reserve and
/// 128 MiB for nginx (validation holds `--other-memory` to it).
pub const fn least_left(ram: ByteSize) -> ByteSize {
    ByteSize::bytes(system_reserve(ram).as_u64() + ByteSize::mib(128).as_u64())
}

/// The memory whose spare part the kernel keeps files in: the machine's RAM, less what the
/// host's other services take (`--other-memory`, written only when given).
pub fn page_cache_memory(inputs: &Inputs) -> Term {
    without_other_services(Term::input_size(inputs.ram).label("RAM"), inputs)
}

/// `memory` less the other services' memory, when there is any.
pub fn without_other_services(memory: Term, inputs: &Inputs) -> Term {
    if inputs.other_memory.as_u64() == 0 {
        memory
    } else {
        memory.minus(Term::input_size(inputs.other_memory).label("other services"))
    }
}

impl Tuning {
    /// Computes every number for `inputs`, in dependency order.
    pub fn compute(inputs: &Inputs) -> Self {
        let profile = Profile::of(inputs.workload);
        let workers = inputs.vcpu;
        let p = u64::from(profile.upstream_permille);
        let ram = inputs.ram.as_u64();

        let proxy = inputs
            .workload
            .dynamic()
            .then(|| ProxyBuffers::with_formulas(profile.header_buffer, inputs.response_size));

        // Connection slots per client: its own, one per request it has proxied (HTTP/2
        // and HTTP/3 send several at once, each to its own upstream connection), and with
        // HTTP/3 one per QUIC stream.
        let fan_out = if inputs.tls { STREAMS_IN_FLIGHT } else { 1 };
        let mut extra_slots = Vec::new();
        if p > 0 {
            let mut upstream = Term::ratio(p, 1000);
            if fan_out > 1 {
                upstream = upstream.times(num(fan_out).label("streams"));
            }
            extra_slots.push(upstream.label("upstream"));
        }
        if inputs.http3 {
            extra_slots.push(num(QUIC_CONTROL_STREAMS + STREAMS_IN_FLIGHT).label("QUIC streams"));
        }
        let slots_term = extra_slots.into_iter().fold(None, |sum: Option<Term>, t| {
            Some(sum.unwrap_or_else(|| num(1u32)).plus(t))
        });
        // The sum in thousandths, exact where the term's value is rounded up.
        let slots_permille = slots_term.as_ref().map_or(1000, Term::thousandths);

        let clients_target = inputs
            .clients
            .unwrap_or_else(|| profile.clients_per_vcpu.saturating_mul(workers));

        let headroom = Term::ratio(u64::from(HEADROOM.0), u64::from(HEADROOM.1));
        let keepalive_term = inputs.workload.proxies().then(|| {
            let mut t = Term::ratio(6, 5)
                .times(num(clients_target).label("clients"))
                .over(num(workers).label("workers"));
            if p != 1000 {
                t = t.times(Term::ratio(p, 1000).label("proxied"));
            }
            t.times(Term::percent_of_permille(profile.in_flight_permille).label("in flight"))
                .round_up(8)
                .at_least(num(8u32))
                .at_most(num(512u32))
                .at_most(
                    num(KEEPALIVE_POOL_MAX)
                        .label("pool")
                        .over(num(workers).label("workers"))
                        .floor()
                        .at_least(num(1u32)),
                )
        });
        let upstream_keepalive = keepalive_term.as_ref().map(|t| t.value() as u32);
        let keepalive = u64::from(upstream_keepalive.unwrap_or(0));
        // Slots are sized for the clients asked for and never cut for memory: an idle
        // slot costs SLOT_BYTES, and running out of them refuses clients while RAM is free.
        let wc_term = num(clients_target)
            .label("clients")
            .times(headroom)
            .over(num(workers).label("workers"))
            .ceil();
        let wc_term = match slots_term {
            Some(per_client) => wc_term.times(per_client),
            None => wc_term,
        }
        .plus(num(keepalive).label("keepalive"))
        .plus(num(SPARE_SLOTS).label("spare"))
        .round_up(1024)
        .at_most(num(MAX_WORKER_CONNECTIONS).label("max"));
        let worker_connections = wc_term.value() as u32;
        // Only when the slot limit binds do fewer clients fit than asked for.
        let slot_clients = (u64::from(worker_connections) - keepalive - u64::from(SPARE_SLOTS))
            * u64::from(workers)
            * 1000
            / slots_permille
            * u64::from(HEADROOM.1)
            / u64::from(HEADROOM.0);
        let clients = clients_target
            .min(slot_clients.min(u64::from(u32::MAX)) as u32)
            .max(1);

        // Memory: the workers' fixed cost, every held connection idle, and the active
        // share transferring (TLS record buffers, proxy buffers, compression state).
        let worker_bytes = WORKER_BYTES + u64::from(worker_connections) * SLOT_BYTES;
        let fixed_memory = MASTER_BYTES + u64::from(workers) * worker_bytes;
        let idle_bytes = IDLE_BYTES + if inputs.tls { TLS_IDLE_BYTES } else { 0 };
        let on_the_fly = if !inputs.workload.dynamic() {
            0 // files are precompressed (gzip_static, brotli_static)
        } else if inputs.brotli {
            BROTLI_STATE_BYTES
        } else {
            GZIP_STATE_BYTES
        };
        let proxied = proxy.as_ref().map_or(0, |(b, _)| {
            p * (1024 + 3 * 1024 + b.in_use(inputs.response_size) + on_the_fly) / 1000
        });
        let active_extra = ACTIVE_BYTES + if inputs.tls { TLS_ACTIVE_BYTES } else { 0 } + proxied;
        let client_bytes = idle_bytes + active_extra;
        let active_clients = (u64::from(clients) * u64::from(ACTIVE_PERMILLE)).div_ceil(1000);
        let upstream_in_flight = (active_clients * p * u64::from(fan_out)).div_ceil(1000);

        // The system's reserve is the whole machine's; the host's other services (a
        // database) take their memory before nginx and PHP-FPM share the rest.
        let reserve = system_reserve(inputs.ram).as_u64();
        let memory_budget = (ram - reserve).saturating_sub(inputs.other_memory.as_u64())
            * profile.memory_percent
            / 100;
        let php = (inputs.workload == Workload::Php)
            .then(|| PhpPool::compute(inputs, reserve, profile.memory_percent));
        let per_client_thousandths = 1000 * idle_bytes + u64::from(ACTIVE_PERMILLE) * active_extra;
        let memory_clients = (memory_budget.saturating_sub(fixed_memory) * 1000
            / per_client_thousandths)
            .min(u64::from(u32::MAX)) as u32;

        let ofc_term = inputs.workload.serves_files().then(|| {
            Term::ratio(6, 5)
                .times(num(inputs.static_files).label("files"))
                .round_up(100)
                .at_least(num(1000u32))
                .at_most(num(65_536u32))
        });
        let open_file_cache = ofc_term.as_ref().map(|t| OpenFileCache {
            max: t.value() as u32,
        });
        let fds_per_connection: u64 = if inputs.workload.serves_files() { 2 } else { 1 };
        let wc = u64::from(worker_connections);
        let ofc = u64::from(open_file_cache.map_or(0, |c| c.max));
        let rlimit_term = Term::max(vec![
            num(2u32).times(num(wc)),
            num(fds_per_connection)
                .times(num(wc))
                .plus(num(ofc).label("open_file_cache"))
                .plus(num(keepalive).label("keepalive"))
                .plus(num(64u32)),
        ])
        .round_up(1024)
        .at_most(num(NR_OPEN).label("fs.nr_open"));
        let rlimit = rlimit_term.value() as u32;
        let limit_term = Term::max(vec![
            num(rlimit).named("worker_rlimit_nofile"),
            num(SYSTEMD_HARD_NOFILE),
        ]);
        let limit_nofile = limit_term.value() as u32;

        // fs.file-max: systemd (240 or later) raises it to the largest value at boot, so
        // it is written only where the detected value is below what the workers need.
        let file_max_default = ram / 1024 / 10;
        let file_max_term = num(workers)
            .label("workers")
            .times(num(rlimit))
            .plus(num(65_536u32))
            .round_up(65_536);
        let file_max = inputs
            .file_max
            .filter(|&now| u64::from(now) < file_max_term.value())
            .map(|_| file_max_term.value());
        let detected_file_max = num(inputs.file_max.unwrap_or(0)).named("detected");
        let backlog_term = num(clients)
            .label("clients")
            .over(num(RECONNECT_STORM_SECONDS).label("s"))
            .times(Term::ratio(u64::from(ACCEPT_WAIT_MS), 1000).label("s"))
            .pow2()
            .at_least(num(SOMAXCONN_DEFAULT).named("somaxconn"))
            .at_most(num(65_535u32));
        let backlog = backlog_term.value() as u32;
        let somaxconn_term = Term::max(vec![
            num(backlog).named("backlog"),
            num(SOMAXCONN_DEFAULT).named("kernel default"),
        ]);
        let syn_backlog_default = syn_backlog_default(inputs.ram);

        let fastopen =
            (inputs.workload == Workload::Static && !inputs.behind_lb).then_some(FASTOPEN_QUEUE);
        let reuseport = workers >= 4 || inputs.http3 && workers > 1;
        // The session cache holds the sessions started within the timeout (a day, as
        // Mozilla's) where the memory allows; otherwise the timeout is what it holds.
        let mib = |n: u64| Term::size(ByteSize::mib(n));
        let needed_mib = num(clients)
            .label("clients")
            .times(num(86_400 / VISIT_SECONDS).label("visits a day"))
            .over(num(SESSIONS_PER_MIB).label("sessions"))
            .ceil();
        let session_cap = ((memory_budget >> 20) / 64).clamp(1, 1024);
        let session_term = needed_mib
            .clone()
            .times(mib(1))
            .at_most(mib(session_cap).label("budget share"))
            .at_least(mib(1));
        let session_cache_mib = (session_term.value() >> 20) as u32;
        let timeout_term = (u64::from(session_cache_mib) < needed_mib.value()).then(|| {
            num(session_cache_mib * SESSIONS_PER_MIB)
                .label("sessions cached")
                .times(num(VISIT_SECONDS).label("s per visit"))
                .over(num(clients).label("clients"))
                .floor()
                .at_least(num(60u32))
        });
        let session_timeout = timeout_term.as_ref().map(|t| t.value() as u32);
        let files_bytes = num(inputs.static_files)
            .label("files")
            .times(Term::input_size(inputs.response_size));
        let half_ram = page_cache_memory(inputs).over(num(2u32));
        let aio_threads = inputs.workload.serves_files()
            && u64::from(inputs.static_files).saturating_mul(inputs.response_size.as_u64())
                > half_ram.value();

        // The session cache is shared memory, resident as sessions fill it: one per
        // connected client, and the whole cache once a day's sessions arrive.
        let (connected_sessions, full_cache) = if inputs.tls {
            let full = u64::from(session_cache_mib) << 20;
            (
                (u64::from(clients) << 20)
                    .div_ceil(u64::from(SESSIONS_PER_MIB))
                    .min(full),
                full,
            )
        } else {
            (0, 0)
        };
        let idle_memory = fixed_memory
            + connected_sessions
            + u64::from(clients) * idle_bytes
            + u64::from(workers) * ofc * OPEN_FILE_BYTES;
        let peak_memory =
            idle_memory - connected_sessions + full_cache + active_clients * active_extra;

        let formulas = Formulas {
            worker_connections: Formula::equals(&wc_term),
            rlimit_nofile: Formula::equals(&rlimit_term),
            limit_nofile: Formula::equals(&limit_term)
                .compare("≥", &num(2u32).times(num(worker_connections))),
            file_max: file_max
                .map(|_| Formula::equals(&file_max_term).compare(">", &detected_file_max)),
            backlog: Formula::equals(&backlog_term).named("backlog"),
            somaxconn: Formula::equals(&somaxconn_term),
            syn_backlog: Formula::comparison(
                &num(backlog).named("backlog"),
                ">",
                &num(syn_backlog_default).named("kernel default"),
            ),
            upstream_keepalive: keepalive_term.as_ref().map(Formula::equals),
            open_file_cache: ofc_term.as_ref().map(Formula::equals),
            session_cache: Formula::equals_mib(&session_term),
            session_timeout: timeout_term.as_ref().map(Formula::equals),
            proxy: proxy.as_ref().map(|(_, f)| f.clone()),
            aio: Formula::comparison(&files_bytes, ">", &half_ram),
        };

        Self {
            profile,
            workers,
            clients_target,
            memory_clients,
            clients,
            client_bytes,
            idle_bytes,
            active_clients,
            slots_permille,
            worker_bytes,
            fixed_memory,
            upstream_in_flight,
            memory_budget,
            upstream_keepalive,
            worker_connections,
            open_file_cache,
            rlimit_nofile: rlimit,
            limit_nofile,
            file_max,
            file_max_default,
            backlog,
            somaxconn: backlog.max(SOMAXCONN_DEFAULT),
            syn_backlog_default,
            fastopen,
            reuseport,
            proxy: proxy.map(|(b, _)| b),
            php,
            session_cache_mib,
            session_timeout,
            aio_threads,
            idle_memory,
            peak_memory,
            formulas,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guide_machine() {
        let t = Tuning::compute(&Inputs::default());
        assert_eq!(t.workers, 4);
        assert_eq!(t.clients, 10_000);
        assert_eq!(t.worker_connections, 4096);
        assert_eq!(t.backlog, 4096);
        assert_eq!(t.session_cache_mib, 56);
        assert_eq!(t.session_timeout, Some(6720));
        assert!(t.rlimit_nofile >= 2 * t.worker_connections);
    }

    #[test]
    fn proxy_buffers_nginx_accepts() {
        for (lo, hi) in [(4, 4), (8, 8), (16, 16), (16, 32), (32, 32)] {
            for response in [1, 3, 32, 100, 1000, 100_000] {
                let header = (ByteSize::kib(lo), ByteSize::kib(hi));
                let b = ProxyBuffers::for_response(header, ByteSize::kib(response));
                assert!(b.nginx_accepts(), "{b:?}");
            }
        }
    }

    #[test]
    fn syn_backlog_matches_kernel() {
        assert_eq!(syn_backlog_default(ByteSize::gib(1)), 128);
        assert_eq!(syn_backlog_default(ByteSize::gib(8)), 512);
        assert_eq!(syn_backlog_default(ByteSize::gib(64)), 4096);
    }
}
