//! Dutch reason texts.

pub(super) const TABLE: &[(&str, &str)] = &[
    (
        "user",
        "Workers draaien onder het onbevoorrechte account van het pakket van de distributie.",
    ),
    (
        "worker_processes",
        "Eén worker per vCPU, als getal geschreven: `auto` telt de CPU's van de host en negeert CPU-limieten van containers en affiniteit.",
    ),
    (
        "worker_rlimit_nofile",
        "Open bestanden per worker: minstens twee keer worker_connections, en genoeg voor elke verbinding, elk gecachet open bestand en elke keepalive-socket naar de upstream tegelijk.",
    ),
    (
        "pid",
        "Waar de service-unit van de distributie het pid-bestand verwacht.",
    ),
    (
        "error_log",
        "Ook waarschuwingen loggen: op dit niveau meldt nginx uitgeputte verbindingen en bestandslimieten.",
    ),
    (
        "include.modules",
        "De dynamische modules laden die de pakketten van de distributie inschakelen (waaronder brotli).",
    ),
    (
        "load_module.brotli",
        "Deze indeling heeft geen modulemap om in te voegen: de brotli-modules worden bij naam geladen.",
    ),
    (
        "worker_connections",
        "Verbindingsplaatsen per worker: de geplande clients met 50% marge, plus een plaats per upstream-verbinding en de keepalive-pool. Elke plaats wordt vooraf toegewezen (≈0,42 KB), dus niet overgedimensioneerd.",
    ),
    (
        "omit.use",
        "nginx kiest op Linux zelf epoll; het noemen verandert niets.",
    ),
    (
        "omit.multi_accept",
        "Standaard uit. Met EPOLLEXCLUSIVE (nginx ≥ {EpollExclusive}) laat het één worker de hele wachtrij leegmaken en verdeelt het de last ongelijk; geen benchmark toont winst.",
    ),
    (
        "omit.header.referrer",
        "strict-origin-when-cross-origin is wat browsers zonder de header al doen (Chrome 85, Firefox 87, Safari 15.2 en nieuwer); hem sturen zou elk antwoord 50 bytes groter maken voor niets.",
    ),
    (
        "omit.header.app",
        "De applicatie zet deze zelf (Django, Rails, Spring Security en helmet doen dat standaard). nginx zou een tweede kopie toevoegen, en bij twee verschillende X-Frame-Options-waarden negeren browsers beide.",
    ),
    (
        "omit.listen.deferred",
        "TCP_DEFER_ACCEPT verbergt een verbinding voor nginx tot de eerste data binnen is. Hier gemeten: met 1000 clients die tegelijk verbinden steeg de p99-latentie van ongeveer 40 ms naar 60-500 ms (docs/benchmarks.md).",
    ),
    (
        "multi_accept",
        "Bij elke wekker alle wachtende verbindingen accepteren in plaats van één. Hier veilig: de worker leegt alleen zijn eigen wachtrij (één worker, of reuseport), dus geen worker kan het deel van een ander nemen.",
    ),
    (
        "pcre_jit",
        "De reguliere expressie van de asset-location bij het starten één keer naar machinecode compileren; elk verzoek dat geen asset is, wordt ermee vergeleken.",
    ),
    (
        "omit.worker_cpu_affinity",
        "Vastpinnen helpt alleen op dedicated hosts; op gedeelde of door quota beperkte VPS kan het workers aan drukke of onbeschikbare CPU's binden.",
    ),
    (
        "omit.accept_mutex",
        "Standaard uit sinds nginx {EpollExclusive}; de kernel verdeelt nieuwe verbindingen.",
    ),
    (
        "include.mime",
        "De mediatypen van de distributie, zodat bestanden het juiste Content-Type krijgen.",
    ),
    (
        "default_type",
        "Onbekende bestandstypen worden gedownload in plaats van geraden.",
    ),
    (
        "types_hash_max_size",
        "Ruimte voor de volledige lijst mediatypen zonder waarschuwing bij het opstarten.",
    ),
    (
        "server_tokens",
        "De nginx-versie niet vermelden in headers en foutpagina's.",
    ),
    (
        "sendfile",
        "Bestanden uit de page cache versturen zonder ze door nginx te kopiëren.",
    ),
    (
        "tcp_nopush",
        "Met sendfile de headers en het begin van het bestand in volle pakketten versturen.",
    ),
    (
        "tcp_nodelay",
        "Het laatste kleine pakket van een antwoord op keepalive-verbindingen niet uitstellen (al de standaard).",
    ),
    (
        "aio",
        "De bestanden passen niet in de page cache, dus lezen van schijf zou een worker blokkeren; een threadpool neemt het over.",
    ),
    (
        "keepalive_timeout.lb",
        "Langer dan de idle-timeout van de load balancer (60 s bij de gangbare), zodat nginx nooit een verbinding sluit die de balancer net wil hergebruiken.",
    ),
    (
        "keepalive_requests.lb",
        "Weinig, langlevende verbindingen van de balancer dragen elk veel verzoeken.",
    ),
    (
        "keepalive_timeout",
        "Lang genoeg voor een pagina en haar bestanden, kort genoeg dat inactieve browsers hun plaatsen teruggeven.",
    ),
    (
        "keepalive_requests",
        "Verzoeken per clientverbinding voordat die wordt vernieuwd (de standaard sinds nginx {KeepaliveRequests1000}, uitgeschreven voor oudere versies).",
    ),
    (
        "omit.client_body_buffer_size",
        "Een statische site ontvangt bijna geen request bodies; de standaard twee pagina's volstaan.",
    ),
    (
        "client_body_buffer_size",
        "Formulier- en JSON-bodies tot 16 KiB blijven in het geheugen in plaats van in een tijdelijk bestand.",
    ),
    (
        "large_client_header_buffers",
        "API-clients sturen bearer-tokens en cookies die groter worden dan headerregels van 8 KiB.",
    ),
    (
        "omit.large_client_header_buffers",
        "De standaardwaarden (1k, groeiend tot 4 × 8k) passen bij browserverzoeken.",
    ),
    (
        "omit.client_header_buffer_size",
        "De standaard 1k past al voor de meeste headers; langere gaan naar large_client_header_buffers.",
    ),
    (
        "access_log",
        "Logregels bufferen: één schrijfactie per 64 KiB in plaats van één per verzoek. Bij een crash kan tot 5 s aan regels verloren gaan.",
    ),
    (
        "open_file_cache",
        "Descriptors van veelgevraagde bestanden per worker open houden; de items tellen mee voor worker_rlimit_nofile.",
    ),
    (
        "open_file_cache_valid",
        "Gecachete bestanden eens per minuut opnieuw controleren.",
    ),
    (
        "open_file_cache_min_uses",
        "Alleen bestanden cachen die twee keer zijn opgevraagd, zodat eenmalige verzoeken geen populaire bestanden verdringen.",
    ),
    (
        "omit.open_file_cache_errors",
        "Een gecachet 'bestand niet gevonden' zou tot een minuut na een deploy die het bestand toevoegt nog 404 geven.",
    ),
    ("gzip", "Tekstantwoorden direct comprimeren."),
    (
        "gzip_comp_level",
        "Niveau 1 comprimeert bijna even goed als 5 voor een fractie van de CPU; hogere niveaus maken een drukke server CPU-gebonden. Statische bestanden worden in plaats daarvan vooraf op niveau 9 gecomprimeerd.",
    ),
    (
        "gzip_min_length",
        "Onder ongeveer 256 bytes levert compressie minder op dan ze kost.",
    ),
    (
        "gzip_types",
        "Tekstformaten die het comprimeren waard zijn; text/html is altijd inbegrepen en het opnieuw noemen geeft een waarschuwing.",
    ),
    (
        "gzip_proxied",
        "Ook comprimeren voor verzoeken die via een proxy of CDN kwamen (ze dragen een Via-header, die de standaard weigert).",
    ),
    (
        "gzip_vary",
        "Vary: Accept-Encoding sturen, zodat caches gecomprimeerde en gewone kopieën uit elkaar houden.",
    ),
    (
        "gzip_static",
        "Het vooraf gecomprimeerde .gz-bestand naast het origineel serveren als het er is: geen compressiewerk per verzoek.",
    ),
    (
        "brotli",
        "Direct comprimeren met brotli voor clients die het accepteren.",
    ),
    (
        "brotli_comp_level",
        "Niveaus tot 4 kosten ongeveer evenveel CPU als het laagste gzip-niveau en comprimeren beter; statische bestanden worden vooraf op 11 gecomprimeerd.",
    ),
    ("brotli_types", "Dezelfde tekstformaten als bij gzip."),
    (
        "brotli_static",
        "Het vooraf gecomprimeerde .br-bestand serveren als het er is.",
    ),
    (
        "set_real_ip_from",
        "X-Forwarded-For alleen vertrouwen van de load balancers, zodat logs en limieten het echte clientadres zien.",
    ),
    ("real_ip_header", "De header die de load balancer toevoegt."),
    (
        "real_ip_recursive",
        "Elk vertrouwd adres in de keten overslaan, niet alleen het laatste.",
    ),
    (
        "include.sites",
        "Het sitebestand dat hiernaast wordt geschreven (relatief, zodat `nginx -t -c` een gegenereerde boom als geheel controleert).",
    ),
    (
        "ssl_protocols",
        "Mozilla intermediate: TLS 1.2 en 1.3. Uitgeschreven omdat oudere nginx-versies en de standaardconfiguratie van Debian nog TLS 1.0 en 1.1 inschakelen.",
    ),
    (
        "ssl_ciphers",
        "Mozilla intermediate (richtlijn 6.0): alleen AEAD-suites met forward secrecy; geen DHE, dus geen dhparam-bestand.",
    ),
    (
        "ssl_protocols.modern",
        "Mozilla modern: alleen TLS 1.3; de cipher suites daarvan hoeven niet geconfigureerd te worden.",
    ),
    (
        "ssl_prefer_server_ciphers",
        "Elke aangeboden suite is sterk, dus laat clients kiezen wat voor hen het snelst is (Mozilla).",
    ),
    (
        "ssl_ecdh_curve",
        "Mozilla's groepen voor sleuteluitwisseling; de post-quantum X25519MLKEM768 alleen met OpenSSL ≥ {PostQuantumKex}, omdat oudere versies de hele lijst zouden weigeren.",
    ),
    (
        "ssl_session_cache",
        "Gedeeld door alle workers; één MiB bevat ongeveer 4000 sessies, vier per geplande gelijktijdige client.",
    ),
    (
        "ssl_session_timeout",
        "Terugkerende bezoekers hervatten sessies een dag lang (Mozilla) en slaan een volledige handshake over.",
    ),
    (
        "omit.ssl_session_tickets",
        "nginx ≥ {TicketKeyRotation} roteert de ticketsleutels zelf als er een gedeelde sessiecache is; tickets uitzetten kost alleen hervattingen.",
    ),
    (
        "ssl_session_tickets",
        "Vóór nginx {TicketKeyRotation} roteren ticketsleutels nooit, wat forward secrecy tenietdoet (Mozilla).",
    ),
    (
        "ssl_buffer_size",
        "Kleinere TLS-records leveren de eerste bytes van dynamische antwoorden eerder.",
    ),
    ("upstream.server", "Een applicatieserver."),
    (
        "keepalive",
        "Inactieve verbindingen naar de applicatie die per worker open blijven, zodat verzoeken de TCP-handshake overslaan en de ephemere poorten niet uitputten.",
    ),
    (
        "proxy_pass",
        "Het verzoek doorgeven aan de applicatieservers van het upstream-blok.",
    ),
    (
        "proxy_http_version",
        "Upstream-keepalive heeft vóór nginx {UpstreamKeepaliveByDefault} HTTP/1.1 nodig.",
    ),
    (
        "proxy_set_header.connection",
        "De upstream-verbinding open houden: vóór nginx {UpstreamKeepaliveByDefault} stuurt nginx Connection: close.",
    ),
    (
        "proxy_set_header.host",
        "De gevraagde hostnaam, zoals nginx die heeft gecontroleerd ($http_host kan vervalst zijn).",
    ),
    (
        "proxy_set_header.real_ip",
        "Het adres van de client voor de applicatie.",
    ),
    (
        "proxy_set_header.forwarded_for",
        "De keten van clientadressen.",
    ),
    (
        "proxy_set_header.forwarded_proto",
        "Of de client HTTPS gebruikte, voor redirects en veilige cookies.",
    ),
    (
        "proxy_buffer_size",
        "Ruimte voor de antwoordheaders van de applicatie, inclusief cookies en tokens, en voor het begin van de body: 16k kostte gemeten 2% minder CPU per doorgestuurde pagina van 32 KiB dan 8k (docs/benchmarks.md).",
    ),
    (
        "proxy_buffers",
        "Een typische antwoordbody past in het geheugen, zodat de upstreamverbinding meteen vrijkomt in plaats van op een trage client te wachten; weinig grote buffers lezen hem in één of twee aanroepen in plaats van acht (gemeten sneller dan 8 4k).",
    ),
    (
        "proxy_busy_buffers_size",
        "Wat bezig mag zijn met verzenden naar de client; nginx eist een waarde tussen de grootste buffer en alle buffers op één na.",
    ),
    (
        "proxy_connect_timeout",
        "Snel overschakelen naar de volgende applicatieserver als er één geen verbindingen accepteert.",
    ),
    (
        "return.catch_all",
        "Verbindingen sluiten voor hostnamen die deze server niet bedient, in plaats van scanners de eerste site te tonen.",
    ),
    (
        "listen.catch_all",
        "Opties die voor het hele adres en de poort gelden, één keer gezet op de catch-all-server: een listen-wachtrij (backlog) berekend op een golf van herverbindingen, afgestemd op net.core.somaxconn; reuseport, waar geschreven, geeft elke worker een eigen wachtrij.",
    ),
    (
        "listen.catch_all.fastopen",
        "Opties die voor het hele adres en de poort gelden, één keer gezet op de catch-all-server: een listen-wachtrij (backlog) berekend op een golf van herverbindingen, afgestemd op net.core.somaxconn; reuseport, waar geschreven, geeft elke worker een eigen wachtrij.",
    ),
    (
        "listen.quic",
        "HTTP/3 over UDP op dezelfde poort; reuseport is nodig voor QUIC met meerdere workers.",
    ),
    (
        "ssl_reject_handshake",
        "TLS weigeren voor onbekende hostnamen zonder het certificaat van de site te tonen.",
    ),
    ("listen.site", "De site over gewone HTTP."),
    ("server_name", "De namen waarop deze site antwoordt."),
    (
        "acme.root",
        "ACME HTTP-01-challenges doorlaten over gewone HTTP, zodat certificaten vernieuwd worden.",
    ),
    (
        "return.https",
        "Bezoekers over gewone HTTP naar HTTPS sturen; 308 behoudt methode en body.",
    ),
    (
        "ssl_certificate",
        "De certificaatketen (het pad van Let's Encrypt, tenzij er een is opgegeven).",
    ),
    (
        "ssl_certificate_key",
        "De privésleutel van dat certificaat.",
    ),
    (
        "listen.tls",
        "De site over HTTPS; vóór nginx {Http2Directive} wordt HTTP/2 hier ingeschakeld.",
    ),
    ("listen.quic.site", "De site over HTTP/3."),
    ("http3", "HTTP/3 serveren op de QUIC-listener."),
    (
        "http2",
        "HTTP/2 voor TLS-clients; nginx ≥ {Http2Directive} schakelt het in met deze directive (de listen-parameter is verouderd).",
    ),
    (
        "ssl_stapling",
        "Het OCSP-antwoord van de CA meesturen (gevraagd; doet niets voor certificaten zonder OCSP-URL, zoals die van Let's Encrypt sinds 2025).",
    ),
    (
        "ssl_stapling_verify",
        "Het meegestuurde antwoord controleren voordat het wordt verzonden.",
    ),
    (
        "resolver",
        "Stapling zoekt de OCSP-responder op; dit is de lokale stub van systemd-resolved.",
    ),
    (
        "omit.ssl_stapling",
        "Let's Encrypt is in 2025 met OCSP gestopt; stapling van zijn certificaten logt alleen een waarschuwing. Schakel het in met --ocsp-stapling voor CA's die nog OCSP draaien.",
    ),
    (
        "hsts",
        "Browsers gebruiken twee jaar lang alleen HTTPS (Mozilla).",
    ),
    (
        "alt_svc",
        "Browsers laten weten dat HTTP/3 op deze poort beschikbaar is.",
    ),
    (
        "header.nosniff",
        "Browsers mogen contenttypen niet raden. Alle headers worden op dit ene niveau gezet, omdat een add_header in een location ze zou laten vallen.",
    ),
    (
        "header.frame",
        "Andere sites mogen deze pagina's niet in een frame tonen (clickjacking).",
    ),
    ("root", "Waar de bestanden van de site staan."),
    ("index", "Het bestand dat voor een map wordt geserveerd."),
    (
        "try_files",
        "Het bestand serveren als het bestaat, anders de index van de map, anders de fallback.",
    ),
    (
        "expires",
        "Browsers bewaren stylesheets, scripts, afbeeldingen en lettertypen een week.",
    ),
    (
        "access_log.assets",
        "Verzoeken naar bestanden voegen weinig toe aan het log maar kosten elk een schrijfactie.",
    ),
    (
        "net.core.somaxconn",
        "De kernel begrenst elke listen-wachtrij tot deze waarde; die moet minstens de backlog= van nginx' listen zijn en wordt nooit lager gezet dan de standaard van de kernel.",
    ),
    (
        "net.ipv4.tcp_max_syn_backlog",
        "Halfopen verbindingen die de kernel bijhoudt zolang SYN-cookies uit staan; verhoogd tot de listen-backlog.",
    ),
    (
        "omit.net.ipv4.tcp_max_syn_backlog",
        "De standaard van de kernel voor zoveel RAM dekt de listen-backlog al.",
    ),
    (
        "net.ipv4.tcp_fastopen",
        "TCP Fast Open ook voor servers inschakelen; samen met fastopen= op de listen-socket. Alleen voor statische bestanden, omdat de data van een SYN herhaald kan worden.",
    ),
    (
        "omit.net.ipv4.tcp_fastopen",
        "Fast Open-data kan herhaald worden, dus het wordt alleen gebruikt voor direct geserveerde statische bestanden; zonder fastopen= op de listen-socket doet de sysctl niets.",
    ),
    (
        "net.ipv4.ip_local_port_range",
        "Meer ephemere poorten voor verbindingen naar de applicatie, beginnend boven de gebruikelijke servicepoorten zodat er geen bezet is voordat zijn service hem bindt.",
    ),
    (
        "net.ipv4.ip_local_reserved_ports",
        "Servicepoorten binnen het verbrede bereik (memcached, RabbitMQ, MongoDB en lokale upstreams) blijven vrij voor hun services.",
    ),
    (
        "net.ipv4.tcp_tw_reuse",
        "TIME-WAIT-poorten hergebruiken voor nieuwe uitgaande verbindingen naar externe applicatieservers; de standaard (2) doet dat alleen voor loopback.",
    ),
    (
        "omit.net.ipv4.tcp_tw_reuse.local",
        "De standaard (2) hergebruikt TIME-WAIT-poorten al op loopback, waar deze upstreams zijn.",
    ),
    (
        "omit.net.ipv4.ip_local_port_range",
        "Alleen uitgaande verbindingen gebruiken ephemere poorten, en een statische site opent er geen.",
    ),
    (
        "omit.net.ipv4.tcp_tw_reuse",
        "Het raakt alleen uitgaande verbindingen, en een statische site opent er geen (de standaard is 2, niet 0).",
    ),
    (
        "fs.file-max",
        "De workers samen mogen meer bestanden openen dan de standaard van de kernel toestaat; verhoogd, nooit verlaagd.",
    ),
    (
        "omit.fs.file-max",
        "De standaard van de kernel (RAM in KiB / 10) ligt al boven wat alle workers kunnen openen; een vast getal zou hem kunnen verlagen.",
    ),
    (
        "udp_buffers",
        "QUIC verstuurt en ontvangt via UDP-socketbuffers; grotere maxima voorkomen verlies bij hoge snelheden.",
    ),
    (
        "omit.net.core.netdev_max_backlog",
        "Alleen verhogen als de tweede kolom van /proc/net/softnet_stat (drops) groeit; de standaard past bij de netwerksnelheden van een VPS.",
    ),
    (
        "LimitNOFILE",
        "De bestandslimiet van de service, minstens worker_rlimit_nofile; nooit onder de standaard harde limiet van systemd, die een kleinere waarde zou verlagen.",
    ),
    (
        "return.misdirected",
        "Een browser kan de HTTP/2-verbinding van de site hergebruiken voor een andere hostnaam; zulke verzoeken komen hier terecht en krijgen 421 Misdirected Request, zodat de browser een eigen verbinding opent.",
    ),
    (
        "omit.try_files",
        "nginx levert al het bestand, de index van de map of 404; try_files zou elk verzoek alleen een extra bestandscontrole geven (gemeten 5–10% doorvoer bij kleine pagina's).",
    ),
];
