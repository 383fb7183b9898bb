//! German reason texts.

pub(super) const TABLE: &[(&str, &str)] = &[
    (
        "user",
        "Die Worker laufen unter dem unprivilegierten Konto des Distributionspakets.",
    ),
    (
        "worker_processes",
        "Ein Worker pro vCPU, als Zahl geschrieben: `auto` zählt die CPUs des Hosts und übersieht CPU-Limits von Containern und die Affinität.",
    ),
    (
        "worker_rlimit_nofile",
        "Offene Dateien pro Worker: mindestens doppelt so viele wie worker_connections und genug für jede Verbindung, jede zwischengespeicherte offene Datei und jeden Keepalive-Socket zum Upstream gleichzeitig.",
    ),
    (
        "pid",
        "Dort erwartet die Service-Unit der Distribution die PID-Datei.",
    ),
    (
        "error_log",
        "Auch Warnungen protokollieren: auf dieser Stufe meldet nginx erschöpfte Verbindungen und Dateilimits.",
    ),
    (
        "include.modules",
        "Die dynamischen Module laden, die die Pakete der Distribution aktivieren (darunter brotli).",
    ),
    (
        "load_module.brotli",
        "Dieses Layout hat kein Modulverzeichnis zum Einbinden: die brotli-Module werden einzeln geladen.",
    ),
    (
        "worker_connections",
        "Verbindungsplätze pro Worker: die geplanten Clients mit 50 % Reserve, plus ein Platz je Upstream-Verbindung und der Keepalive-Pool. Jeder Platz wird vorab belegt (≈0,42 KB), daher nicht überdimensioniert.",
    ),
    (
        "omit.use",
        "nginx wählt unter Linux von selbst epoll; es anzugeben ändert nichts.",
    ),
    (
        "omit.multi_accept",
        "Standardmäßig aus. Mit EPOLLEXCLUSIVE (nginx ≥ {EpollExclusive}) leert damit ein Worker die ganze Warteschlange und verteilt die Last ungleich; kein Benchmark zeigt einen Gewinn.",
    ),
    (
        "omit.header.referrer",
        "strict-origin-when-cross-origin ist das, was Browser ohne den Header ohnehin tun (Chrome 85, Firefox 87, Safari 15.2 und neuer); ihn zu senden kostete 50 Byte pro Antwort für nichts.",
    ),
    (
        "omit.header.app",
        "Das setzt die Anwendung selbst (Django, Rails, Spring Security und helmet tun es standardmäßig). nginx würde eine zweite Kopie anhängen, und bei zwei verschiedenen X-Frame-Options-Werten ignorieren Browser beide.",
    ),
    (
        "omit.listen.deferred",
        "TCP_DEFER_ACCEPT verbirgt eine Verbindung vor nginx, bis ihre ersten Daten ankommen. Hier gemessen: Mit 1000 gleichzeitig verbindenden Clients stieg die p99-Latenz von etwa 40 ms auf 60-500 ms (docs/benchmarks.md).",
    ),
    (
        "multi_accept",
        "Pro Aufwachen alle wartenden Verbindungen annehmen statt einer. Hier unbedenklich: der Worker leert nur seine eigene Warteschlange (ein Worker oder reuseport), kein Worker kann einem anderen seinen Anteil wegnehmen.",
    ),
    (
        "pcre_jit",
        "Den regulären Ausdruck der Asset-Location beim Start einmal in Maschinencode übersetzen; jede Anfrage, die kein Asset ist, wird dagegen geprüft.",
    ),
    (
        "omit.worker_cpu_affinity",
        "Festes Pinning hilft nur auf dedizierten Hosts; auf geteilten oder per Quote begrenzten VPS kann es Worker an belegte oder nicht verfügbare CPUs binden.",
    ),
    (
        "omit.accept_mutex",
        "Seit nginx {EpollExclusive} standardmäßig aus; der Kernel verteilt neue Verbindungen.",
    ),
    (
        "include.mime",
        "Die Medientypen der Distribution, damit Dateien den richtigen Content-Type bekommen.",
    ),
    (
        "default_type",
        "Unbekannte Dateitypen werden heruntergeladen statt erraten.",
    ),
    (
        "types_hash_max_size",
        "Platz für die vollständige Medientypliste ohne Warnung beim Start.",
    ),
    (
        "server_tokens",
        "Die nginx-Version nicht in Headern und Fehlerseiten verraten.",
    ),
    (
        "sendfile",
        "Dateien direkt aus dem Page Cache senden, ohne sie durch nginx zu kopieren.",
    ),
    (
        "tcp_nopush",
        "Mit sendfile Header und Dateianfang in vollen Paketen senden.",
    ),
    (
        "tcp_nodelay",
        "Das letzte kleine Paket einer Antwort auf Keepalive-Verbindungen nicht verzögern (bereits der Standard).",
    ),
    (
        "aio",
        "Die Dateien passen nicht in den Page Cache, Lesezugriffe auf die Platte würden also einen Worker blockieren; ein Thread-Pool übernimmt sie.",
    ),
    (
        "keepalive_timeout.lb",
        "Länger als das Leerlauf-Timeout des Load Balancers (60 s bei den gängigen), damit nginx nie eine Verbindung schließt, die der Balancer gerade wiederverwenden will.",
    ),
    (
        "keepalive_requests.lb",
        "Wenige, langlebige Verbindungen vom Balancer tragen jeweils viele Anfragen.",
    ),
    (
        "keepalive_timeout",
        "Lang genug für eine Seite und ihre Ressourcen, kurz genug, dass untätige Browser ihre Plätze zurückgeben.",
    ),
    (
        "keepalive_requests",
        "Anfragen pro Client-Verbindung, bevor sie erneuert wird (Standard seit nginx {KeepaliveRequests1000}, für ältere Versionen ausgeschrieben).",
    ),
    (
        "omit.client_body_buffer_size",
        "Eine statische Site empfängt kaum Request-Bodys; die voreingestellten zwei Seiten genügen.",
    ),
    (
        "client_body_buffer_size",
        "Formular- und JSON-Bodys bis 16 KiB bleiben im Speicher statt in einer temporären Datei.",
    ),
    (
        "large_client_header_buffers",
        "API-Clients senden Bearer-Token und Cookies, die über 8-KiB-Headerzeilen hinauswachsen.",
    ),
    (
        "omit.large_client_header_buffers",
        "Die Standardwerte (1k, wachsend auf 4 × 8k) passen für Browser-Anfragen.",
    ),
    (
        "omit.client_header_buffer_size",
        "Der Standard von 1k fasst die meisten Header schon; längere wandern in large_client_header_buffers.",
    ),
    (
        "access_log",
        "Logzeilen puffern: ein Schreibvorgang pro 64 KiB statt pro Anfrage. Bei einem Absturz können bis zu 5 s an Zeilen verloren gehen.",
    ),
    (
        "open_file_cache",
        "Deskriptoren häufig abgerufener Dateien pro Worker offen halten; die Einträge zählen gegen worker_rlimit_nofile.",
    ),
    (
        "open_file_cache_valid",
        "Zwischengespeicherte Dateien einmal pro Minute neu prüfen.",
    ),
    (
        "open_file_cache_min_uses",
        "Nur Dateien zwischenspeichern, die zweimal angefragt wurden, damit Einzelanfragen keine häufig genutzten Dateien verdrängen.",
    ),
    (
        "omit.open_file_cache_errors",
        "Ein zwischengespeichertes „Datei nicht gefunden“ würde nach einem Deployment, das die Datei hinzufügt, bis zu einer Minute lang 404 liefern.",
    ),
    ("gzip", "Textantworten im Betrieb komprimieren."),
    (
        "gzip_comp_level",
        "Stufe 1 komprimiert fast so gut wie 5 für einen Bruchteil der CPU; höhere Stufen machen einen ausgelasteten Server CPU-gebunden. Statische Dateien werden stattdessen vorab mit Stufe 9 komprimiert.",
    ),
    (
        "gzip_min_length",
        "Unter etwa 256 Bytes spart Komprimierung weniger, als sie kostet.",
    ),
    (
        "gzip_types",
        "Textformate, deren Komprimierung sich lohnt; text/html ist immer dabei, und es erneut aufzuführen erzeugt eine Warnung.",
    ),
    (
        "gzip_proxied",
        "Auch Anfragen komprimieren, die über einen Proxy oder ein CDN kamen (sie tragen einen Via-Header, den der Standard ablehnt).",
    ),
    (
        "gzip_vary",
        "Vary: Accept-Encoding senden, damit Caches komprimierte und unkomprimierte Kopien auseinanderhalten.",
    ),
    (
        "gzip_static",
        "Die vorkomprimierte .gz-Datei neben dem Original ausliefern, wenn es eine gibt: keine Komprimierarbeit pro Anfrage.",
    ),
    (
        "brotli",
        "Für Clients, die es akzeptieren, im Betrieb mit brotli komprimieren.",
    ),
    (
        "brotli_comp_level",
        "Stufen bis 4 kosten etwa so viel CPU wie die niedrigste gzip-Stufe und komprimieren besser; statische Dateien werden vorab mit 11 komprimiert.",
    ),
    ("brotli_types", "Dieselben Textformate wie bei gzip."),
    (
        "brotli_static",
        "Die vorkomprimierte .br-Datei ausliefern, wenn es eine gibt.",
    ),
    (
        "set_real_ip_from",
        "X-Forwarded-For nur von den Load Balancern vertrauen, damit Logs und Limits die echte Client-Adresse sehen.",
    ),
    (
        "real_ip_header",
        "Der Header, den der Load Balancer hinzufügt.",
    ),
    (
        "real_ip_recursive",
        "Jede vertrauenswürdige Adresse in der Kette überspringen, nicht nur die letzte.",
    ),
    (
        "include.sites",
        "Die daneben geschriebene Site-Datei (relativ, damit `nginx -t -c` einen erzeugten Baum als Ganzes prüft).",
    ),
    (
        "ssl_protocols",
        "Mozilla intermediate: TLS 1.2 und 1.3. Ausgeschrieben, weil ältere nginx-Versionen und Debians Standardkonfiguration noch TLS 1.0 und 1.1 aktivieren.",
    ),
    (
        "ssl_ciphers",
        "Mozilla intermediate (Richtlinie 6.0): nur AEAD-Suiten mit Forward Secrecy; kein DHE, also keine dhparam-Datei.",
    ),
    (
        "ssl_protocols.modern",
        "Mozilla modern: nur TLS 1.3; seine Cipher-Suiten brauchen keine Konfiguration.",
    ),
    (
        "ssl_prefer_server_ciphers",
        "Jede angebotene Suite ist stark, also wählen die Clients, was für sie am schnellsten ist (Mozilla).",
    ),
    (
        "ssl_ecdh_curve",
        "Mozillas Schlüsselaustauschgruppen; das Post-Quanten-Verfahren X25519MLKEM768 nur mit OpenSSL ≥ {PostQuantumKex}, da ältere Versionen die ganze Liste ablehnen würden.",
    ),
    (
        "ssl_session_cache",
        "Von allen Workern geteilt; ein MiB fasst etwa 4000 Sitzungen, vier pro geplantem gleichzeitigem Client.",
    ),
    (
        "ssl_session_timeout",
        "Wiederkehrende Besucher setzen Sitzungen einen Tag lang fort (Mozilla) und sparen den vollständigen Handshake.",
    ),
    (
        "omit.ssl_session_tickets",
        "nginx ≥ {TicketKeyRotation} rotiert die Ticket-Schlüssel selbst, wenn ein geteilter Sitzungscache gesetzt ist; Tickets abzuschalten kostet nur Wiederaufnahmen.",
    ),
    (
        "ssl_session_tickets",
        "Vor nginx {TicketKeyRotation} rotieren Ticket-Schlüssel nie, was Forward Secrecy aushebelt (Mozilla).",
    ),
    (
        "ssl_buffer_size",
        "Kleinere TLS-Records liefern die ersten Bytes dynamischer Antworten früher.",
    ),
    ("upstream.server", "Ein Anwendungsserver."),
    (
        "keepalive",
        "Untätige Verbindungen zur Anwendung, die pro Worker offen bleiben, damit Anfragen den TCP-Handshake sparen und die ephemeren Ports nicht erschöpfen.",
    ),
    (
        "proxy_pass",
        "Die Anfrage an die Anwendungsserver des upstream-Blocks übergeben.",
    ),
    (
        "proxy_http_version",
        "Upstream-Keepalive braucht vor nginx {UpstreamKeepaliveByDefault} HTTP/1.1.",
    ),
    (
        "proxy_set_header.connection",
        "Die Upstream-Verbindung offen halten: vor nginx {UpstreamKeepaliveByDefault} sendet nginx Connection: close.",
    ),
    (
        "proxy_set_header.host",
        "Der angefragte Hostname, wie nginx ihn geprüft hat ($http_host ließe sich fälschen).",
    ),
    (
        "proxy_set_header.real_ip",
        "Die Adresse des Clients für die Anwendung.",
    ),
    (
        "proxy_set_header.forwarded_for",
        "Die Kette der Client-Adressen.",
    ),
    (
        "proxy_set_header.forwarded_proto",
        "Ob der Client HTTPS verwendet hat, für Weiterleitungen und sichere Cookies.",
    ),
    (
        "proxy_buffer_size",
        "Platz für die Antwort-Header der Anwendung, Cookies und Token eingeschlossen, und für den Anfang des Bodys: 16k brauchte gemessen 2 % weniger CPU pro weitergeleiteter 32-KiB-Seite als 8k (docs/benchmarks.md).",
    ),
    (
        "proxy_buffers",
        "Ein typischer Antwort-Body passt in den Speicher, sodass die Upstream-Verbindung sofort frei wird, statt auf einen langsamen Client zu warten; wenige große Puffer lesen ihn in ein bis zwei Aufrufen statt in acht (gemessen schneller als 8 4k).",
    ),
    (
        "proxy_busy_buffers_size",
        "Was gerade an den Client gesendet werden darf; nginx verlangt einen Wert zwischen dem größten Puffer und allen Puffern außer einem.",
    ),
    (
        "proxy_connect_timeout",
        "Schnell auf den nächsten Anwendungsserver ausweichen, wenn einer keine Verbindungen annimmt.",
    ),
    (
        "return.catch_all",
        "Verbindungen für Hostnamen schließen, die dieser Server nicht bedient, statt Scannern die erste Site zu zeigen.",
    ),
    (
        "listen.catch_all",
        "Optionen, die für die ganze Adresse samt Port gelten, einmal am Catch-all-Server gesetzt: eine Listen-Warteschlange (backlog) für einen Ansturm von Wiederverbindungen, passend zu net.core.somaxconn; reuseport, wo gesetzt, gibt jedem Worker seine eigene Warteschlange.",
    ),
    (
        "listen.catch_all.fastopen",
        "Optionen, die für die ganze Adresse samt Port gelten, einmal am Catch-all-Server gesetzt: eine Listen-Warteschlange (backlog) für einen Ansturm von Wiederverbindungen, passend zu net.core.somaxconn; reuseport, wo gesetzt, gibt jedem Worker seine eigene Warteschlange.",
    ),
    (
        "listen.quic",
        "HTTP/3 über UDP auf demselben Port; reuseport ist für QUIC mit mehreren Workern nötig.",
    ),
    (
        "ssl_reject_handshake",
        "TLS für unbekannte Hostnamen ablehnen, ohne das Zertifikat der Site vorzuzeigen.",
    ),
    ("listen.site", "Die Site über einfaches HTTP."),
    ("server_name", "Die Namen, auf die diese Site antwortet."),
    (
        "acme.root",
        "ACME-HTTP-01-Challenges über einfaches HTTP durchlassen, damit sich Zertifikate erneuern.",
    ),
    (
        "return.https",
        "Besucher über einfaches HTTP zu HTTPS schicken; 308 behält Methode und Body bei.",
    ),
    (
        "ssl_certificate",
        "Die Zertifikatskette (der Pfad von Let's Encrypt, sofern keiner angegeben ist).",
    ),
    (
        "ssl_certificate_key",
        "Der private Schlüssel dieses Zertifikats.",
    ),
    (
        "listen.tls",
        "Die Site über HTTPS; vor nginx {Http2Directive} wird HTTP/2 hier eingeschaltet.",
    ),
    ("listen.quic.site", "Die Site über HTTP/3."),
    ("http3", "HTTP/3 auf dem QUIC-Listener ausliefern."),
    (
        "http2",
        "HTTP/2 für TLS-Clients; ab nginx {Http2Directive} schaltet diese Direktive es ein (der listen-Parameter ist veraltet).",
    ),
    (
        "ssl_stapling",
        "Die OCSP-Antwort der CA anheften (gewünscht; wirkungslos bei Zertifikaten ohne OCSP-URL, etwa denen von Let's Encrypt seit 2025).",
    ),
    (
        "ssl_stapling_verify",
        "Die angeheftete Antwort vor dem Senden prüfen.",
    ),
    (
        "resolver",
        "Stapling schlägt den OCSP-Responder nach; dies ist der lokale Stub von systemd-resolved.",
    ),
    (
        "omit.ssl_stapling",
        "Let's Encrypt hat OCSP 2025 eingestellt; Stapling seiner Zertifikate erzeugt nur eine Warnung. Mit --ocsp-stapling für CAs einschalten, die noch OCSP betreiben.",
    ),
    (
        "hsts",
        "Browser verwenden zwei Jahre lang nur HTTPS (Mozilla).",
    ),
    (
        "alt_svc",
        "Browsern mitteilen, dass HTTP/3 auf diesem Port verfügbar ist.",
    ),
    (
        "header.nosniff",
        "Browser dürfen Inhaltstypen nicht erraten. Alle Header werden auf dieser einen Ebene gesetzt, weil ein add_header in einer location sie verwerfen würde.",
    ),
    (
        "header.frame",
        "Andere Sites dürfen diese Seiten nicht einbetten (Clickjacking).",
    ),
    ("root", "Wo die Dateien der Site liegen."),
    (
        "index",
        "Die Datei, die für ein Verzeichnis ausgeliefert wird.",
    ),
    (
        "try_files",
        "Die Datei ausliefern, wenn sie existiert, sonst den Index des Verzeichnisses, sonst den Fallback.",
    ),
    (
        "expires",
        "Browser behalten Stylesheets, Skripte, Bilder und Schriften eine Woche.",
    ),
    (
        "access_log.assets",
        "Anfragen nach Ressourcen bringen dem Log wenig, kosten aber je einen Schreibvorgang.",
    ),
    (
        "net.core.somaxconn",
        "Der Kernel begrenzt jede Listen-Warteschlange auf diesen Wert; er muss mindestens dem backlog= von nginx' listen entsprechen und wird nie unter den Kernel-Standard gesetzt.",
    ),
    (
        "net.ipv4.tcp_max_syn_backlog",
        "Halboffene Verbindungen, die der Kernel hält, solange SYN-Cookies aus sind; auf den Listen-Backlog angehoben.",
    ),
    (
        "omit.net.ipv4.tcp_max_syn_backlog",
        "Der Kernel-Standard für so viel RAM deckt den Listen-Backlog bereits ab.",
    ),
    (
        "net.ipv4.tcp_fastopen",
        "TCP Fast Open auch für Server einschalten; gepaart mit fastopen= am Listen-Socket. Nur für statische Dateien, weil die Daten eines SYN wiederholt werden können.",
    ),
    (
        "omit.net.ipv4.tcp_fastopen",
        "Fast-Open-Daten können wiederholt werden, daher nur für direkt ausgelieferte statische Dateien; ohne fastopen= am Listen-Socket bewirkt das sysctl nichts.",
    ),
    (
        "net.ipv4.ip_local_port_range",
        "Mehr ephemere Ports für Verbindungen zur Anwendung, oberhalb der üblichen Dienstports, damit keiner belegt ist, bevor sein Dienst ihn bindet.",
    ),
    (
        "net.ipv4.ip_local_reserved_ports",
        "Dienstports im erweiterten Bereich (memcached, RabbitMQ, MongoDB und lokale Upstreams) bleiben für ihre Dienste frei.",
    ),
    (
        "net.ipv4.tcp_tw_reuse",
        "TIME-WAIT-Ports für neue ausgehende Verbindungen zu entfernten Anwendungsservern wiederverwenden; der Standard (2) tut das nur für Loopback.",
    ),
    (
        "omit.net.ipv4.tcp_tw_reuse.local",
        "Der Standard (2) verwendet TIME-WAIT-Ports auf Loopback, wo diese Upstreams liegen, bereits wieder.",
    ),
    (
        "omit.net.ipv4.ip_local_port_range",
        "Nur ausgehende Verbindungen nutzen ephemere Ports, und eine statische Site öffnet keine.",
    ),
    (
        "omit.net.ipv4.tcp_tw_reuse",
        "Es betrifft nur ausgehende Verbindungen, und eine statische Site öffnet keine (der Standard ist 2, nicht 0).",
    ),
    (
        "fs.file-max",
        "Die Worker zusammen dürfen mehr Dateien öffnen, als der Kernel-Standard erlaubt; angehoben, nie gesenkt.",
    ),
    (
        "omit.fs.file-max",
        "Der Kernel-Standard (RAM in KiB / 10) liegt schon über dem, was alle Worker öffnen können; eine feste Zahl könnte ihn senken.",
    ),
    (
        "udp_buffers",
        "QUIC sendet und empfängt über UDP-Socket-Puffer; größere Maxima vermeiden Verluste bei hohen Raten.",
    ),
    (
        "omit.net.core.netdev_max_backlog",
        "Nur anheben, wenn die zweite Spalte von /proc/net/softnet_stat (Verluste) wächst; der Standard passt zu den Netzraten eines VPS.",
    ),
    (
        "LimitNOFILE",
        "Das Dateilimit des Dienstes, mindestens worker_rlimit_nofile; nie unter dem Standard-Hardlimit von systemd, das ein kleinerer Wert senken würde.",
    ),
    (
        "return.misdirected",
        "Ein Browser kann die HTTP/2-Verbindung der Site für einen anderen Hostnamen wiederverwenden; solche Anfragen landen hier und erhalten 421 Misdirected Request, sodass der Browser eine eigene Verbindung öffnet.",
    ),
    (
        "omit.try_files",
        "nginx liefert ohnehin die Datei, den Index des Verzeichnisses oder 404; try_files würde jeder Anfrage nur eine Dateiprüfung hinzufügen (gemessen 5–10 % Durchsatz bei kleinen Seiten).",
    ),
];
