//! The constants of the formulas: nginx's and the kernel's defaults, and the capacity
//! model's costs, each measured where it says so (docs/formulas.md, docs/benchmarks.md).

/// Connection slots reserved per worker for listeners, the resolver and logs.
pub const SPARE_SLOTS: u32 = 32;
/// Slots per client: clients × 3/2, so that a burst does not exhaust them.
pub const HEADROOM: (u32, u32) = (3, 2);
/// Upper bound of `worker_connections` (keeps `worker_rlimit_nofile` under `fs.nr_open`).
pub const MAX_WORKER_CONNECTIONS: u32 = 262_144;
/// Kernel `fs.nr_open` default: no process may open more files.
pub const NR_OPEN: u32 = 1_048_576;
/// systemd's default hard `LimitNOFILE` since v240; the drop-in never goes below it.
pub const SYSTEMD_HARD_NOFILE: u32 = 524_288;
/// Bytes nginx preallocates per `worker_connections` slot (connection + two events).
pub const SLOT_BYTES: u64 = 430;
/// Resident memory of a worker besides its slots: its pools, the configuration and the
/// libraries it maps (measured by `nginx-gen-bench capacity`: 4.5–6 MiB per worker with
/// the generated configuration, nginx 1.22 and OpenSSL 3.0; docs/benchmarks.md).
pub const WORKER_BYTES: u64 = 5 << 20;
/// Resident memory of the master process (measured with the workers, as above).
pub const MASTER_BYTES: u64 = 4 << 20;
/// Memory of an idle keep-alive connection: its pool and header buffer (measured: 0.5–0.8
/// KiB per connection with 2,500–10,000 idle).
pub const IDLE_BYTES: u64 = 800;
/// Extra memory of an idle TLS connection: OpenSSL's state, its record buffers released
/// while idle (measured: 14.5–20 KiB, OpenSSL 3.0, RSA 2048, TLS 1.3).
pub const TLS_IDLE_BYTES: u64 = 19 * 1024;
/// Extra memory of a connection while it transfers a file: request pool, header and
/// output buffers (measured: 9 KiB per download in all).
pub const ACTIVE_BYTES: u64 = 8 * 1024;
/// Extra memory of a TLS connection while it transfers: OpenSSL's read and write record
/// buffers and nginx's `ssl_buffer_size` chain (measured: 104 KiB per TLS download in all).
pub const TLS_ACTIVE_BYTES: u64 = 76 * 1024;
/// zlib's state per response gzipped on the fly: the 8 KiB + 16 B + 2^(15+2) + 2^(8+9)
/// bytes `ngx_http_gzip_filter_module` allocates at the default `gzip_window` and `gzip_hash`.
pub const GZIP_STATE_BYTES: u64 = 8192 + 16 + (1 << 17) + (1 << 17);
/// The brotli encoder's state per response compressed on the fly at quality 3: a 512 KiB
/// window (`brotli_window`'s default), its hash table and command buffers.
pub const BROTLI_STATE_BYTES: u64 = 1 << 20;
/// Share of the connections a server holds that transfer at any one moment, in
/// thousandths; the rest wait idle between requests and page loads.
pub const ACTIVE_PERMILLE: u32 = 100;
/// Requests a client keeps in flight over one HTTP/2 or HTTP/3 connection: the six a
/// browser sends in parallel over HTTP/1.1 connections to one host.
pub const STREAMS_IN_FLIGHT: u32 = 6;
/// QUIC streams of an HTTP/3 connection besides its requests (control, QPACK encoder and
/// decoder, each way); nginx gives every QUIC stream a connection slot.
pub const QUIC_CONTROL_STREAMS: u32 = 6;
/// Idle upstream connections all workers together keep open: `keepalive` is per worker,
/// so 128 workers × 512 would hold 65,536 sockets to one address, more than its ports.
pub const KEEPALIVE_POOL_MAX: u32 = 4096;
/// The largest `proxy_buffers` count: 8 × 32k = 256 KiB of a response in memory; the
/// rest of a larger one goes through a temporary file.
pub const MAX_PROXY_BUFFERS: u32 = 8;
/// Upstream connections to one address that one local address can open at once: the
/// ephemeral ports of the widened range (10240–65535).
pub const EPHEMERAL_PORTS: u32 = 65_536 - 10_240;
/// Memory per cached open file (cache entry + kernel `struct file`).
pub const OPEN_FILE_BYTES: u64 = 1200;
/// Kernel default of `net.core.somaxconn` since Linux 5.4.
pub const SOMAXCONN_DEFAULT: u32 = 4096;
/// Pending TCP Fast Open requests per listener.
pub const FASTOPEN_QUEUE: u32 = 256;
/// Sessions one MiB of `ssl_session_cache` holds (nginx's documentation: about 4000).
pub const SESSIONS_PER_MIB: u32 = 4000;
/// At the peak, each concurrent client starts a new TLS session this often (a visit).
pub const VISIT_SECONDS: u32 = 300;
/// Peak new connections per second, as a share of concurrent clients: everyone
/// reconnecting within two seconds (a reload, a failover, a link flap).
pub const RECONNECT_STORM_SECONDS: u32 = 2;
/// Listen queue: how long a burst may wait for `accept()`, in milliseconds.
pub const ACCEPT_WAIT_MS: u32 = 200;
